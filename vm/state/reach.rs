//! Where a piece type's moves can reach, from each position: a superset
//! worked out from the rules before play (the `.zrf` front end does it
//! for the games it translates, `zrf/reach.rs`).
//!
//! Owns `Reach`, plain data. A probe — "can any move of this player end
//! on square K or capture there?", which Zillions' `checkmated` goal asks
//! for every move offered — then runs only the pieces whose reach holds K
//! instead of every move of every piece (`game/generate.rs`,
//! `generate_reaching`). A game without a table probes every piece.

/// A table a script wrote (`{reach}`, `game/reach_table.rs`), not yet
/// checked against the move words it was made for.
#[derive(Clone, Debug)]
pub struct ReachClaim {
    pub fingerprint: u64,
    /// Where `{reach}` stands, for the warning.
    pub at: crate::lexer::Pos,
    pub table: Reach,
}

/// Moves or drops: each has a table of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    Moves = 0,
    Drops = 1,
}

/// For each sweep, piece type (from 1) and position the piece stands on
/// (or, for a drop, the position it is tried at), the positions a move
/// may end on, capture on or put a piece on: a bit per position.
#[derive(Clone, Debug, Default)]
pub struct Reach {
    positions: usize,
    types: usize,
    /// u64s per set of positions.
    words: usize,
    bits: Vec<u64>,
}

impl Reach {
    /// The largest table made (a 19 by 19 board of 40 piece types takes
    /// 1.4 MB).
    pub const MAX_BYTES: usize = 32 << 20;

    /// What a table for `positions` and `types` takes.
    pub fn bytes(positions: usize, types: usize) -> usize {
        (2 * (types + 1) * positions).saturating_mul(positions.div_ceil(64).max(1) * 8)
    }

    /// A table where nothing reaches anything yet.
    pub fn new(positions: usize, types: usize) -> Reach {
        let words = positions.div_ceil(64).max(1);
        Reach { positions, types, words, bits: vec![0; 2 * (types + 1) * positions * words] }
    }

    fn row(&self, sweep: Sweep, piece_type: usize, from: usize) -> Option<usize> {
        (piece_type >= 1 && piece_type <= self.types && from < self.positions).then(|| ((sweep as usize * (self.types + 1) + piece_type) * self.positions + from) * self.words)
    }

    /// The set of `sweep` of `piece_type` from `from`, to fill in.
    pub fn set_mut(&mut self, sweep: Sweep, piece_type: usize, from: usize) -> Option<&mut [u64]> {
        let at = self.row(sweep, piece_type, from)?;
        self.bits.get_mut(at..at + self.words)
    }

    /// The set of `sweep` of `piece_type` from `from`.
    pub fn set(&self, sweep: Sweep, piece_type: usize, from: usize) -> Option<&[u64]> {
        let at = self.row(sweep, piece_type, from)?;
        self.bits.get(at..at + self.words)
    }

    /// Whether a move of `piece_type` from `from` may reach `target`:
    /// true for anything the table does not cover (a position or type
    /// beyond it), as a probe must not skip what it cannot rule out.
    pub fn may_reach(&self, sweep: Sweep, piece_type: usize, from: usize, target: usize) -> bool {
        if target >= self.positions {
            return true;
        }
        match self.row(sweep, piece_type, from) {
            Some(at) => self.bits.get(at + target / 64).is_none_or(|w| w >> (target % 64) & 1 != 0),
            None => true,
        }
    }

    /// `may_reach` for the moves of a piece of `piece_type` (from 1) on
    /// `from`, to a `target` the table covers.
    #[inline]
    pub fn move_may_reach(&self, piece_type: usize, from: usize, target: usize) -> bool {
        if piece_type > self.types {
            return true;
        }
        let at = ((piece_type * self.positions + from) * self.words) + target / 64;
        self.bits.get(at).is_none_or(|w| w >> (target % 64) & 1 != 0)
    }

    /// Whether a drop of `piece_type`, tried anywhere, may reach `target`.
    pub fn drop_may_reach(&self, piece_type: usize, target: usize) -> bool {
        (0..self.positions).any(|from| self.may_reach(Sweep::Drops, piece_type, from, target))
    }

    pub fn positions(&self) -> usize {
        self.positions
    }

    pub fn words(&self) -> usize {
        self.words
    }
}
