\ An evaluation that never returns, under the built-in engine
\ (tests/search.rs): the search must end once the time per move and
\ the grace are out, with an error naming the event.

LOAD ../../scripts/tictactoe/tictactoe.4th

\ OnEvaluate ( -- score )  never returns
: OnEvaluate ( -- score ) BEGIN AGAIN ;
