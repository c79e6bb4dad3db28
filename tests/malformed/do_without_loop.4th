\ expect: control-flow 4:1 word=SUM
: SUM ( -- n )
  0 10 0 DO I +
;
