\ expect: number-out-of-range 2:1
99999999999 CONSTANT BIG
