\ Position 3: an endgame of checks, pins and en passant
\   8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -
\ (Chess Programming Wiki, "Perft Results")

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   a5
	{setup} White Rook   b4
	{setup} White Pawn   e2 g2 b5
	{setup} Black King   h4
	{setup} Black Rook   h5
	{setup} Black Pawn   f4 d6 c7
board-setup}

\ White to move, no castling.
0 initial-castling !
