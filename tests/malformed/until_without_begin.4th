\ expect: control-flow 2:14
: NOPE 1 DUP UNTIL ;
