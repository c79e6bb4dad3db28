\ =====================================================================
\  Splut! -- pieces.4th : Sorcerer, Dwarf, Stonetroll, Rock and steps
\ =====================================================================
\
\  Every move here is one STEP: one of the mover's own pieces goes one
\  square north, east, south or west, and may take other pieces along
\  (a pulled, pushed, thrown or levitated Rock; a pushed line).  The
\  turn order in splut.4th gives a player 1, 2 or 3 steps in a row; the
\  words below keep, in the board, what a step must know of the steps
\  before it in the same turn and in the turn before (a throw ended the
\  turn; which Rock floats; which Rocks the previous player moved).
\
\  That bookkeeping runs when a step is PLAYED, not when it is generated:
\  every move compiles a call of `new-step` first (COMPILE), then its
\  board edits, then the calls that note which Rock went where.  So a
\  search that plays a move with `.moveCFA EXECUTE` updates it exactly
\  as the game does, and $CloneBoard / $DeallocateBoard undo it.
\
\  While moves are generated the board is the one before the step, so
\  the generating words read the bookkeeping through `first-step?`: at
\  the first step of a turn the variables still describe the previous
\  player's turn.

\ ---------------------------------------------------------------------
\  Move types.  A player who has no step at all passes it: `pass-step`
\  always adds a Pass of lower priority, which the priorities drop
\  whenever a real step exists.
\ ---------------------------------------------------------------------

{move-priorities
	{move-priority} stepping
	{move-priority} passing
move-priorities}

\ The move lists are named here and declared at the end of the file.
\ {value}s only feed `material-balance` (unused by the game itself);
\ a Rock is worth nothing to anybody.
{pieces
	{piece} Sorcerer   {moves} sorcerer-moves 50 {value}
	{piece} Dwarf      {moves} dwarf-moves     3 {value}
	{piece} Stonetroll {moves} troll-moves     5 {value}
	{piece} Rock                               0 {value}
pieces}

\ ---------------------------------------------------------------------
\  The Rocks.  `rock-square` (in the board) tells where Rock 0..3
\  stands; a Rock keeps its number however it moves, which is what the
\  levitation rules need ("the Rock the previous player moved", "the
\  Rock that floats this turn").  OnNewGame numbers them (find-rocks).
\ ---------------------------------------------------------------------

\ rock? ( -- ? )  is there a Rock at `here`?
: rock? ( -- ? )
	piece-type Rock = ;

\ rock-at? ( pos -- ? )
: rock-at? ( pos -- ? )
	piece-type-at Rock = ;

\ rock-bit ( i -- mask )  Rock i in a set of Rocks
: rock-bit ( i -- mask )
	1 SWAP LSHIFT ;

\ find-rocks ( -- )  number the Rocks on the board, at most four
: find-rocks ( -- )
	0
	#squares 0 DO
		I square DUP rock-at? 2 PICK 4 < AND IF
			OVER rock-square !  1+
		ELSE
			DROP
		THEN
	LOOP
	rock-bit 1- rocks ! ;

\ rock-index ( pos -- i | -1 )  the number of the Rock on pos
: rock-index ( pos -- i )
	4 0 DO
		DUP I rock-square @ = IF DROP I UNLOOP EXIT THEN
	LOOP
	DROP -1 ;

\ ---------------------------------------------------------------------
\  Bookkeeping words run when a step is played (their arguments are
\  compiled into the move as literals: `current-player` is not the
\  mover there, a search plays both sides' moves).
\ ---------------------------------------------------------------------

\ new-step ( player -- )  the first thing every step does.  A step by
\ another player than the last one starts a new turn: the Rocks moved in
\ the turn that just ended become the ones this player may not levitate.
\ Any step ends a levitation still going on; a levitating step starts it
\ again at once (`levitated`), so it lasts exactly as long as the
\ Sorcerer's uninterrupted steps with the Rock.
: new-step ( player -- )
	DUP last-mover @ <> IF
		last-mover !
		moved-now @ moved-before !  0 moved-now !
		0 levitation !  turn-over OFF
	ELSE
		DROP
		levitation @ 0> IF -1 levitation ! THEN
	THEN ;

\ rock-moved ( from to -- )  the Rock on `from` went to `to` in this turn
: rock-moved ( from to -- )
	SWAP rock-index DUP 0< IF 2DROP EXIT THEN	( to i )
	DUP rock-bit moved-now @ OR moved-now !
	rock-square ! ;

\ levitated ( i to -- )  Rock i floated to `to` with its Sorcerer
: levitated ( i to -- )
	OVER rock-square !
	DUP 1+ levitation !
	rock-bit moved-now @ OR moved-now ! ;

\ thrown ( -- )  a throw ends the turn: the remaining steps are lost
: thrown ( -- )
	turn-over ON ;

\ splut ( player -- )  that player's Sorcerer was hit
: splut ( player -- )
	dead ! ;

\ ---------------------------------------------------------------------
\  The same bookkeeping as seen while the moves of a step are generated
\  (on the board before the step).
\ ---------------------------------------------------------------------

\ first-step? ( -- ? )  does the player to move begin his turn now?
: first-step? ( -- ? )
	last-mover @ current-player <> ;

\ turn-open? ( -- ? )  may he step at all (no throw ended his turn)?
: turn-open? ( -- ? )
	first-step? turn-over @ 0= OR ;

\ locked ( -- mask )  the Rocks the previous player moved: not to levitate
: locked ( -- mask )
	first-step? IF moved-now @ ELSE moved-before @ THEN ;

\ floating ( -- n )  0: no levitation yet this turn; i+1: Rock i floats;
\ -1: the levitation of this turn is over
: floating ( -- n )
	first-step? IF 0 ELSE levitation @ THEN ;

\ floatable ( -- mask )  the Rocks that may float with the Sorcerer's
\ next step: the one floating already; or, when no levitation happened
\ yet this turn, every Rock the previous player did not move; or none
: floatable ( -- mask )
	floating DUP 0< IF DROP 0 EXIT THEN
	?DUP IF 1- rock-bit EXIT THEN
	rocks @ locked INVERT AND ;

\ record-step ( -- )  compile the call of new-step: the first action of
\ every move (after the last `verify` that could reject it)
: record-step ( -- )
	current-player COMPILE-LITERAL COMPILE new-step ;

\ record-rock ( from to -- )  compile: the Rock on `from` goes to `to`
: record-rock ( from to -- )
	SWAP COMPILE-LITERAL COMPILE-LITERAL COMPILE rock-moved ;

\ Scratch cells of the move word that runs (generation is not reentrant).
VARIABLE step-dir	\ the direction of the step, 0..3
VARIABLE step-to	\ the square the piece steps onto

\ step-target ( i -- ? )  walk one square from `from` in direction i;
\ FALSE at the edge of the diamond
: step-target ( i -- ? )
	DUP step-dir !  back compass EXECUTE  here step-to ! ;

\ plain-step ( -- )  the piece onto the empty square step-to
: plain-step ( -- )
	record-step  from step-to @ move  add-move ;

\ ---------------------------------------------------------------------
\  The Sorcerer: steps onto an empty square.  With the same step he may
\  levitate one Rock anywhere on the board, which moves one square in the
\  same direction onto an empty square (the square the Sorcerer leaves
\  counts as empty: he moves first).  A Rock the previous player moved
\  may not be levitated; once begun, the levitation lasts while the
\  Sorcerer keeps stepping with that same Rock, and when any step of
\  the turn goes without it, it is over for the turn.
\ ---------------------------------------------------------------------

VARIABLE float-set	\ the Rocks that may float with this step

\ float-rock ( i -- )  the Sorcerer's step to step-to, Rock i floating
\ along in the same direction, if its way is free
: float-rock ( i -- )
	DUP rock-square @ to
	step-dir @ compass EXECUTE 0= IF DROP EXIT THEN	\ the Rock is at the edge
	empty? here from = OR 0= IF DROP EXIT THEN	\ its way is blocked
	record-step
	from step-to @ move
	DUP rock-square @ here move
	COMPILE-LITERAL here COMPILE-LITERAL COMPILE levitated
	add-move ;

\ sorcerer-step ( -- )  onto the empty step-to, alone or with a Rock
: sorcerer-step ( -- )
	plain-step
	4 0 DO
		float-set @ I rock-bit AND IF I float-rock THEN
	LOOP ;

\ sorcerer-steps ( -- )  the Sorcerer's steps, in the four directions
: sorcerer-steps ( -- )
	turn-open? verify
	floatable float-set !
	#directions 0 DO
		I step-target IF empty? IF sorcerer-step THEN THEN
	LOOP ;

\ pass-step ( -- )  no step is possible (or a throw ended the turn): the
\ step passes.  It still counts as a step of this player's turn.
: pass-step ( -- )
	record-step Pass ;

\ ---------------------------------------------------------------------
\  The Dwarf: steps onto an empty square, or pushes the whole line of
\  pieces in front of him (of any team, Rocks too) one square on, when
\  the line ends at an empty square of the diamond.
\ ---------------------------------------------------------------------

\ line-end ( xt -- ? )  from the first piece of the line, walk along xt
\ to the first empty square; FALSE if the diamond ends first
: line-end ( xt -- ? )
	BEGIN
		DUP EXECUTE 0= IF DROP FALSE EXIT THEN
		empty?
	UNTIL
	DROP TRUE ;

\ push-line ( -- )  here is the empty end: every piece of the line moves
\ one square on, the farthest first, then the Dwarf; Rocks are noted
: push-line ( -- )
	record-step
	step-dir @ opposite compass		( back-xt )
	BEGIN
		here  OVER EXECUTE DROP		( back-xt to )  \ here: the piece
		here OVER move
		rock? IF here SWAP record-rock ELSE DROP THEN
		here from =
	UNTIL
	DROP add-move ;

\ dwarf-steps ( -- )  the Dwarf's steps and pushes, in the four directions
: dwarf-steps ( -- )
	turn-open? verify
	#directions 0 DO
		I step-target IF
			empty? IF
				plain-step
			ELSE
				step-dir @ compass line-end IF push-line THEN
			THEN
		THEN
	LOOP ;

\ ---------------------------------------------------------------------
\  The Stonetroll: steps onto an empty square, and may pull along the
\  Rock right behind him into the square he leaves.  Or he steps onto a
\  Rock and throws it at once, in any of the four directions -- back
\  where he came from too -- as long as it flies at least one square:
\  it flies over empty squares and Dwarves and stops in front of a
\  Stonetroll, another Rock or the edge, or on a Sorcerer, who dies
\  with his whole team.  A Dwarf on the landing square is crushed.
\  The throw ends the turn.
\ ---------------------------------------------------------------------

\ pull-step ( -- )  the step to step-to, pulling the Rock behind, if any
: pull-step ( -- )
	back  step-dir @ opposite compass EXECUTE 0= IF EXIT THEN
	rock? 0= IF EXIT THEN
	record-step
	from step-to @ move
	here from move
	here from record-rock
	add-move ;

\ flies-over? ( -- ? )  does a thrown Rock fly on over `here`?  The
\ square the Stonetroll just left is empty by then.
: flies-over? ( -- ? )
	empty?  here from = OR  piece-type Dwarf = OR ;

\ flight ( xt -- pos )  where the Rock at step-to lands, thrown along xt
: flight ( xt -- pos )
	step-to @ DUP to			( xt land )
	BEGIN OVER EXECUTE WHILE
		piece-type Sorcerer = IF 2DROP here EXIT THEN	\ Splut!
		flies-over? 0= IF NIP EXIT THEN			\ stops in front
		DROP here
	REPEAT
	NIP ;

\ remove-team ( player -- )  record the capture of all his pieces; the
\ thrower may be one of them, on the Rock's square by then
: remove-team ( player -- )
	#squares 0 DO
		I square DUP player-at 2 PICK = IF
			DUP from = IF DROP step-to @ THEN
			capture-at
		ELSE
			DROP
		THEN
	LOOP DROP ;

\ throw ( i -- )  the Stonetroll, stepping onto the Rock at step-to,
\ throws it in direction i
: throw ( i -- )
	compass flight				( land )
	DUP step-to @ = IF DROP EXIT THEN	\ it cannot fly that way at all
	record-step
	from step-to @ move
	DUP from <> IF
		DUP piece-type-at Sorcerer = IF
			DUP player-at DUP remove-team
			COMPILE-LITERAL COMPILE splut
		THEN
		DUP piece-type-at Dwarf = IF DUP capture-at THEN
	THEN
	step-to @ player-at Rock 2 PICK create-player-piece-type-at
	step-to @ SWAP record-rock
	COMPILE thrown
	add-move ;

\ troll-steps ( -- )  the Stonetroll's steps, pulls and throws, in the
\ four directions
: troll-steps ( -- )
	turn-open? verify
	#directions 0 DO
		I step-target IF
			empty? IF
				plain-step pull-step
			ELSE
				rock? IF 4 0 DO I throw LOOP THEN
			THEN
		THEN
	LOOP ;

\ ---------------------------------------------------------------------
\  The move lists.
\ ---------------------------------------------------------------------

{moves sorcerer-moves
	{move} sorcerer-steps {move-type} stepping
	{move} pass-step      {move-type} passing
moves}

{moves dwarf-moves
	{move} dwarf-steps {move-type} stepping
moves}

{moves troll-moves
	{move} troll-steps {move-type} stepping
moves}
