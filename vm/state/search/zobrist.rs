//! Zobrist position keys (`Keys`): one random key per cell of the board
//! region and per place in the turn order, and the positions' part of the
//! key kept incrementally as board edits come (`search/zobrist.rs` says
//! how keys are made and used, and gives the `Vm` its `position_key`).
//!
//! Pure functions of the board's bytes and the turn state: may touch the
//! state floor and the floor below.

use crate::state::Game;
use crate::memory::Memory;
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
    pub fn key(&mut self, game: &Game, mem: &Memory) -> u64 {
        let board = &game.board;
        let bytes = mem.slice(board.region as i32, board.region_len as i32).unwrap_or(&[]);
        let cells = bytes.len() / 4;
        let turns = game.turns.len().max(1);
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
        self.turn_key(game) ^ variables ^ positions
    }

    /// Everything hashed afresh (what `key` must equal).
    pub fn recomputed(&mut self, game: &Game, mem: &Memory) -> u64 {
        let kept = self.positions.take();
        let k = self.key(game, mem);
        self.positions = kept;
        k
    }

    /// The place in the turn order, and whether a partial chain is under
    /// way (and of which move type: a different continuation is a
    /// different position).
    fn turn_key(&self, game: &Game) -> u64 {
        let turns = game.turns.len().max(1);
        let t = &game.turn;
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
