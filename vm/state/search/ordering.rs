//! Move ordering for the alpha-beta search: the transposition table's best
//! move first, then the moves that caused cutoffs most (the history
//! heuristic, keyed by the move's board edits so that "the same move" is
//! recognised in other positions), then generation order.
//!
//! Part of the search's plain state (`state/search/`): may touch the
//! move store, nothing above the state floor.

use crate::state::{Action, MoveStore};

const HISTORY_SIZE: usize = 1 << 14;

/// Its history is made by the first search (`age`): a VM that never
/// searches allocates none.
#[derive(Clone, Default)]
pub struct Ordering {
    history: Vec<u32>,
    /// The ordered moves of every node on the current path, back to back
    /// (reused: ordering allocates nothing once warm).
    pub stack: Vec<usize>,
    /// Evaluations at the horizon so far (and table results that stood
    /// for some): when an iteration adds none, the game tree has been
    /// searched to its end.
    pub horizon: u64,
}



/// A move's identity across positions: its edits, hashed.
fn signature(store: &MoveStore, m: usize) -> usize {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    let mut add = |x: i64| h = (h ^ x as u64).wrapping_mul(0x0000_0100_0000_01B3);
    for a in store.actions_of(m).iter().take(6) {
        match *a {
            Action::Move { from, to } | Action::Cascade { from, to } => {
                add(1);
                add(from as i64);
                add(to as i64);
            }
            Action::Capture(p) => {
                add(2);
                add(p as i64);
            }
            Action::Place { pos, content } => {
                add(3);
                add(pos as i64);
                add(content as i64);
            }
            Action::ChangeType { pos, piece_type } => {
                add(4);
                add(pos as i64 * 1031 + piece_type as i64);
            }
            Action::ChangeOwner { pos, player } => {
                add(5);
                add(pos as i64 * 1031 + player as i64);
            }
            Action::Lit(n) => add(n as i64),
            Action::Call(xt) => add(xt as i64),
        }
    }
    (h ^ (h >> 32)) as usize & (HISTORY_SIZE - 1)
}

impl Ordering {
    /// Stands in while the search holds the real one (allocates nothing).
    pub fn placeholder() -> Ordering {
        Ordering::default()
    }

    /// As made: no history, no path.
    pub fn clear(&mut self) {
        self.history.fill(0);
        self.stack.clear();
        self.horizon = 0;
    }

    /// Pushes the moves of the current list, best first, onto `stack`;
    /// answers where they start. `first` is the list offset of the move to
    /// try first (from the table).
    pub fn push_ordered(&mut self, store: &MoveStore, first: Option<usize>) -> usize {
        let base = self.stack.len();
        let range = store.current();
        let start = range.start;
        self.stack.extend(range);
        let history = &self.history;
        let key = |m: usize| -> u64 {
            if Some(m - start) == first {
                u64::MAX
            } else {
                history[signature(store, m)] as u64
            }
        };
        // Equal keys keep generation order (an unstable sort with the
        // index as the tie-break: the stable sort would allocate).
        self.stack[base..].sort_unstable_by_key(|&m| (std::cmp::Reverse(key(m)), m));
        base
    }

    /// Move m caused a cutoff `depth` plies from the horizon.
    pub fn cutoff(&mut self, store: &MoveStore, m: usize, depth: u32) {
        let h = &mut self.history[signature(store, m)];
        *h = h.saturating_add(depth * depth + 1);
    }

    /// Halves the history between searches so that old cutoffs fade.
    pub fn age(&mut self) {
        if self.history.is_empty() {
            self.history = vec![0; HISTORY_SIZE];
        }
        self.history.iter_mut().for_each(|h| *h /= 2);
    }
}
