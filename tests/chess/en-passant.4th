\ En passant: only on the ply right after the double step
\   4k3/3p4/8/4P3/8/8/8/4K3 b - -

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Pawn   e5
	{setup} Black King   e8
	{setup} Black Pawn   d7
board-setup}

\ Black moves first.
{turn-order
	{turn} Black
	{turn} White
turn-order}

0 initial-castling !
