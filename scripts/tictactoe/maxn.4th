\ =====================================================================
\  Tic-tac-toe -- maxn.4th : X and O use engines/maxn.4th (max^n)
\ =====================================================================
\
\  A variant file: the game, then a search engine written in
\  ForthScript, named by {search-engine}.  Nine plies is the whole game,
\  so the engine plays perfectly: against itself every game is a draw.
\      axforth autoplay scripts/tictactoe/maxn.4th scripts/tictactoe/random.4th -n 20

LOAD tictactoe.4th

\ The engine asks the game how good a position is (define it before the
\ engine is loaded, which calls it); tic-tac-toe has no middle game to
\ judge: every unfinished position is even.
: OnEvaluate ( -- score )  0 ;

LOAD ../../engines/maxn.4th
9 mx-depth !

{players
	{player} X {search-engine} maxn-engine
	{player} O {search-engine} maxn-engine
players}

{turn-order
	{turn} X
	{turn} O
turn-order}
