\ A {search-engine} that never gives way and never reports a move
\ (tests/search.rs): stopped after its time and the grace, it has no
\ move to play, and its game ends in an error that says why.

LOAD ../../scripts/tictactoe/tictactoe.4th

\ mute ( -- )  the {search-engine} word
: mute ( -- )  BEGIN AGAIN ;

{players
	{player} X {search-engine} mute
	{player} O {random}
players}

{turn-order
	{turn} X
	{turn} O
turn-order}
