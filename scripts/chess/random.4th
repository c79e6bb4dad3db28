\ =====================================================================
\  Chess -- random.4th : both sides play at random
\ =====================================================================
\
\  LOADs the complete game and hands both colours to the {random}
\  engine.  Random games are long: most end by the fifty-move rule, by
\  repetition or by dead material rather than by mate.

LOAD chess.4th

{players
	{player} White {random}
	{player} Black {random}
players}

{turn-order
	{turn} White
	{turn} Black
turn-order}

\ OnNewGame ( -- )  the game's own start (board variables), then seed
\ the random numbers (reproducible under --seed).
: OnNewGame ( -- )
	chess-setup  RANDOMIZE ;
