\ expect: address-out-of-range 2:4 word=@
-4 @
