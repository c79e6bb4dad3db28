\ English draughts -- random.4th : both players play at random
LOAD draughts.4th

{players
	{player} Black {random}
	{player} White {random}
players}

{turn-order
	{turn} Black
	{turn} White
turn-order}

: OnNewGame ( -- )
	-1 chain-square !  RANDOMIZE ;
