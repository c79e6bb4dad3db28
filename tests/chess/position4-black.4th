\ Position 4 mirrored, Black to move (same perft counts as position 4)
\   r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1
\ (Chess Programming Wiki, "Perft Results")

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   e1
	{setup} White Queen  a6
	{setup} White Rook   a1 h1
	{setup} White Bishop b3 g3
	{setup} White Knight f3 a4
	{setup} White Pawn   b2 c2 d2 f2 g2 h2 b7
	{setup} Black King   g8
	{setup} Black Queen  d8
	{setup} Black Rook   a8 f8
	{setup} Black Bishop a5 b5
	{setup} Black Knight h3 f6
	{setup} Black Pawn   a2 b4 c5 e5 a7 d7 g7 h7
board-setup}

\ Black to move first; only White may castle.
{turn-order
	{turn} Black
	{turn} White
turn-order}
white-O-O white-O-O-O OR initial-castling !
