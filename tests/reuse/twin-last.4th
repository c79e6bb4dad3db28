\ The twin of twin-first.4th (tests/reuse.rs): the same word names, but
\ `pick` walks to the last move of the list.

LOAD ../../scripts/tictactoe/tictactoe.4th

\ pick ( -- move )  the last move of the current list
: pick ( -- move )
	$FirstMove
	BEGIN  DUP $NextMove DUP  WHILE  NIP  REPEAT
	DROP ;

\ twin-engine ( -- )  the {search-engine} word: plays what pick chose
: twin-engine ( -- )  pick $MoveString BestMove! ;

{players
	{player} X {search-engine} twin-engine
	{player} O {search-engine} twin-engine
players}

{turn-order
	{turn} X
	{turn} O
turn-order}
