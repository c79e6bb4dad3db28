\ =====================================================================
\  Chess -- chess.4th : the game  (load this file)
\ =====================================================================
\
\  The rules of FIDE chess.  White moves first.  King one square any
\  way; queen, rook and bishop any distance along their lines, not over
\  other pieces; knight the L-shaped jump; pawn one square ahead onto an
\  empty square, two from its first rank over an empty square, and takes
\  diagonally ahead.  Capture by moving onto an enemy piece.
\    Castling: king and rook that have never moved, the squares between
\  them empty, the king not in check and neither passing over nor
\  landing on an attacked square: king e1-g1 with rook h1-f1, or king
\  e1-c1 with rook a1-d1 (b1 must be empty, but may be attacked).
\    En passant: a pawn that has just stepped two squares may be taken
\  by an enemy pawn as if it had stepped one -- on the very next ply
\  only.
\    Promotion: a pawn reaching the last rank becomes a queen, rook,
\  bishop or knight of its side (four distinct moves).
\    No move may leave the mover's own king attacked.  A player to move
\  with no legal move has lost if his king is attacked (checkmate) and
\  draws otherwise (stalemate).
\
\  Draws, and the choices made here (the machine plays, nobody claims):
\    - fifty-move rule: drawn as soon as 100 plies in a row have had no
\      capture and no pawn move (FIDE lets a player claim this, and
\      ends the game itself at 75 moves); a checkmate given on that
\      last ply still wins;
\    - repetition: drawn when the same position (same pieces, same side
\      to move, same castling rights and en-passant square) stands for
\      the third time (FIDE: claimable at three, automatic at five);
\    - dead position, as far as material alone decides it: king against
\      king, king and one knight or bishop against king, and kings with
\      bishops that all stand on squares of one colour.  Other dead
\      positions (blocked pawns) play on.
\  These change no perft count at depths <= 5 from the published
\  positions.
\
\  Move texts: `Pawn e2 - e4`, `Knight g1 - f3`, `Bishop c4 x f7`,
\  promotion `Pawn e7 - e8 = Queen`, en passant `Pawn e5 - d6 x d5`,
\  castling `King e1 - g1 Rook h1 - f1`.
\
\  Perft from the start, as published (Chess Programming Wiki, "Perft
\  Results"): 20 400 8902 197281 4865609 119060324.  tests/chess/ holds
\  the wiki's other positions (Kiwipete, positions 3, 4 and 5) as
\  variants of this file.
\
\  Files:
\    board.4th      the board and its variables, players, directions,
\                   the precomputed tables
\    pieces.4th     the pieces, the attack test, the move words
\    chess.4th      this file: turn order, setup, start of the game, end
\                   of the game, evaluation
\    random.4th     variant: both sides {random}
\    alphabeta.4th  variant: both sides engines/alphabeta.4th
\
\  A variant that starts from another position LOADs this file, then
\  declares its own {board-setup (the latest wins), its {turn-order
\  (Black first if Black is to move) and sets the plain variables below
\  before the game starts: OnNewGame copies them into the board.

LOAD board.4th
LOAD pieces.4th

{turn-order
	{turn} White
	{turn} Black
turn-order}

{board-setup
	{setup} White Rook   a1 h1
	{setup} White Knight b1 g1
	{setup} White Bishop c1 f1
	{setup} White Queen  d1
	{setup} White King   e1
	{setup} White Pawn   a2 b2 c2 d2 e2 f2 g2 h2
	{setup} Black Rook   a8 h8
	{setup} Black Knight b8 g8
	{setup} Black Bishop c8 f8
	{setup} Black Queen  d8
	{setup} Black King   e8
	{setup} Black Pawn   a7 b7 c7 d7 e7 f7 g7 h7
board-setup}

\ The rest of a starting position (FEN's last four fields); a variant
\ sets them after LOADing this file.
VARIABLE initial-castling	all-castling initial-castling !
VARIABLE initial-ep		0 initial-ep !	\ the en-passant square, 0: none
VARIABLE initial-clock		0 initial-clock !	\ the halfmove clock

\ ---------------------------------------------------------------------
\  The start of a game: the board variables from the setup.
\ ---------------------------------------------------------------------

\ survey ( -- )  count the men and find the kings
: survey ( -- )
	0 men !
	64 0 DO
		I not-empty-at? IF
			men ++
			I piece-type-at King = IF I  I player-at player-index king-square ! THEN
		THEN
	LOOP ;

\ holds? ( sq piece player -- ? )  does sq hold that player's piece?
: holds? ( sq piece player -- ? )
	OR SWAP piece-at = ;

\ castling-possible ( -- bits )  the rights the pieces' places allow: a
\ right needs its king and rook on their first squares
: castling-possible ( -- bits )
	0
	e1 King White holds? IF
		h1 Rook White holds? IF white-O-O OR THEN
		a1 Rook White holds? IF white-O-O-O OR THEN
	THEN
	e8 King Black holds? IF
		h8 Rook Black holds? IF black-O-O OR THEN
		a8 Rook Black holds? IF black-O-O-O OR THEN
	THEN ;

\ chess-setup ( -- )  the board variables of the starting position; the
\ side to move is the first turn's player.  Variants that define their
\ own OnNewGame call this first.
: chess-setup ( -- )
	survey
	current-player side-to-move !
	initial-castling @ castling-possible AND castling !
	initial-ep @ ep-square !
	initial-clock @ halfmove-clock !
	assess ;

: OnNewGame ( -- )
	chess-setup ;

\ ---------------------------------------------------------------------
\  The end of the game.  OnIsGameOver answers for `current-player`,
\  which in a game is the side to move, but stays the engine's own side
\  in a ForthScript search; so a checkmate is a loss for the side to
\  move on the board (side-to-move), whoever asks.
\ ---------------------------------------------------------------------

\ light? ( sq -- ? )  is sq a light square?  (a1 is dark.)
: light? ( sq -- ? )
	DUP 8 / SWAP 7 AND + 1 AND 0= ;

\ dead-material? ( -- ? )  can no sequence of moves mate, by material?
\ Asked only with four men or fewer.  Counts knights, bishops on light
\ and on dark squares; any pawn, rook or queen can still mate.
VARIABLE knights
VARIABLE light-bishops
VARIABLE dark-bishops
: dead-material? ( -- ? )
	0 knights !  0 light-bishops !  0 dark-bishops !
	64 0 DO
		I piece-type-at
		DUP Pawn = OVER Rook = OR OVER Queen = OR IF DROP FALSE UNLOOP EXIT THEN
		DUP Knight = IF knights ++ THEN
		Bishop = IF I light? IF light-bishops ++ ELSE dark-bishops ++ THEN THEN
	LOOP
	knights @ 0= IF
		light-bishops @ 0= dark-bishops @ 0= OR		\ bishops of one colour
	ELSE
		knights @ 1 =  light-bishops @ dark-bishops @ + 0= AND
	THEN ;

: OnIsGameOver ( -- score )
	stalemate? IF
		in-check @ 0= IF #DrawScore EXIT THEN
		side-to-move @ current-player = IF #LossScore ELSE #WinScore THEN
		EXIT
	THEN
	halfmove-clock @ 99 > IF #DrawScore EXIT THEN
	repetition-count 2 > IF #DrawScore EXIT THEN
	men @ 5 < IF dead-material? IF #DrawScore EXIT THEN THEN
	#UnknownScore ;

\ ---------------------------------------------------------------------
\  Evaluation, for the engines: material (the {value}s, in centipawns)
\  and a little about squares -- knights and bishops toward the centre,
\  pawns forward, the king at home while queens are on.  From the point
\  of view of `current-player`.
\ ---------------------------------------------------------------------

\ centre ( sq -- n )  0 on the rim up to 6 in the four centre squares
: centre ( sq -- n )
	DUP 8 / DUP 3 > IF 7 SWAP - THEN	( sq row-from-edge )
	SWAP 7 AND DUP 3 > IF 7 SWAP - THEN	( r c )
	+ ;

\ advance ( sq player -- n )  ranks a pawn of player has moved up
: advance ( sq player -- n )
	White = IF 8 / 6 SWAP - ELSE 8 / 1- THEN ;

\ square-bonus ( sq -- n )  the bonus of the piece on sq for its owner
: square-bonus ( sq -- n )
	DUP piece-type-at
	DUP Knight = OVER Bishop = OR IF DROP centre 6 * EXIT THEN
	DUP Pawn = IF DROP DUP player-at advance 8 * EXIT THEN
	King = IF centre -6 * EXIT THEN
	DROP 0 ;

: OnEvaluate ( -- score )
	current-player material-balance
	64 0 DO
		I not-empty-at? IF
			I square-bonus
			I player-at current-player = IF + ELSE - THEN
		THEN
	LOOP ;
