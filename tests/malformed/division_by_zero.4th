\ expect: division-by-zero 2:28 word=AVERAGE
: AVERAGE ( sum n -- avg ) / ;
100 0 AVERAGE .
