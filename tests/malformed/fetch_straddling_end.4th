\ expect: address-out-of-range 2:9 word=@
4194302 @
