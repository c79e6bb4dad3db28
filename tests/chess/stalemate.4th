\ Stalemate: Black to move has no move and is not in check
\   7k/5Q2/6K1/8/8/8/8/8 b - -

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   g6
	{setup} White Queen  f7
	{setup} Black King   h8
board-setup}

\ Black moves first.
{turn-order
	{turn} Black
	{turn} White
turn-order}

0 initial-castling !
