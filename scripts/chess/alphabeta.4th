\ =====================================================================
\  Chess -- alphabeta.4th : both sides use engines/alphabeta.4th
\ =====================================================================
\
\  The game's OnEvaluate (material and a little about squares, see
\  chess.4th) searched by the ForthScript negamax engine, three plies
\  deep: it takes what hangs and does not leave its own pieces hanging a
\  move deep, and plays a move well under a second.
\      axforth autoplay scripts/chess/alphabeta.4th scripts/chess/random.4th -n 10

LOAD chess.4th
LOAD ../../engines/alphabeta.4th

3 ab-depth !

{players
	{player} White {search-engine} alphabeta-engine
	{player} Black {search-engine} alphabeta-engine
players}

{turn-order
	{turn} White
	{turn} Black
turn-order}
