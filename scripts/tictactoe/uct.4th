\ =====================================================================
\  Tic-tac-toe -- uct.4th : both players use Monte-Carlo tree search
\ =====================================================================
\
\  A variant file: LOADs the complete game and hands both players to the
\  built-in {UCT} engine (random playouts through the real move
\  generator; the most-visited move is played).  Pit it against the
\  other variants, e.g.
\      axforth autoplay scripts/tictactoe/uct.4th scripts/tictactoe/random.4th -n 20

LOAD tictactoe.4th

{players
	{player} X {UCT}
	{player} O {UCT}
players}

{turn-order
	{turn} X
	{turn} O
turn-order}

\ OnNewGame ( -- )  seed the playouts (fixed under --seed).
: OnNewGame ( -- )
	RANDOMIZE ;
