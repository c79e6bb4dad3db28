\ =====================================================================
\  engines/maxn.4th -- max^n: every player maximizes its own score
\ =====================================================================
\
\  The alternative to the paranoid search of multi-alphabeta.4th for
\  games of three or four players: a position is worth a score for each
\  player, and the player to move picks the move best for itself, not
\  the move worst for one opponent.  The search walks the game's real
\  turn order (turn-offset, next-turn-offset, turn-offset-to-player).
\  With two players it is plain minimax.  It does not prune: max^n
\  admits only shallow pruning, which needs bounded scores.
\
\  Scores per player: mx-evaluate ( player -- score ), a DEFER that
\  starts as `material-balance` (the player's {value}s minus everyone
\  else's); a game sets it to its own with  ' my-score IS mx-evaluate .
\  A finished game (OnIsGameOver, for current-player, which stays the
\  engine's player during the search) is a win or loss for that player
\  and the opposite for the others.  Players are told apart by their
\  number (player / 2048), up to 8.
\
\  Limits: a chance player (a `?Dice`) is searched as a player that
\  maximizes its own score, not as the dice; the built-in engines average
\  over its moves instead (README, "Engines").  A script cannot tell a
\  partial move from another, so a chain of partial moves (draughts'
\  multi-jumps) is searched as if each step passed the turn; and OnNextTurn does not run inside the search
\  (.moveCFA EXECUTE only applies the move).
\
\  Settings:  mx-depth  plies to look ahead (default 3).

32 CONSTANT mx-max-ply
8 CONSTANT mx-players			\ score slots per ply
2135000000 CONSTANT mx-infinity

VARIABLE mx-depth   3 mx-depth !
VARIABLE mx-target
VARIABLE mx-ply
VARIABLE mx-nodes
VARIABLE mx-me
VARIABLE mx-root-best
VARIABLE mx-root-score
VARIABLE mx-chosen

DEFER mx-evaluate ( player -- score )
' material-balance IS mx-evaluate

mx-max-ply [] mx-turn
mx-max-ply [] mx-move
mx-max-ply [] mx-first?			\ no child scored yet at this ply
mx-max-ply mx-players * [] mx-scores	\ per ply, a score per player number

\ mx-slot ( ply player -- addr )  where ply's score for player lives
: mx-slot ( ply player -- addr )
	2048 / mx-players 1- AND  SWAP mx-players * +  mx-scores ;

\ mx-side ( ply -- player )  who moves at that ply
: mx-side ( ply -- player )
	mx-turn @ turn-offset-to-player ;

\ mx-fill ( xt -- )  each player's score at this ply: xt ( player -- score )
: mx-fill ( xt -- )
	mx-players 1 DO
		I 2048 * OVER EXECUTE  mx-ply @ I 2048 * mx-slot !
	LOOP DROP ;

\ mx-outcome ( score -- )  a finished game: score is for mx-me
VARIABLE mx-result
: mx-share ( player -- score )
	mx-me @ 2048 / OVER 2048 / = IF DROP mx-result @ ELSE DROP mx-result @ NEGATE THEN ;
: mx-outcome ( score -- )
	DUP 0> IF mx-ply @ - ELSE DUP 0< IF mx-ply @ + THEN THEN
	mx-result !  ['] mx-share mx-fill ;

\ mx-copy-up ( -- )  the child's scores become this ply's
: mx-copy-up ( -- )
	mx-players 1 DO
		mx-ply @ 1+ I 2048 * mx-slot @   mx-ply @ I 2048 * mx-slot !
	LOOP ;

DEFER mx-reply ( -- )

\ mx-child ( m -- )  play m and search on; its scores at mx-ply + 1
: mx-child ( m -- )
	$CloneBoard  .moveCFA EXECUTE  mx-nodes ++
	mx-ply @ mx-turn @ next-turn-offset  mx-ply @ 1+ mx-turn !
	mx-ply ++  mx-reply  mx-ply --
	$DeallocateBoard ;

\ mx-better? ( -- ? )  is the child's score for the mover above the best?
: mx-better? ( -- ? )
	mx-ply @ mx-first? @ IF TRUE EXIT THEN
	mx-ply @ 1+  mx-ply @ mx-side  mx-slot @
	mx-ply @     mx-ply @ mx-side  mx-slot @  > ;

\ mx-search ( -- )  the scores of the position at mx-ply
: mx-search ( -- )
	mx-ply @ mx-side FALSE 0 $GenerateMoves
	OnIsGameOver DUP #UnknownScore <> IF
		mx-outcome $DeallocateMoves EXIT
	THEN DROP
	mx-ply @ mx-target @ >= mx-ply @ mx-max-ply 2 - >= OR
	move-count 0= OR IF
		$DeallocateMoves ['] mx-evaluate mx-fill EXIT
	THEN
	TRUE mx-ply @ mx-first? !
	$FirstMove
	BEGIN ?DUP WHILE
		DUP mx-ply @ mx-move !
		mx-child
		mx-better? IF mx-copy-up  FALSE mx-ply @ mx-first? ! THEN
		$Yield searching? IF mx-ply @ mx-move @ $NextMove ELSE 0 THEN
	REPEAT
	$DeallocateMoves ;

' mx-search IS mx-reply

\ mx-iteration ( -- )  every root move, mx-target plies deep
: mx-iteration ( -- )
	mx-infinity NEGATE mx-root-score !
	$FirstMove DUP mx-root-best !
	BEGIN ?DUP WHILE
		DUP 0 mx-move !
		DUP $MoveString CurrentMove!
		0 mx-ply !  turn-offset 0 mx-turn !
		mx-child
		1 mx-me @ mx-slot @			( my score )
		DUP mx-root-score @ > IF
			mx-root-score !  0 mx-move @ mx-root-best !
		ELSE DROP THEN
		$Yield searching? IF 0 mx-move @ $NextMove ELSE 0 THEN
	REPEAT ;

\ maxn-engine ( -- )  the {search-engine} word
: maxn-engine ( -- )
	current-player mx-me !
	0 mx-nodes !
	$FirstMove mx-chosen !
	mx-depth @ 1 MAX  mx-max-ply 3 - MIN  1+ 1 DO
		I mx-target !
		mx-iteration
		searching? 0= IF LEAVE THEN
		mx-root-best @ mx-chosen !
		mx-root-score @ Score!  I Depth!  mx-nodes @ Nodes!
		mx-chosen @ $MoveString BestMove!
	LOOP
	mx-chosen @ $MoveString BestMove! ;
