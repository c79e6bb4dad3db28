\ =====================================================================
\  Othello -- pieces.4th : the Disc and the move that places it
\ =====================================================================
\
\  A move places a disc of the mover's colour on an empty square.  From
\  that square, in each of the eight directions, look at the run of
\  enemy discs that starts next to it: if a disc of the mover's colour
\  closes the run, every disc of the run is flanked and turns over.  A
\  placement is legal only if it flanks at least one disc.
\
\  The move word runs while the engine generates moves, so keep in mind:
\   - queries (empty? friend? enemy?) see the board as it was BEFORE the
\     move: while we walk, nothing has been flipped or placed yet;
\   - edits are RECORDED into the move and applied, in order, when the
\     move is played:  `current-player pos change-owner-at`  flips a disc,
\     `drop` places the current piece (a Disc) at `here`;
\   - `here` is the position our walks move with the direction words;
\     `back` returns it to `from`, the square the disc goes on.
\
\  The walk only looks; the flips of a direction are recorded once the
\  walk has shown that the run is closed.  So a square that flanks
\  nothing records no edit at all before `verify` rejects it.

\ flanked ( xt -- n )  walk from `from` along direction xt; n = the number
\ of enemy discs in the run if a friendly disc closes it, else 0
: flanked ( xt -- n )
	back  0 SWAP			( n xt )
	BEGIN  DUP EXECUTE  WHILE	\ stepped onto the next square
		enemy? IF
			SWAP 1+ SWAP	\ one more enemy disc in the run
		ELSE
			DROP		( n )  \ the run ends on this square;
			friend? 0= IF	\ it counts only if a friend closes it
				DROP 0
			THEN
			EXIT
		THEN
	REPEAT
	2DROP 0 ;			\ ran off the board: nothing flanked

\ flip-line ( total xt -- total' )  record the flips in direction xt and
\ add their number to total
: flip-line ( total xt -- total' )
	DUP flanked			( total xt n )
	DUP IF
		back
		DUP 0 DO
			OVER EXECUTE DROP	\ step onto the next flanked disc
			current-player here change-owner-at
		LOOP
	THEN
	NIP + ;

\ enemy-next? ( xt -- ? )  is there an enemy disc next to `from` in
\ direction xt?  (At the edge the step fails, `here` stays on the
\ empty `from`, and enemy? is false.)
: enemy-next? ( xt -- ? )
	back EXECUTE enemy? AND ;

\ drop-disc ( -- )  the move: place a disc at the square being tried.
\ Most directions end at once -- the square next to `from` is off the
\ board or not an enemy disc -- so look at that square first, and walk
\ the whole run only when it can flank.
: drop-disc ( -- )
	empty? verify			\ the square must be empty
	0				( flipped )
	#directions 0 DO
		I compass DUP enemy-next? IF flip-line ELSE DROP THEN
	LOOP				( flipped )
	0> verify			\ at least one disc must turn over
	back drop			\ record: the new disc on `from`
	add-move ;

\ The move list.  Its moves get the move type `placement` -- a new
\ constant -- so OnIsGameOver can tell a placement from a pass.
{moves disc-drops
	{move} drop-disc {move-type} placement
moves}

\ One piece.  {drops} are tried at every position of the board.  A value
\ of 1 makes `material-balance` count discs.
{pieces
	{piece} Disc {drops} disc-drops 1 {value}
pieces}
