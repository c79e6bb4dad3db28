\ A game of 90,000 moves a turn, for the built-in engines: each node UCT
\ expands holds 90,000 children (megabytes), and alpha-beta's first look
\ at every move reads 90,000 squares at each leaf.
{board 300 300 {grid} board}
{players {player} A {player} B players}
: put ( -- ) empty? verify drop add-move ;
{moves puts {move} put moves}
{pieces {piece} S {drops} puts pieces}
