//! The built-in engine: depth-limited negamax with alpha-beta over
//! `OnEvaluate` (or the material balance when a game has none), scores
//! from the point of view of the player to move, `OnIsGameOver` for
//! finished positions. Consecutive moves by the same player (partial
//! chains, turn orders that repeat a player) keep the sign.

use super::UNKNOWN_SCORE;
use crate::error::VmResult;
use crate::vm::Vm;

const INFINITY: i64 = i64::MAX / 4;

/// The index of the best move of the current list, searching `depth` plies.
pub fn best_move(vm: &mut Vm, depth: u32) -> VmResult<usize> {
    let range = vm.game.store.current();
    if range.len() == 1 {
        return Ok(range.start);
    }
    let mut best = range.start;
    let mut alpha = -INFINITY;
    for m in range {
        let s = score_after(vm, m, depth.saturating_sub(1), alpha, INFINITY)?;
        if s > alpha {
            alpha = s;
            best = m;
        }
    }
    Ok(best)
}

/// The score of move m for the player making it.
fn score_after(vm: &mut Vm, m: usize, depth: u32, alpha: i64, beta: i64) -> VmResult<i64> {
    let mover = vm.player_to_move();
    let turn = vm.game.turn;
    vm.push_board()?;
    vm.make_move(m)?;
    let s = if vm.player_to_move() == mover {
        negamax(vm, depth, alpha, beta)
    } else {
        negamax(vm, depth, -beta, -alpha).map(|s| -s)
    };
    vm.pop_board()?;
    vm.game.turn = turn;
    let s = s?;
    Ok(s)
}

fn negamax(vm: &mut Vm, depth: u32, mut alpha: i64, beta: i64) -> VmResult<i64> {
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
            let s = score_after(vm, m, depth - 1, alpha, beta)?;
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
