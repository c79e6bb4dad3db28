\ A move word that records edits without end, and never adds the move.
{board 3 3 {grid} board}
{players {player} A {player} B players}
: w ( -- ) BEGIN from here move AGAIN ;
{moves ms {move} w moves}
{pieces {piece} S {drops} ms pieces}
