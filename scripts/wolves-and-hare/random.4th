\ =====================================================================
\  Wolves and Hare -- random.4th : both sides play at random
\ =====================================================================
\
\  The game with both sides played by the {random} engine.  A random
\  hare usually walks into the wolves; a random pack leaves gaps.
\      axforth autoplay scripts/wolves-and-hare/engine.4th scripts/wolves-and-hare/random.4th -n 100

LOAD wolves-and-hare.4th

{players
	{player} Hares {random}
	{player} Wolves {random}
players}

{turn-order
	{turn} Hares
	{turn} Wolves
turn-order}

\ OnNewGame ( -- )  the game's own start, and seed the random numbers
\ (reproducible under --seed).
: OnNewGame ( -- )
	locate-hare  RANDOMIZE ;
