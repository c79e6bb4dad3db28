\ expect: not-an-xt 2:4 word=EXECUTE
-1 EXECUTE
