\ A move word that adds moves without end.
{board 3 3 {grid} board}
{players {player} A {player} B players}
: w ( -- ) BEGIN from here move add-move AGAIN ;
{moves ms {move} w moves}
{pieces {piece} S {drops} ms pieces}
