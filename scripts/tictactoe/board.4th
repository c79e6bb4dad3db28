\ =====================================================================
\  Tic-tac-toe -- board.4th : the board, its directions, its lines
\ =====================================================================
\
\  This is the first file of the tutorial game.  The files are split the
\  way real Axiom games were split:
\
\    board.4th      -- the board, the directions,  this file
\    pieces.4th     -- the move words and the {pieces block
\    tictactoe.4th  -- the game you load: LOADs the two files above,
\                      declares the players, the turn order and the end
\                      of the game
\    random.4th     -- a variant: the same game, played by two {random}
\                      engines
\
\  Everything here is plain Forth plus the Axiom declaration blocks.
\  A block is a pair of words,  {board ... board}  ; inside, the {item}
\  words read their arguments from the stack and the name that follows.
\
\  The grid.  `3 3 {grid}` makes a board of 3 rows and 3 columns and
\  defines one constant per square, named chess style: a column letter
\  and a row number, a1 at the bottom left, c3 at the top right.  The
\  constant's value is the position's index, counted from the top left:
\
\        index = (rows - row) * columns + (column - 'a')
\
\        row 3 :   a3=0  b3=1  c3=2
\        row 2 :   a2=3  b2=4  c2=5
\        row 1 :   a1=6  b1=7  c1=8
\
\  Scripts should use the names, not the numbers.

{board
	3 3 {grid}
board}

\ ---------------------------------------------------------------------
\  Directions.  `dr dc {direction} name` links every square (r,c) to
\  (r+dr, c+dc) when that square is on the board.  r counts rows from
\  the TOP, so a negative dr goes up the board, toward row 3: "n".
\  Executing a direction word ( -- ? ) steps the current position
\  `here` along the link and leaves TRUE, or leaves FALSE and stays put
\  at the edge.
\
\  Tic-tac-toe's moves never walk the board, but every board file
\  declares its directions: evaluation code and engines use them, and
\  Othello's board.4th shows them at work.
\ ---------------------------------------------------------------------

{directions
	-1  0 {direction} n
	 1  0 {direction} s
	 0  1 {direction} e
	 0 -1 {direction} w
	-1  1 {direction} ne
	-1 -1 {direction} nw
	 1  1 {direction} se
	 1 -1 {direction} sw
directions}

\ ---------------------------------------------------------------------
\  The eight winning lines, as a plain Forth table of position
\  constants: three cells per line.  Position names are constants once
\  `board}` has run, so they can be compiled with `,` like any number.
\ ---------------------------------------------------------------------

CREATE win-lines
	a1 , b1 , c1 ,		\ the three rows
	a2 , b2 , c2 ,
	a3 , b3 , c3 ,
	a1 , a2 , a3 ,		\ the three columns
	b1 , b2 , b3 ,
	c1 , c2 , c3 ,
	a1 , b2 , c3 ,		\ the two diagonals
	a3 , b2 , c1 ,

8 CONSTANT #lines	( -- n )  \ number of lines in win-lines

\ line-squares ( i -- a b c )  the three positions of line i, 0 <= i < #lines
: line-squares ( i -- a b c )
	3 * CELLS win-lines +		( addr )
	DUP @				( addr a )
	OVER 1 CELLS + @		( addr a b )
	ROT 2 CELLS + @ ;		( a b c )
