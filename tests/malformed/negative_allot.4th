\ expect: data-space-exhausted 2:12 word=ALLOT
-100000000 ALLOT
