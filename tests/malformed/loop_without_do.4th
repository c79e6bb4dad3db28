\ expect: control-flow 3:8
: COUNTDOWN
  10 . LOOP
;
