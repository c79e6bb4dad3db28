//! The default engine: iterative deepening over negamax with alpha-beta
//! and principal-variation search, `OnEvaluate` (or the material balance)
//! at the horizon, `OnIsGameOver` for finished positions, the
//! transposition table, and move ordering (table move, history).
//!
//! Scores are from the point of view of the player to move. A move after
//! which the same player moves again (a partial chain, or a turn order
//! that repeats a player) keeps the sign; a partial step does not use up
//! depth, so a chain is searched as one turn. Other players are treated
//! as opponents (the paranoid reading of a multi-player turn order).
//!
//! A position that repeats one of the game or of the search path scores
//! as a draw; the path is pushed on the game's history while it is
//! searched, so `OnIsGameOver`'s `repetition-count` sees it too.

use super::tt::Bound;
use super::{interrupted, ordering::Ordering};
use crate::error::VmResult;
use crate::game::{UNKNOWN_SCORE, WIN_SCORE};
use crate::vm::Vm;

const INFINITY: i64 = i64::MAX / 4;
const MAX_DEPTH: u32 = 64;
/// Scores this far from a win or a loss are forced results.
const FORCED: i64 = WIN_SCORE as i64 - 1000;
/// The table depth of a result that no horizon limited (its whole tree
/// was searched to the end of the game): good for any depth.
const COMPLETE: u32 = 1000;

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
    let result = iterate(vm, &mut ordering);
    vm.game.search.ordering = ordering;
    result
}

fn iterate(vm: &mut Vm, ordering: &mut Ordering) -> VmResult<usize> {
    let range = vm.game.store.current();
    let max_depth = vm.game.search.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    // Root moves, best first after each iteration.
    let mut root: Vec<usize> = range.collect();
    let mut best = root[0];
    for depth in 1..=max_depth {
        let horizon = ordering.horizon;
        match search_root(vm, ordering, &mut root, depth) {
            Ok((m, score)) => {
                best = m;
                let info = &mut vm.game.search.info;
                info.depth = depth;
                info.score = Some(score.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
                if score.abs() >= FORCED || ordering.horizon == horizon {
                    // A forced result, or the whole game tree was seen:
                    // deeper search cannot change it.
                    break;
                }
            }
            // Out of time (depth 1 always finishes unless told to stop).
            Err(e) if e.is_interrupt() => break,
            Err(e) => return Err(e),
        }
        if vm.game.search.should_stop() {
            break;
        }
    }
    Ok(best)
}

trait Interrupt {
    fn is_interrupt(&self) -> bool;
}

impl Interrupt for crate::error::VmError {
    fn is_interrupt(&self) -> bool {
        matches!(&self.kind, crate::error::ErrorKind::Game(m) if m == "interrupted")
    }
}

/// Searches every root move; answers the best and its score, and moves it
/// to the front for the next iteration.
fn search_root(vm: &mut Vm, ordering: &mut Ordering, root: &mut [usize], depth: u32) -> VmResult<(usize, i64)> {
    let mut alpha = -INFINITY;
    let mut best = 0;
    for (i, &m) in root.iter().enumerate() {
        let s = if i == 0 {
            child(vm, ordering, m, depth, alpha, INFINITY, depth > 1)?
        } else {
            let s = child(vm, ordering, m, depth, alpha, alpha + 1, depth > 1)?;
            if s > alpha {
                child(vm, ordering, m, depth, alpha, INFINITY, depth > 1)?
            } else {
                s
            }
        };
        if s > alpha {
            alpha = s;
            best = i;
        }
    }
    root[..=best].rotate_right(1);
    Ok((root[0], alpha))
}

/// The score of move m for the player making it, searched `depth` plies
/// from here (window alpha..beta from the mover's side).
fn child(vm: &mut Vm, ordering: &mut Ordering, m: usize, depth: u32, alpha: i64, beta: i64, may_stop: bool) -> VmResult<i64> {
    if may_stop && vm.game.search.should_stop() {
        return Err(interrupted());
    }
    let mover = vm.player_to_move();
    let turn = vm.game.turn;
    let partial = vm.game.store.moves[m].is_partial();
    vm.push_board()?;
    vm.game.search.info.nodes += 1;
    let s = vm.make_move(m).and_then(|()| {
        let rest = if partial { depth } else { depth - 1 };
        let key = vm.position_key();
        if vm.game.history.contains(&key) {
            return Ok(0); // a repetition: a draw
        }
        vm.game.history.push(key);
        let s = if vm.player_to_move() == mover {
            negamax(vm, ordering, key, rest, alpha, beta)
        } else {
            negamax(vm, ordering, key, rest, -beta, -alpha).map(|s| -s)
        };
        vm.game.history.pop();
        s
    });
    vm.pop_board()?;
    vm.game.turn = turn;
    s
}

/// The score of the position for the player to move on entry (alpha..beta
/// in that player's frame). Generating may end a partial chain that has no
/// continuation and pass the turn on: the node is then searched in the
/// frame of the player who really moves, and the score turned back.
fn negamax(vm: &mut Vm, ordering: &mut Ordering, key: u64, depth: u32, alpha: i64, beta: i64) -> VmResult<i64> {
    let entry = vm.player_to_move();
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
                    ordering.horizon += 1;
                }
                return Ok(e.score);
            }
        }
        first = (e.best > 0).then(|| e.best as usize - 1);
    }
    vm.generate_turn()?;
    let flip = vm.player_to_move() != entry;
    let (mut alpha, beta) = if flip { (-beta, -alpha) } else { (alpha, beta) };
    let alpha0 = alpha;
    let base = ordering.stack.len();
    let result = (|| {
        let r = vm.game_result()?;
        if r != UNKNOWN_SCORE {
            // Prefer quick wins and slow losses.
            return Ok(r as i64 + (r as i64).signum() * depth as i64);
        }
        if depth == 0 {
            ordering.horizon += 1;
            return Ok(vm.evaluate()? as i64);
        }
        let horizon = ordering.horizon;
        let start = vm.game.store.current().start;
        let at = ordering.push_ordered(&vm.game.store, first);
        let mut best = -INFINITY;
        let mut best_move = None;
        for i in at..ordering.stack.len() {
            let m = ordering.stack[i];
            let s = if i == at {
                child(vm, ordering, m, depth, alpha, beta, true)?
            } else {
                let s = child(vm, ordering, m, depth, alpha, alpha + 1, true)?;
                if s > alpha && s < beta {
                    child(vm, ordering, m, depth, alpha, beta, true)?
                } else {
                    s
                }
            };
            if s > best {
                best = s;
                best_move = Some(m - start);
            }
            alpha = alpha.max(s);
            if alpha >= beta {
                ordering.cutoff(&vm.game.store, m, depth);
                break;
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let depth = if ordering.horizon == horizon { COMPLETE } else { depth };
        // The table keeps scores in the entry frame, as probed above.
        let (entry_score, entry_bound) = match (flip, bound) {
            (false, b) => (best, b),
            (true, Bound::Upper) => (-best, Bound::Lower),
            (true, Bound::Lower) => (-best, Bound::Upper),
            (true, Bound::Exact) => (-best, Bound::Exact),
        };
        vm.game.search.tt.store(key, depth, entry_score, entry_bound, best_move);
        Ok(best)
    })();
    ordering.stack.truncate(base);
    vm.game.store.pop_list();
    result.map(|s| if flip { -s } else { s })
}
