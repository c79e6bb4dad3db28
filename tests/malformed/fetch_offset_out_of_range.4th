\ expect: address-out-of-range 2:27 word=FIELD
: FIELD ( addr -- n ) 8 + @ ;
-100 FIELD
