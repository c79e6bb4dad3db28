\ =====================================================================
\  English draughts -- pieces.4th : men, kings and their moves
\ =====================================================================
\
\  Captures are mandatory: the move priorities say a jump beats a shift.
\  A multi-jump is a chain of partial moves: each jump is one move of
\  type `jumping`, marked `jumping partial-move-type`, so the same player
\  moves again with jumps only -- and only the piece that just jumped
\  (chain-square).  When it cannot jump again the chain, and the turn,
\  ends.  A man that reaches the last row is crowned and the move ends.
\
\  Declaring the priorities first makes the move types (jumping = 1,
\  shifting = 2) constants the move words below can use, and declaring
\  the pieces first makes Man and King constants; the move lists they
\  name come further down.

{move-priorities
	{move-priority} jumping
	{move-priority} shifting
move-priorities}

{pieces
	{piece} Man  {moves} man-moves  1 {value}
	{piece} King {moves} king-moves 3 {value}
pieces}

\ chain-ok? ( -- ? )  may this piece move now?  Outside a multi-jump any
\ piece may; inside one only the piece that jumped last.
: chain-ok? ( -- ? )
	chain-square @ DUP 0< SWAP from = OR ;

\ chain-square! ( pos -- )  run when a jump is played: remember where
\ the jumping piece landed
: chain-square! ( pos -- )
	chain-square ! ;

\ crowned? ( -- ? )  is the piece moving a man that lands on its last row?
: crowned? ( -- ? )
	current-piece-type Man = here last-row? AND ;

\ shift ( xt -- )  one step along direction xt onto an empty square
: shift ( xt -- )
	EXECUTE verify  empty? verify
	from here move
	crowned? IF King change-type THEN
	add-move ;

\ jump ( xt -- )  over an enemy piece along xt onto the empty square
\ behind it; the piece may jump on unless it was just crowned
: jump ( xt -- )
	chain-ok? verify
	DUP EXECUTE verify  enemy? verify  here	( xt over )
	SWAP EXECUTE verify  empty? verify	( over )
	from here move  capture-at
	here COMPILE-LITERAL COMPILE chain-square!
	crowned? IF
		King change-type		\ crowning ends the move
	ELSE
		jumping partial-move-type	\ the same piece may jump again
	THEN
	add-move ;

: shift-nw ( -- ) ['] nw shift ;
: shift-ne ( -- ) ['] ne shift ;
: shift-sw ( -- ) ['] sw shift ;
: shift-se ( -- ) ['] se shift ;
: jump-nw ( -- ) ['] nw jump ;
: jump-ne ( -- ) ['] ne jump ;
: jump-sw ( -- ) ['] sw jump ;
: jump-se ( -- ) ['] se jump ;

\ Men move and jump forward only; kings both ways.
{moves man-moves
	{move} jump-nw  {move-type} jumping
	{move} jump-ne  {move-type} jumping
	{move} shift-nw {move-type} shifting
	{move} shift-ne {move-type} shifting
moves}

{moves king-moves
	{move} jump-nw  {move-type} jumping
	{move} jump-ne  {move-type} jumping
	{move} jump-sw  {move-type} jumping
	{move} jump-se  {move-type} jumping
	{move} shift-nw {move-type} shifting
	{move} shift-ne {move-type} shifting
	{move} shift-sw {move-type} shifting
	{move} shift-se {move-type} shifting
moves}
