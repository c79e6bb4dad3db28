\ =====================================================================
\  Wolves and Hare -- board.4th : the board, the players, directions
\ =====================================================================
\
\  8x8, a1 at the bottom left is a dark square; every piece stands and
\  moves on the dark squares only, and a diagonal step never leaves
\  them, so the light squares need no rule of their own.
\
\  The wolves start on row 1 and move up the board ("north"); the hare
\  starts on row 8 and runs for row 1.
\
\  `hare-square` lives in the board: it is where the hare stands, so
\  the end of the game and the evaluation find the hare without looking
\  for it, and a search that clones the board keeps it right.

{board
	8 8 {grid}
	{variable} hare-square
board}

\ The hare moves first.  The player names are the sides; Hare and Wolf
\ (pieces.4th) are the pieces they move.
{players
	{player} Hares
	{player} Wolves
players}

\ The four diagonals.  Only the wolves have a "forward" (nw and ne), and
\ only one player owns wolves, so no {symmetries} are needed.
{directions
	-1 -1 {direction} nw
	-1  1 {direction} ne
	 1 -1 {direction} sw
	 1  1 {direction} se
directions}

\ goal-row? ( pos -- ? )  is pos on row 1, the wolves' starting row?
\ Row 1 is the last row in index order: a1 .. h1 are 56 .. 63.
: goal-row? ( pos -- ? )
	a1 < 0= ;
