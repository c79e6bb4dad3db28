\ Castling: b1 attacked does not stop O-O-O (the king does not cross it)
\   1r2k3/8/8/8/8/8/8/R3K2R w KQ -

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Rook   a1 h1
	{setup} Black King   e8
	{setup} Black Rook   b8
board-setup}

white-O-O white-O-O-O OR initial-castling !
