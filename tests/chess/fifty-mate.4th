\ The fifty-move rule gives way to a mate on the hundredth ply
\   6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80
\ Ra8 is a quiet move (the clock reaches 100) and mates.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   g1
	{setup} White Rook   a1
	{setup} Black King   g8
	{setup} Black Pawn   f7 g7 h7
board-setup}

0 initial-castling !
99 initial-clock !
