//! The built-in engine: iterative-deepening negamax with alpha-beta over
//! `OnEvaluate` (or the material balance when a game has none), scores
//! from the point of view of the player to move, `OnIsGameOver` for
//! finished positions. Consecutive moves by the same player (partial
//! chains, turn orders that repeat a player) keep the sign. Each move gets
//! a time budget; the deepest finished iteration decides.

use super::UNKNOWN_SCORE;
use crate::error::{ErrorKind, VmError, VmResult};
use crate::vm::Vm;
use std::time::{Duration, Instant};

const INFINITY: i64 = i64::MAX / 4;
const MAX_DEPTH: u32 = 64;

/// Why a search stopped early: not an error of the script.
fn out_of_time() -> VmError {
    ErrorKind::Game("search out of time".into()).into()
}

/// The index of the best move of the current list, thinking for about
/// `budget` (at least one full ply is searched).
pub fn best_move(vm: &mut Vm, budget: Duration) -> VmResult<usize> {
    let range = vm.game.store.current();
    if range.len() == 1 {
        return Ok(range.start);
    }
    let deadline = Instant::now() + budget;
    let mut best = range.start;
    for depth in 1..=MAX_DEPTH {
        // Depth 1 always finishes: a move is always chosen.
        let limit = if depth == 1 { None } else { Some(deadline) };
        match search_root(vm, depth, limit) {
            Ok((m, score)) => {
                best = m;
                if score.abs() >= super::WIN_SCORE as i64 - MAX_DEPTH as i64 {
                    break; // a forced result: deeper search cannot change it
                }
            }
            Err(e) if limit.is_some() && Instant::now() >= deadline && e.code() == "game" => break,
            Err(e) => return Err(e),
        }
        if Instant::now() >= deadline {
            break;
        }
    }
    Ok(best)
}

fn search_root(vm: &mut Vm, depth: u32, deadline: Option<Instant>) -> VmResult<(usize, i64)> {
    let mut best = (vm.game.store.current().start, -INFINITY);
    for m in vm.game.store.current() {
        let s = score_after(vm, m, depth - 1, best.1, INFINITY, deadline)?;
        if s > best.1 {
            best = (m, s);
        }
    }
    Ok(best)
}

/// The score of move m for the player making it.
fn score_after(vm: &mut Vm, m: usize, depth: u32, alpha: i64, beta: i64, deadline: Option<Instant>) -> VmResult<i64> {
    let mover = vm.player_to_move();
    let turn = vm.game.turn;
    vm.push_board()?;
    let s = vm.make_move(m).and_then(|()| {
        if vm.player_to_move() == mover {
            negamax(vm, depth, alpha, beta, deadline)
        } else {
            negamax(vm, depth, -beta, -alpha, deadline).map(|s| -s)
        }
    });
    vm.pop_board()?;
    vm.game.turn = turn;
    s
}

fn negamax(vm: &mut Vm, depth: u32, mut alpha: i64, beta: i64, deadline: Option<Instant>) -> VmResult<i64> {
    if deadline.is_some_and(|d| Instant::now() >= d) {
        return Err(out_of_time());
    }
    vm.generate_turn()?;
    let result = (|| {
        let r = vm.game_result()?;
        if r != UNKNOWN_SCORE {
            // Prefer quick wins and slow losses.
            return Ok(r as i64 + if r > 0 { depth as i64 } else if r < 0 { -(depth as i64) } else { 0 });
        }
        if depth == 0 {
            return Ok(vm.evaluate()? as i64);
        }
        let mut best = -INFINITY;
        for m in vm.game.store.current() {
            let s = score_after(vm, m, depth - 1, alpha, beta, deadline)?;
            best = best.max(s);
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    })();
    vm.game.store.pop_list();
    result
}
