//! The default engine for three contestants or more: max^n (Luckhardt and
//! Irani). A position is worth a score for each contestant; whoever moves
//! picks the move best for its own side, a chance or neutral player's
//! moves are averaged, and the engine plays the root move best for its
//! side. Paranoid alpha-beta (every other contestant against us) was
//! measured first and played 4-player Splut! at random's level: against
//! three random players no coalition forms, and a search that assumes one
//! finds every line lost.
//!
//! Scores per contestant come from `OnEvaluate` asked for each side
//! (`Vm::evaluate_as`) at the horizon, and from game results read by
//! `alphabeta::settle` (the winner's side +win, the others -win; a loser
//! -win, the others 0). Depth counts whole moves, as in alpha-beta;
//! partial steps and chance moves use none, and a path is cut at
//! `MAX_PLY`. There is no pruning (max^n admits only shallow pruning) and
//! no table; iterative deepening orders the root and stops on time.

use super::alphabeta::{settle, Settled};
use super::{deepen, interrupted, play_in_search, unsearched};
use crate::error::VmResult;
use crate::game::{UNKNOWN_SCORE, WIN_SCORE};
use crate::vm::Vm;

/// Contestants a score vector holds (7 Kingdoms has seven).
const SIDES: usize = 8;
const MAX_PLY: u32 = 128;

type Scores = [i64; SIDES];

pub fn best_move(vm: &mut Vm) -> VmResult<usize> {
    let range = vm.game.store.current();
    if range.len() == 1 {
        vm.game.search.info.depth = 0;
        return Ok(range.start);
    }
    let sides: Vec<i32> = vm.game.contestants().map(|p| p.value).take(SIDES).collect();
    let root = vm.side_to_move().and_then(|s| sides.iter().position(|&p| p == s)).unwrap_or(0);
    let search = MaxN { sides };
    let mut moves: Vec<usize> = range.collect();
    let mut best = None;
    deepen(vm, |vm, depth| {
        let score = search.root(vm, &mut moves, root, depth, &mut best)?;
        Ok((score, score.abs() < WIN_SCORE as i64 - 1000))
    })?;
    Ok(best.unwrap_or_else(|| unsearched(vm, &moves)))
}

struct MaxN {
    /// The contestants, by index into a score vector.
    sides: Vec<i32>,
}

impl MaxN {
    /// Searches every root move; the best for the root side goes first.
    /// `best` follows the search (the last iteration's best first, then
    /// any better), so an iteration cut short answers what it has found.
    fn root(&self, vm: &mut Vm, moves: &mut [usize], root: usize, depth: u32, best: &mut Option<usize>) -> VmResult<i64> {
        let mut top = (0, i64::MIN);
        for (i, &m) in moves.iter().enumerate() {
            let s = self.child(vm, m, depth, 0, depth > 1)?[root];
            if s > top.1 {
                top = (i, s);
                *best = Some(m);
            }
        }
        moves[..=top.0].rotate_right(1);
        Ok(top.1)
    }

    fn index(&self, side: Option<i32>) -> Option<usize> {
        side.and_then(|s| self.sides.iter().position(|&p| p == s))
    }

    /// The scores of the position move m leads to.
    fn child(&self, vm: &mut Vm, m: usize, depth: u32, ply: u32, may_stop: bool) -> VmResult<Scores> {
        if if may_stop { vm.game.search.should_stop() } else { vm.game.search.must_stop() } {
            return Err(interrupted());
        }
        let whole = !vm.game.store.moves[m].is_partial() && vm.side_to_move().is_some();
        let rest = if whole { depth.saturating_sub(1) } else { depth };
        // A repetition is a draw.
        play_in_search(vm, m, [0; SIDES], |vm, _| self.node(vm, rest, ply + 1))
    }

    fn node(&self, vm: &mut Vm, depth: u32, ply: u32) -> VmResult<Scores> {
        vm.generate_turn()?;
        let side = vm.side_to_move();
        let result = (|| {
            let r = vm.game_result()?;
            if r != UNKNOWN_SCORE {
                let won = (r as i64).abs() + depth as i64;
                let mut s = [0; SIDES];
                match settle(side, vm.game.turn.by, r) {
                    Settled::Draw => {}
                    Settled::Won(p) => {
                        s = [-won; SIDES];
                        if let Some(k) = self.index(Some(p)) {
                            s[k] = won;
                        }
                    }
                    Settled::Lost(p) => {
                        if let Some(k) = self.index(Some(p)) {
                            s[k] = -won;
                        }
                    }
                }
                return Ok(s);
            }
            if (depth == 0 && side.is_some()) || ply >= MAX_PLY {
                let mut s = [0; SIDES];
                for (k, &p) in self.sides.iter().enumerate() {
                    s[k] = vm.evaluate_as(p)? as i64;
                }
                return Ok(s);
            }
            let range = vm.game.store.current();
            let mover = self.index(side);
            let mut best: Option<Scores> = None;
            let mut sum = [0i64; SIDES];
            for m in range.clone() {
                let s = self.child(vm, m, depth, ply, true)?;
                match mover {
                    Some(k) if best.is_none_or(|b| s[k] > b[k]) => best = Some(s),
                    Some(_) => {}
                    None => sum.iter_mut().zip(s).for_each(|(a, v)| *a += v),
                }
            }
            Ok(match mover {
                Some(_) => best.unwrap_or([0; SIDES]),
                None => sum.map(|v| v / range.len().max(1) as i64),
            })
        })();
        vm.game.store.pop_list();
        result
    }
}
