\ expect: address-out-of-range 2:12 word=PEEKC
: PEEKC -1 C@ ; PEEKC
