\ expect: step-limit 2:26 word=WAIT max-steps=50000
: WAIT 0 BEGIN 1+ DUP 0< UNTIL ; WAIT
