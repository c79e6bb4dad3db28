//! The default engine: iterative deepening over alpha-beta with
//! principal-variation search, `OnEvaluate` (or the material balance) at
//! the horizon, `OnIsGameOver` for finished positions, the transposition
//! table, and move ordering (table move, history).
//!
//! Every score is in the frame of the *root side*, the contestant the
//! engine moves for (`Game::side_of`), whoever moves at the node. A node
//! is one of three kinds, by the side its mover serves:
//! - **max**: the root side moves (its partial steps and repeated turns
//!   included): the best child;
//! - **min**: the other contestant moves: the worst child for the root
//!   side (minimax; three contestants or more are searched by `maxn`);
//! - **chance**: a player without a side moves (a `?Dice`, a `?Cleaner`,
//!   a neutral player): the average over its moves, each as likely, as the
//!   `{random}` engine plays them. Windows are narrowed by *-minimax
//!   (Ballard's Star1) within the bound every score lies in, so a chance
//!   node with one move is transparent and the last of several is searched
//!   with the window that still matters.
//!
//! Depth counts the contestants' whole moves: a partial step and a chance
//! player's move use none, so a chain is searched as one turn and the dice
//! are thrown before the horizon is reached. A path longer than `MAX_PLY`
//! is evaluated where it stands.
//!
//! At the horizon the mover's `OnEvaluate` is turned into the root side's
//! frame: as it is for the root side, negated for the other of two
//! contestants (a zero-sum game); for a player without a side the root
//! side's own view is asked for (`Vm::evaluate_as`). A game result is read by `settle`.
//!
//! The table keeps scores in the root side's frame, so its keys carry the
//! root side: each contestant's searches find their own entries.
//!
//! A position that repeats one of the game or of the search path scores
//! as a draw; the path is pushed on the game's history while it is
//! searched, so `OnIsGameOver`'s `repetition-count` sees it too.

use super::tt::Bound;
use super::{deepen, interrupted, ordering::Ordering, play_in_search, unsearched, MAX_DEPTH};
use crate::error::VmResult;
use crate::state::{UNKNOWN_SCORE, WIN_SCORE};
// Who a game result is for is plain data (UCT's tree holds it).
pub use crate::state::search::Settled;
use crate::vm::Vm;

const INFINITY: i64 = i64::MAX / 4;
/// A path this long (partial steps and chance moves included) is
/// evaluated where it stands.
const MAX_PLY: u32 = 128;
/// Every score lies within ±BOUND: evaluations are `i32`s, game results a
/// little beyond a win. *-minimax's bounds for chance nodes.
const BOUND: i64 = (1 << 31) + 2 * MAX_DEPTH as i64;
/// Scores this far from a win or a loss are forced results.
const FORCED: i64 = WIN_SCORE as i64 - 1000;
/// The table depth of a result that no horizon limited (its whole tree
/// was searched to the end of the game): good for any depth.
const COMPLETE: u32 = 1000;

/// The evaluation for side s, the side to move: asked of the mover
/// itself, unless the mover only moves for s (`Game::side_of`).
fn evaluate_for(vm: &mut Vm, s: i32) -> VmResult<i64> {
    let e = if vm.game.gen.player == s { vm.evaluate()? } else { vm.evaluate_as(s)? };
    Ok(e as i64)
}

/// Reads `OnIsGameOver`'s score `r`, given for the player to move (whose
/// side is `side`) after a move made for `by`. A win is the side's. A loss
/// is the win of the side that just moved, when that was another (in a
/// game of three, the one who completed the row, not whoever moves next);
/// otherwise the side's own loss. The verdict of a player without a side
/// is a draw, as the tournament scores it.
pub fn settle(side: Option<i32>, by: Option<i32>, r: i32) -> Settled {
    match side {
        None => Settled::Draw,
        Some(_) if r == 0 => Settled::Draw,
        Some(s) if r > 0 => Settled::Won(s),
        Some(s) => match by {
            Some(b) if b != s => Settled::Won(b),
            _ => Settled::Lost(s),
        },
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Max,
    Min,
    Chance,
}

/// One search: whom it plays for, and the ordering state it owns.
struct Searcher<'a> {
    ordering: &'a mut Ordering,
    /// The contestant the engine moves for.
    root: i32,
    /// Mixed into table keys: the scores are the root side's.
    salt: u64,
}

pub fn best_move(vm: &mut Vm) -> VmResult<usize> {
    let range = vm.game.store.current();
    if range.len() == 1 {
        vm.game.search.info.depth = 0;
        return Ok(range.start);
    }
    let entries = vm.game.search.limits.tt_entries;
    vm.game.search.tt.resize(entries);
    let mut ordering = std::mem::replace(&mut vm.game.search.ordering, Ordering::placeholder());
    ordering.age();
    ordering.stack.clear();
    let root = vm.side_to_move().unwrap_or_else(|| vm.player_to_move());
    let salt = (root as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut searcher = Searcher { ordering: &mut ordering, root, salt };
    let result = searcher.iterate(vm);
    vm.game.search.ordering = ordering;
    result
}


impl Searcher<'_> {
    fn iterate(&mut self, vm: &mut Vm) -> VmResult<usize> {
        // Root moves, best first after each iteration.
        let mut root: Vec<usize> = vm.game.store.current().collect();
        let mut best = None;
        deepen(vm, |vm, depth| {
            let horizon = self.ordering.horizon;
            let score = self.search_root(vm, &mut root, depth, &mut best)?;
            // A forced result, or the whole game tree was seen: deeper
            // search cannot change it.
            Ok((score, score.abs() < FORCED && self.ordering.horizon != horizon))
        })?;
        Ok(best.unwrap_or_else(|| unsearched(vm, &root)))
    }

    /// Searches every root move (the root is a max node), best first;
    /// answers the best score and moves the best move to the front for
    /// the next iteration. `best` follows the search: the first move (the
    /// last iteration's best) once its score is known, then any move
    /// proven better at this depth; so an iteration cut short still
    /// answers with what it has found.
    fn search_root(&mut self, vm: &mut Vm, root: &mut [usize], depth: u32, best: &mut Option<usize>) -> VmResult<i64> {
        let mut alpha = -INFINITY;
        let mut first = 0;
        for (i, &m) in root.iter().enumerate() {
            let s = if i == 0 {
                self.child(vm, m, depth, 0, alpha, INFINITY, depth > 1)?
            } else {
                let s = self.child(vm, m, depth, 0, alpha, alpha + 1, depth > 1)?;
                if s > alpha {
                    self.child(vm, m, depth, 0, alpha, INFINITY, depth > 1)?
                } else {
                    s
                }
            };
            if s > alpha {
                alpha = s;
                first = i;
                *best = Some(m);
            }
        }
        root[..=first].rotate_right(1);
        Ok(alpha)
    }

    /// The score of the position move m leads to, searched `depth` more
    /// whole moves (the mover's move uses one unless it is partial or the
    /// mover has no side), within alpha..beta.
    #[allow(clippy::too_many_arguments)]
    fn child(&mut self, vm: &mut Vm, m: usize, depth: u32, ply: u32, alpha: i64, beta: i64, may_stop: bool) -> VmResult<i64> {
        if if may_stop { vm.game.search.should_stop() } else { vm.game.search.must_stop() } {
            return Err(interrupted());
        }
        let whole = !vm.game.store.moves[m].is_partial() && vm.side_to_move().is_some();
        let rest = if whole { depth.saturating_sub(1) } else { depth };
        // A repetition is a draw.
        play_in_search(vm, m, 0, |vm, key| self.node(vm, key, rest, ply + 1, alpha, beta))
    }

    /// The score of the position (`key` its position key) for the root
    /// side, within alpha..beta (fail-soft: a score outside the window is
    /// a bound on the true one).
    fn node(&mut self, vm: &mut Vm, key: u64, depth: u32, ply: u32, alpha: i64, beta: i64) -> VmResult<i64> {
        let key = key ^ self.salt;
        let mut first = None;
        if let Some(e) = vm.game.search.tt.probe(key) {
            if e.depth as u32 >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if cut {
                    if (e.depth as u32) < COMPLETE {
                        self.ordering.horizon += 1;
                    }
                    return Ok(e.score);
                }
            }
            first = (e.best > 0).then(|| e.best as usize - 1);
        }
        // Generating may end a partial chain that has no continuation and
        // pass the turn on: the kind is the real mover's.
        vm.generate_turn()?;
        let side = vm.side_to_move();
        let kind = match side {
            Some(s) if s == self.root => Kind::Max,
            Some(_) => Kind::Min,
            None => Kind::Chance,
        };
        let base = self.ordering.stack.len();
        let result = (|| {
            let r = vm.game_result()?;
            if r != UNKNOWN_SCORE {
                // Prefer quick wins and slow losses.
                let won = (r as i64).abs() + depth as i64;
                return Ok(match settle(side, vm.game.turn.by, r) {
                    Settled::Draw => 0,
                    Settled::Won(w) if w == self.root => won,
                    Settled::Won(_) => -won,
                    Settled::Lost(l) if l == self.root => -won,
                    Settled::Lost(_) => won,
                });
            }
            if (depth == 0 && kind != Kind::Chance) || ply >= MAX_PLY {
                self.ordering.horizon += 1;
                return Ok(match side {
                    Some(s) if s == self.root => evaluate_for(vm, s)?,
                    Some(s) => -evaluate_for(vm, s)?,
                    None => vm.evaluate_as(self.root)? as i64,
                });
            }
            let horizon = self.ordering.horizon;
            let start = vm.game.store.current().start;
            let at = self.ordering.push_ordered(&vm.game.store, first);
            let (best, best_move) = match kind {
                Kind::Max => self.max_node(vm, at, start, depth, ply, alpha, beta)?,
                Kind::Min => self.min_node(vm, at, start, depth, ply, alpha, beta)?,
                Kind::Chance => (self.chance_node(vm, at, depth, ply, alpha, beta)?, None),
            };
            let bound = if best <= alpha {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let depth = if self.ordering.horizon == horizon { COMPLETE } else { depth };
            vm.game.search.tt.store(key, depth, best, bound, best_move);
            Ok(best)
        })();
        self.ordering.stack.truncate(base);
        vm.game.store.pop_list();
        result
    }

    /// The root side moves: the best child, principal variation first.
    #[allow(clippy::too_many_arguments)]
    fn max_node(&mut self, vm: &mut Vm, at: usize, start: usize, depth: u32, ply: u32, mut alpha: i64, beta: i64) -> VmResult<(i64, Option<usize>)> {
        let mut best = (-INFINITY, None);
        for i in at..self.ordering.stack.len() {
            let m = self.ordering.stack[i];
            let s = if i == at {
                self.child(vm, m, depth, ply, alpha, beta, true)?
            } else {
                let s = self.child(vm, m, depth, ply, alpha, alpha + 1, true)?;
                if s > alpha && s < beta {
                    self.child(vm, m, depth, ply, alpha, beta, true)?
                } else {
                    s
                }
            };
            if s > best.0 {
                best = (s, Some(m - start));
            }
            alpha = alpha.max(s);
            if alpha >= beta {
                self.ordering.cutoff(&vm.game.store, m, depth);
                break;
            }
        }
        Ok(best)
    }

    /// Another contestant moves: the worst child for the root side.
    #[allow(clippy::too_many_arguments)]
    fn min_node(&mut self, vm: &mut Vm, at: usize, start: usize, depth: u32, ply: u32, alpha: i64, mut beta: i64) -> VmResult<(i64, Option<usize>)> {
        let mut best = (INFINITY, None);
        for i in at..self.ordering.stack.len() {
            let m = self.ordering.stack[i];
            let s = if i == at {
                self.child(vm, m, depth, ply, alpha, beta, true)?
            } else {
                let s = self.child(vm, m, depth, ply, beta - 1, beta, true)?;
                if s < beta && s > alpha {
                    self.child(vm, m, depth, ply, alpha, beta, true)?
                } else {
                    s
                }
            };
            if s < best.0 {
                best = (s, Some(m - start));
            }
            beta = beta.min(s);
            if alpha >= beta {
                self.ordering.cutoff(&vm.game.store, m, depth);
                break;
            }
        }
        Ok(best)
    }

    /// A player without a side moves: the mean of its children, each as
    /// likely. Star1: with `sum` of the children so far and every child
    /// to come within ±BOUND, the next child's window is the range in which
    /// it can still move the mean across alpha or beta; outside it, the
    /// mean is already known to be past the window, and that bound is the
    /// answer.
    fn chance_node(&mut self, vm: &mut Vm, at: usize, depth: u32, ply: u32, alpha: i64, beta: i64) -> VmResult<i64> {
        let n = (self.ordering.stack.len() - at) as i64;
        let (alpha, beta) = (alpha.max(-BOUND - 1), beta.min(BOUND + 1));
        let mut sum = 0i64;
        for (k, i) in (at..self.ordering.stack.len()).enumerate() {
            let m = self.ordering.stack[i];
            let rest = n - 1 - k as i64;
            let low = n * alpha - sum - BOUND * rest;
            let high = n * beta - sum + BOUND * rest;
            if low >= BOUND {
                return Ok((sum + BOUND * (rest + 1)).div_euclid(n));
            }
            if high <= -BOUND {
                return Ok((sum - BOUND * (rest + 1)).div_euclid(n));
            }
            let s = self.child(vm, m, depth, ply, low.max(-BOUND), high.min(BOUND), true)?;
            if s <= low {
                return Ok((sum + s + BOUND * rest).div_euclid(n));
            }
            if s >= high {
                return Ok((sum + s - BOUND * rest).div_euclid(n));
            }
            sum += s;
        }
        Ok(sum.div_euclid(n))
    }
}
