\ expect: control-flow 2:23
: SPIN 0 BEGIN 1+ DUP REPEAT ;
