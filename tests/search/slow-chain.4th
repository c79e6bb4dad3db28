\ A turn of two steps and an evaluation that takes long: a search given
\ a moment cannot finish even its first iteration, since the second step
\ of every first step is searched before the first iteration ends.  Me
\ drops a Stone (a partial move), then a second one; You likewise.  The
\ game never ends, and every square is worth the same.

{board
	3 3 {grid}
board}

{players
	{player} Me
	{player} You
players}

\ second-stone ( -- )  the step that ends the turn
: second-stone ( -- )
	empty? verify
	drop add-move ;

{moves seconds	{move} second-stone {move-type} second-type moves}

\ first-stone ( -- )  the first step of a turn: the same player moves
\ again, a second-type move
: first-stone ( -- )
	empty? verify
	drop second-type partial-move-type add-move ;

{moves firsts	{move} first-stone {move-type} first-type moves}
{pieces
	{piece} Stone {drops} firsts
	{piece} Pebble {drops} seconds
pieces}

{turn-order
	{turn} Me {of-type} first-type
	{turn} You {of-type} first-type
turn-order}

\ OnEvaluate ( -- score )  nothing to tell the squares apart, slowly
: OnEvaluate ( -- score )
	0 300000 0 DO 1+ LOOP DROP 0 ;
