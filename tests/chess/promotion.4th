\ Promotion: four moves per square, to queen, rook, bishop or knight
\   1n2k3/P7/8/8/8/8/8/4K3 w - -
\ a7-a8 and a7xb8, each to four pieces.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Pawn   a7
	{setup} Black King   e8
	{setup} Black Knight b8
board-setup}

0 initial-castling !
