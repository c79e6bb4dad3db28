\ =====================================================================
\  English draughts -- board.4th : the board, the players, directions
\ =====================================================================
\
\  8x8, a1 at the bottom left is a dark square; the men stand and move
\  on the dark squares only.  Black starts on rows 1-3 and moves up the
\  board ("north"), White starts on rows 6-8 and moves down.
\
\  `chain-square` lives in the board: during a multi-jump it holds the
\  square the jumping piece landed on, so only that piece may go on
\  jumping; -1 otherwise.  Being in the board, it is saved and restored
\  with the board by searches and perft.

{board
	8 8 {grid}
	{variable} chain-square
board}

{players
	{player} Black
	{player} White
players}

\  The four diagonals, named from Black's side of the board.
{directions
	-1 -1 {direction} nw
	-1  1 {direction} ne
	 1 -1 {direction} sw
	 1  1 {direction} se
directions}

\  White sees the board upside down: for White, nw means sw and ne
\  means se.  So "forward" is nw/ne for both players, and a man's move
\  words are written once.
{symmetries
	White {symmetry} nw sw {symmetry} ne se
symmetries}

\ last-row? ( pos -- ? )  the row where the player to move crowns a man
\ (row 8 = positions 0..7 for Black, row 1 = 56..63 for White)
: last-row? ( pos -- ? )
	current-player Black = IF 8 < ELSE 55 > THEN ;
