\ =====================================================================
\  Splut! (Tommy De Coninck, 2009) -- splut.4th : the game (load this)
\ =====================================================================
\
\  The rules.  Two teams, South and North, each a Sorcerer, a Dwarf and
\  a Stonetroll, on a diamond of 41 squares with a Rock on each of its
\  four tips.  A team starts in front of its own tip: the Dwarf right in
\  front of the Rock, the Stonetroll on the Dwarf's right and the
\  Sorcerer on his left, seen from the Rock (South: Sorcerer d2, Dwarf
\  e2, Stonetroll f2, Rock e1; North: Stonetroll d8, Dwarf e8,
\  Sorcerer f8, Rock e9; Rocks also on a5 and i5).
\
\  A turn is a number of STEPS: South's first turn is 1 step, North's
\  first turn 2, then every turn 3.  A step moves one of your own pieces
\  one square north, east, south or west, never off the diamond:
\   - Stonetroll: onto an empty square, and may pull the Rock right
\     behind him into the square he leaves; or onto a Rock, which he
\     throws at once in one of the four directions.  It flies over empty
\     squares and Dwarves and stops in front of a Stonetroll, another
\     Rock or the edge -- or on a Sorcerer: he dies (Splut!) and his
\     whole team leaves the board.  A Dwarf on the landing square is
\     crushed.  A throw ends the turn.
\   - Dwarf: onto an empty square, or pushes the line of pieces in front
\     of him one square, if the line ends at an empty square.
\   - Sorcerer: onto an empty square; may levitate a Rock, which moves
\     the same direction with each of his steps of this turn.
\  The last Sorcerer standing wins.
\
\  Rule choices (each one is tested in tests/splut.rs):
\   1. A throw must make the Rock fly at least one square: a direction
\      where the square next to the Stonetroll is an obstacle is no
\      throw (a Rock with no way out cannot be stepped onto).
\   2. The Rock may be thrown back where the Stonetroll came from: that
\      square is empty once he has stepped onto the Rock.
\   3. Levitation: one Rock per turn, anywhere on the board, not one the
\      previous player moved in his turn (thrown, pulled, pushed or
\      levitated); it moves with every step of the Sorcerer from the step
\      it starts, in that step's direction, and stops for the rest of the
\      turn as soon as a step of the turn goes without it (the Sorcerer
\      stepping alone, or another piece).  It may start at any step of
\      the turn.
\   4. A levitated Rock moves only onto an empty square (the square its
\      Sorcerer is leaving counts as empty); it never pushes or crushes.
\      The Sorcerer himself steps only onto an empty square.
\   5. A Rock that lands on a Dwarf crushes him (only him: his team
\      plays on).  A Rock that hits a Sorcerer, his own team's too, kills
\      him and removes his team; the other Sorcerer has won.
\   6. The Dwarf pushes any line of pieces (Rocks, Sorcerers, Trolls,
\      Dwarves of both teams); nothing is pushed off the diamond.
\   7. A team with no legal step passes that step (it still counts as one
\      of its steps); after a throw the remaining steps of the turn are
\      such passes.  The game goes on: only a Splut! ends it.
\   8. A Stonetroll pulls only by stepping straight away from the Rock,
\      and only onto an empty square; pulling is optional.
\
\  How the steps are modelled: every step is one move, and the turn
\  order below lists one entry per step (1, 2, then 3 each), so a
\  search walks the steps one ply each ("depth 5" is five steps).  What
\  a step must know of earlier steps lives in board variables (see
\  pieces.4th); a Stonetroll stepping onto a Rock and throwing it is one
\  move.
\
\  Files: board.4th (the diamond, players, directions), pieces.4th (the
\  pieces and their steps), this file, random.4th (both players
\  random), duel.4th (both players engines/multi-alphabeta.4th, depth 5).

LOAD board.4th
LOAD pieces.4th

{turn-order
	{turn} South
	{turn} North
	{turn} North
	{repeat}
	{turn} South
	{turn} South
	{turn} South
	{turn} North
	{turn} North
	{turn} North
turn-order}

{board-setup
	{setup} South Sorcerer d2
	{setup} South Dwarf e2
	{setup} South Stonetroll f2
	{setup} North Stonetroll d8
	{setup} North Dwarf e8
	{setup} North Sorcerer f8
	{setup} West Rock a5 e1
	{setup} East Rock i5 e9
board-setup}

\ splut-new-game ( -- )  number the Rocks of the setup (variants that
\ define their own OnNewGame call this first)
: splut-new-game ( -- )
	find-rocks ;

: OnNewGame ( -- )
	splut-new-game ;

\ ---------------------------------------------------------------------
\  The end: a Sorcerer was hit.  The player to move has lost if it was
\  his, else won (with two teams the other one is the last standing).
\ ---------------------------------------------------------------------

: OnIsGameOver ( -- score )
	dead @ ?DUP 0= IF #UnknownScore EXIT THEN
	current-player = IF #LossScore ELSE #WinScore THEN ;

\ ---------------------------------------------------------------------
\  Evaluation, for current-player.  What decides Splut! is a Rock on an
\  open line to a Sorcerer with a Stonetroll near enough to step onto
\  it; so each Rock is judged by the Sorcerers it sees and the Trolls
\  that could reach it.
\ ---------------------------------------------------------------------

VARIABLE my-sorcerer	VARIABLE my-troll	VARIABLE my-dwarf
VARIABLE their-sorcerer	VARIABLE their-troll	VARIABLE their-dwarf

\ Where a piece of each type goes (a Rock: nowhere), for each side.
CREATE my-slots
	0 , my-sorcerer , my-dwarf , my-troll , 0 ,
CREATE their-slots
	0 , their-sorcerer , their-dwarf , their-troll , 0 ,

\ file ( pos piece -- )  note where that piece stands
: file ( pos piece -- )
	DUP #Player AND current-player = IF my-slots ELSE their-slots THEN
	SWAP #PieceType AND CELLS + @
	?DUP IF ! ELSE DROP THEN ;

\ locate ( -- )  where the pieces of both teams stand (0: gone; position
\ 0 is a grid corner outside the diamond)
: locate ( -- )
	0 my-sorcerer !  0 my-troll !  0 my-dwarf !
	0 their-sorcerer !  0 their-troll !  0 their-dwarf !
	#squares 0 DO
		I square DUP piece-at ?DUP IF file ELSE DROP THEN
	LOOP ;

\ The orthogonal distance between any two squares of the grid, as a
\ table of 81 x 81 bytes: the evaluation asks for it often.
CREATE distances  81 81 * ALLOT
: fill-distances ( -- )
	81 0 DO
		81 0 DO
			I J distance  J 81 * I + distances + C!
		LOOP
	LOOP ;
fill-distances

\ reach ( troll rock -- n )  steps the troll needs to step onto the Rock
\ (9: no troll)
: reach ( troll rock -- n )
	OVER 0= IF 2DROP 9 EXIT THEN
	SWAP 81 * + distances + C@ ;

\ open-line? ( rock target -- ? )  same row or column, and nothing but
\ empty squares and Dwarves between them: a throw from there would hit
: open-line? ( rock target -- ? )
	DUP 0= IF 2DROP FALSE EXIT THEN
	2DUP - 9 MOD 0= IF
		2DUP < IF 9 ELSE -9 THEN
	ELSE
		2DUP 9 / SWAP 9 / <> IF 2DROP FALSE EXIT THEN
		2DUP < IF 1 ELSE -1 THEN
	THEN						( rock target step )
	ROT OVER +					( target step sq )
	BEGIN 2 PICK OVER <> WHILE
		DUP piece-at ?DUP IF
			#PieceType AND Dwarf <> IF DROP 2DROP FALSE EXIT THEN
		THEN
		OVER +
	REPEAT
	DROP 2DROP TRUE ;

\ rock-score ( pos -- n )  one Rock, for current-player: a threat to the
\ enemy Sorcerer is worth more the nearer our Troll is; a threat to ours
\ costs more the nearer theirs is (and more than the other gains: the
\ search sees our own throws, and losing the Sorcerer loses the game);
\ and Trolls want to be near Rocks.
: rock-score ( pos -- n )
	0
	OVER their-sorcerer @ open-line? IF
		60  2 PICK my-troll @ SWAP reach 9 SWAP - 12 * +  +
	THEN
	OVER my-sorcerer @ open-line? IF
		60  2 PICK their-troll @ SWAP reach 9 SWAP - 20 * +  -
	THEN
	OVER their-troll @ SWAP reach 2 *  +
	SWAP my-troll @ SWAP reach 3 *  - ;

: OnEvaluate ( -- score )
	locate
	0
	4 0 DO
		rocks @ I rock-bit AND IF I rock-square @ rock-score + THEN
	LOOP
	my-dwarf @ IF 40 + THEN
	their-dwarf @ IF 40 - THEN ;
