\ =====================================================================
\  Tic-tac-toe -- pieces.4th : the move word and the pieces
\ =====================================================================
\
\  Both players own the same kind of piece, a Mark; whose mark it is
\  (an X or an O) is the player part of the square's content.  A move
\  puts a new Mark on an empty square: in Axiom that is a DROP, a move
\  word that the engine tries at every position of the board.
\
\  How a move word works, the three things every Axiom move word does:
\
\    1. look at the board  -- queries such as  empty?  friend?  enemy?
\       read the square at `here`.  For a drop, `here` starts as the
\       position being tried, which is also `from`.
\    2. give up or go on   -- `verify ( ? -- )` silently abandons the
\       move word when the flag is false.  No IF/THEN nesting needed.
\    3. record and add     -- edits such as `drop` are RECORDED into the
\       move being built, they do not change the board now.  `add-move`
\       puts the move built so far on the list of legal moves.
\
\  Mind the case: `drop` (lower case) is the Axiom word that places the
\  current piece at `here`; `DROP` (upper case) is the stack word.  Also
\  `here` is the current position, `HERE` the dictionary pointer.

\ drop-mark ( -- )  a move: put a Mark on the empty square being tried
: drop-mark ( -- )
	empty? verify		\ only an empty square can take a mark
	drop			\ record: place the current piece, a Mark, here
	add-move ;		\ and that is one legal move

\ A move list: a name for a set of move words.  One word here.
{moves mark-drops
	{move} drop-mark
moves}

\ The pieces.  {drops} lists are tried at every position of the board,
\ {moves} lists (not used here) for every piece of that type on it.
{pieces
	{piece} Mark {drops} mark-drops
pieces}
