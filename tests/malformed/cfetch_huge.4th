\ expect: address-out-of-range 2:12 word=C@
1000000000 C@
