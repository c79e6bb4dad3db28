( Hop: a test game of our own. Men step north, one square, to an empty
  square; a player without a move loses. Its start position is only in
  ../../Rules/Hop.zrf, as in many real Axiom games. )
{board 3 3 {grid} board}
{players {player} White {player} Black players}
{turn-order {turn} White {turn} Black turn-order}
{directions -1 0 {direction} n 1 0 {direction} s directions}
{symmetries Black {symmetry} n s symmetries}
: step ( -- ) n verify empty? verify from here move add-move ;
{moves man-moves {move} step moves}
{pieces {piece} Man {moves} man-moves pieces}
: OnIsGameOver ( -- score )
	move-count 0= IF ^" No man can step." #LossScore ELSE #UnknownScore THEN ;
