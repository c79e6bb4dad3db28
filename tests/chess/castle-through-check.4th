\ Castling: the king may not pass over an attacked square
\   4kr2/8/8/8/8/8/8/R3K2R w KQ -
\ The rook on f8 attacks f1: no O-O; O-O-O is allowed.  By hand, White
\ has 23 moves: Ra1 10, Rh1 9, the king d1 d2 e2, and O-O-O.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Rook   a1 h1
	{setup} Black King   e8
	{setup} Black Rook   f8
board-setup}

white-O-O white-O-O-O OR initial-castling !
