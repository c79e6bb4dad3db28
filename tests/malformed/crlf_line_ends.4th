\ expect: undefined-word 3:5
: T 1 ;
T T zork
