\ =====================================================================
\  Haaru -- random.4th : both players play at random
\ =====================================================================

LOAD haaru.4th

{players
	{player} Red {random}
	{player} Yellow {random}
players}

{turn-order
	{turn} Red
	{turn} Yellow
turn-order}

\ OnNewGame ( -- )  the game's own start, and seed the random numbers
\ (reproducible under --seed).
: OnNewGame ( -- )
	count-stones  RANDOMIZE ;
