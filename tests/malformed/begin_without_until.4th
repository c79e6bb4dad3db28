\ expect: control-flow 2:28 word=FOREVER
: FOREVER BEGIN 1 DROP 2 . ;
