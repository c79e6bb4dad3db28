\ expect: stack-underflow 3:5 word=LESS5
: LESS5 ( n -- n-5 )
  5 - ;
LESS5
