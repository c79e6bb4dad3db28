\ =====================================================================
\  engines/multi-alphabeta.4th -- alpha-beta along the real turn order
\ =====================================================================
\
\  For games whose turns do not simply alternate: a player may move
\  several times in a row (Splut!: one, two, then three steps a turn),
\  and other players may move in between.  The search walks the game's
\  own turn order with turn-offset, next-turn-offset and
\  turn-offset-to-player, and it is paranoid: the player it moves for
\  against everyone else.  A score changes sign only where the side
\  changes between two plies (from the engine's player to another or
\  back); consecutive moves of one side keep it.  Alpha-beta prunes as
\  in two-player negamax, and a small random term (0..5) is added to
\  each root move so that equal moves vary from game to game.
\
\  Use it like engines/alphabeta.4th (LOAD it after the game, name
\  multi-alphabeta-engine with {search-engine}); the game must define
\  OnIsGameOver and OnEvaluate before the LOAD, both answering for
\  current-player, which stays the engine's player during the search.
\
\  Limits: a chance player (a `?Dice`, a `?Cleaner`) is searched as one
\  more opponent, its worst throw assumed: right when it has one move (the
\  cleaner), pessimistic with dice; the built-in engines average over its
\  moves instead (README, "Engines").  A script cannot tell a partial
\  move from another, so a chain of partial moves (draughts'
\  multi-jumps) is searched as if each step passed the turn; and OnNextTurn does not run inside the search
\  (.moveCFA EXECUTE only applies the move).
\
\  Settings:  ma-depth  plies (steps) to look ahead (default 5).

32 CONSTANT ma-max-ply
2135000000 CONSTANT ma-infinity

VARIABLE ma-depth   5 ma-depth !
VARIABLE ma-target
VARIABLE ma-ply
VARIABLE ma-nodes
VARIABLE ma-me
VARIABLE ma-root-score
VARIABLE ma-root-best
VARIABLE ma-chosen

\ Per ply: the turn offset, the window, the best so far, the move tried.
ma-max-ply [] ma-turn
ma-max-ply [] ma-alpha
ma-max-ply [] ma-beta
ma-max-ply [] ma-best
ma-max-ply [] ma-move

\ ma-ours? ( ply -- ? )  does the engine's side move at that ply?
: ma-ours? ( ply -- ? )
	ma-turn @ turn-offset-to-player ma-me @ = ;

\ ma-side-view ( v -- v' )  a score for the engine's player, seen by the
\ side to move at this ply
: ma-side-view ( v -- v' )
	ma-ply @ ma-ours? 0= IF NEGATE THEN ;

\ ma-finished ( score -- score' )  a finished game, quicker wins first
: ma-finished ( score -- score' )
	DUP 0> IF ma-ply @ - ELSE DUP 0< IF ma-ply @ + THEN THEN
	ma-side-view ;

DEFER ma-reply ( -- score )

\ ma-child ( m -- score )  play m, search on, score it for the mover
: ma-child ( m -- score )
	$CloneBoard  .moveCFA EXECUTE  ma-nodes ++
	ma-ply @ ma-turn @ next-turn-offset  ma-ply @ 1+ ma-turn !
	ma-ply @ ma-ours?  ma-ply @ 1+ ma-ours?  = IF
		\ the same side again: the same window, the same sign
		ma-ply @ ma-alpha @  ma-ply @ 1+ ma-alpha !
		ma-ply @ ma-beta @   ma-ply @ 1+ ma-beta !
		ma-ply ++  ma-reply  ma-ply --
	ELSE
		ma-ply @ ma-beta @ NEGATE   ma-ply @ 1+ ma-alpha !
		ma-ply @ ma-alpha @ NEGATE  ma-ply @ 1+ ma-beta !
		ma-ply ++  ma-reply  ma-ply --
		NEGATE
	THEN
	$DeallocateBoard ;

\ ma-search ( -- score )  the position at ma-ply, for its side to move
: ma-search ( -- score )
	ma-ply @ ma-turn @ turn-offset-to-player FALSE 0 $GenerateMoves
	OnIsGameOver DUP #UnknownScore <> IF
		ma-finished $DeallocateMoves EXIT
	THEN DROP
	ma-ply @ ma-target @ >= ma-ply @ ma-max-ply 1- >= OR IF
		$DeallocateMoves OnEvaluate ma-side-view EXIT
	THEN
	#LossScore ma-ply @ +  ma-ply @ ma-best !
	$FirstMove
	BEGIN ?DUP WHILE
		DUP ma-ply @ ma-move !
		ma-child
		DUP ma-ply @ ma-best @ > IF DUP ma-ply @ ma-best ! THEN
		DUP ma-ply @ ma-alpha @ > IF ma-ply @ ma-alpha ! ELSE DROP THEN
		ma-ply @ ma-alpha @  ma-ply @ ma-beta @ >=
		$Yield searching? 0= OR IF
			0
		ELSE
			ma-ply @ ma-move @ $NextMove
		THEN
	REPEAT
	$DeallocateMoves
	ma-ply @ ma-best @ ;

' ma-search IS ma-reply

\ ma-iteration ( -- )  every root move searched ma-target plies deep
: ma-iteration ( -- )
	ma-infinity NEGATE ma-root-score !
	$FirstMove DUP ma-root-best !
	BEGIN ?DUP WHILE
		DUP 0 ma-move !
		DUP $MoveString CurrentMove!
		0 ma-ply !
		turn-offset 0 ma-turn !
		ma-root-score @ 5 - 0 ma-alpha !	\ room for the random term
		ma-infinity 0 ma-beta !
		ma-child  0 5 $RAND-WITHIN +		( score )
		DUP ma-root-score @ > IF
			ma-root-score !  0 ma-move @ ma-root-best !
		ELSE DROP THEN
		$Yield searching? IF 0 ma-move @ $NextMove ELSE 0 THEN
	REPEAT ;

\ multi-alphabeta-engine ( -- )  the {search-engine} word
: multi-alphabeta-engine ( -- )
	current-player ma-me !
	0 ma-nodes !
	$FirstMove ma-chosen !
	ma-depth @ 1 MAX  ma-max-ply 2 - MIN  1+ 1 DO
		I ma-target !
		ma-iteration
		searching? 0= IF LEAVE THEN
		ma-root-best @ ma-chosen !
		ma-root-score @ Score!  I Depth!  ma-nodes @ Nodes!
		ma-chosen @ $MoveString BestMove!
	LOOP
	ma-chosen @ $MoveString BestMove! ;
