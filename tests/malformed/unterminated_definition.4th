\ expect: missing-semicolon 3:3
\ The definition is never closed: the error points at its start (the name after `:`).
: SQUARE ( n -- n*n )
  DUP *

