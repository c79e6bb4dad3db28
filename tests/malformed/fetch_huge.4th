\ expect: address-out-of-range 3:14 word=PEEK
: PEEK ( -- n )
  2147483000 @ ;
PEEK
