\ A move word that prints without end: under `check`, which keeps what a
\ run prints only to throw it away, memory must not grow with it.
{board 3 3 {grid} board}
{players {player} A {player} B players}
: w ( -- ) BEGIN ." all work and no play makes Jack a dull boy " AGAIN ;
{moves ms {move} w moves}
{pieces {piece} S {drops} ms pieces}
