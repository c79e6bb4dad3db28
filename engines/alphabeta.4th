\ =====================================================================
\  engines/alphabeta.4th -- negamax with alpha-beta, for two players
\ =====================================================================
\
\  A search engine in ForthScript for any two-player game whose turns
\  alternate.  A variant file LOADs the game, then this file, and names
\  the engine in its {players block:
\
\      LOAD mygame.4th
\      LOAD ../../engines/alphabeta.4th
\      {players  {player} White {search-engine} alphabeta-engine ... players}
\
\  What the game must give it (the AXIOM.md events):
\      OnIsGameOver ( -- score )  #UnknownScore while the game goes on
\      OnEvaluate   ( -- score )  how good the position is
\  both for `current-player`.  While the engine searches, current-player
\  stays the player it moves for (applying a move with .moveCFA EXECUTE
\  does not pass the turn), so both answer from the root's side; the
\  engine turns them round for the opponent's plies.
\
\  Limits: a script cannot tell a partial move from another, so a chain
\  of partial moves (draughts' multi-jumps) is searched as if each step
\  passed the turn; and OnNextTurn does not run inside the search
\  (.moveCFA EXECUTE only applies the move).
\
\  Settings (set them in the variant, after the LOAD):
\      ab-depth   plies to look ahead (default 4)
\  Iterative deepening: depth 1, 2, ... ab-depth; after each finished
\  iteration the engine reports its best move, score, depth and nodes.
\  It calls $Yield after every move it tries and stops when searching?
\  turns false (the time per move is up): the last finished iteration's
\  move stands.

32 CONSTANT ab-max-ply
2135000000 CONSTANT ab-infinity		\ beyond every score, and NEGATE-safe

VARIABLE ab-depth   4 ab-depth !
VARIABLE ab-target			\ depth of the iteration in progress
VARIABLE ab-ply				\ plies from the root
VARIABLE ab-nodes
VARIABLE ab-me				\ the player the engine moves for
VARIABLE ab-opponent
VARIABLE ab-root-score
VARIABLE ab-root-best			\ best move of this iteration
VARIABLE ab-chosen			\ best move of the last finished iteration

\ Per ply: the window, the best score so far, the move being tried.
ab-max-ply [] ab-alpha
ab-max-ply [] ab-beta
ab-max-ply [] ab-best
ab-max-ply [] ab-move

\ ab-side ( -- player )  who moves at this ply: the root, then in turn
: ab-side ( -- player )
	ab-ply @ 1 AND IF ab-opponent @ ELSE ab-me @ THEN ;

\ ab-side-view ( v -- v' )  a score for the root, seen by the side to move
: ab-side-view ( v -- v' )
	ab-ply @ 1 AND IF NEGATE THEN ;

\ ab-finished ( score -- score' )  a finished game, quicker wins first
: ab-finished ( score -- score' )
	DUP 0> IF ab-ply @ - ELSE DUP 0< IF ab-ply @ + THEN THEN
	ab-side-view ;

\ ab-search and ab-child call each other: the one defined first calls the
\ other through this.
DEFER ab-reply ( -- score )

\ ab-child ( m -- score )  play m, search the reply, score it for the mover
: ab-child ( m -- score )
	$CloneBoard  .moveCFA EXECUTE  ab-nodes ++
	ab-ply @ ab-beta @ NEGATE   ab-ply @ 1+ ab-alpha !	\ window (-beta, -alpha)
	ab-ply @ ab-alpha @ NEGATE  ab-ply @ 1+ ab-beta !
	ab-ply ++  ab-reply  ab-ply --
	NEGATE  $DeallocateBoard ;

\ ab-search ( -- score )  the position at ab-ply, for its side to move
: ab-search ( -- score )
	ab-side FALSE 0 $GenerateMoves
	OnIsGameOver DUP #UnknownScore <> IF
		ab-finished $DeallocateMoves EXIT
	THEN DROP
	ab-ply @ ab-target @ >= ab-ply @ ab-max-ply 1- >= OR IF
		$DeallocateMoves OnEvaluate ab-side-view EXIT
	THEN
	#LossScore ab-ply @ +  ab-ply @ ab-best !	\ no move: lost
	$FirstMove
	BEGIN ?DUP WHILE
		DUP ab-ply @ ab-move !
		ab-child					( score )
		DUP ab-ply @ ab-best @ > IF DUP ab-ply @ ab-best ! THEN
		DUP ab-ply @ ab-alpha @ > IF ab-ply @ ab-alpha ! ELSE DROP THEN
		ab-ply @ ab-alpha @  ab-ply @ ab-beta @ >=	( cutoff? )
		$Yield searching? 0= OR IF
			0
		ELSE
			ab-ply @ ab-move @ $NextMove
		THEN
	REPEAT
	$DeallocateMoves
	ab-ply @ ab-best @ ;

' ab-search IS ab-reply

\ ab-iteration ( -- )  every root move searched ab-target plies deep
: ab-iteration ( -- )
	ab-infinity NEGATE ab-root-score !
	$FirstMove DUP ab-root-best !
	BEGIN ?DUP WHILE
		DUP 0 ab-move !
		DUP $MoveString CurrentMove!
		0 ab-ply !
		ab-root-score @ 0 ab-alpha !			\ the root's window
		ab-infinity 0 ab-beta !
		ab-child					( score )
		DUP ab-root-score @ > IF
			ab-root-score !  0 ab-move @ ab-root-best !
		ELSE DROP THEN
		$Yield searching? IF 0 ab-move @ $NextMove ELSE 0 THEN
	REPEAT ;

\ alphabeta-engine ( -- )  the {search-engine} word
: alphabeta-engine ( -- )
	current-player ab-me !  next-player ab-opponent !
	0 ab-nodes !
	$FirstMove ab-chosen !
	ab-depth @ 1 MAX  ab-max-ply 2 - MIN  1+ 1 DO
		I ab-target !
		ab-iteration
		searching? 0= IF LEAVE THEN		\ unfinished: it does not count
		ab-root-best @ ab-chosen !
		ab-root-score @ Score!  I Depth!  ab-nodes @ Nodes!
		ab-chosen @ $MoveString BestMove!
	LOOP
	ab-chosen @ $MoveString BestMove! ;
