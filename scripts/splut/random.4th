\ =====================================================================
\  Splut! -- random.4th : both teams play at random
\ =====================================================================
\
\  LOADs the complete game and hands both teams to the {random} engine,
\  which picks uniformly among the legal steps.  The neutral Rock owners
\  keep no engine: they never move.

LOAD splut.4th

{players
	{player}  South {random}
	{neutral} West
	{player}  North {random}
	{neutral} East
players}

{turn-order
	{turn} South
	{turn} North
	{turn} North
	{repeat}
	{turn} South
	{turn} South
	{turn} South
	{turn} North
	{turn} North
	{turn} North
turn-order}

\ OnNewGame ( -- )  number the Rocks, then seed the random numbers
\ (reproducible under --seed)
: OnNewGame ( -- )
	splut-new-game  RANDOMIZE ;
