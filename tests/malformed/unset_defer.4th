\ expect: unset-defer 4:3 word=PLAY
DEFER ACTION
: PLAY
  ACTION ;
PLAY
