\ expect: division-by-zero 2:9 word=T
: T 9 0 /MOD ; T
