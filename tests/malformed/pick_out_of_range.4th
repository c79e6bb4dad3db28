\ expect: stack-underflow 2:7 word=PICK
1 2 5 PICK
