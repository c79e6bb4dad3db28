\ expect: address-out-of-range 2:4 word=TYPE
-7 TYPE
