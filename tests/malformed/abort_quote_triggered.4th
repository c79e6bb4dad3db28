\ expect: abort 3:10 word=CHECK
: CHECK ( n -- )
  DUP 0< ABORT" negative value" . ;
5 CHECK -5 CHECK
