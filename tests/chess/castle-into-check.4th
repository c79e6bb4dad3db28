\ Castling: the king may not land on an attacked square, nor castle out of check
\   4k1r1/8/8/8/8/8/8/R3K2R w KQ -
\ The rook on g8 attacks g1: no O-O.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Rook   a1 h1
	{setup} Black King   e8
	{setup} Black Rook   g8
board-setup}

white-O-O white-O-O-O OR initial-castling !
