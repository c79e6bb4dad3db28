//! The search's state a game keeps between moves: the limits, the clock
//! and the stop flag, what the engine reported, and the engines' tables
//! (the transposition table, the position keys, move ordering, UCT's
//! tree), as plain data of `Game`.
//!
//! Module map:
//! - `tt`: the transposition table
//! - `zobrist`: position keys (`Keys`), kept incrementally
//! - `ordering`: move ordering (TT move, killers, history)
//! - `uct`: UCT's tree and its nodes
//!
//! May touch the state floor and the floor below; the engines that use
//! this state are `search/` (they need the `Vm`).

pub mod ordering;
pub mod tt;
pub mod uct;
pub mod zobrist;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long past its time per move a script engine that does not give
/// way runs before it is stopped.
pub const ENGINE_GRACE: Duration = Duration::from_secs(1);

/// How long and how deep an engine may think about one move.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Time per move (the default engine and UCT stop at it; a script
    /// engine is told through `searching?`).
    pub time: Option<Duration>,
    /// Plies for the default engine (iterations of deepening).
    pub depth: Option<u32>,
    /// Playouts for UCT.
    pub iterations: Option<u64>,
    /// UCB1's exploration constant.
    pub uct_c: f64,
    /// Transposition table entries (a power of two; 0 turns it off).
    pub tt_entries: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits { time: Some(Duration::from_secs(1)), depth: None, iterations: None, uct_c: 1.4, tt_entries: 1 << 18 }
    }
}

/// What the engine said (or the built-in engines measured) about its
/// latest search.
#[derive(Clone, Debug, Default)]
pub struct Info {
    /// `BestMove!`: the text of the move chosen so far (empty: none yet).
    pub best_move: Option<Vec<u8>>,
    /// `CurrentMove!`: the root move being searched.
    pub current_move: Option<Vec<u8>>,
    pub score: Option<i32>,
    /// `Depth!` (script), or the deepest finished iteration.
    pub depth: u32,
    /// `Nodes!` as the engine counted them.
    pub reported_nodes: u64,
    /// Moves played inside the search (every engine, counted natively).
    pub nodes: u64,
    pub elapsed: Duration,
    /// The time budget ran out before the engine finished.
    pub timed_out: bool,
}

/// The search state a game keeps between moves.
#[derive(Clone)]
pub struct Search {
    pub limits: Limits,
    /// An engine is choosing a move (`searching?`).
    pub active: bool,
    pub deadline: Option<Instant>,
    pub started: Option<Instant>,
    /// Set from outside (Ctrl-C, a decided match): every engine stops at
    /// its next `$Yield` or node.
    pub stop: Arc<AtomicBool>,
    pub info: Info,
    /// Print the engine's reports on stderr as they come.
    pub verbose: bool,
    pub tt: tt::Table,
    pub keys: zobrist::Keys,
    pub ordering: ordering::Ordering,
    pub uct: uct::Tree,
    /// The moves the search has played from the position it searches, as
    /// their places in their lists; left as it is when the game's code
    /// fails, for `choose_move` to name the position it failed in.
    pub line: Vec<u32>,
}

impl Default for Search {
    fn default() -> Search {
        Search {
            limits: Limits::default(),
            active: false,
            deadline: None,
            started: None,
            stop: Arc::new(AtomicBool::new(false)),
            info: Info::default(),
            verbose: false,
            tt: tt::Table::default(),
            keys: zobrist::Keys::default(),
            ordering: ordering::Ordering::default(),
            uct: uct::Tree::default(),
            // Room for a playout's length and more: searching allocates
            // nothing per node.
            line: Vec::with_capacity(2048),
        }
    }
}

impl Search {
    /// As a freshly loaded game's search (`loaded`), keeping its
    /// allocations (the table, the tree) and what the host set (limits,
    /// the stop flag, verbosity).
    pub fn forget_games(&mut self, loaded: &Search) {
        self.tt.clear();
        self.uct.clear();
        self.ordering.clear();
        self.keys.clone_from(&loaded.keys);
        self.info = Info::default();
        self.line.clear();
        self.active = false;
        self.deadline = None;
        self.started = None;
    }

    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Out of time, or told to stop.
    pub fn should_stop(&self) -> bool {
        self.stop_requested() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Past the time per move and the grace after it, or told to stop:
    /// what even a search's first look at every move (which the time
    /// alone does not cut) stops at, so that a game whose moves are many
    /// and slow still gets a move in bounded time.
    pub fn must_stop(&self) -> bool {
        self.stop_requested() || self.deadline.is_some_and(|d| Instant::now() >= d + ENGINE_GRACE)
    }
}

/// Who a game result is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Settled {
    Draw,
    Won(i32),
    Lost(i32),
}
