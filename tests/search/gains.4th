\ Two gains of different size: the first move may put the Gold (worth 5)
\ on a1 or the Copper (worth 1) on b1, or a Pebble (worth nothing)
\ anywhere; then both players drop Pebbles until the 6 x 6 board is full
\ (a draw); the Copper's move comes first.  Random games longer than a search plays out are judged by
\ the material, which the Gold raised more.

{board
	6 6 {grid}
board}

{players
	{player} Me
	{player} You
players}

\ first-move? ( -- ? )  neither coin is down, nor anything on their squares
: first-move? ( -- ? )  a1 empty-at? b1 empty-at? AND ;

\ coin ( pos -- )  a coin on pos, as the first move
: coin ( pos -- )
	first-move? verify
	to drop add-move ;

: gold ( -- )  a1 coin ;
: copper ( -- )  b1 coin ;

\ place ( -- )  a pebble on any empty square
: place ( -- )
	empty? verify
	drop add-move ;

{moves golds {move} gold moves}
{moves coppers {move} copper moves}
{moves places {move} place moves}
{pieces
	{piece} Copper {drops} coppers 1 {value}
	{piece} Gold {drops} golds 5 {value}
	{piece} Pebble {drops} places 0 {value}
pieces}
{turn-order {turn} Me {turn} You turn-order}
