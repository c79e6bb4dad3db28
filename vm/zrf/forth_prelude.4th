\ ---- the ZRF runtime: how Zillions' move language maps onto Axiom's ----
\  A ZRF move keeps what it did (captures, type and owner changes) until
\  its block ends: every `add` emits all of it as one Axiom move, then
\  the block goes on.  So the edits are logged here while the move word
\  runs, and `zrf-add` turns the log into the Axiom move each time.

VARIABLE zrf-mark	\ `mark` / `back`: the marked position
VARIABLE zrf-dest	\ `to`: the destination (-1: the current position)
VARIABLE zrf-dropping	\ the move word is a drop
VARIABLE zrf-copying	\ `add-copy`: the piece stays, a copy goes
VARIABLE zrf-n		\ entries in zrf-log
VARIABLE zrf-base	\ the first entry of the move word running (a test of attacks runs move words inside one)
VARIABLE zrf-who	\ the player a goal is tested for
256 CONSTANT zrf-max
CREATE zrf-log  zrf-max 3 * CELLS ALLOT	\ kind pos arg, per entry

\ zrf-log! ( arg pos kind -- )  log an edit: 1 capture, 2 change-type (arg
\ the type), 3 change-owner (arg the player; `flip` too), 5 create (arg
\ the piece), 6 cascade (a piece moves from arg to pos), 7 set-attribute
\ (arg: attribute number * 2 + value)
: zrf-log! ( arg pos kind -- )
	zrf-n @ zrf-max < verify
	zrf-n @ 3 * CELLS zrf-log +  TUCK !  TUCK 1 CELLS + !  2 CELLS + !
	zrf-n ++ ;

\ zrf-entry ( i -- arg pos kind )
: zrf-entry ( i -- arg pos kind )
	3 * CELLS zrf-log +  DUP 2 CELLS + @  OVER 1 CELLS + @  ROT @ ;

: zrf-begin ( -- )  here zrf-mark !  -1 zrf-dest !  zrf-base @ zrf-n !  zrf-clear-flags ;

\ zrf-to-pos ( -- pos )  where the moving piece goes: `to`, else here
: zrf-to-pos ( -- pos )  zrf-dest @ DUP 0< IF DROP here THEN ;

\ zrf-step ( pos xt -- pos' )  one step from pos along xt, -1 if none
: zrf-step ( pos xt -- pos' )
	OVER 0< IF DROP EXIT THEN
	SWAP to EXECUTE IF here ELSE -1 THEN ;

\ zrf-at ( pos xt -- ? )  the test xt ( pos -- ? ) at pos; off the
\ board (-1) every test is false, its not- form too
: zrf-at ( pos xt -- ? )  OVER 0< IF 2DROP FALSE ELSE EXECUTE THEN ;
: zrf-not-at ( pos xt -- ? )  OVER 0< IF 2DROP FALSE ELSE EXECUTE 0= THEN ;

\ zrf-friend-at? ( pos -- ? )  zrf-enemy-at? ( pos -- ? )  a piece of the
\ player whose pieces move (of another) stands on pos: `friend?` and
\ `enemy?` where the turn order has a player move another's pieces
: zrf-friend-at? ( pos -- ? )  piece-at DUP 0= IF EXIT THEN #Player AND for-player = ;
: zrf-enemy-at? ( pos -- ? )  piece-at DUP 0= IF EXIT THEN #Player AND for-player <> ;

\ zrf-type-at? ( pos type -- ? )  a piece of that type stands on pos
: zrf-type-at? ( pos type -- ? )  SWAP piece-at DUP IF #PieceType AND = ELSE NIP THEN ;

\ zrf-own? ( pos type -- ? )  zrf-who has a piece of that type on pos
\ (type 0: any piece of zrf-who)
: zrf-own? ( pos type -- ? )
	OVER 0< IF 2DROP FALSE EXIT THEN
	SWAP piece-at DUP 0= IF 2DROP FALSE EXIT THEN
	DUP #PlayerNumber AND zrf-who @ #PlayerNumber AND = >R
	#PieceType AND OVER = SWAP 0= OR R> AND ;

\ zrf-capture ( pos -- )  ZRF's `capture` there (-1: off the board): an
\ empty square records nothing (a piece that lands there is not taken)
: zrf-capture ( pos -- )
	DUP 0< IF DROP EXIT THEN  DUP empty-at? IF DROP EXIT THEN  0 SWAP 1 zrf-log! ;

\ zrf-created-before? ( pos i -- ? )  a piece was created on pos by an
\ entry of the log before entry i: an edit there is of that piece, not
\ of the moving one (KoShogi's cannon shoots, leaves its square and is
\ created there again, with an attribute set)
: zrf-created-before? ( pos i -- ? )
	FALSE SWAP zrf-base @ ?DO I zrf-entry 5 = SWAP 4 PICK = AND NIP OR LOOP NIP ;

\ zrf-mover-edit? ( pos kind -- ? )  an edit of the moving piece itself:
\ applied after it has moved, where it lands
: zrf-mover-edit? ( pos kind -- ? )
	DUP 2 >= OVER 3 <= AND SWAP 7 = OR  SWAP DUP from = SWAP zrf-to-pos = OR  AND ;

\ zrf-set-attribute ( arg pos -- )  run when the move is played: bit
\ arg/2 of the piece's attributes (bit 16 and up of its square) becomes
\ arg's low bit
: zrf-set-attribute ( arg pos -- )
	DUP piece-at 0= IF 2DROP EXIT THEN
	>R  1 OVER 2/ 16 + LSHIFT  SWAP 1 AND IF R@ piece-at OR ELSE INVERT R@ piece-at AND THEN
	DUP #Player AND SWAP #Player INVERT AND R> create-player-piece-type-at ;

: zrf-apply ( arg pos kind -- )
	DUP 1 = IF DROP NIP capture-at EXIT THEN
	DUP 2 = IF DROP change-type-at EXIT THEN
	DUP 3 = IF DROP change-owner-at EXIT THEN
	DUP 5 = IF DROP >R DUP #Player AND SWAP #Player INVERT AND R> create-player-piece-type-at EXIT THEN
	DUP 7 = IF DROP SWAP COMPILE-LITERAL COMPILE-LITERAL COMPILE zrf-set-attribute EXIT THEN
	DROP 2DROP ;

\ zrf-played ( from to -- )  run when a move is played (by the player
\ to move): what `last-from?`, `last-to?` and goals need; a partial move
\ runs zrf-played-partial, which starts or goes on with a chain
: zrf-played ( from to -- )
	current-player zrf-mover !  -1 zrf-chain !  zrf-last-to !  zrf-last-from ! ;
: zrf-played-partial ( from to -- )
	current-player zrf-mover !  DUP zrf-chain !  zrf-last-to !  zrf-last-from ! ;

\ ---- attacks: `attacked?` and the `checkmated` goal ----

: zrf-cell ( pos -- addr )  CELLS $board @ + ;

\ zrf-poke ( content pos -- )  writes a square of a cloned board
: zrf-poke ( content pos -- )  zrf-cell ! ;

\ zrf-reached ( pos opp? type -- ? )  a move of the player to move (opp?:
\ of the player after it; of move type type, 0 any) ends on pos or
\ captures there (move words run inside this one: what they share is
\ kept aside)
: zrf-reached ( pos opp? type -- ? )
	zrf-base @ >R  zrf-n @ >R  zrf-mark @ >R  zrf-dest @ >R  zrf-dropping @ >R  zrf-copying @ >R  zrf-save-flags
	zrf-n @ zrf-base !
	>R current-player SWAP R> 3 ROLL $Reaches?
	zrf-restore-flags  R> zrf-copying !  R> zrf-dropping !  R> zrf-dest !  R> zrf-mark !  R> zrf-n !  R> zrf-base ! ;

\ zrf-threat? ( pos content opp? type -- ? )  `zrf-reached`, with content
\ standing on pos (on a copy of the board) unless a piece of its owner
\ stands there: a move that would capture it counts, a step onto an
\ empty square does not (a pawn's push attacks nothing); inside a probe
\ (`$Probing?`: the moves of one test of attacks) false, as Zillions
\ does not look two moves ahead
: zrf-threat? ( pos content opp? type -- ? )
	$Probing? IF 2DROP 2DROP FALSE EXIT THEN
	2 PICK 0<>  4 PICK piece-at DUP IF #Player AND 4 PICK #Player AND <> ELSE 0= THEN  AND IF
		>R >R  $CloneBoard  OVER zrf-poke  R> R> zrf-reached  $DeallocateBoard
	ELSE  ROT DROP zrf-reached  THEN ;

\ zrf-attacked?-by ( pos type -- ? )  `attacked?`: an enemy move (of
\ move type type, 0 any) could capture a piece of the mover's on pos
: zrf-attacked?-by ( pos type -- ? )  >R current-piece TRUE R> zrf-threat? ;

\ zrf-defended?-by ( pos type -- ? )  `defended?`: a move of the
\ mover's (of move type type, 0 any) could capture an enemy piece on pos
: zrf-defended?-by ( pos type -- ? )  >R current-piece #Player INVERT AND next-player OR FALSE R> zrf-threat? ;

\ zrf-attacked? ( pos -- ? )  `attacked?` by any move
: zrf-attacked? ( pos -- ? )  0 zrf-attacked?-by ;

\ zrf-recycle-piece ( piece -- )  "recycle captures": a piece taken goes
\ back to its owner's reserve when the move is played (0: nothing)
: zrf-recycle-piece ( piece -- )
	?DUP IF DUP #Player AND SWAP #PieceType AND zrf-slot COMPILE-LITERAL COMPILE zrf-give THEN ;

\ zrf-recycle ( pos -- )  the piece standing on pos, taken
: zrf-recycle ( pos -- )  piece-at zrf-recycle-piece ;

\ zrf-placing? ( -- ? )  the move puts a piece on its square (a drop, a
\ copy) rather than moving one there
: zrf-placing? ( -- ? )  zrf-dropping @ zrf-copying @ OR ;

\ zrf-logged-capture? ( pos -- ? )  the move built so far captures on pos
: zrf-logged-capture? ( pos -- ? )
	FALSE zrf-n @ zrf-base @ ?DO I zrf-entry 1 = SWAP 3 PICK = AND NIP OR LOOP NIP ;

\ zrf-recycle-landing ( -- )  "recycle captures": a piece the move lands
\ on (taken by being landed on) goes back to its owner's reserve too; a
\ moving piece's own capture there takes that piece instead (the piece
\ put there by a drop is taken by it, after it lands)
: zrf-recycle-landing ( -- )
	zrf-to-pos  zrf-placing? IF zrf-recycle EXIT THEN
	DUP from = IF DROP EXIT THEN
	DUP zrf-logged-capture? IF DROP EXIT THEN  zrf-recycle ;

\ zrf-recycle-taken ( pos -- )  "recycle captures": what a capture on pos
\ takes goes back: the piece a drop or copy just put there, else the
\ piece standing there
: zrf-recycle-taken ( pos -- )
	zrf-placing? IF DUP zrf-to-pos = IF DROP current-piece zrf-recycle-piece EXIT THEN THEN
	zrf-recycle ;

\ zrf-captures ( -- )  the captures of the move built so far, recorded
: zrf-captures ( -- )
	zrf-n @ zrf-base @ ?DO
		I zrf-entry DUP 1 = IF zrf-recycle? IF OVER zrf-recycle-taken THEN zrf-apply ELSE DROP 2DROP THEN
	LOOP ;

\ zrf-cascades ( -- any? )  the pieces `cascade` pushed on, recorded in
\ their order, each as it stood when the move began (`$Cascade`: a ring
\ of pieces pushed round, the last going where the first stood, moves
\ as one); whether there were any
: zrf-cascades ( -- any? )
	FALSE zrf-n @ zrf-base @ ?DO I zrf-entry 6 = IF $Cascade DROP TRUE ELSE 2DROP THEN LOOP ;

\ zrf-edits ( -- )  the edits of the move so far, recorded, in the order
\ Zillions plays them: the pieces cascaded on, then the piece that moves
\ (as it stood when the move began, when pieces were cascaded), then the
\ captures (a capture where a piece landed takes it: KoShogi's saved
\ game takes the moving piece so, Chase's the piece a cascade put in
\ its chamber), then the other edits in their order (a type or owner
\ change of the moving piece where it lands). A drop's piece appears
\ first (a capture where it lands takes it: Bolotoudou's saved game
\ drops a Lock on an enemy man and captures there, and the square is
\ then empty)
: zrf-edits ( -- )
	zrf-recycle? IF zrf-recycle-landing THEN
	zrf-placing? IF
		zrf-to-pos create-at  zrf-captures  zrf-cascades DROP
	ELSE
		zrf-cascades  from zrf-to-pos 2DUP <> IF ROT IF $Cascade ELSE move THEN ELSE 2DROP DROP THEN
		zrf-captures
	THEN
	zrf-n @ zrf-base @ ?DO
		I zrf-entry DUP 1 <> IF
			2DUP zrf-mover-edit?  2 PICK I zrf-created-before? 0= AND  IF NIP zrf-to-pos SWAP THEN zrf-apply
		ELSE DROP 2DROP THEN
	LOOP ;

\ zrf-add ( type partial -- )  ZRF's `add`: the move so far becomes an
\ Axiom move (type: the piece it turns into, 0 none; partial: -1 not
\ partial, 0 partial, n partial of move type n); the block goes on
: zrf-add ( type partial -- )
	zrf-n @ zrf-base @ =  zrf-placing? 0= AND  zrf-recycle? 0= AND IF
		\ most moves: the piece moves, nothing else is logged
		from zrf-to-pos 2DUP <> IF move ELSE 2DROP THEN
	ELSE  zrf-edits  THEN
	SWAP ?DUP IF zrf-to-pos change-type-at THEN
	from COMPILE-LITERAL  zrf-to-pos COMPILE-LITERAL
	DUP 0< IF DROP COMPILE zrf-played ELSE ?DUP IF partial-move-type ELSE partial THEN COMPILE zrf-played-partial THEN
	zrf-dropping @ IF zrf-reserved? IF for-player current-piece-type zrf-slot COMPILE-LITERAL COMPILE zrf-take THEN THEN
	add-move ;

\ zrf-add-copy ( type partial -- )  `add-copy`: `add`, the piece staying
\ where it was and a copy of it going
: zrf-add-copy ( type partial -- )  TRUE zrf-copying !  zrf-add  FALSE zrf-copying ! ;

\ zrf-begin-move ( -- )  a move word starts (after its first steps and
\ tests): in a chain of partial moves, only the piece that moved last
\ moves on; `mark` is where it started
: zrf-begin-move ( -- )
	zrf-chain @ DUP 0< SWAP from = OR verify
	FALSE zrf-dropping !  zrf-begin  from zrf-mark ! ;

\ zrf-begin-drop ( -- )  a drop word starts: never inside a chain; a
\ piece in reserve when the setup counts them (the reserve of the
\ player whose pieces move: `(?N North support)` drops North's)
: zrf-begin-drop ( -- )
	zrf-chain @ 0< verify
	zrf-reserved? IF for-player current-piece-type zrf-slot zrf-reserve @ 0> verify THEN
	TRUE zrf-dropping !  zrf-begin ;

\ zrf-count ( player type -- n )  that player's pieces of that type on
\ the board (player 0: anyone's; type 0: any type)
: zrf-count ( player type -- n )
	SWAP zrf-who @ >R zrf-who !  0
	zrf-#positions 0 ?DO
		I piece-at IF
			zrf-who @ IF  I 2 PICK zrf-own?  ELSE  I piece-type-at 2 PICK = 2 PICK 0= OR  THEN
			IF 1+ THEN
		THEN
	LOOP
	NIP R> zrf-who ! ;

\ zrf-verdict ( kind player -- score )  a goal met by player (kind 1 win,
\ 2 loss, 3 draw), from the side of the player to move
: zrf-verdict ( kind player -- score )
	current-player = IF
		DUP 1 = IF DROP #WinScore EXIT THEN  2 = IF #LossScore ELSE #DrawScore THEN
	ELSE
		DUP 1 = IF DROP #LossScore EXIT THEN  2 = IF #WinScore ELSE #DrawScore THEN
	THEN ;

\ zrf-by-count ( player -- kind )  a count-condition met: more than half
\ of the pieces on the board win (1), half draw (3), fewer lose (2)
: zrf-by-count ( player -- kind )
	0 zrf-count 2*  0 0 zrf-count
	2DUP = IF 2DROP 3 EXIT THEN  > IF 1 ELSE 2 THEN ;
