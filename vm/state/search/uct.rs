//! UCT's tree: an arena of nodes (children contiguous), the path of the
//! current descent, and the judge of random games cut short; with the
//! credit a finished or judged game gives a side. Plain data the engine
//! (`search/uct.rs`) grows and reads.
//!
//! May touch the state floor and the floor below.

use super::Settled;

#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// Index of the first child in the arena (children are contiguous);
    /// valid once `expanded`.
    pub(crate) first: u32,
    pub(crate) children: u32,
    pub(crate) visits: u32,
    /// Sum of the results for `mover` (1 win, ½ draw, 0 loss).
    pub(crate) reward: f64,
    /// The contestant the move leading here served (None: a chance move).
    pub(crate) side: Option<i32>,
    pub(crate) expanded: bool,
    /// The game is over here, or proven to end so whatever is played;
    /// `reward` per visit is then `terminal`'s.
    pub(crate) terminal: Option<Settled>,
}

/// A finished game's credit for a side (1 win, ½ draw, 0 loss; a chance
/// node's is never read).
pub(crate) fn credit(o: Settled, side: Option<i32>) -> f64 {
    match (o, side) {
        (Settled::Draw, _) | (_, None) => 0.5,
        (Settled::Won(p), Some(s)) => (p == s) as u8 as f64,
        (Settled::Lost(p), Some(s)) => (p != s) as u8 as f64,
    }
}

/// How a random game ended: the game's own result, or the evaluation's
/// word on where it was cut (`Judge::outcome`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Outcome {
    Game(Settled),
    /// `credit` for `side`, the root's (the others share the rest).
    Judged { side: i32, credit: f64 },
}

impl Outcome {
    pub(crate) fn credit(self, side: Option<i32>) -> f64 {
        match (self, side) {
            (Outcome::Game(o), _) => credit(o, side),
            (Outcome::Judged { .. }, None) => 0.5,
            (Outcome::Judged { side: j, credit }, Some(s)) => {
                if s == j {
                    credit
                } else {
                    1.0 - credit
                }
            }
        }
    }
}

/// The evaluation as the judge of random games cut short: the root side,
/// its evaluation of the root, and the size of the changes seen so far.
#[derive(Clone, Copy, Default)]
pub(crate) struct Judge {
    pub(crate) side: i32,
    pub(crate) at_root: i32,
    pub(crate) change_sum: f64,
    pub(crate) changes: u32,
}

impl Judge {
    /// The root side's credit for a game cut where its evaluation is `e`:
    /// graded by how far it moved from the root's (a logistic curve whose
    /// unit is the mean change judged so far), so that a move gaining
    /// much ranks above one gaining little, as alpha-beta ranks them; a
    /// win or loss only by its sign would tie every move that gains.
    pub(crate) fn outcome(&mut self, e: i32) -> Outcome {
        let change = e as f64 - self.at_root as f64;
        if change != 0.0 {
            self.change_sum += change.abs();
            self.changes += 1;
        }
        let unit = (self.change_sum / self.changes.max(1) as f64).max(1.0);
        Outcome::Judged { side: self.side, credit: 1.0 / (1.0 + (-change / unit).exp()) }
    }
}

#[derive(Clone, Default)]
pub struct Tree {
    pub(crate) nodes: Vec<Node>,
    pub(crate) path: Vec<u32>,
    /// The evaluation's judge of random games (none for a chance root).
    pub(crate) judge: Option<Judge>,
    /// Random games are judged after this many moves, and as many after.
    pub(crate) judge_every: u32,
    /// The tree has grown to the memory budget (`--max-memory`): the
    /// search ends with what it has.
    pub(crate) full: bool,
}

impl Tree {
    /// Empty, as made, keeping its allocations.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.path.clear();
        self.judge = None;
        self.judge_every = 0;
        self.full = false;
    }
}
