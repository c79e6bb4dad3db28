\ Tic-tac-toe for three: X, O and Z mark in turn; a row wins for its
\ owner.  The game's verdict is tic-tac-toe's, for the player to move: a
\ row is a loss for whoever moves next, and the engines must read it as
\ the win of the player who completed it.

LOAD ../../scripts/tictactoe/tictactoe.4th

{players
	{player} X
	{player} O
	{player} Z
players}

{turn-order
	{turn} X
	{turn} O
	{turn} Z
turn-order}
