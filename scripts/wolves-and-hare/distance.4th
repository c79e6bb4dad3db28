\ =====================================================================
\  Wolves and Hare -- distance.4th : how far the hare is from home
\ =====================================================================
\
\  The evaluation is the hare's distance to its goal row, row 1: the
\  fewest hare steps to reach it, walking round the wolves as they now
\  stand.  Breadth-first search from the hare's square: the squares
\  reached first are the nearest, so the first square of row 1 the
\  search reaches gives the distance, and the search stops there.
\
\  The wolves want the distance long, and best of all no path at all:
\  the hare is shut in behind the wolves' line.  That is worth more
\  than any distance, and the less room the hare has left inside, the
\  more: the wolves, who never step back, win by closing the room.
\  It is not yet a win -- the wolves must move every turn, and a move
\  may open the line -- which is what the search looks ahead for.
\  (At the start the wolves stand on all four dark squares of row 1,
\  so the hare counts as shut in until a wolf leaves a way free.)
\
\  Two tables, not in the board: the search is over before anyone
\  clones the board again.  Instead of clearing `bfs-seen` for each
\  search, each search has a serial number and a square counts as seen
\  when it holds the current one: 64 stores saved per evaluation.

64 CONSTANT #squares		( -- n )
1000 CONSTANT shut-in		( -- n )  \ beyond any real distance (at most 31)

#squares [] bfs-queue		\ squares in the order they were reached
#squares [] bfs-seen		\ the serial of the last search that reached it
#squares [] bfs-distance	\ hare steps from the hare's square
VARIABLE bfs-serial
VARIABLE bfs-head		\ next queue slot to expand
VARIABLE bfs-tail		\ next free queue slot
VARIABLE bfs-found		\ the distance to row 1 once known, else -1

\ bfs-reach ( pos d -- )  pos is reached in d steps: mark it and queue it;
\ on row 1 it is the answer
: bfs-reach ( pos d -- )
	OVER goal-row? IF NIP bfs-found ! EXIT THEN
	OVER bfs-distance !
	bfs-serial @ OVER bfs-seen !
	bfs-tail @ bfs-queue !  bfs-tail ++ ;

\ bfs-step ( pos d xt -- )  from pos along direction xt: an empty square
\ not reached yet is reached in d steps
: bfs-step ( pos d xt -- )
	ROT to  EXECUTE IF
		empty? IF
			here bfs-seen @ bfs-serial @ <> IF
				here SWAP bfs-reach EXIT
			THEN
		THEN
	THEN
	DROP ;

\ bfs-expand ( pos -- )  reach the four neighbours of a queued square
: bfs-expand ( pos -- )
	DUP bfs-distance @ 1+		( pos d )
	2DUP ['] nw bfs-step
	2DUP ['] ne bfs-step
	2DUP ['] sw bfs-step
	['] se bfs-step ;

\ hare-distance ( -- n )  the hare's steps to row 1, or shut-in
: hare-distance ( -- n )
	bfs-serial ++  -1 bfs-found !
	0 bfs-head !  0 bfs-tail !
	hare-square @ 0 bfs-reach
	BEGIN
		bfs-found @ 0<  bfs-head @ bfs-tail @ <  AND
	WHILE
		bfs-head @ bfs-queue @ bfs-expand
		bfs-head ++
	REPEAT
	bfs-found @ DUP 0< IF DROP shut-in THEN ;

\ hare-room ( -- n )  after hare-distance found no way home: the squares
\ the hare can still reach, its own included
: hare-room ( -- n )
	bfs-tail @ ;

\ wolves-view ( -- n )  how good the position is for the wolves: the
\ hare's distance home; shut in, more than any distance, and the less
\ room the hare has left the better
: wolves-view ( -- n )
	hare-distance DUP shut-in = IF #squares + hare-room - THEN ;

\ OnEvaluate ( -- score )  the wolves' gain is the hare's loss; answered
\ for current-player, as the engines ask
: OnEvaluate ( -- score )
	wolves-view
	current-player Wolves = 0= IF NEGATE THEN ;
