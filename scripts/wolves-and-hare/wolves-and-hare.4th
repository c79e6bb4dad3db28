\ =====================================================================
\  Wolves and Hare -- wolves-and-hare.4th : the game  (load this file)
\ =====================================================================
\
\  The rules.  An 8x8 board, dark squares only (a1 is dark).  Four
\  wolves start on a1 c1 e1 g1, the hare on d8.  The hare moves first.
\  A wolf steps one square diagonally forward (up the board, away from
\  row 1) onto an empty square; the hare steps one square diagonally in
\  any direction onto an empty square.  Nothing is ever captured.
\    - The hare wins on reaching row 1, the wolves' starting row.
\    - The wolves win when the hare, to move, cannot move.
\  With perfect play the wolves win.
\
\  Choices the rules leave open, made here:
\    - The hare starts on d8, of the dark squares of row 8 (b8 d8 f8 h8)
\      the one nearest the middle.
\    - Wolves that cannot move pass ($passTurnForced): the hare moves
\      again.  It happens only when the wolves are all jammed against
\      row 8, each other or the hare, and it is no loss for them.
\
\  Files:
\    board.4th            8x8 {grid}, hare-square, players, diagonals
\    pieces.4th           Hare and Wolf, their step moves
\    distance.4th         OnEvaluate: the hare's distance home (BFS)
\    wolves-and-hare.4th  this file: setup, end of the game
\    random.4th           variant: both sides {random}
\    engine.4th           variant: both sides engines/alphabeta.4th,
\                         9 plies
\
\  Perft from the start (counted by hand in tests/wolves_and_hare.rs):
\  2, 14, 56, 344.

LOAD board.4th
LOAD pieces.4th
LOAD distance.4th

$passTurnForced ON

{turn-order
	{turn} Hares
	{turn} Wolves
turn-order}

{board-setup
	{setup} Hares Hare d8
	{setup} Wolves Wolf a1 c1 e1 g1
board-setup}

\ locate-hare ( -- )  set hare-square from the setup, so the hare's
\ start is written in one place only
: locate-hare ( -- )
	#squares 0 DO
		I piece-type-at Hare = IF I hare-square ! THEN
	LOOP ;

: OnNewGame ( -- )
	locate-hare ;

\ open? ( xt -- ? )  is the square next to the hare along xt empty?
: open? ( xt -- ? )
	hare-square @ to  EXECUTE IF empty? ELSE FALSE THEN ;

\ shut-in? ( -- ? )  has the hare no square to step to?
: shut-in? ( -- ? )
	['] nw open?  ['] ne open? OR  ['] sw open? OR  ['] se open? OR  0= ;

\ winner ( -- player | 0 )  who has won, if anyone.  Both tests read the
\ board only, not whose turn it is: the hare can be home only just after
\ its own move, and it can be shut in only with the hare to move (the
\ square it just left is always free for it).  So they answer the same
\ inside a search, where current-player stays the engine's side.
: winner ( -- player | 0 )
	hare-square @ goal-row? IF Hares EXIT THEN
	shut-in? IF Wolves EXIT THEN
	0 ;

\ The verdict for current-player.
: OnIsGameOver ( -- score )
	winner ?DUP 0= IF #UnknownScore EXIT THEN
	current-player = IF #WinScore ELSE #LossScore THEN ;
