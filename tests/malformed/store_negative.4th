\ expect: address-out-of-range 2:7 word=!
42 -1 !
