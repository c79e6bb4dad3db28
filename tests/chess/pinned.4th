\ A pinned piece moves only along the pin line
\   4k3/4r3/8/8/8/8/4R3/4K3 w - -
\ The rook on e2 is pinned by the rook on e7.  By hand, White has 9 moves:
\ Re3 Re4 Re5 Re6 Rxe7, and the king d1 d2 f1 f2.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Rook   e2
	{setup} Black King   e8
	{setup} Black Rook   e7
board-setup}

0 initial-castling !
