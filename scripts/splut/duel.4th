\ =====================================================================
\  Splut! -- duel.4th : both teams use engines/multi-alphabeta.4th
\ =====================================================================
\
\  The paranoid alpha-beta search in ForthScript that walks the real
\  turn order, five steps deep, over the game's OnEvaluate.  Against
\  the random teams of random.4th:
\      axforth autoplay scripts/splut/duel.4th scripts/splut/random.4th -n 100 -q

LOAD splut.4th
LOAD ../../engines/multi-alphabeta.4th

5 ma-depth !

{players
	{player}  South {search-engine} multi-alphabeta-engine
	{neutral} West
	{player}  North {search-engine} multi-alphabeta-engine
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

\ OnNewGame ( -- )  number the Rocks, then seed the random term the
\ engine adds at the root (reproducible under --seed)
: OnNewGame ( -- )
	splut-new-game  RANDOMIZE ;
