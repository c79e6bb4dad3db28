\ A pinned knight cannot move at all
\   4k3/4r3/8/8/8/8/4N3/4K3 w - -
\ By hand, White has 4 moves: the king d1 d2 f1 f2.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Knight e2
	{setup} Black King   e8
	{setup} Black Rook   e7
board-setup}

0 initial-castling !
