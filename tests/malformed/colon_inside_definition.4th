\ expect: undefined-word 3:3 word=OUTER
: OUTER 1 2 +
: INNER 3 ;
