\ =====================================================================
\  Haaru -- board.4th : the upright 6x6 board, the players, directions
\ =====================================================================
\
\  Six columns, six rows, standing upright: a1 is the bottom of the
\  left column, f6 the top of the right one.  Position index = (6 -
\  row) * 6 + column, so the top row is 0 .. 5 and the bottom row,
\  where stones land first, is 30 .. 35.
\
\  The board also holds the game's bookkeeping, so that a search which
\  clones the board clones it too (lines.4th keeps it up to date):
\    winner        the player who has made a line of four, 0 until then
\    stones        how many stones are on the board (36: it is full)
\    balance       the evaluation's running sum, from Red's side
\    red-blocked   windows holding a Yellow stone (see lines.4th)
\    window-stones two bytes per window: its Red and its Yellow stones

6 CONSTANT #columns		( -- n )
36 CONSTANT #cells		( -- n )

\ #windows ( -- n )  the lines of four cells on the board ("windows"):
\ 3 in each of the 6 rows, 3 in each of the 6 columns, and along the
\ diagonals of length 4, 5, 6, 5, 4 in each slant 1+2+3+2+1 = 9:
\ 18 + 18 + 2*9 = 54.  (lines.4th counts them again as it lists them.)
54 CONSTANT #windows		( -- n )

{board
	6 6 {grid}
	{variable} winner
	{variable} stones
	{variable} balance
	{variable} red-blocked
	#windows 2 * {carray} window-stones
board}

\ Red moves first.  The second player, Yellow, is the one a full board
\ favours.
{players
	{player} Red
	{player} Yellow
players}

\ s: a stone falls that way.  e, n, ne, se: the four ways a line runs
\ (each line is walked from one end, so the opposite ways are not needed).
{directions
	 1  0 {direction} s
	 0  1 {direction} e
	-1  0 {direction} n
	-1  1 {direction} ne
	 1  1 {direction} se
directions}
