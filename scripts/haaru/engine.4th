\ =====================================================================
\  Haaru -- engine.4th : both players use the Haaru search, 5 plies deep
\ =====================================================================
\
\  search.4th's alpha-beta over the lines evaluation (lines.4th).  Five
\  plies see every threat of the next two moves each; against {random}
\  it does not lose.
\      axforth autoplay scripts/haaru/engine.4th scripts/haaru/random.4th -n 100
\  Another depth: a variant that LOADs this file and sets haaru-depth.

LOAD haaru.4th
LOAD search.4th

5 haaru-depth !

{players
	{player} Red {search-engine} haaru-engine
	{player} Yellow {search-engine} haaru-engine
players}

{turn-order
	{turn} Red
	{turn} Yellow
turn-order}
