\ Nothing to tell moves apart: two players drop stones anywhere, the
\ evaluation is always 0, and the game ends only when the board is full
\ (a draw).

{board
	3 3 {grid}
board}

{players
	{player} Me
	{player} You
players}

\ place ( -- )  a stone on any empty square
: place ( -- )
	empty? verify
	drop add-move ;

{moves places {move} place moves}
{pieces {piece} Stone {drops} places pieces}
{turn-order {turn} Me {turn} You turn-order}

: OnEvaluate ( -- score )  0 ;
