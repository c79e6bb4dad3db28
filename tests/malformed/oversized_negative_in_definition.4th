\ expect: number-out-of-range 2:9 word=T
: T 1 + -2147483649 ;
