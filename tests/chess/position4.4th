\ Position 4: promotions, castling through check, the king in check at once
\   r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1
\ (Chess Programming Wiki, "Perft Results")

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   g1
	{setup} White Queen  d1
	{setup} White Rook   a1 f1
	{setup} White Bishop a4 b4
	{setup} White Knight f3 h6
	{setup} White Pawn   a2 d2 g2 h2 c4 e4 b5 a7
	{setup} Black King   e8
	{setup} Black Queen  a3
	{setup} Black Rook   a8 h8
	{setup} Black Bishop b6 g6
	{setup} Black Knight a5 f6
	{setup} Black Pawn   b2 b7 c7 d7 f7 g7 h7
board-setup}

\ White to move; only Black may castle.
black-O-O black-O-O-O OR initial-castling !
