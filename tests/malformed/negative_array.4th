\ expect: data-space-exhausted 2:4 word=[]
-5 [] ARR
