//! Chains of partial moves whose step undoes the one before it.
//!
//! A step of a chain that undoes the step before it, putting the board,
//! and the turn (the move type the next step is restricted to), back as
//! they were before that step, can be followed by the same two steps
//! again, without end: a king of South African Checkers
//! (CheckersCollection.zrf) whose continuation may jump a piece it has
//! marked as taken jumps it back and forth. Such a step is not offered
//! (`drop_returning_steps`): the position it leads to was reached
//! already, so what a chain can end on is unchanged; a chain left
//! without a step ends, as one with no continuation does. In a game with
//! no such step none is dropped.
//!
//! Longer cycles still end in an error past `MAX_CHAIN` steps, as does a
//! step that changes nothing (the bug of a move word that says `partial`
//! whatever happens). Why not every return to an earlier position: a
//! piece whose every step is partial then has every cycle-free walk over
//! the board to try, which perft and `"maximal captures"` count one by
//! one (the fuzz test's game of a piece on nine squares ran for minutes
//! where it failed at once before); the error at once is what its porter
//! needs.
//!
//! A step is tried as perft and `maximal.rs` try one: made (its edits,
//! its words, `OnMakeAMove`) on the saved board, which is put back after.
//!
//! The positions a chain reached are keyed as their continuations are
//! generated (a chain's step is always followed by the list of the next:
//! `generate_turn`), so a chain that ends, as most do, costs no key.
//!
//! Owns `Game::chain_keys`; `play.rs` calls in at each continuation
//! generated.

use crate::error::VmResult;
use crate::vm::Vm;

impl Vm {
    /// Drops from the current list (a chain's continuation) the partial
    /// steps that would undo the chain's last step.
    pub(crate) fn drop_returning_steps(&mut self) -> VmResult<()> {
        let reached = self.game.turn.chain as usize;
        let range = self.game.store.current();
        if reached == 0 || range.is_empty() {
            return Ok(());
        }
        // The board is the chain's latest position; those before it were
        // kept as their continuations were generated.
        let here = self.position_key();
        let keys = &mut self.game.chain_keys;
        keys.truncate(reached - 1);
        keys.push(here);
        // After one step there is no step before it to undo.
        if reached == 1 {
            return Ok(());
        }
        let turn = self.game.turn;
        self.push_board()?;
        let mut returning = Vec::new();
        let mut result = Ok(());
        for m in range.clone() {
            match self.returns(m, reached) {
                Ok(true) => returning.push(m),
                Ok(false) => {}
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
            self.game.turn = turn;
            self.enter_turn();
            if let Err(e) = self.reset_board() {
                result = Err(e);
                break;
            }
        }
        self.drop_board();
        result?;
        if !returning.is_empty() {
            let moves = &mut self.game.store.moves;
            let mut keep = range.start;
            for i in range {
                if !returning.contains(&i) {
                    moves[keep] = moves[i];
                    keep += 1;
                }
            }
            moves.truncate(keep);
        }
        Ok(())
    }

    /// Whether move m, a partial step played on the board as it is,
    /// brings back the position before the chain's last step (the
    /// `reached - 1`-th the chain reached).
    fn returns(&mut self, m: usize, reached: usize) -> VmResult<bool> {
        if !self.game.store.moves[m].is_partial() {
            return Ok(false);
        }
        self.make_move(m)?;
        let key = self.position_key();
        Ok(reached >= 2 && self.game.chain_keys.get(reached - 2) == Some(&key))
    }
}
