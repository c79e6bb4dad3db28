\ =====================================================================
\  Chess -- pieces.4th : the pieces, the attack test, the move words
\ =====================================================================
\
\  Legality.  The game layer has no legality hook: a move word adds
\  only moves after which the mover's king is not attacked.  A full
\  attack test for every move would walk the king's eight lines once per
\  move; instead, once per position -- when the move that leads there is
\  played -- after-move works out whether the side to move is in check
\  and which of its pieces are pinned (one walk along each of the
\  king's lines finds both), and sums it up in the board variable
\  `watch`.  Then, per move (legal?):
\    - nothing to watch: every pseudo-legal move is legal, one test;
\    - in check: the full test for every move;
\    - a pinned piece may move only along its pin line, which line-dir
\      answers in one lookup per target.
\  King moves, castling and en passant (which empties two squares of a
\  rank at once) always get the full test.
\
\  The full test (attacked?) reads the board as it would be after the
\  move: the move word names the square the piece leaves (`ghost`),
\  the en-passant victim (`ghost2`) and the square it lands on
\  (`wall`: whatever stood there is captured and attacks nothing),
\  instead of making the move.
\
\  Every move ends with a compiled call of after-move (with the move's
\  squares and kind as one literal), which runs when the move is
\  played -- in a game, in perft, in a ForthScript engine alike -- and
\  updates the board variables: castling rights, the en-passant
\  square, the halfmove clock, the men, the king squares, the side to
\  move, check and pins.

{pieces
	{piece} Pawn   {moves} pawn-moves   100 {value}
	{piece} Knight {moves} knight-moves 320 {value}
	{piece} Bishop {moves} bishop-moves 330 {value}
	{piece} Rook   {moves} rook-moves   500 {value}
	{piece} Queen  {moves} queen-moves  900 {value}
	{piece} King   {moves} king-moves     0 {value}
pieces}

\ opponent ( player -- player' )  the other side
: opponent ( player -- player' )
	White Black + SWAP - ;

\ king-of ( player -- sq )  where that player's king stands
: king-of ( player -- sq )
	player-index king-square @ ;

\ near? ( a b -- ? )  are squares a and b at most one step apart?
: near? ( a b -- ? )
	2DUP 7 AND SWAP 7 AND - ABS 2 <		( a b cols-near? )
	-ROT 8 / SWAP 8 / - ABS 2 < AND ;

\ ---------------------------------------------------------------------
\  The attack test.  `foe` is the attacking player; ghost, ghost2 and
\  wall describe the move under test (-1: none).  The test walks
\  `here`, so callers inside a move word put `here` back afterwards.
\ ---------------------------------------------------------------------

VARIABLE foe		\ the player whose pieces attack
VARIABLE ghost		\ a square read as empty: the one the mover leaves
VARIABLE ghost2		\ another: the pawn taken en passant
VARIABLE wall		\ a square read as filled by the mover's piece

\ no-move ( -- )  the test reads the board as it stands
: no-move ( -- )
	-1 ghost !  -1 ghost2 !  -1 wall ! ;

\ seen ( -- c )  what stands at `here` as the test sees it: 0 for an
\ empty square, -1 (nobody's piece) for the wall
: seen ( -- c )
	here wall @ = IF -1 EXIT THEN
	here ghost @ = here ghost2 @ = OR IF 0 EXIT THEN
	here piece-at ;

\ first-piece ( xt -- c )  walk from `here` along direction xt to the first
\ square that is not empty as the test sees it; what stands there, 0 if
\ the walk leaves the board.  Empty squares come first: most are.
: first-piece ( xt -- c )
	BEGIN
		DUP EXECUTE 0= IF DROP 0 EXIT THEN
		here wall @ = IF DROP -1 EXIT THEN
		empty? 0= IF
			here ghost @ <> IF here ghost2 @ <> IF
				DROP here piece-at EXIT
			THEN THEN
		THEN
	AGAIN ;

\ slider-attack? ( sq d -- ? )  does a foe queen, or a rook (lines 0-3)
\ or a bishop (lines 4-7), see sq along line d?
: slider-attack? ( sq d -- ? )
	SWAP to  DUP compass first-piece		( d c )
	SWAP 4 < IF Rook ELSE Bishop THEN foe @ OR	( c slider )
	OVER = SWAP foe @ Queen OR = OR ;

\ knight-attack? ( sq -- ? )  does a foe knight attack sq?  (A knight on
\ the wall is being captured.)
: knight-attack? ( sq -- ? )
	knight-squares COUNT  foe @ Knight OR  SWAP	( addr kn n )
	0 DO
		OVER I + C@
		DUP wall @ <> SWAP piece-at 2 PICK = AND IF
			2DROP TRUE UNLOOP EXIT
		THEN
	LOOP
	2DROP FALSE ;

\ pawn-attack? ( sq xt -- ? )  is there a foe pawn one step from sq along xt?
: pawn-attack? ( sq xt -- ? )
	SWAP to EXECUTE IF seen foe @ Pawn OR = ELSE FALSE THEN ;

\ pawns-attack? ( sq -- ? )  White pawns take toward the north, so they
\ attack sq from its south-east and south-west; Black's the other way
: pawns-attack? ( sq -- ? )
	foe @ White = IF
		DUP ['] se pawn-attack? SWAP ['] sw pawn-attack? OR
	ELSE
		DUP ['] ne pawn-attack? SWAP ['] nw pawn-attack? OR
	THEN ;

\ attacked? ( sq -- ? )  is sq attacked by a piece of `foe`?
: attacked? ( sq -- ? )
	DUP knight-attack? IF DROP TRUE EXIT THEN
	8 0 DO
		DUP I slider-attack? IF DROP TRUE UNLOOP EXIT THEN
	LOOP
	DUP pawns-attack? IF DROP TRUE EXIT THEN
	foe @ king-of near? ;

\ ---------------------------------------------------------------------
\  What the side to move must watch, worked out once per position (when
\  the move that leads there is played): whether its king is in check,
\  and which of its pieces are pinned to it.  One walk along each of the
\  king's eight lines finds both: a foe queen, rook or bishop that is
\  the first piece on a line it moves along gives check; a friend that
\  is the first piece, with such a foe behind it, is pinned.
\ ---------------------------------------------------------------------

\ pinned? ( sq -- ? )  is the piece on sq pinned?  (`pinned` holds one
\ bit per square, squares 0-31 in cell 0, 32-63 in cell 1.)
: pinned? ( sq -- ? )
	DUP 5 RSHIFT pinned @  1 ROT 31 AND LSHIFT AND 0<> ;

\ pin-square ( sq -- )  mark the piece on sq pinned
: pin-square ( sq -- )
	DUP 5 RSHIFT pinned SWAP  1 SWAP 31 AND LSHIFT  OVER @ OR SWAP ! ;

\ line-slider? ( c d -- ? )  is content c a foe piece that moves along
\ line d: a queen, or a rook on lines 0-3, a bishop on 4-7?
: line-slider? ( c d -- ? )
	4 < IF Rook ELSE Bishop THEN foe @ OR	( c slider )
	OVER = SWAP foe @ Queen OR = OR ;

VARIABLE candidate	\ the friend that may be pinned

\ scan-line ( k d -- )  walk from the king on k along line d
: scan-line ( k d -- )
	SWAP to  DUP compass				( d xt )
	BEGIN DUP EXECUTE WHILE
		empty? 0= IF
			here player-at foe @ = IF		\ a foe: does it check?
				here piece-at ROT line-slider? IF TRUE in-check ! THEN
				DROP EXIT
			THEN
			here candidate !			\ a friend: pinned?
			BEGIN DUP EXECUTE WHILE
				empty? 0= IF
					here piece-at ROT line-slider? IF candidate @ pin-square THEN
					DROP EXIT
				THEN
			REPEAT
			2DROP EXIT
		THEN
	REPEAT
	2DROP ;

\ scan-lines ( k -- )  all eight lines of the king on k; pins start
\ afresh.  Then `watch`: is there anything to watch?
: scan-lines ( k -- )
	0 0 pinned !  0 1 pinned !
	8 0 DO DUP I scan-line LOOP
	DROP
	in-check @  0 pinned @ OR  1 pinned @ OR  0<> watch ! ;

\ knight-jump? ( a b -- ? )  is b a knight's jump from a?
: knight-jump? ( a b -- ? )
	2DUP 7 AND SWAP 7 AND - ABS  -ROT 8 / SWAP 8 / - ABS  * 2 = ;

\ pawn-checks? ( p k -- ? )  does the foe pawn on p attack the square k?
\ White's pawns take toward row 0 (rank 8), Black's toward row 7.
: pawn-checks? ( p k -- ? )
	2DUP 7 AND SWAP 7 AND - ABS 1 =			( p k cols? )
	-ROT 8 / SWAP 8 / -				( cols? rows )
	foe @ White = IF -1 ELSE 1 THEN = AND ;

\ assess ( -- )  in-check and pinned for side-to-move, from scratch
: assess ( -- )
	side-to-move @ DUP opponent foe !  king-of	( k )
	no-move
	DUP knight-attack? OVER pawns-attack? OR in-check !
	scan-lines ;

\ ---------------------------------------------------------------------
\  after-move ( info -- ) runs when a move is played, after its edits.
\  info = from + 64 * to + 4096 * kind, kind: 1 a capture, 2 a pawn move.
\  The side that did not move cannot have been in check, so a knight or
\  a pawn can check only if it is the piece that moved (or promoted);
\  the lines find the rest, discovered checks included.
\ ---------------------------------------------------------------------

1 CONSTANT #capture	( -- kind )
2 CONSTANT #pawn-move	( -- kind )

VARIABLE moved-from
VARIABLE moved-to

\ ep-possible? ( sq -- ? )  a pawn has just stepped two squares to sq:
\ does a pawn of the side to move stand beside it?  Only then is there
\ an en-passant square: a position is the same position, for
\ repetitions, whether or not the last move was a double step that
\ nobody can take.
: ep-possible? ( sq -- ? )
	side-to-move @ Pawn OR				( sq p )
	OVER 7 AND 0> IF  OVER 1- piece-at OVER = IF 2DROP TRUE EXIT THEN  THEN
	OVER 7 AND 7 < IF  OVER 1+ piece-at OVER = IF 2DROP TRUE EXIT THEN  THEN
	2DROP FALSE ;

: after-move ( info -- )
	DUP 63 AND moved-from !  DUP 6 RSHIFT 63 AND moved-to !
	12 RSHIFT					( kind )
	DUP IF 0 halfmove-clock ! ELSE halfmove-clock ++ THEN
	#capture AND IF men -- THEN
	castling @  moved-from @ castle-keep AND  moved-to @ castle-keep AND
	castling !
	0 ep-square !
	moved-to @ piece-at  DUP #Player AND DUP foe !	( c mover )
	opponent DUP side-to-move !  king-of		( c k )
	SWAP #PieceType AND				( k type )
	DUP Pawn = IF
		moved-to @ moved-from @ - ABS 16 = IF	\ a double step
			moved-to @ ep-possible? IF
				moved-to @ moved-from @ + 2/ ep-square !
			THEN
		THEN
		moved-to @ 2 PICK pawn-checks?
	ELSE DUP Knight = IF
		moved-to @ 2 PICK knight-jump?
	ELSE DUP King = IF
		moved-to @ foe @ player-index king-square !  FALSE
	ELSE FALSE THEN THEN THEN
	in-check !  DROP				( k )
	scan-lines ;

\ ---------------------------------------------------------------------
\  Legality, per move.  `watch` (set with in-check and pinned) is TRUE
\  when the side to move is in check or has a pinned piece; when it is
\  FALSE, and the moves asked for are the side to move's, every
\  pseudo-legal move is legal and one test per move says so.
\ ---------------------------------------------------------------------

VARIABLE my-king	\ the mover's king square (on the slow path)

\ wary? ( -- ? )  must every move get the full test?  In check, yes; and
\ for moves of the side not to move (a script may ask for them), about
\ whose king `in-check` and `pinned` say nothing.
: wary? ( -- ? )
	in-check @  current-player side-to-move @ <> OR ;

\ exposes? ( from to -- ? )  would moving a piece (not the king) from
\ `from` to `to` leave the mover's king attacked?  `here` is kept.
: exposes? ( from to -- ? )
	wall ! ghost !  -1 ghost2 !
	current-player opponent foe !
	here  my-king @ attacked?  SWAP to ;

\ careful-legal? ( -- ? )  legal? the long way: the full test when
\ wary, else only a pinned piece is bound, to the line of its pin
: careful-legal? ( -- ? )
	current-player king-of my-king !
	wary? IF from here exposes? 0= EXIT THEN
	from pinned? 0= IF TRUE EXIT THEN
	my-king @ here line-dir  my-king @ from line-dir = ;

\ legal? ( -- ? )  may the piece on `from` (not the king) go to `here`?
\ With watch FALSE (0), `watch @ current-player OR` is the player, and
\ the moves are legal if he is the side to move; with watch TRUE (-1)
\ it matches nobody.
: legal? ( -- ? )
	watch @ current-player OR  side-to-move @ = IF TRUE EXIT THEN
	careful-legal? ;

\ king-exposed? ( from to -- ? )  would the king going from `from` to
\ `to` stand attacked there?  (`from` is read as empty: a slider's line
\ through the king's old square goes on behind it.)  `here` is kept.
: king-exposed? ( from to -- ? )
	DUP wall !  SWAP ghost !  -1 ghost2 !
	current-player opponent foe !
	here SWAP attacked? SWAP to ;

\ finish ( kind -- )  the edits are recorded: add the call of after-move
\ that the move makes when played, and the move
: finish ( kind -- )
	6 LSHIFT here OR 6 LSHIFT from OR
	COMPILE-LITERAL COMPILE after-move
	add-move ;

\ record ( kind -- )  the piece on `from` goes to `here`: the whole move
: record ( kind -- )
	from here move
	6 LSHIFT here OR 6 LSHIFT from OR
	COMPILE-LITERAL COMPILE after-move
	add-move ;

\ ---------------------------------------------------------------------
\  Knights, bishops, rooks and queens.
\ ---------------------------------------------------------------------

\ slide ( d -- )  the moves along line d: empty squares, then maybe a capture
: slide ( d -- )
	back compass
	BEGIN DUP EXECUTE WHILE
		empty? IF
			legal? IF 0 record THEN
		ELSE
			enemy? IF legal? IF #capture record THEN THEN
			DROP EXIT
		THEN
	REPEAT
	DROP ;

: move-rook ( -- )	4 0 DO I slide LOOP ;
: move-bishop ( -- )	8 4 DO I slide LOOP ;
: move-queen ( -- )	8 0 DO I slide LOOP ;

\ A pinned knight never stays on its pin line: legal? refuses it all.
: move-knight ( -- )
	from knight-squares COUNT			( addr n )
	0 DO
		DUP I + C@ to
		friend? 0= IF
			legal? IF  not-empty? #capture AND record  THEN
		THEN
	LOOP
	DROP ;

\ ---------------------------------------------------------------------
\  The king: one step, and castling.
\ ---------------------------------------------------------------------

: king-steps ( -- )
	8 0 DO
		back  I compass EXECUTE IF
			friend? 0= IF
				from here king-exposed? 0= IF
					not-empty? #capture AND record
				THEN
			THEN
		THEN
	LOOP ;

\ home-row ( sq -- sq' )  a square named from White's side, for the mover
: home-row ( sq -- sq' )
	current-player Black = IF 56 XOR THEN ;

\ Castling, short and long, below: the right must still be held (which
\ says that king and rook have never moved and the rook was never taken
\ at home), the king must not be in check, the squares between king and
\ rook must be empty, and the king must neither pass over nor land on
\ an attacked square.  Written for White's squares; home-row turns them
\ into Black's.

\ may-castle? ( white-bit -- ? )  is this right (White's bit, or the
\ same right of Black's, four times it) still held?
: may-castle? ( white-bit -- ? )
	current-player Black = IF 4 * THEN  castling @ AND 0<> ;

\ safe-square? ( sq -- ? )  would the king, still on `from`, be safe on sq?
: safe-square? ( sq -- ? )
	from SWAP king-exposed? 0= ;

\ not-in-check? ( -- ? )  is the king on `from` safe where it stands?
: not-in-check? ( -- ? )
	current-player side-to-move @ = IF in-check @ 0= ELSE from safe-square? THEN ;

: castle-short ( -- )
	white-O-O may-castle? verify
	not-in-check? verify
	f1 home-row empty-at? verify   g1 home-row empty-at? verify
	f1 home-row safe-square? verify  g1 home-row safe-square? verify
	g1 home-row to
	from here move  h1 home-row f1 home-row move
	0 finish ;

: castle-long ( -- )
	white-O-O-O may-castle? verify
	not-in-check? verify
	d1 home-row empty-at? verify   c1 home-row empty-at? verify
	b1 home-row empty-at? verify
	d1 home-row safe-square? verify  c1 home-row safe-square? verify
	c1 home-row to
	from here move  a1 home-row d1 home-row move
	0 finish ;

\ ---------------------------------------------------------------------
\  Pawns.  `ahead`, `ahead-east` and `ahead-west` turn round for Black
\  (board.4th), so these words serve both sides.
\ ---------------------------------------------------------------------

\ last-rank? ( sq -- ? )  does a pawn promote on sq?  (Rank 8 or rank 1:
\ a pawn reaches only the one ahead of it.)
: last-rank? ( sq -- ? )
	8 - 48 U< 0= ;

\ second-rank? ( sq -- ? )  may a pawn on sq step two?  On row 1 or 6
\ (rank 7 or 2), whoever owns it: a pawn there that is about to promote
\ instead finds no square two ahead (the step off the board fails).
: second-rank? ( sq -- ? )
	3 RSHIFT 1- 5 MOD 0= ;

\ promote ( kind type -- kind )  one promotion: the move, then the new type
: promote ( kind type -- kind )
	from here move  change-type  DUP finish ;

\ pawn-to ( kind -- )  the pawn goes from `from` to `here`; on the last
\ rank that is four moves, one per piece it may become
: pawn-to ( kind -- )
	#pawn-move OR
	here last-rank? IF
		Queen promote  Rook promote  Bishop promote  Knight promote  DROP
	ELSE
		record
	THEN ;

\ en-passant ( -- )  `here` is the en-passant square: take the pawn that
\ skipped it.  Two pawns leave the rank at once, so always the full test.
: en-passant ( -- )
	current-player king-of my-king !
	from -8 AND  here 7 AND OR			( victim )
	DUP ghost2 !  here wall !  from ghost !
	current-player opponent foe !
	here  my-king @ attacked?  SWAP to		( victim exposed? )
	IF DROP EXIT THEN
	from here move  capture-at
	#capture #pawn-move OR finish ;

\ pawn-capture ( -- )  `here` is a square the pawn attacks
: pawn-capture ( -- )
	enemy? IF legal? IF #capture pawn-to THEN EXIT THEN
	ep-square @ here = IF				\ seldom: look closer
		here 0<>  current-player side-to-move @ = AND IF en-passant THEN
	THEN ;

: move-pawn ( -- )
	ahead IF empty? IF
		legal? IF 0 pawn-to THEN
		from second-rank? IF
			ahead IF empty? IF legal? IF #pawn-move record THEN THEN THEN
		THEN
	THEN THEN
	back ahead-east IF pawn-capture THEN
	back ahead-west IF pawn-capture THEN ;

{moves pawn-moves   {move} move-pawn   moves}
{moves knight-moves {move} move-knight moves}
{moves bishop-moves {move} move-bishop moves}
{moves rook-moves   {move} move-rook   moves}
{moves queen-moves  {move} move-queen  moves}
{moves king-moves
	{move} king-steps
	{move} castle-short
	{move} castle-long
moves}
