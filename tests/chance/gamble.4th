\ A gamble whose expected value decides.  Me moves once: a Safe stone on
\ a1 (the game is drawn) or a Bet stone on a2.  Then the dice (`?Dice`,
\ a chance player) put a Die on c1, c2 or c3, each as likely; then the
\ game is over.  A bet wins when the die shows a face below
\ `winning-faces` (c1, and c2 when it is 2), and loses otherwise.  The
\ variant files set `winning-faces` (1 here): with 2 the bet is worth +1/3 of a
\ win, with 1 it is worth -1/3.  Treating the dice as an opponent never
\ bets; treating them as a friend always does.

VARIABLE winning-faces ( -- addr )  1 winning-faces !

{board
	3 3 {grid}
board}

{players
	{player} Me
	{player} You
	{player} ?Dice {random}
players}

\ safe-or-bet ( -- )  the choice; the stone's square says which
: safe-or-bet ( -- )
	here a1 = here a2 = OR verify
	empty? verify
	drop add-move ;

\ throw ( -- )  a face of the die: its column
: throw ( -- )
	here c1 = here c2 = here c3 = OR OR verify
	drop add-move ;

{moves choices	{move} safe-or-bet {move-type} choose-type moves}
{moves faces	{move} throw {move-type} throw-type moves}

{pieces
	{piece} Stone {drops} choices
	{piece} Die {drops} faces
pieces}

{turn-order
	{turn} Me {of-type} choose-type
	{turn} ?Dice {of-type} throw-type
	{turn} You {of-type} choose-type
turn-order}

\ face ( -- n )  the die's face: 0 on c1, 1 on c2, 2 on c3
: face ( -- n )
	c1 not-empty-at? IF 0 EXIT THEN
	c2 not-empty-at? IF 1 EXIT THEN
	2 ;

\ Judged on You's turn (the game's end): Me's result, turned into You's.
: OnIsGameOver ( -- score )
	current-player You <> IF #UnknownScore EXIT THEN
	a1 not-empty-at? IF #DrawScore EXIT THEN
	face winning-faces @ < IF #LossScore ELSE #WinScore THEN ;
