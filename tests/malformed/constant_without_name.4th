\ expect: missing-name 2:3 word=CONSTANT
5 CONSTANT
