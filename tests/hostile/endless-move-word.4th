\ A move word that never ends: only --max-steps or --timeout stops it.
{board 3 3 {grid} board}
{players {player} A {player} B players}
: w ( -- ) BEGIN AGAIN ;
{moves ms {move} w moves}
{pieces {piece} S {drops} ms pieces}
