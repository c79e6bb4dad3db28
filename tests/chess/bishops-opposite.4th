\ Not dead: a bishop each on squares of both colours (c1 dark, c8 light)
\   2b1k3/8/8/8/8/8/8/2B1K3 w - -
\ A mate is still possible (with help): the game goes on.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Bishop c1
	{setup} Black King   e8
	{setup} Black Bishop c8
board-setup}

0 initial-castling !
