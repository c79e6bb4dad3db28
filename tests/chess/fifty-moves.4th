\ The fifty-move rule: 99 plies without a capture or a pawn move
\   4k3/8/8/8/8/8/7P/R3K3 w - - 99 80
\ A rook move makes it 100: a draw.  The pawn move instead resets it.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Rook   a1
	{setup} White Pawn   h2
	{setup} Black King   e8
board-setup}

0 initial-castling !
99 initial-clock !
