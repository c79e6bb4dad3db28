\ A {search-engine} that never gives way (tests/search.rs): it reports
\ the first move, then generates a list and clones the board, and loops
\ for ever without `$Yield`. It must be stopped once its time per move
\ and the grace are out, the position put back, and its report played.

LOAD ../../scripts/tictactoe/tictactoe.4th

\ stuck ( -- )  the {search-engine} word
: stuck ( -- )
	$FirstMove $MoveString BestMove!
	current-player TRUE 0 $GenerateMoves
	$CloneBoard
	$FirstMove .moveCFA EXECUTE
	BEGIN AGAIN ;

{players
	{player} X {search-engine} stuck
	{player} O {random}
players}

{turn-order
	{turn} X
	{turn} O
turn-order}
