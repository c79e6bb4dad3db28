\ A game that keeps state outside its board, for the tests that a VM put
\ back for its next game starts it as a freshly loaded one would
\ (tests/reuse.rs): a variable that OnNewGame never resets, a cell far
\ above HERE that no definition owns, and a length drawn at random when
\ each game starts. The verdict reads all three, so any of them carried
\ over from the game before changes the result.

{board
	3 3 {grid}
board}

{players
	{player} Me
	{player} You
players}

VARIABLE plays
VARIABLE target

\ scratch ( -- addr )  a cell far above HERE
: scratch ( -- addr )  HERE 100000 + ;

\ place ( -- )  a stone on any empty square
: place ( -- )  empty? verify drop add-move ;

{moves places {move} place moves}
{pieces {piece} Stone {drops} places pieces}
{turn-order {turn} Me {turn} You turn-order}

: OnNewGame ( -- )  3 9 RAND-WITHIN target ! ;

: OnMakeAMove ( -- )  plays ++  scratch @ 3 + scratch ! ;

: OnIsGameOver ( -- score )
	plays @ target @ < IF #UnknownScore EXIT ENDIF
	plays @ scratch @ + 2 MOD 0= IF #WinScore ELSE #LossScore ENDIF ;
