\ Tic-tac-toe with a third mover that gains nothing: after each O move
\ a `?Cleaner` (a chance player, as in Splut!'s Duel) sweeps, a move that
\ changes nothing.  Between two X turns the player changes three times,
\ so an engine that negates its score whenever the player changes scores
\ X's positions in O's frame.  The search tests play it.

LOAD ../../scripts/tictactoe/tictactoe.4th

{players
	{player} X
	{player} O
	{player} ?Cleaner {random}
players}

\ sweep ( -- )  the cleaner's one move: nothing changes
: sweep ( -- )
	current-player ?Cleaner = verify
	here a1 = verify
	add-move ;

{moves sweeps
	{move} sweep {move-type} sweep-type
moves}

{pieces
	{piece} Broom {drops} sweeps
pieces}

{turn-order
	{turn} X
	{turn} O
	{turn} ?Cleaner {of-type} sweep-type
turn-order}

\ The verdict is the contestants' (the cleaner's turn has none); `?DUP`
\ keeps the tic-tac-toe answer otherwise.
: OnIsGameOver ( -- score )
	current-player ?Cleaner = IF #UnknownScore EXIT THEN
	OnIsGameOver ;
