\ Kiwipete, by Peter McKenzie: castling, en passant, promotions, pins
\   r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -
\ (Chess Programming Wiki, "Perft Results")

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Queen  f3
	{setup} White Rook   a1 h1
	{setup} White Bishop d2 e2
	{setup} White Knight c3 e5
	{setup} White Pawn   a2 b2 c2 f2 g2 h2 e4 d5
	{setup} Black King   e8
	{setup} Black Queen  e7
	{setup} Black Rook   a8 h8
	{setup} Black Bishop a6 g7
	{setup} Black Knight b6 f6
	{setup} Black Pawn   h3 b4 e6 g6 a7 c7 d7 f7
board-setup}

\ White to move, all four castling rights: the defaults.
