\ =====================================================================
\  Chess -- board.4th : the board, its variables, players, directions,
\  and the tables the move words read
\ =====================================================================
\
\  8x8, a1 at the bottom left.  Position index = (8 - rank) * 8 + file:
\  a8 = 0, h8 = 7, a1 = 56, h1 = 63.  So `sq 8 /` is the row counted
\  from the top (0 = rank 8) and `sq 7 AND` the file (0 = a), and
\  `56 XOR` mirrors a square between White's side and Black's.
\
\  The board variables hold what a chess position is besides its pieces
\  (the FEN fields).  Being in the board, they are saved and restored
\  with it by $CloneBoard, perft and the engines, so every move word may
\  trust them, and they are part of the position's identity (its key)
\  for repetitions: another castling right or en-passant square makes
\  another position.  The rest is derived from the position, kept so
\  that the move words need not work it out again (the same position
\  always has the same values, so the key does not change with them).

{board
	8 8 {grid}
	{variable} castling	\ rights still held: castle-bits (pieces.4th)
	{variable} ep-square	\ the square a pawn skipped on the last ply, 0 if none
	{variable} side-to-move	\ the player whose turn it is on this board
	{clock}    halfmove-clock	\ plies since the last capture or pawn move
	{variable} in-check	\ TRUE when side-to-move's king is attacked
	{variable} men		\ pieces on the board, kings included
	2 {array}  king-square	\ ( player-index -- addr ) each king's square
	2 {array}  pinned	\ side-to-move's pinned pieces, a bit per square
	{variable} watch	\ TRUE when in check or a piece is pinned
board}

\ The halfmove clock is a {clock}: a board variable that is cloned with
\ the board but is no part of the position's identity (its key), or no
\ position would ever repeat.  a8 = 0 can never be an en-passant square
\ (those lie on ranks 3 and 6), so 0 means none.

{players
	{player} White
	{player} Black
players}

\ ---------------------------------------------------------------------
\  Directions.  The eight compass directions are absolute: the attack
\  tests look from a king outward and must mean the same squares for
\  both players.  The pawn's three directions are named from White's
\  side; for Black the symmetry turns them round, so one set of pawn
\  move words serves both.
\ ---------------------------------------------------------------------

{directions
	-1  0 {direction} n
	 0  1 {direction} e
	 1  0 {direction} s
	 0 -1 {direction} w
	-1  1 {direction} ne
	 1  1 {direction} se
	 1 -1 {direction} sw
	-1 -1 {direction} nw
	-1  0 {direction} ahead
	-1  1 {direction} ahead-east
	-1 -1 {direction} ahead-west
	 1  0 {direction} astern
	 1  1 {direction} astern-east
	 1 -1 {direction} astern-west
directions}

{symmetries
	Black {symmetry} ahead astern
	      {symmetry} ahead-east astern-east
	      {symmetry} ahead-west astern-west
symmetries}

\ ---------------------------------------------------------------------
\  The compass: the eight direction words in a table.  Directions 0-3
\  are the rook's lines, 4-7 the bishop's; `d 4 <` tells them apart.
\ ---------------------------------------------------------------------

CREATE compass-table
	' n ,  ' e ,  ' s ,  ' w ,  ' ne ,  ' se ,  ' sw ,  ' nw ,

\ compass ( d -- xt )  the direction word of direction d, 0 <= d < 8
: compass ( d -- xt )
	CELLS compass-table + @ ;

\ Row and column steps of the same eight directions, for the tables
\ below, which are built with arithmetic so that they need no `here`.
CREATE dir-rows  -1 ,  0 ,  1 ,  0 , -1 ,  1 ,  1 , -1 ,
CREATE dir-cols   0 ,  1 ,  0 , -1 ,  1 ,  1 , -1 , -1 ,

\ on-grid? ( r c -- ? )  is (row, column) on the board?
: on-grid? ( r c -- ? )
	0 8 WITHIN SWAP 0 8 WITHIN AND ;

\ ---------------------------------------------------------------------
\  line-dir: for a king square k and any square t, 1 + the direction
\  from k to t when t lies on one of k's eight lines, else 0.  It
\  answers in one lookup whether a piece stands on a line with its king
\  (and so may be pinned), and whether a pinned piece's target stays on
\  the pin line.  64 x 64 bytes, filled once at load time.
\ ---------------------------------------------------------------------

CREATE line-table  4096 ALLOT
line-table 4096 ERASE

\ line-dir ( k t -- d+1 | 0 )
: line-dir ( k t -- d+1|0 )
	SWAP 64 * + line-table + C@ ;

\ fill-line ( k d -- )  mark every square of k's ray d with d+1
: fill-line ( k d -- )
	OVER 8 / OVER CELLS dir-rows + @ +	( k d r )
	2 PICK 7 AND 2 PICK CELLS dir-cols + @ +	( k d r c )
	BEGIN 2DUP on-grid? WHILE
		2DUP SWAP 8 * +			( k d r c t )
		4 PICK 64 * + line-table +	( k d r c addr )
		3 PICK 1+ SWAP C!
		2 PICK CELLS dir-cols + @ +	\ next column
		SWAP 2 PICK CELLS dir-rows + @ + SWAP
	REPEAT
	2DROP 2DROP ;

: fill-lines ( -- )
	64 0 DO  8 0 DO  J I fill-line  LOOP  LOOP ;
fill-lines

\ ---------------------------------------------------------------------
\  knight-table: the knight's targets from each square, 8 bytes per
\  square, 255 where a jump leaves the board.  Also the squares a
\  knight attacks a king from, since the jump is symmetric.
\ ---------------------------------------------------------------------

CREATE knight-rows  -2 , -2 , -1 , -1 ,  1 ,  1 ,  2 ,  2 ,
CREATE knight-cols  -1 ,  1 , -2 ,  2 , -2 ,  2 , -1 ,  1 ,
CREATE knight-table  576 ALLOT

\ knight-squares ( sq -- addr )  sq's knight jumps, 9 bytes: how many,
\ then the squares (a counted list: `COUNT` gives addr+1 n)
: knight-squares ( sq -- addr )
	9 * knight-table + ;

\ knight-jump ( sq i -- t | -1 )  the i-th knight jump from sq
: knight-jump ( sq i -- t|-1 )
	OVER 8 / OVER CELLS knight-rows + @ +	( sq i r )
	ROT 7 AND ROT CELLS knight-cols + @ +	( r c )
	2DUP on-grid? IF SWAP 8 * + ELSE 2DROP -1 THEN ;

\ add-jump ( t addr -- )  append t to the counted list at addr
: add-jump ( t addr -- )
	DUP C@ 1+ 2DUP SWAP C!  + C! ;

: fill-knights ( -- )
	knight-table 576 ERASE
	64 0 DO  8 0 DO
		J I knight-jump  DUP 0< IF DROP ELSE J knight-squares add-jump THEN
	LOOP  LOOP ;
fill-knights

\ ---------------------------------------------------------------------
\  Castling rights, one bit each, in the board variable `castling`.
\  castle-keep holds, per square, the rights that survive a move from or
\  to that square: a king or rook that moves, or a rook captured at
\  home, ends them.
\ ---------------------------------------------------------------------

1 CONSTANT white-O-O	( -- bit )
2 CONSTANT white-O-O-O	( -- bit )
4 CONSTANT black-O-O	( -- bit )
8 CONSTANT black-O-O-O	( -- bit )
15 CONSTANT all-castling	( -- bits )

CREATE castle-table  64 CELLS ALLOT

\ castle-keep ( sq -- bits )  the rights a move touching sq leaves
: castle-keep ( sq -- bits )
	CELLS castle-table + @ ;

: fill-castle-table ( -- )
	64 0 DO  all-castling I CELLS castle-table + !  LOOP
	all-castling white-O-O-O -            a1 CELLS castle-table + !
	all-castling white-O-O -              h1 CELLS castle-table + !
	all-castling white-O-O white-O-O-O + - e1 CELLS castle-table + !
	all-castling black-O-O-O -            a8 CELLS castle-table + !
	all-castling black-O-O -              h8 CELLS castle-table + !
	all-castling black-O-O black-O-O-O + - e8 CELLS castle-table + ! ;
fill-castle-table
