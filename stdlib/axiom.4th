\ The Axiom vocabulary, the part written in ForthScript (AXIOM.md).
\ The declaration blocks, move generation and the engine words are
\ native (vm/game/); this file holds the encodings and the directives.

\ ---- encodings (AXIOM.md §1): scripts do arithmetic on these ----
$03FF CONSTANT #PieceType	( -- mask )  \ piece type bits of a square
2048  CONSTANT #PlayerBase	( -- n )     \ player k is k * #PlayerBase
$F800 CONSTANT #PlayerNumber	( -- mask )  \ the player number bits
1024  CONSTANT #Neutral		( -- bit )   \ set for neutral players
$FC00 CONSTANT #Player		( -- mask )  \ player number and neutral bit

2130000000  CONSTANT #WinScore		( -- score )
-2130000000 CONSTANT #LossScore		( -- score )
0           CONSTANT #DrawScore		( -- score )
-2140000000 CONSTANT #UnknownScore	( -- score )

\ player-index ( player -- i )  0 for the first player of {players
: player-index ( player -- i )  #PlayerNumber AND #PlayerBase / 1- ;

\ piece-index ( piece -- i )  0 for the first {piece}
: piece-index ( piece -- i )  #PieceType AND 1- ;

\ ---- what stands on a square: short enough to be copied into callers,
\ where the board reads (`piece-at`, `empty-at?`) are instructions that
\ native code makes inline; a native word would be a call each time ----
\ piece ( -- piece )  what stands at here (0: nothing)
: piece ( -- piece )  here piece-at ;
\ piece-type ( -- type )  the type of what stands at here (0: nothing)
: piece-type ( -- type )  here piece-at #PieceType AND ;
\ player ( -- player )  the owner of what stands at here
: player ( -- player )  here player-at ;
\ not-empty-at? ( pos -- ? )  something stands on pos
: not-empty-at? ( pos -- ? )  empty-at? 0= ;
\ friend-at? ( pos -- ? )  what stands on pos is current-player's friend
: friend-at? ( pos -- ? )  current-player friend-of? ;
\ enemy-at? ( pos -- ? )  what stands on pos is current-player's enemy
: enemy-at? ( pos -- ? )  current-player enemy-of? ;

\ ---- directives: variables a game sets with ON / OFF ----
VARIABLE $passTurnForced	\ no move: pass instead of losing
VARIABLE $gameLog		\ script output also goes to <game>.log
VARIABLE $flipGrid		\ row 1 is the top row
VARIABLE $combinePartial	\ engines treat a partial chain as one turn
VARIABLE $shareMovesList

\ $RAND-WITHIN ( lo hi -- n )  the engines' random numbers; deferred, as in
\ the original, so a game may say `' RAND-WITHIN2 IS $RAND-WITHIN`
DEFER $RAND-WITHIN ( lo hi -- n )
' RAND-WITHIN IS $RAND-WITHIN
