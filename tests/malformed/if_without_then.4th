\ expect: control-flow 5:1 word=CLAMP
: CLAMP ( n -- n' )
  DUP 0< IF
    DROP 0
;
