//! The transposition table: a fixed-size array of entries indexed by the
//! low bits of the position's Zobrist key, each remembering the score of
//! a searched position, how deep, what kind of bound it is, and the best
//! move (as its index in the position's move list: generation is
//! deterministic, so the same position lists the same moves in order).
//!
//! Part of the search's plain state (`state/search/`): touches nothing
//! else.

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// The score is at least this (a beta cutoff).
    Lower,
    /// The score is at most this (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    pub key: u64,
    pub score: i64,
    pub depth: u16,
    pub bound: Bound,
    /// Index of the best move in the position's list, plus one (0: none).
    pub best: u16,
}

#[derive(Clone, Default)]
pub struct Table {
    entries: Vec<Entry>,
    pub probes: u64,
    pub hits: u64,
    /// Some entry was stored since the table was made or cleared.
    stored: bool,
}

impl Table {
    /// Makes room for `entries` (rounded down to a power of two; 0 turns
    /// the table off), clearing it if the size changes.
    pub fn resize(&mut self, entries: usize) {
        let n = if entries == 0 { 0 } else { 1 << (usize::BITS - 1 - entries.leading_zeros()) };
        if n != self.entries.len() {
            self.entries = vec![Entry::default(); n];
            self.stored = false;
        }
    }

    /// Empty, as made (the entries are only written over if any was
    /// stored since).
    pub fn clear(&mut self) {
        if self.stored {
            self.entries.fill(Entry::default());
            self.stored = false;
        }
        self.probes = 0;
        self.hits = 0;
    }

    pub fn enabled(&self) -> bool {
        !self.entries.is_empty()
    }

    pub fn probe(&mut self, key: u64) -> Option<Entry> {
        if self.entries.is_empty() {
            return None;
        }
        self.probes += 1;
        let e = self.entries[key as usize & (self.entries.len() - 1)];
        (e.key == key && key != 0).then(|| {
            self.hits += 1;
            e
        })
    }

    /// Keeps the deeper result for the same position; any other position
    /// is replaced (the newer search is the more useful one).
    pub fn store(&mut self, key: u64, depth: u32, score: i64, bound: Bound, best: Option<usize>) {
        if self.entries.is_empty() {
            return;
        }
        let mask = self.entries.len() - 1;
        let slot = &mut self.entries[key as usize & mask];
        if slot.key == key && slot.depth as u32 > depth {
            return;
        }
        let best = best.map_or(0, |b| (b + 1).min(u16::MAX as usize) as u16);
        self.stored = true;
        *slot = Entry { key, score, depth: depth.min(u16::MAX as u32) as u16, bound, best };
    }
}
