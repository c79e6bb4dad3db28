\ expect: step-limit 4:9 word=SPIN max-steps=100000
\ Runs under a step budget of 100000: the loop never ends.
: SPIN ( -- )
  BEGIN AGAIN ;
SPIN
