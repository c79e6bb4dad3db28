//! Zobrist keys of positions: one random 64-bit key per cell of the board
//! region (positions and board variables alike) from `rand_xoshiro`, mixed
//! with the cell's content, XORed together with a key for the place in
//! the turn order. The keys feed the transposition table and the game's
//! position history (repetitions).
//!
//! The key is computed from the region each time it is needed: move words
//! and events may change any board variable through `!`, so no edit list
//! describes a move completely. A pass over a 100-cell region costs about
//! as much as one move's edits (see `axforth bench`), far below a move
//! generation.

use crate::vm::Vm;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256StarStar;

/// Fixed, so that keys (and thus searches) repeat from run to run.
const SEED: u64 = 0x5A0B_2157_AC1D_F00D;

#[derive(Default)]
pub struct Keys {
    /// One key per 4-byte cell of the board region.
    cells: Vec<u64>,
    /// One key per turn-order index, and one per partial-chain state.
    turns: Vec<u64>,
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

    /// The key of the position the VM's board and turn state describe.
    pub fn key(&mut self, vm: &Vm) -> u64 {
        let board = &vm.game.board;
        let bytes = vm.mem.slice(board.region as i32, board.region_len as i32).unwrap_or(&[]);
        let turns = vm.game.turns.len().max(1);
        self.ensure(bytes.len() / 4, 2 * turns + 2);
        let t = &vm.game.turn;
        // The turn index, and whether a partial chain is under way (and
        // of which move type: a different continuation is a different
        // position).
        let turn_key = self.turns[t.index.min(turns)] ^ self.turns[turns + 1 + (t.partial.max(-1) + 1) as usize % (turns + 1)];
        let mut h = turn_key ^ (t.partial as u64).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        for (z, cell) in self.cells.iter().zip(bytes.chunks_exact(4)) {
            let v = u32::from_le_bytes([cell[0], cell[1], cell[2], cell[3]]);
            if v != 0 {
                h ^= content_key(*z, v);
            }
        }
        h
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
}
