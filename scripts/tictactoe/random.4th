\ =====================================================================
\  Tic-tac-toe -- random.4th : both players play at random
\ =====================================================================
\
\  A variant file: it LOADs the complete game, then declares {players
\  again.  The latest declaration wins, so X and O are now played by the
\  {random} engine, which picks uniformly among the legal moves.  The
\  turn order is declared again too, the usual companion of a new
\  {players block; it is the same order as before.
\
\  This is how Axiom's AutoPlay matches are set up: one variant file per
\  engine line-up, for instance  AutoPlay tictactoe random 100 .

LOAD tictactoe.4th

{players
	{player} X {random}
	{player} O {random}
players}

{turn-order
	{turn} X
	{turn} O
turn-order}

\ OnNewGame ( -- )  runs once after the setup: seed the random numbers.
\ Under --seed the seed is fixed and games are reproducible.
: OnNewGame ( -- )
	RANDOMIZE ;
