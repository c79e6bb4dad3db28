\ expect: address-out-of-range 3:3 word=PEEK2
: PEEK2 ( addr -- n )
  @ ;
-8 PEEK2
