\ =====================================================================
\  Othello -- random.4th : both players play at random
\ =====================================================================
\
\  LOADs the complete game, then declares {players and {turn-order
\  again; the latest declaration wins, so both colours are now played by
\  the {random} engine.  Everything else -- board, setup, forced passes,
\  the end of the game -- comes from othello.4th.

LOAD othello.4th

{players
	{player} Black {random}
	{player} White {random}
players}

{turn-order
	{turn} Black
	{turn} White
turn-order}

\ OnNewGame ( -- )  runs once after the setup: seed the random numbers
\ (reproducible under --seed).
: OnNewGame ( -- )
	RANDOMIZE ;
