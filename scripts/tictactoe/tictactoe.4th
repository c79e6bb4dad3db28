\ =====================================================================
\  Tic-tac-toe -- tictactoe.4th : the game  (load this file)
\ =====================================================================
\
\  The rules.  Two players, X and O, take turns, X first.  On a turn a
\  player puts one of his marks on an empty square of a 3x3 board.  The
\  first player with three marks in a row -- across, down or diagonal --
\  wins.  When the board is full and nobody has a row, it is a draw.
\
\  Files (see board.4th for the whole tour):
\    board.4th      3x3 {grid}, the eight directions, the winning lines
\    pieces.4th     the drop move word and {pieces
\    tictactoe.4th  this file: players, turn order, end of the game
\    random.4th     variant: both players use the {random} engine
\
\  Perft from the start, as published: 9 72 504 3024 15120 54720 148176
\  200448 127872.  The counts shrink at the end because no move is made
\  after a win: that is OnIsGameOver's job, below.
\
\  `LOAD name` reads a file relative to this file's folder.

LOAD board.4th
LOAD pieces.4th

\ ---------------------------------------------------------------------
\  Players.  Each {player} defines a constant: X is player 1, O is
\  player 2.  With nothing after the name a player is played by the
\  default engine, a negamax search; random.4th shows how to choose
\  another one.
\ ---------------------------------------------------------------------

{players
	{player} X
	{player} O
players}

\ Turn order: X, O, X, O ...  the list repeats from the top.
{turn-order
	{turn} X
	{turn} O
turn-order}

\ ---------------------------------------------------------------------
\  The end of the game.
\
\  OnIsGameOver ( -- score ) is called before each turn, after the
\  moves of the player about to move have been generated.  It answers
\  from that player's point of view:
\     #UnknownScore  the game goes on
\     #WinScore      the player to move has won
\     #LossScore     the player to move has lost
\     #DrawScore     a draw
\
\  The board as a whole is read with the `-at` queries, which take a
\  position:  empty-at? ( pos -- ? )  player-at ( pos -- player ).
\ ---------------------------------------------------------------------

\ line-owner ( a b c -- player | 0 )  who holds all three squares, if anyone
: line-owner ( a b c -- player | 0 )
	ROT DUP empty-at? IF		( b c a )
		DROP 2DROP 0		\ an empty square: no row here
	ELSE
		player-at		( b c p )  \ p owns the first square
		TUCK SWAP player-at =	( b p c-too? )
		-ROT TUCK SWAP player-at =	( c-too? p b-too? )
		ROT AND IF ELSE DROP 0 THEN
	THEN ;

\ row-owner ( -- player | 0 )  the owner of a finished row, if any
: row-owner ( -- player | 0 )
	0
	#lines 0 DO
		?DUP 0= IF I line-squares line-owner THEN
	LOOP ;

\ The score is for `current-player`, the player to move: a row is his
\ win or his loss by its owner.  (In a game it is always the player who
\ just moved, so the player to move has lost; asking by the owner keeps
\ the answer right for a search engine in script, which plays moves
\ while current-player stays the one it moves for.)  Check the row
\ first: the ninth mark can both fill the board and win.  With no row,
\ `stalemate?` -- no move for the player to move, which in tic-tac-toe
\ means a full board -- is a draw.

: OnIsGameOver ( -- score )
	row-owner ?DUP IF
		current-player = IF #WinScore ELSE #LossScore THEN EXIT
	THEN
	stalemate? IF #DrawScore EXIT THEN
	#UnknownScore ;
