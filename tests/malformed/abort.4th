\ expect: abort 3:3 word=GIVE-UP
: GIVE-UP
  ABORT ;
GIVE-UP
