\ expect: control-flow 2:12
: OUT 1 IF LEAVE THEN ;
