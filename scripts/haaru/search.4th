\ =====================================================================
\  Haaru -- search.4th : an alpha-beta search written for Haaru
\ =====================================================================
\
\  Negamax with alpha-beta, like engines/alphabeta.4th, with what
\  Haaru lets a search do better:
\    - moves are tried centre first (columns c d b e a f): a central
\      stone lies on the most lines, so the best move tends to come
\      first and alpha-beta cuts the most;
\    - the end of the game and the evaluation are read from what
\      lines.4th keeps up to date, so a position at the horizon or a
\      finished one costs no move generation at all.
\
\  Settings (set them in a variant, after the LOAD):
\      haaru-depth   plies to look ahead (default 5)
\  One pass at that depth, no iterative deepening: a depth-5 search is
\  quick.  It calls $Yield at every node and stops when searching?
\  turns false; then the best move of the root moves searched in full
\  stands.

32 CONSTANT hs-max-ply
2135000000 CONSTANT hs-infinity		\ beyond every score, and NEGATE-safe

VARIABLE haaru-depth   5 haaru-depth !
VARIABLE hs-ply				\ plies from the root
VARIABLE hs-nodes
VARIABLE hs-best-move			\ the root's best move so far

\ Per ply: the window, the best score so far, and the move of each
\ column (0: the column is full).
hs-max-ply [] hs-alpha
hs-max-ply [] hs-beta
hs-max-ply [] hs-best
hs-max-ply #columns * [] hs-moves

\ The order to try the columns in: the centre first.
CREATE centre-first  2 , 3 , 1 , 4 , 0 , 5 ,

\ horizon ( -- n )  the depth to search, within the tables' reach
: horizon ( -- n )
	haaru-depth @ 1 MAX  hs-max-ply 1- MIN ;

\ column-move ( c -- addr )  where this ply keeps column c's move
: column-move ( c -- addr )
	hs-ply @ #columns * + hs-moves ;

\ sort-moves ( -- )  file the current move list by column.  The
\ generator tries the drop word cell by cell in index order, so the
\ moves come in the order of their landing cells: walk the cells, and
\ each landing cell takes the next move.
: sort-moves ( -- )
	#columns 0 DO 0 I column-move ! LOOP
	$FirstMove
	#cells 0 DO
		DUP 0= IF LEAVE THEN
		I landing? IF
			DUP I #columns MOD column-move !
			$NextMove
		THEN
	LOOP
	DROP ;

\ side-view ( v -- v' )  a score for the root's player, seen by the
\ side to move at this ply
: side-view ( v -- v' )
	hs-ply @ 1 AND IF NEGATE THEN ;

\ finished ( score -- score' )  a decided game, quicker wins first
: finished ( score -- score' )
	DUP 0> IF hs-ply @ - ELSE hs-ply @ + THEN
	side-view ;

\ to-move ( -- player )  who moves at this ply
: to-move ( -- player )
	hs-ply @ 1 AND IF next-player ELSE current-player THEN ;

\ hs-search ( alpha beta -- score )  the position at hs-ply, for the
\ side to move there
: hs-search ( alpha beta -- score )
	hs-ply @ hs-beta !  hs-ply @ hs-alpha !
	verdict DUP #UnknownScore <> IF finished EXIT THEN DROP
	hs-ply @ horizon >= IF OnEvaluate side-view EXIT THEN
	to-move FALSE 0 $GenerateMoves
	sort-moves
	hs-infinity NEGATE hs-ply @ hs-best !
	#columns 0 DO
		I CELLS centre-first + @ column-move @ ?DUP IF
			$CloneBoard  .moveCFA EXECUTE  hs-nodes ++
			hs-ply @ hs-beta @ NEGATE  hs-ply @ hs-alpha @ NEGATE
			hs-ply ++  RECURSE  hs-ply --
			NEGATE  $DeallocateBoard		( score )
			DUP hs-ply @ hs-best @ > IF DUP hs-ply @ hs-best ! THEN
			DUP hs-ply @ hs-alpha @ > IF hs-ply @ hs-alpha ! ELSE DROP THEN
			hs-ply @ hs-alpha @  hs-ply @ hs-beta @ >=
			$Yield searching? 0= OR IF LEAVE THEN
		THEN
	LOOP
	$DeallocateMoves
	hs-ply @ hs-best @ ;

\ haaru-engine ( -- )  the {search-engine} word: every root move, centre
\ first, searched haaru-depth plies deep
: haaru-engine ( -- )
	0 hs-nodes !  0 hs-ply !
	sort-moves
	$FirstMove hs-best-move !
	hs-infinity NEGATE 0 hs-best !
	#columns 0 DO
		I CELLS centre-first + @ column-move @ ?DUP IF
			DUP $MoveString CurrentMove!
			$CloneBoard  DUP .moveCFA EXECUTE  hs-nodes ++
			hs-infinity NEGATE  0 hs-best @ NEGATE
			1 hs-ply !  hs-search  0 hs-ply !
			NEGATE  $DeallocateBoard		( m score )
			searching? 0= IF 2DROP LEAVE THEN	\ unfinished: it does not count
			DUP 0 hs-best @ > IF
				0 hs-best !  hs-best-move !
				hs-best-move @ $MoveString BestMove!
			ELSE 2DROP THEN
		THEN
	LOOP
	0 hs-best @ Score!  horizon Depth!  hs-nodes @ Nodes!
	hs-best-move @ $MoveString BestMove! ;
