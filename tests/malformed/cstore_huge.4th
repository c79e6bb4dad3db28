\ expect: address-out-of-range 2:20 word=POKEC
: POKEC 65 4194304 C! ; POKEC
