\ =====================================================================
\  Haaru -- pieces.4th : the stone and the drop that lets it fall
\ =====================================================================
\
\  A move drops a stone into a column that is not full; it falls to the
\  lowest empty cell.  As a drop word is tried at every cell of the
\  board, the move is "put a stone on a cell that is empty and has
\  the floor or a stone under it": that cell is exactly where a stone
\  dropped into its column comes to rest, and a full column has none.
\
\  The move also runs stone-landed (lines.4th) when it is played, to
\  keep the lines and the evaluation up to date.

\ landing? ( pos -- ? )  does a stone dropped into pos's column stop on
\ pos?  (Moves `here`.)  The search uses it too, to tell which column a
\ move is in.
: landing? ( pos -- ? )
	to  empty? IF
		s IF not-empty? ELSE TRUE THEN	\ a stone below, or the floor
	ELSE
		FALSE
	THEN ;

\ drop-stone ( -- )  the move: a stone comes to rest on the cell tried
: drop-stone ( -- )
	from landing? verify
	back drop
	here COMPILE-LITERAL COMPILE stone-landed
	add-move ;

{moves stone-drops
	{move} drop-stone
moves}

{pieces
	{piece} Stone {drops} stone-drops
pieces}
