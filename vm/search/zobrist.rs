//! Zobrist keys of positions: one random 64-bit key per cell of the board
//! region (positions and board variables alike, but for `{clock}`
//! variables, which are no part of the position) from `rand_xoshiro`, mixed
//! with the cell's content, XORed together with a key for the place in
//! the turn order. The keys feed the transposition table and the game's
//! position history (repetitions).
//!
//! The positions' part of the key is kept incrementally: every board edit
//! (a move's `Move`, `Capture`, `Place`, change of type or owner) goes
//! through `Vm::apply_edit`, which updates it, and `$CloneBoard` /
//! `$DeallocateBoard` save and restore it with the board. The board
//! variables (scripts change them with `!` anywhere, in move words and
//! events) are hashed afresh each time; they are a few cells.
//! `position_key_recomputed` hashes everything afresh; `axforth check`
//! compares the two after every move, which catches a script that writes
//! a position's cell behind the game words' back.

use crate::vm::Vm;

// The keys are plain data of the search's state (`state/search/zobrist.rs`).
pub use crate::state::search::zobrist::Keys;

impl Vm {
    /// The Zobrist key of the current position.
    pub fn position_key(&mut self) -> u64 {
        let mut keys = std::mem::take(&mut self.game.search.keys);
        let k = keys.key(&self.game, &self.mem);
        self.game.search.keys = keys;
        k
    }

    /// The same, hashed afresh: differs from `position_key` only when a
    /// script wrote a position's cell without the game words.
    pub fn position_key_recomputed(&mut self) -> u64 {
        let mut keys = std::mem::take(&mut self.game.search.keys);
        let k = keys.recomputed(&self.game, &self.mem);
        self.game.search.keys = keys;
        k
    }
}
