\ expect: missing-semicolon 3:1
: OUTER 1 2 +
: INNER 3 ;
