\ Dead material: a bishop each, both on dark squares (c1, f8)
\   4kb2/8/8/8/8/8/8/2B1K3 w - -

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Bishop c1
	{setup} Black King   e8
	{setup} Black Bishop f8
board-setup}

0 initial-castling !
