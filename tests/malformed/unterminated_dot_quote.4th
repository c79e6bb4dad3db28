\ expect: unterminated 3:5
: T 1 ;
T T ." never closed
