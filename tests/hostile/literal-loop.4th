\ A move word that compiles literals into its move without end.
{board 3 3 {grid} board}
{players {player} A {player} B players}
: w ( -- ) BEGIN 1 COMPILE-LITERAL AGAIN ;
{moves ms {move} w moves}
{pieces {piece} S {drops} ms pieces}
