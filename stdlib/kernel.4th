\ kernel.4th — the rest of the Axiom kernel vocabulary: every word the
\ original kernel files (axiom.4th and CORE.4TH of Axiom 1.40, 1.50 and
\ 1.51) defined that axforth did not have, written anew from what each
\ word is documented or observed to do. Loaded after axiom.4th. Words
\ that touch the game state are native (vm/game/kernel.rs); the kernel's
\ system variables that mirror game state are native too (read-only).
\ tests/kernel.rs lists the names by version and checks them.

\ ==== CORE.4TH ========================================================

\ ---- dictionary headers ----
\ axforth has no name/link/code fields in data space: a word is known by
\ its token (what ' gives). LATEST answers the newest word's token, and
\ the header conversions keep a token a token, so the kernel's own uses
\ (`LATEST NFA>CFA ,`, `LATEST NFA>CFA EXECUTE`) work; `CFA>NFA @` (the
\ name string) does not exist here.
: NFA>CFA  ( nfa -- cfa )  ;
: NFA>PFA  ( nfa -- pfa )  >BODY ;
: CFA>LFA  ( cfa -- lfa )  ;
: CFA>NFA  ( cfa -- nfa )  ;
: PFA>NFA  ( pfa -- nfa )  ;	\ no way back from a body: the address stays
: NFA>LFA  ( nfa -- lfa )  ;
: DEFINITIONS ( -- )  ;		\ one vocabulary: nothing to switch

\ FORGET ( "name" -- ): later lookups of the name and of every word
\ defined after it find the older definitions (space is not reclaimed).
: FORGET ( "name" -- )  ' (FORGET) ;

\ ---- characters ----
10 CONSTANT LF			( -- 10 )  \ line feed
: TAB ( -- )  9 EMIT ;

\ ---- counted strings (a count byte, then the text) ----
\ "SIZE ( str -- n ) bytes a string takes, rounded up to whole cells as
\ the kernel rounded (one cell more when the string fills its last cell)
: "SIZE ( str -- n )  C@ 1+ CELLSIZE + CELLSIZE / CELLS ;
\ the DLL's counted-string words the kernel files build on (`34 WORD PAD
\ ... HERE "MOVE`, `"=` on names): a game may use them as the kernel did
: "COUNT ( str -- addr len )  COUNT ;
: "MOVE ( str addr -- )  OVER C@ 1+ MOVE ;	\ the count byte and the text
: "= ( str1 str2 -- ? )  \ the same count and text
	OVER C@ 1+ 0 ?DO OVER I + C@ OVER I + C@ <> IF 2DROP FALSE UNLOOP EXIT THEN LOOP 2DROP TRUE ;
CREATE PAD ( -- addr ) 256 ALLOT	\ scratch room for a counted string
\ the run-time parts of ." S" ABORT" ^": axforth compiles strings as
\ literals, so these take the string from the stack
: (.")  ( str -- )      TYPE ;
: (S")  ( str -- str )  ;
: (ABORT") ( f str -- ) SWAP IF TYPE CR ABORT ELSE DROP THEN ;
: (^")  ( str -- )      ^string ;

\ ---- floating point: single cells (IEEE-754 single bits) ----
: FVARIABLE ( "name" -- )     VARIABLE ;
: FCONSTANT ( f "name" -- )   CONSTANT ;
: FCELLS    ( n -- n*4 )      CELLS ;
: F,        ( f -- )          , ;

\ ---- message boxes (Windows values) ----
0  CONSTANT #MB_OK			( -- 0 )
1  CONSTANT #MB_OKCANCEL		( -- 1 )
4  CONSTANT #MB_YESNO			( -- 4 )
3  CONSTANT #MB_YESNOCANCEL		( -- 3 )
5  CONSTANT #MB_RETRYCANCEL		( -- 5 )
2  CONSTANT #MB_ABORTRETRYIGNORE	( -- 2 )
64 CONSTANT #MB_ICONINFORMATION		( -- 64 )
48 CONSTANT #MB_ICONEXCLAMATION		( -- 48 )
32 CONSTANT #MB_ICONQUESTION		( -- 32 )
16 CONSTANT #MB_ICONSTOP		( -- 16 )
3  CONSTANT #IDABORT			( -- 3 )
2  CONSTANT #IDCANCEL			( -- 2 )
11 CONSTANT #IDCONTINUE			( -- 11 )
5  CONSTANT #IDIGNORE			( -- 5 )
7  CONSTANT #IDNO			( -- 7 )
1  CONSTANT #IDOK			( -- 1 )
4  CONSTANT #IDRETRY			( -- 4 )
10 CONSTANT #IDTRYAGAIN			( -- 10 )
6  CONSTANT #IDYES			( -- 6 )

\ ==== axiom.4th: constants ============================================
151  CONSTANT #Version		( -- 151 )  \ the newest kernel, 1.51
128  CONSTANT #Directions	( -- n )
128  CONSTANT #Moves		( -- n )
128  CONSTANT #MaxPriorities	( -- n )
256  CONSTANT #Turns		( -- n )    \ 1.51's value (128 before)
3    CONSTANT #DepthLimit	( -- n )
10   CONSTANT #ForeverDepth	( -- n )
0    CONSTANT #KeepSearching	( -- 0 )
1    CONSTANT #StopSoon		( -- 1 )
2    CONSTANT #StopNow		( -- 2 )
32   CONSTANT #Players		( -- n )
1024 CONSTANT #Pieces		( -- n )
4    CONSTANT #PieceCells	( -- n )
3    CONSTANT #TurnOrderCells	( -- n )
0    CONSTANT #NoMoveType	( -- 0 )
1000 CONSTANT #NoPriority	( -- n )
1    CONSTANT #movesCell	( -- 1 )
2    CONSTANT #DropsCell	( -- 2 )
3    CONSTANT #ValueCell	( -- 3 )
$FFFF CONSTANT #PiecePlayer	( -- mask )
11   CONSTANT #PlayerShift	( -- 11 )
0    CONSTANT #Empty		( -- 0 )
-1   CONSTANT ??		( -- -1 )   \ a position without a name
\ 1.40's move-generation context flags
0    CONSTANT #NoContext	( -- 0 )
1    CONSTANT #ImplicitPosition	( -- 1 )
2    CONSTANT #ChangedType	( -- 2 )
4    CONSTANT #ChangedOwner	( -- 4 )
8    CONSTANT #Moved		( -- 8 )

\ ==== axiom.4th: system variables =====================================
\ The ones game state answers ($board $rows $columns $positions $posCount
\ $scanPositions $boardSize $directionCount $pieceCount $scanPieceCount
\ $playerCount $turnNumber $turnOffset $turnLimit $repeatOffset $from $pos
\ $piece $player $forPlayer $ofType $partial $passed $searching $ply
\ $searchTime $depthLimit $iterationDepth $variety $rootMoveCount
\ $playerToMove $currDirection) are native (vm/game/kernel.rs). These
\ point into the original's own tables, which axforth keeps in Rust: they
\ are plain variables that nothing in axforth reads or writes.
VARIABLE $lastPosNFA	VARIABLE $posNames	VARIABLE $directions
VARIABLE $symmetries	VARIABLE $pieces	VARIABLE $zobrist
VARIABLE $players	VARIABLE $playerName	VARIABLE $playerOffset
VARIABLE $engines	VARIABLE $playerToMoveHash	VARIABLE $turnOrder
VARIABLE $timeCheckFrequency	100 $timeCheckFrequency !
VARIABLE $lastMoveType	VARIABLE $evals		VARIABLE $rootMoveIndex
VARIABLE $searchStatus	VARIABLE $moveAddr	VARIABLE $moveString
VARIABLE $move-priorities	VARIABLE $nextPiece	VARIABLE $moveType
VARIABLE $priority	VARIABLE $add-move	VARIABLE $boardSetup
VARIABLE $gameResultBug	$gameResultBug ON
VARIABLE $authoring	VARIABLE $useAxiomEngine	$useAxiomEngine ON
VARIABLE $context	VARIABLE $changedTo	VARIABLE $lastPos
VARIABLE $symmetryPlayerCELLOffset
VARIABLE $direction1CFA	VARIABLE $direction2CFA
VARIABLE $direction1Index	VARIABLE $direction2Index
VARIABLE $anonymous	-1 $anonymous !
TIMER $searchTimer
CREATE $buffer 1024 ALLOT	\ ( -- addr ) a move text's buffer

\ ==== axiom.4th: utilities ============================================
: $addr,      ( addr value -- addr' )  OVER ! CELL+ ;
: $CellCount  ( start end -- cells )   CELLSIZE - SWAP - CELLSIZE / ;
: $CommaCells ( value n -- )           0 ?DO DUP , LOOP DROP ;
: $Exchange   ( addr1 addr2 -- )       2DUP @ SWAP @ ROT ! SWAP ! ;

\ ---- grid arithmetic over the mirrors ----
\ $PositionToIndex ( columnChar row# -- index )  `ASCII c 3` → position
: $PositionToIndex ( columnChar row# -- index )
	$flipGrid @ IF 1- ELSE $rows @ SWAP - THEN
	$columns @ * SWAP 97 - + ;
: $IndexToPosition ( index -- columnChar row# )
	$columns @ /MOD
	$flipGrid @ IF 1+ ELSE $rows @ SWAP - THEN
	SWAP 97 + SWAP ;
: $RowColumnToIndex ( row column -- index )  SWAP $columns @ * + ;
: $LegalRow?    ( row -- ? )     DUP -1 > SWAP $rows @ < AND ;
: $LegalColumn? ( column -- ? )  DUP -1 > SWAP $columns @ < AND ;
: $LegalPos?    ( index -- ? )   DUP 0< NOT SWAP $positions @ < AND ;

\ ---- directions: tokens of direction words stand for the kernel's link
\ arrays (see $Link in vm/game/kernel.rs) ----
: $DoDirection  ( dirXt -- ? )  EXECUTE ;	\ steps `here` along it
: $BuildDirection ( -- )  ;			\ links live in Rust
\ $MakeLinks ( rowOffset columnOffset -- ) links every grid square to the
\ one at that offset, in the direction $currDirection holds
: $MakeLinks ( rowOffset columnOffset -- )
	$rows @ 0 ?DO
		$columns @ 0 ?DO
			OVER J + $LegalRow? IF
				DUP I + $LegalColumn? IF
					J I $RowColumnToIndex
					2 PICK J + 2 PICK I + $RowColumnToIndex
					$currDirection @ $Link
				THEN
			THEN
		LOOP
	LOOP 2DROP ;

\ ---- symmetries: axforth keeps its symmetry tables in Rust ({symmetry});
\ these do the kernel's bookkeeping on its variables only ----
: $SymmetryBase ( dirIndex -- addr )  $playerCount @ CELLS * $symmetries @ + ;
: $symmetryBase ( dirIndex -- addr )  $SymmetryBase ;	\ 1.40's spelling
: $DoIndirectDirection ( dirXt -- ? )  EXECUTE ;
: $RedefineDirection ( baseAddr dirXt -- )  2DROP ;
: $ParseSymmetry ( player "dir1" "dir2" -- )
	player-index CELLS $symmetryPlayerCELLOffset !
	' DUP $direction1CFA ! $DirectionCFAToIndex $direction1Index !
	' DUP $direction2CFA ! $DirectionCFAToIndex $direction2Index ! ;
: $ReplaceDirection ( replacementIndex absoluteIndex -- )  2DROP ;
: $RedefineDirection1 ( -- )  ;
: $RedefineDirection2 ( -- )  ;

\ ---- players ----
: $EncodePlayer ( index -- player )  #PlayerBase * ;
: $PlayerToIndex ( player -- index1 )  #PlayerNumber AND #PlayerBase / ;
: $PlayerToCellOffset ( player -- offset )  $PlayerToIndex 1- CELLS ;
\ $DefinePlayer ( addr index player "name" -- addr' index' ): the player's
\ constant (axforth's players come from {players … players})
: $DefinePlayer ( addr index player "name" -- addr' index' )
	CONSTANT 1+ SWAP LATEST $addr, SWAP ;
\ $CompileEngine ( index' engineXt -- index' ): the kernel's engine
\ table; axforth's engines are named with {search-engine} and friends
: $CompileEngine ( index' engineXt -- index' )
	$engines @ IF OVER 2 - CELLS $engines @ + ! ELSE DROP THEN ;
: $ClearEvals ( -- )  $evals @ ?DUP IF $playerCount @ CELLS ERASE THEN ;
: $player-count ( -- str )  S" player-count" ;

\ ---- pieces ----
: $PieceToIndex ( piece -- index0 )  #PieceType AND 1- ;
: $PieceToCellOffset ( piece -- offset )  $PieceToIndex CELLS ;

\ ---- Zobrist tables: axforth hashes with its own keys (vm/search/
\ zobrist.rs); these build the kernel's tables in data space ----
: $MakeZobristTable ( n -- )
	0 ?DO 0 2147483647 RAND-WITHIN , 0 2147483647 RAND-WITHIN , LOOP ;
: $GeneratePiecePositionHash ( -- )
	HERE $zobrist !
	$pieceCount @ $playerCount @ * 0 ?DO $positions @ $MakeZobristTable LOOP ;
: $GeneratePlayerToMoveHash ( -- )
	HERE $playerToMoveHash ! $playerCount @ $MakeZobristTable ;
: $GenerateZobristTables ( -- )
	$zobrist @ 0= IF $GeneratePiecePositionHash $GeneratePlayerToMoveHash THEN ;

\ ---- the board: axforth names positions at {grid}, {position} and
\ board}, and sizes the board itself ----
: $CheckBoard ( -- )  ;
: $UpdateSize ( -- )  ;
: $GenerateGridNames ( -- )  ;
: $DefinePosNames ( -- )  ;
\ board[] ( pos -- addr ) the DLL's word under `piece-at`: the address of a
\ position's cell. Reading through it is exact; a store through it skips
\ the game words, as in the original (`check` reports the stale position
\ keys such a store leaves).
: board[] ( pos -- addr )  CELLS $board @ + ;

\ ---- moves ----
\ 1.40: .moveString ( m -- addr ) a cell holding the move's text
VARIABLE (move-text)
: .moveString ( m -- addr )  $MoveString (move-text) ! (move-text) ;
: $Exit ( -- )  FALSE verify ;	\ the DLL's way out of a move word, under `verify`
: last ( -- pos )  here ;	\ 1.40: the position modified last; here
\ the move's current position (axforth does not track edits' order)

\ ---- partial moves: what `partial` compiles, and 1.40's names ----
: (partial) ( -- )  partial ;
: (partial-move-type) ( type -- )  partial-move-type ;
: $DoPartial ( -- )  partial ;
: $DoPartialMoveType ( type -- )  partial-move-type ;
: $Pass ( -- )  Pass ;	\ adds the pass move (once per list here)

\ ---- piece reserves ----
VARIABLE _amount-in-reserve	\ holds the xt of the reserve's variable
: remove-from-reserve, ( -- )  _amount-in-reserve @ EXECUTE -- ;
: remove-from-reserve ( -- )   COMPILE remove-from-reserve, ;

\ ---- the simple engines ----
: $FirstMoveEngine ( -- )  $FirstMove $MoveString DUP CurrentMove! BestMove! ;
: $RandomMoveEngine ( -- )
	$FirstMove 0 move-count 1- $RAND-WITHIN
	BEGIN DUP 0> WHILE SWAP $NextMove SWAP 1- REPEAT DROP
	$MoveString DUP CurrentMove! BestMove! ;

\ ---- debugging ----
: $OutputMoves ( -- )
	$FirstMove BEGIN DUP WHILE
		91 EMIT DUP $MoveString TYPE 93 EMIT CR $NextMove
	REPEAT DROP ;
\ the ring buffers were words of the original's DLL, which axforth does
\ not have: the dumps find them empty
: ringbuffer-dump ( -- )  CR ;
: ringbuffer2-dump ( -- )  CR ;

\ ---- board edits ----
: $RemovePiece ( pos -- )  (remove-piece) ;
: $AddPiece ( piece pos -- )  (add-piece) ;
\ the board editor's events (a game may redefine them)
: OnEditRemove ( pos -- )  (remove-piece) ;
: OnEditAdd ( player pieceType pos -- )
	DUP not-empty-at? IF DUP (remove-piece) THEN
	>R OR R> (add-piece) ;

\ ---- default events ----
\ The game layer treats these definitions as "the game defines no such
\ event" (vm/game/kernel.rs), so they change no game; a game calling one
\ gets the kernel's default.
: OnNewGame ( -- )  ;
: OnGenerateMoves ( -- )  ;
: OnMakeAMove ( -- )  ;
\ the turn has already moved on when axforth runs OnNextTurn
: OnNextTurn ( -- )  ;
: OnIsTerminal? ( -- ? )  TRUE ;
: OnRetractMove ( -- )  $DeallocateBoard ;
: OnIsGameOver ( -- score )  #UnknownScore stalemate? IF DROP #DrawScore THEN ;
\ the kernel's default evaluation is a constant; axforth's engines, when
\ the game has no OnEvaluate, use the material balance between contestants
: OnEvaluate ( -- score )  0 ;

: axiomFence ( -- )  ;	\ the end of the kernel
