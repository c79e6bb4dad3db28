\ Variants for tests/reuse.rs whose words lie at the same addresses, of
\ the same length, and differ only in what `skip` answers (0 here, 1 in
\ its twin): `pick` plays the first move of the list. Native code made
\ for one must never run for the other.

LOAD ../../scripts/tictactoe/tictactoe.4th

\ skip ( -- n )  how many moves pick passes over
: skip ( -- n )  0 ;

\ pick ( -- move )  the move skip moves after the first, or the last
: pick ( -- move )
	$FirstMove  skip 0 ?DO  DUP $NextMove ?DUP IF NIP THEN  LOOP ;

\ skip-engine ( -- )  the {search-engine} word: plays what pick chose
: skip-engine ( -- )  pick $MoveString BestMove! ;

{players
	{player} X {search-engine} skip-engine
	{player} O {search-engine} skip-engine
players}

{turn-order
	{turn} X
	{turn} O
turn-order}
