\ A combination lock: one player drops stones, and only one order opens
\ it (a1 b2 c3 a3 c1 b1); any other stone ends the game lost.  A random
\ game opens it about once in 60,000 tries (9 * 8 * 7 * 6 * 5 * 4), so a
\ search finds the one way only by proving the other moves lost.

{board
	3 3 {grid}
board}

{players
	{player} Me
players}

\ place ( -- )  a stone on any empty square
: place ( -- )
	empty? verify
	drop add-move ;

{moves places {move} place moves}
{pieces {piece} Stone {drops} places pieces}
{turn-order {turn} Me turn-order}

\ filled ( pos -- 0|1 )
: filled ( pos -- n )  not-empty-at? IF 1 ELSE 0 THEN ;

\ stones ( -- n )  stones on the board
: stones ( -- n )
	a1 filled a2 filled + a3 filled + b1 filled + b2 filled +
	b3 filled + c1 filled + c2 filled + c3 filled + ;

\ opened ( -- n )  how many of the combination's squares, in order, hold stones
: opened ( -- n )
	0 a1 not-empty-at? IF 1+ b2 not-empty-at? IF 1+ c3 not-empty-at? IF 1+
	a3 not-empty-at? IF 1+ c1 not-empty-at? IF 1+ b1 not-empty-at? IF 1+
	THEN THEN THEN THEN THEN THEN ;

: OnIsGameOver ( -- score )
	stones opened <> IF #LossScore EXIT THEN
	opened 6 = IF #WinScore ELSE #UnknownScore THEN ;
