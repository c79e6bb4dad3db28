\ En passant that would uncover the king along the rank is illegal
\   8/8/8/KPp4r/8/8/8/4k3 w - c6
\ Black has just played c7-c5.  bxc6 e.p. would take both pawns off the
\ fifth rank and let the rook on h5 see the king on a5.  By hand, White
\ has 4 moves: Ka4 Ka6 Kb6 (b4 is the c5 pawn's) and b6.

LOAD ../../scripts/chess/chess.4th

{board-setup
	{setup} White King   a5
	{setup} White Pawn   b5
	{setup} Black King   e1
	{setup} Black Rook   h5
	{setup} Black Pawn   c5
board-setup}

0 initial-castling !
c6 initial-ep !
