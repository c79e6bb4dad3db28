\ Castling: never out of check
\   4k3/8/8/8/8/8/4r3/R3K2R w KQ -
\ The rook on e2 checks the king: no castling either way.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Rook   a1 h1
	{setup} Black King   e8
	{setup} Black Rook   e2
board-setup}

white-O-O white-O-O-O OR initial-castling !
