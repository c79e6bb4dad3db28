\ expect: stack-underflow 3:20 word=TAKE2 trace=BETWEEN trace=CALLER
\ The same with short words the compiler inlines: the trace must still name every caller.
: TAKE2 ( a b -- ) 2DROP ;
: BETWEEN 1 TAKE2 ;
: CALLER BETWEEN ;
CALLER
