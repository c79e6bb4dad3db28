\ expect: control-flow 3:11 word=BROKEN
: BROKEN
  1 2 + . THEN
;
