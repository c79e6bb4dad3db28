\ expect: address-out-of-range 2:19 word=POKE
: POKE 7 99999999 ! ; POKE
