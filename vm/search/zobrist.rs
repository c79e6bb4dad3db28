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
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256StarStar;

/// Fixed, so that keys (and thus searches) repeat from run to run.
const SEED: u64 = 0x5A0B_2157_AC1D_F00D;

#[derive(Clone, Default)]
pub struct Keys {
    /// One key per 4-byte cell of the board region.
    cells: Vec<u64>,
    /// One key per turn-order index, and one per partial-chain state.
    turns: Vec<u64>,
    /// The positions' part of the key, when known.
    positions: Option<u64>,
    /// Where position 0's cell is in the region, in cells.
    first_position: usize,
    /// `positions` at each `$CloneBoard` not yet deallocated.
    saved: Vec<Option<u64>>,
}

impl Keys {
    fn ensure(&mut self, cells: usize, turns: usize) {
        if self.cells.len() >= cells && self.turns.len() >= turns {
            return;
        }
        let mut rng = Xoshiro256StarStar::seed_from_u64(SEED);
        self.cells = (0..cells.max(self.cells.len())).map(|_| rng.next_u64()).collect();
        self.turns = (0..turns.max(self.turns.len())).map(|_| rng.next_u64()).collect();
    }

    /// Position `pos` changed from `old` to `new`.
    #[inline]
    pub fn cell_changed(&mut self, pos: i32, old: i32, new: i32) {
        if let Some(k) = &mut self.positions {
            // A board declared since the last key: hash it afresh then.
            let Some(&z) = self.cells.get(self.first_position + pos as usize) else {
                self.positions = None;
                return;
            };
            // An empty cell adds nothing to the key.
            let part = |v: i32| if v == 0 { 0 } else { content_key(z, v as u32) };
            *k ^= part(old) ^ part(new);
        }
    }

    /// The board changed behind our back (a new game): hash it afresh.
    pub fn forget(&mut self) {
        self.positions = None;
    }

    pub fn save(&mut self) {
        self.saved.push(self.positions);
    }

    pub fn restore(&mut self) {
        self.positions = self.saved.pop().flatten();
    }

    /// The keys as last saved, still saved.
    pub fn reset(&mut self) {
        self.positions = self.saved.last().copied().flatten();
    }

    pub fn clear_saved(&mut self) {
        self.saved.clear();
    }

    /// The key of the position the VM's board and turn state describe.
    pub fn key(&mut self, vm: &Vm) -> u64 {
        let board = &vm.game.board;
        let bytes = vm.mem.slice(board.region as i32, board.region_len as i32).unwrap_or(&[]);
        let cells = bytes.len() / 4;
        let turns = vm.game.turns.len().max(1);
        self.ensure(cells, 2 * turns + 2);
        // Position cells: [first, end) of the region's cells.
        let first = (board.cells.saturating_sub(board.region) / 4) as usize;
        let end = (first + board.positions).min(cells);
        if self.first_position != first {
            self.first_position = first;
            self.positions = None;
        }
        // `{clock}` cells are no part of the position.
        let unkeyed = |i: usize| board.unkeyed.iter().any(|&a| a as usize == board.region as usize + 4 * i);
        let hash = |range: std::ops::Range<usize>| {
            let mut h = 0;
            for i in range {
                if unkeyed(i) {
                    continue;
                }
                let c = &bytes[4 * i..4 * i + 4];
                let v = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                if v != 0 {
                    h ^= content_key(self.cells[i], v);
                }
            }
            h
        };
        let variables = hash(0..first.min(cells)) ^ hash(end..cells);
        let positions = match self.positions {
            Some(k) => k,
            None => hash(first.min(end)..end),
        };
        self.positions = Some(positions);
        self.turn_key(vm) ^ variables ^ positions
    }

    /// Everything hashed afresh (what `key` must equal).
    pub fn recomputed(&mut self, vm: &Vm) -> u64 {
        let kept = self.positions.take();
        let k = self.key(vm);
        self.positions = kept;
        k
    }

    /// The place in the turn order, and whether a partial chain is under
    /// way (and of which move type: a different continuation is a
    /// different position).
    fn turn_key(&self, vm: &Vm) -> u64 {
        let turns = vm.game.turns.len().max(1);
        let t = &vm.game.turn;
        let k = self.turns[t.index.min(turns)] ^ self.turns[turns + 1 + (t.partial.max(-1) + 1) as usize % (turns + 1)];
        k ^ (t.partial as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93)
    }
}

/// The key of content v on a cell whose key is z.
#[inline]
fn content_key(z: u64, v: u32) -> u64 {
    let m = (z ^ v as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    m ^ (m >> 29)
}

impl Vm {
    /// The Zobrist key of the current position.
    pub fn position_key(&mut self) -> u64 {
        let mut keys = std::mem::take(&mut self.game.search.keys);
        let k = keys.key(self);
        self.game.search.keys = keys;
        k
    }

    /// The same, hashed afresh: differs from `position_key` only when a
    /// script wrote a position's cell without the game words.
    pub fn position_key_recomputed(&mut self) -> u64 {
        let mut keys = std::mem::take(&mut self.game.search.keys);
        let k = keys.recomputed(self);
        self.game.search.keys = keys;
        k
    }
}
