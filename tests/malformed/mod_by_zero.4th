\ expect: division-by-zero 3:8 word=REMAINDER
: REMAINDER ( a b -- r )
  SWAP MOD ;
0 17 REMAINDER
