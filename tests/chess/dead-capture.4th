\ Dead material: the knight takes the last pawn, leaving K+N v K
\   4k3/8/8/8/3p4/8/2N5/4K3 w - -
\ Before Nxd4 the game goes on; after it, a draw.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Knight c2
	{setup} Black King   e8
	{setup} Black Pawn   d4
board-setup}

0 initial-castling !
