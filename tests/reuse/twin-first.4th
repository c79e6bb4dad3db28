\ Twin variants for tests/reuse.rs: the same game, and in each the same
\ word names (`pick`, `twin-engine`) defined otherwise: this one plays
\ the first move of the list, twin-last.4th the last. Whatever native
\ code is made, each variant must play its own definitions.

LOAD ../../scripts/tictactoe/tictactoe.4th

\ pick ( -- move )  the first move of the current list
: pick ( -- move )  $FirstMove ;

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
