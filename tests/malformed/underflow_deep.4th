\ expect: stack-underflow 4:5 word=ADD3 trace=MIDDLE trace=OUTER trace=TOP
\ Underflow three calls deep; each caller appears in the trace.
: ADD3 ( a b c -- n )
  + + ;
: MIDDLE 0 IF THEN 1 2 ADD3 ;
: OUTER 0 IF THEN MIDDLE 10 * ;
: TOP 0 IF THEN OUTER . ;
TOP
