\ expect: undefined-word 3:5 word=USES
: USES
  1 NOT-DEFINED-YET +
;
