\ expect: negative-size 2:4 word=[]
-5 [] ARR
