\ =====================================================================
\  English draughts (checkers) -- draughts.4th : the game (load this)
\ =====================================================================
\
\  8x8, twelve men each on the dark squares, Black moves first.  Men
\  move one square diagonally forward, kings one square diagonally
\  either way; a capture jumps an enemy piece onto the empty square
\  behind it, and captures are mandatory, multi-jumps included.  A man
\  reaching the far row becomes a king and the move ends.  A player
\  with no move loses.
\
\  Perft from the start, as published (a whole multi-jump is one move):
\  7 49 302 1469 7361 36768 179740 845931.
\
\  Files: board.4th (board, players, directions, symmetries),
\  pieces.4th (men, kings, moves), this file, random.4th (a variant).

LOAD board.4th
LOAD pieces.4th

{turn-order
	{turn} Black
	{turn} White
turn-order}

{board-setup
	{setup} Black Man a1 c1 e1 g1 b2 d2 f2 h2 a3 c3 e3 g3
	{setup} White Man b6 d6 f6 h6 a7 c7 e7 g7 b8 d8 f8 h8
board-setup}

: OnNewGame ( -- )
	-1 chain-square ! ;

\ A new turn: no multi-jump is going on.
: OnNextTurn ( -- )
	-1 chain-square ! ;

\ The player to move loses when he has no move; otherwise play on.
: OnIsGameOver ( -- score )
	stalemate? IF #LossScore ELSE #UnknownScore THEN ;

\ Evaluation for the default engine: material, kings worth three men.
: OnEvaluate ( -- score )
	current-player material-balance ;
