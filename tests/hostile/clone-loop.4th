\ Saves the board without end: a clean out-of-memory error, not an abort.
{board 300 300 {grid} board}
: g ( -- ) BEGIN $CloneBoard AGAIN ;
g
