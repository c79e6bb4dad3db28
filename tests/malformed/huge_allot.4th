\ expect: data-space-exhausted 2:11 word=ALLOT
100000000 ALLOT
