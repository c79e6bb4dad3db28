//! Chains of partial moves that come back to a position they left.
//!
//! A step of a chain that puts the board, and the turn (the move type
//! the next step is restricted to), back as an earlier step of the same
//! turn left them can be followed by the same steps again, without end: a
//! king of South African Checkers (CheckersCollection.zrf) whose
//! continuation may jump a piece it has marked as taken jumps it back and
//! forth. Such a step is not offered (`drop_returning_steps`): every
//! position the loop reaches, it reached without it, so what a chain can
//! end on is unchanged; a chain left without a step ends, as one with no
//! continuation does. A list's best chain (`maximal.rs`) is then finite.
//! In a game with no such loop no step is dropped.
//!
//! A step that leaves things as they are is not such a return: it is the
//! bug of a move word that says `partial` whatever happens, and stays an
//! error past `MAX_CHAIN` steps. Neither is a return to the position
//! before the chain's first step (kept only from the first step on).
//!
//! The rule makes some broken games valid ones with more chains than
//! anyone can walk: a piece whose every step is partial walks every
//! cycle-free path of the board, which perft and `"maximal captures"`
//! then count one by one. What bounds them is time, not this module:
//! `make_move` looks at the clock and at Ctrl-C every
//! `outer::MOVES_BETWEEN_CHECKS` moves.
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
    /// steps that would bring back a position this turn's chain reached.
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
        // After one step there is no position the chain has left.
        if reached == 1 {
            return Ok(());
        }
        let turn = self.game.turn;
        self.push_board()?;
        let mut returning = Vec::new();
        let mut result = Ok(());
        for m in range.clone() {
            match self.returns(m, reached, here) {
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
    /// reaches one of the positions the chain has left (its first
    /// `reached` less the one it is at, `here`). A step that stays at
    /// `here` is not one, even after an earlier step that stayed: such
    /// steps run into `MAX_CHAIN`.
    fn returns(&mut self, m: usize, reached: usize, here: u64) -> VmResult<bool> {
        if !self.game.store.moves[m].is_partial() {
            return Ok(false);
        }
        self.make_move(m)?;
        let key = self.position_key();
        Ok(key != here && self.game.chain_keys.get(..reached - 1).is_some_and(|left| left.contains(&key)))
    }
}
