\ =====================================================================
\  Othello -- alphabeta.4th : both colours use engines/alphabeta.4th
\ =====================================================================
\
\  The game's own OnEvaluate (square weights) and OnIsGameOver, searched
\  by the ForthScript engine instead of the built-in one.  Compare them:
\      axforth autoplay scripts/othello/alphabeta.4th scripts/othello/othello.4th -n 10 --depth 4
\      axforth bench engines --script-engine scripts/othello/alphabeta.4th

LOAD othello.4th
LOAD ../../engines/alphabeta.4th

4 ab-depth !

{players
	{player} Black {search-engine} alphabeta-engine
	{player} White {search-engine} alphabeta-engine
players}

{turn-order
	{turn} Black
	{turn} White
turn-order}
