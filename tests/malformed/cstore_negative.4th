\ expect: address-out-of-range 2:16 word=C!
65 -2147483648 C!
