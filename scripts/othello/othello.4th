\ =====================================================================
\  Othello -- othello.4th : the game  (load this file)
\ =====================================================================
\
\  The rules.  An 8x8 board; Black and White; Black moves first.  At the
\  start White has d4 and e5, Black d5 and e4.  A move places a disc of
\  your colour on an empty square so that it flanks, in at least one of
\  the eight directions, a straight unbroken run of enemy discs with
\  another disc of yours at its far end; every flanked disc turns over
\  to your colour (see pieces.4th).  A player who cannot move passes.
\  The game ends when neither player can move; most discs wins, equal
\  counts draw.
\
\  Files:
\    board.4th    8x8 {grid}, the eight directions, the compass table
\    pieces.4th   Disc, the drop move word that flips discs
\    othello.4th  this file: players, setup, passing, end, evaluation
\    random.4th   variant: both players use the {random} engine
\
\  Perft from the start, as published: 4 12 56 244 1396 8200 55092
\  390216 3005288; a forced pass counts as a ply.

LOAD board.4th
LOAD pieces.4th

\ A player with no legal placement passes: the engine gives him a single
\ Pass move.  Without this, having no move would lose the game.
$passTurnForced ON

{players
	{player} Black
	{player} White
players}

{turn-order
	{turn} Black
	{turn} White
turn-order}

{board-setup
	{setup} White Disc d4
	{setup} White Disc e5
	{setup} Black Disc d5
	{setup} Black Disc e4
board-setup}

\ ---------------------------------------------------------------------
\  The end of the game: neither player can place a disc.
\
\  When OnIsGameOver runs, the moves of the player to move are already
\  generated and are the current move list.  We count the placements in
\  it by their move type, so a forced Pass -- whether or not the engine
\  has put it in the list yet -- never counts as a real move.
\
\  If the player to move has a placement, play on.  If not, ask about
\  the opponent: `current-player TRUE 0 $GenerateMoves` pushes a move
\  list for the player after him in the turn order, all move types, and
\  makes it current; `$DeallocateMoves` pops it again.  If the opponent
\  can place, play on: the player to move will pass.  If neither can,
\  the game is over, and the disc count decides.
\ ---------------------------------------------------------------------

\ placements ( -- n )  the number of placements in the current move list
: placements ( -- n )
	0 $FirstMove			( n m )
	BEGIN  ?DUP  WHILE
		DUP .moveType @ placement = IF
			SWAP 1+ SWAP
		THEN
		$NextMove
	REPEAT ;

\ opponent-can-place? ( -- ? )  could the next player place a disc here?
: opponent-can-place? ( -- ? )
	current-player TRUE 0 $GenerateMoves
	placements 0<>
	$DeallocateMoves ;

\ final-score ( balance -- score )  the result for a disc balance
: final-score ( balance -- score )
	DUP 0> IF DROP #WinScore EXIT THEN
	0<     IF #LossScore EXIT THEN
	#DrawScore ;

\ The player to move is taken first and kept on the stack, so the count
\ is his however the nested move list sets the current player.
\ `material-balance ( player -- n )` sums the {value}s of his pieces
\ minus everyone else's: with Disc worth 1, his discs minus the
\ opponent's.
: OnIsGameOver ( -- score )
	current-player				( me )
	placements          IF DROP #UnknownScore EXIT THEN
	opponent-can-place? IF DROP #UnknownScore EXIT THEN
	material-balance final-score ;

\ ---------------------------------------------------------------------
\  Evaluation for the default search engine, from the point of view of
\  the player to move: the classic square weights.  Corners can never
\  be flipped and are worth most; the squares next to a corner give it
\  away and are worth least.  The table is symmetric, so it reads the
\  same whichever corner is index 0 (a8).
\ ---------------------------------------------------------------------

CREATE square-weights
	100 , -20 ,  10 ,   5 ,   5 ,  10 , -20 , 100 ,
	-20 , -50 ,  -2 ,  -2 ,  -2 ,  -2 , -50 , -20 ,
	 10 ,  -2 ,  -1 ,  -1 ,  -1 ,  -1 ,  -2 ,  10 ,
	  5 ,  -2 ,  -1 ,  -1 ,  -1 ,  -1 ,  -2 ,   5 ,
	  5 ,  -2 ,  -1 ,  -1 ,  -1 ,  -1 ,  -2 ,   5 ,
	 10 ,  -2 ,  -1 ,  -1 ,  -1 ,  -1 ,  -2 ,  10 ,
	-20 , -50 ,  -2 ,  -2 ,  -2 ,  -2 , -50 , -20 ,
	100 , -20 ,  10 ,   5 ,   5 ,  10 , -20 , 100 ,

\ square-weight ( pos -- w )
: square-weight ( pos -- w )
	CELLS square-weights + @ ;

\ weight-for ( pos player -- w )  +weight for his disc, -weight for the
\ opponent's, 0 for an empty square
: weight-for ( pos player -- w )
	OVER empty-at? IF 2DROP 0 EXIT THEN
	OVER player-at = IF
		square-weight
	ELSE
		square-weight NEGATE
	THEN ;

: OnEvaluate ( -- score )
	0
	#squares 0 DO
		I current-player weight-for +
	LOOP ;
