\ Dead material: king against king
\   4k3/8/8/8/8/8/8/4K3 w - -

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} Black King   e8
board-setup}

0 initial-castling !
