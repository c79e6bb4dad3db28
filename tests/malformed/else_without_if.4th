\ expect: control-flow 2:17
: BROKEN DUP 0= ELSE DROP THEN ;
