\ =====================================================================
\  Wolves and Hare -- engine.4th : both sides use engines/alphabeta.4th
\ =====================================================================
\
\  Plain minimax with alpha-beta (engines/alphabeta.4th) over the
\  game's OnEvaluate, the hare's breadth-first distance to row 1
\  (distance.4th): the wolves lengthen it, the hare shortens it.
\      axforth autoplay scripts/wolves-and-hare/engine.4th scripts/wolves-and-hare/random.4th -n 100
\
\  Why 9 plies.  Seven are enough for the wolves to beat this engine's
\  own hare and a random one, but not every hare: checked against all
\  hare moves, the 7- and 8-ply wolves let one line slip (with wolves
\  on a3 d4 f4 f6 and the hare on d6 only a3-b4 holds, and its reason
\  lies beyond their horizon).  At 9 plies the wolves won against every
\  hare reply from the start, and a move takes at most about 0.2 s.

LOAD wolves-and-hare.4th
LOAD ../../engines/alphabeta.4th

9 ab-depth !

{players
	{player} Hares {search-engine} alphabeta-engine
	{player} Wolves {search-engine} alphabeta-engine
players}

{turn-order
	{turn} Hares
	{turn} Wolves
turn-order}
