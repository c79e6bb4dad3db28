\ Position 5: a promotion that checks, a knight among the castling squares
\   rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8
\ (Chess Programming Wiki, "Perft Results"; the brief this was written
\ from had PPPPNnPP on rank 2, a typo: with a pawn on d2 perft 1 is 34)

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Queen  d1
	{setup} White Rook   a1 h1
	{setup} White Bishop c1 c4
	{setup} White Knight b1 e2
	{setup} White Pawn   a2 b2 c2 g2 h2 d7
	{setup} Black King   f8
	{setup} Black Queen  d8
	{setup} Black Rook   a8 h8
	{setup} Black Bishop e7 c8
	{setup} Black Knight f2 b8
	{setup} Black Pawn   c6 a7 b7 f7 g7 h7
board-setup}

\ White to move; only White may castle; one ply since the last pawn move.
white-O-O white-O-O-O OR initial-castling !
1 initial-clock !
