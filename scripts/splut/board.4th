\ =====================================================================
\  Splut! -- board.4th : the diamond, the players, the directions
\ =====================================================================
\
\  The arena is a diamond of 41 squares, rows of 1 3 5 7 9 7 5 3 1,
\  laid on a 9x9 grid.  Its four tips are e1 (South's), a5 (West),
\  e9 (North's) and i5 (East):
\
\        9 . . . . o . . . .        o  a square of the diamond
\        8 . . . o o o . . .        .  a grid square outside it:
\        7 . . o o o o o . .           never linked, never used
\        6 . o o o o o o o .
\        5 o o o o o o o o o
\        4 . o o o o o o o .
\        3 . . o o o o o . .
\        2 . . . o o o . . .
\        1 . . . . o . . . .
\          a b c d e f g h i
\
\  A square (column c, row r, both counted 1..9) is on the diamond when
\  |c-5| + |r-5| <= 4.  Position index = (9 - r) * 9 + (c - 1), so a9 is
\  0 and i1 is 80; e5, the centre, is 40.
\
\  The turn bookkeeping lives in the board ({variable}s and an {array}),
\  so that a search's $CloneBoard / $DeallocateBoard saves and restores
\  it with the pieces (see splut.4th for what each one means).

{board
	9 9 {grid}
	{variable} last-mover		\ the player who made the last step
	{variable} turn-over		\ a throw has ended that player's turn
	{variable} levitation		\ this turn: 0 none yet, i+1 rock i floats, -1 done
	{variable} moved-now		\ bit i: rock i moved during this turn
	{variable} moved-before		\ bit i: rock i moved during the turn before
	{variable} dead			\ the player whose Sorcerer was hit, or 0
	{variable} rocks		\ bit i: Rock i is on the board (see find-rocks)
	4 {array} rock-square		\ where each of the four Rocks stands
board}

\ ---------------------------------------------------------------------
\  Players.  Two teams, South (moves first) and North; the Rocks belong
\  to nobody, so two neutral players own them, as in the Axiom original:
\  West owns the Rocks that start on a5 and e1, East those on i5 and e9
\  (a half turn of the board swaps South and North, and West and East
\  with them).  Neutral players never move; any team may use any Rock.
\ ---------------------------------------------------------------------

{players
	{player}  South
	{neutral} West
	{player}  North
	{neutral} East
players}

\ ---------------------------------------------------------------------
\  Directions: the four orthogonal steps.  `{direction}` links the whole
\  grid; the links that leave the diamond are then removed, so a
\  direction word fails at the diamond's edge exactly as at the grid's
\  and no move word has to ask whether a square is on the board.
\ ---------------------------------------------------------------------

{directions
	-1  0 {direction} n
	 1  0 {direction} s
	 0  1 {direction} e
	 0 -1 {direction} w
	\ the squares of the edge, by the side they face
	{unlink} n a5  {unlink} n b6  {unlink} n c7  {unlink} n d8
	{unlink} n f8  {unlink} n g7  {unlink} n h6  {unlink} n i5
	{unlink} s a5  {unlink} s b4  {unlink} s c3  {unlink} s d2
	{unlink} s f2  {unlink} s g3  {unlink} s h4  {unlink} s i5
	{unlink} e e1  {unlink} e f2  {unlink} e g3  {unlink} e h4
	{unlink} e h6  {unlink} e g7  {unlink} e f8  {unlink} e e9
	{unlink} w e1  {unlink} w d2  {unlink} w c3  {unlink} w b4
	{unlink} w b6  {unlink} w c7  {unlink} w d8  {unlink} w e9
directions}

\ ---------------------------------------------------------------------
\  A compass of the four directions, clockwise, so that a loop can try
\  them all and the opposite of direction i is direction i+2.
\ ---------------------------------------------------------------------

CREATE compass-table
	' n ,  ' e ,  ' s ,  ' w ,

4 CONSTANT #directions	( -- n )

\ compass ( i -- xt )  the i-th direction word, 0 <= i < #directions
: compass ( i -- xt )
	CELLS compass-table + @ ;

\ opposite ( i -- j )  the direction that undoes direction i
: opposite ( i -- j )
	2 + 3 AND ;

\ The 41 squares of the diamond, row by row from the north tip, for the
\ words that look at the whole board (the rest of the grid is empty).
CREATE diamond-table
	e9 ,
	d8 , e8 , f8 ,
	c7 , d7 , e7 , f7 , g7 ,
	b6 , c6 , d6 , e6 , f6 , g6 , h6 ,
	a5 , b5 , c5 , d5 , e5 , f5 , g5 , h5 , i5 ,
	b4 , c4 , d4 , e4 , f4 , g4 , h4 ,
	c3 , d3 , e3 , f3 , g3 ,
	d2 , e2 , f2 ,
	e1 ,

41 CONSTANT #squares	( -- n )

\ square ( i -- pos )  the i-th square of the diamond, 0 <= i < #squares
: square ( i -- pos )
	CELLS diamond-table + @ ;

\ column ( pos -- c )  0..8 from a to i
: column ( pos -- c )
	9 MOD ;

\ row ( pos -- r )  0..8 from the north (row 9) to the south (row 1)
: row ( pos -- r )
	9 / ;

\ distance ( pos1 pos2 -- n )  orthogonal steps between two squares
: distance ( pos1 pos2 -- n )
	2DUP column SWAP column - ABS  -ROT row SWAP row - ABS  + ;
