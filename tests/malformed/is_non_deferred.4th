\ expect: not-deferred 3:8 word=IS
: NOTDEFERRED 1 ;
' DROP IS NOTDEFERRED
