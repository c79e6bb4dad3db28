\ =====================================================================
\  Othello -- board.4th : the 8x8 board and its eight directions
\ =====================================================================
\
\  Files:
\    board.4th    this file: the grid, the directions, a direction table
\    pieces.4th   the Disc and its drop move word, which flips discs
\    othello.4th  the game you load: players, setup, passing, game end,
\                 evaluation
\    random.4th   variant: both players use the {random} engine
\
\  `8 8 {grid}` makes the squares a1 .. h8, a1 at the bottom left and
\  h8 at the top right, as on a chess board.  Position index =
\  (8 - row) * 8 + (column - 'a'):  a8 = 0, h8 = 7, a1 = 56, h1 = 63.

{board
	8 8 {grid}
board}

64 CONSTANT #squares	( -- n )  \ positions 0 .. 63, all of them grid squares

\ ---------------------------------------------------------------------
\  The eight directions.  `dr dc {direction} name`: from square (r,c)
\  to (r+dr, c+dc), r counted from the top row, so dr = -1 goes up the
\  board toward row 8, "north".  A direction word ( -- ? ) steps `here`
\  and leaves TRUE, or leaves FALSE at the edge without moving.
\ ---------------------------------------------------------------------

{directions
	-1  0 {direction} n
	-1  1 {direction} ne
	 0  1 {direction} e
	 1  1 {direction} se
	 1  0 {direction} s
	 1 -1 {direction} sw
	 0 -1 {direction} w
	-1 -1 {direction} nw
directions}

\ ---------------------------------------------------------------------
\  A compass: the execution tokens of the eight direction words, so a
\  DO loop can try them all.  `I compass EXECUTE` is the same as calling
\  the I-th direction word by name.
\ ---------------------------------------------------------------------

CREATE compass-table
	' n ,  ' ne ,  ' e ,  ' se ,  ' s ,  ' sw ,  ' w ,  ' nw ,

8 CONSTANT #directions	( -- n )

\ compass ( i -- xt )  the i-th direction word, 0 <= i < #directions
: compass ( i -- xt )
	CELLS compass-table + @ ;
