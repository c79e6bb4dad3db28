\ =====================================================================
\  Haaru -- haaru.4th : the game  (load this file)
\ =====================================================================
\
\  The rules.  A board of 6 columns and 6 rows stands upright.  Red and
\  Yellow take turns, Red first; a move drops a stone of your colour
\  into a column that is not full, and it falls to the lowest empty
\  cell.  Four or more of your stones in a row -- across, up and down,
\  or along either diagonal -- win; five in a row, or two lines made by
\  one stone, win as well.  There is no passing.  If all 36 cells fill
\  and nobody has a line, the second player, Yellow, wins.
\
\  Files:
\    board.4th    the 6x6 {grid}, the bookkeeping cells, players,
\                 directions
\    lines.4th    the 54 lines of four, kept up to date as stones land;
\                 they decide the game and give the evaluation
\    pieces.4th   the Stone and the drop that lets it fall
\    haaru.4th    this file: turn order, end of the game, evaluation
\    search.4th   an alpha-beta search written for Haaru
\    engine.4th   variant: both players use it, 5 plies deep
\    random.4th   variant: both players {random}
\
\  Perft: 6^n for n = 1 .. 6, then 6^7 - 6 (tests/haaru.rs says why).

LOAD board.4th
LOAD lines.4th
LOAD pieces.4th

{turn-order
	{turn} Red
	{turn} Yellow
turn-order}

\ A game may start with stones on the board (a variant's {board-setup}):
\ count them into the lines.
: OnNewGame ( -- )
	count-stones ;

\ second-player ( -- player )  the player a full board gives the game to
Yellow CONSTANT second-player

\ verdict ( -- score )  the result for current-player.  It reads only
\ what lines.4th keeps, so a search may ask it before generating moves.
\ A line is checked first: the 36th stone may make one.
: verdict ( -- score )
	winner @ ?DUP IF
		current-player = IF #WinScore ELSE #LossScore THEN EXIT
	THEN
	stones @ #cells = IF
		second-player current-player = IF #WinScore ELSE #LossScore THEN EXIT
	THEN
	#UnknownScore ;

: OnIsGameOver ( -- score )
	verdict ;

\ Evaluation, for current-player: the running sum of the lines still
\ open (lines.4th), unless Red can no longer make any line, which is as
\ good as a win for Yellow (not quite a win: it still has to be played
\ out, and a real win, sooner, scores more).
5000 CONSTANT shut-out		( -- n )

: OnEvaluate ( -- score )
	red-shut-out? IF shut-out NEGATE ELSE balance @ THEN
	current-player Red = 0= IF NEGATE THEN ;
