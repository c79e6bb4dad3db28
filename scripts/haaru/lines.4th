\ =====================================================================
\  Haaru -- lines.4th : the lines of four, kept up to date move by move
\ =====================================================================
\
\  A "window" is a line of four cells in a row, across, up or along a
\  diagonal.  A player has four in a row exactly when one window holds
\  four of his stones, and five in a row, or two lines at once, fill
\  two windows: one rule covers them all.
\
\  Every window keeps how many stones of each player it holds (the
\  board's window-stones), and a stone changes only the windows through
\  its own cell -- at most 12.  So when a drop is played, stone-landed
\  (run by the move, see pieces.4th) updates those windows and nothing
\  else, and it answers at once whether the stone made a line: the end
\  of the game costs nothing to detect, in play or deep in a search.
\
\  The same counts give the evaluation, summed as the game goes
\  (balance): a window only one player has stones in is worth
\  1, 4, 16 to him for 1, 2, 3 stones -- three and an empty cell is a
\  threat -- and a window both players are in is worth nothing to
\  either.  Red's windows count plus, Yellow's minus.

\ ---------------------------------------------------------------------
\  The tables, built once when the file loads: the cells of each
\  window, and for each cell the windows through it.
\ ---------------------------------------------------------------------

12 CONSTANT #max-through	( -- n )  \ windows through one cell, at most

#windows 4 * [] window-cells			\ 4 positions per window
#cells #max-through 1+ * [] windows-through	\ per cell: a count, then the windows
VARIABLE windows-listed

\ window-cell ( w k -- addr )  the k-th cell of window w
: window-cell ( w k -- addr )
	SWAP 4 * + window-cells ;

\ through ( pos -- addr )  how many windows pass through pos; their
\ numbers follow in the next cells
: through ( pos -- addr )
	#max-through 1+ * windows-through ;

\ note-through ( w pos -- )  window w passes through pos
: note-through ( w pos -- )
	through DUP ++			( w addr )
	DUP @ CELLS + ! ;

\ try-window ( pos xt -- )  the four cells from pos along direction xt
\ are a window if the walk stays on the board
: try-window ( pos xt -- )
	SWAP to
	here windows-listed @ 0 window-cell !
	4 1 DO
		DUP EXECUTE 0= IF DROP UNLOOP EXIT THEN
		here windows-listed @ I window-cell !
	LOOP DROP
	4 0 DO
		windows-listed @  DUP I window-cell @  note-through
	LOOP
	windows-listed ++ ;

\ list-windows ( -- )  every window once: each is walked from its end
\ cell toward e, n, ne or se
: list-windows ( -- )
	#cells 0 DO
		I ['] e  try-window
		I ['] n  try-window
		I ['] ne try-window
		I ['] se try-window
	LOOP
	windows-listed @ #windows <> ABORT" lines.4th: the board does not have #windows windows" ;

list-windows

\ ---------------------------------------------------------------------
\  Keeping the counts: stone-landed runs when a drop is played, after
\  the stone is on its cell.
\ ---------------------------------------------------------------------

\ What a window one player alone is in is worth to him, by his stones.
CREATE window-worth  0 , 1 , 4 , 16 , 0 ,

\ worth ( n -- v )
: worth ( n -- v )
	CELLS window-worth + @ ;

\ stones-of ( w i -- addr )  the stones of the player of index i (0 =
\ Red, 1 = Yellow) in window w
: stones-of ( w i -- addr )
	SWAP 2* + window-stones ;

\ side-sign ( i -- +1|-1 )  Red's gains count plus, Yellow's minus
: side-sign ( i -- n )
	2* 1 SWAP - ;

\ gain ( v i -- )  the player of index i gains v
: gain ( v i -- )
	side-sign * balance +! ;

\ add-stone ( w i player -- )  a stone of player (index i) enters window w
: add-stone ( w i player -- )
	>R
	2DUP 1 XOR stones-of C@		( w i theirs )
	2 PICK 2 PICK stones-of C@	( w i theirs mine )
	DUP 0= 3 PICK AND IF		\ Yellow's first stone in this window:
		red-blocked ++		\ one line fewer Red could still make
	THEN
	OVER 0= IF			\ his window alone: it grows
		NIP DUP 1+ worth OVER worth -	( w i mine v )
		2 PICK gain
		3 = IF R@ winner ! THEN	\ the fourth stone: a line
	ELSE
		DUP 0= IF		\ the opponent's window, now dead to him
			DROP worth OVER gain
		ELSE
			2DROP		\ dead already: no change
		THEN
	THEN
	stones-of DUP C@ 1+ SWAP C!
	R> DROP ;

\ stone-landed ( pos -- )  a stone has just landed on pos
: stone-landed ( pos -- )
	stones ++
	DUP player-at DUP player-index SWAP	( pos i player )
	ROT through DUP @			( i player addr n )
	0 ?DO
		CELL+ DUP @			( i player addr w )
		3 PICK 3 PICK add-stone
	LOOP
	DROP 2DROP ;

\ red-shut-out? ( -- ? )  has every window a Yellow stone?  Then Red can
\ never make a line, and Yellow wins: by a line, or when the board fills.
: red-shut-out? ( -- ? )
	red-blocked @ #windows = ;

\ count-stones ( -- )  build the counts of a board set up from scratch
\ (a {board-setup} with stones on it): every stone lands once more
: count-stones ( -- )
	#cells 0 DO
		I not-empty-at? IF I stone-landed THEN
	LOOP ;
