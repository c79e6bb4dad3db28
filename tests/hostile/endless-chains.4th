\ Chains too many to walk: a man whose every step is partial walks every
\ path of a 7x7 board that never comes back to a square, and maximal
\ captures counts them all at the first turn. Only time stops the walk.
{board 7 7 {grid} board}
{directions -1 0 {direction} n 1 0 {direction} s 0 1 {direction} e 0 -1 {direction} w directions}
{players {player} A {player} B players}
: step ( dir -- ) EXECUTE verify empty? verify from here move partial add-move ;
: walk-n ( -- ) ['] n step ;
: walk-e ( -- ) ['] e step ;
: walk-s ( -- ) ['] s step ;
: walk-w ( -- ) ['] w step ;
{moves walks {move} walk-n {move} walk-e {move} walk-s {move} walk-w moves}
{pieces {piece} Man {moves} walks pieces}
1 {maximal-captures}
{board-setup {setup} A Man a1 {setup} B Man g7 board-setup}
