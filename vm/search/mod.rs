//! Search: how the player to move's engine chooses a move (AXIOM.md §5).
//!
//! Module map:
//! - `alphabeta`: the default engine (iterative deepening, alpha-beta and
//!   principal-variation search, chance nodes)
//! - `maxn`: the default engine when three or more contestants play
//! - `zobrist`: the `Vm`'s position key (the table, the game history,
//!   repetitions)
//! - `uct`: `{UCT}`, Monte-Carlo tree search with random playouts
//! - `script`: running a `{search-engine}` ForthScript word, and the words
//!   it reports through (`$Yield`, `BestMove!`, `Score!`, …)
//!
//! The search's state (`Search`: limits, clock, reports) and its tables
//! (the transposition table `tt`, the `Keys`, move `ordering`, UCT's
//! tree) are plain data of `Game`, one floor below the machine
//! (`state/search/`).
//!
//! Who gains from a move (the same for every engine, and for `autoplay`'s
//! results): a *contestant* is a player neither `{neutral}` nor a chance
//! player (`?Name`); a turn serves its player if a contestant, a neutral
//! player moving a contestant's pieces (`{for-player}`) serves that
//! contestant, and a chance player serves no one, whosever pieces it moves
//! (`Game::side_of`). `OnIsGameOver` answers for the player to move: a win
//! is its side's; a loss is the win of the side that just moved when that
//! is another (in a game of three, whoever completed the row), else its
//! own loss; the verdict of a player without a side is a draw
//! (`alphabeta::settle`). A player without a side never searches: it
//! plays a uniform random move, whatever its engine.
//!
//! The evaluation is `OnEvaluate` from the player to move's point of view;
//! with none, the material balance of the contestants (`{value}`s of the
//! player's pieces less the other contestants'; neutral and chance
//! players' pieces count for no one). The original kernel's own default
//! is the constant 0, which leaves an engine blind until a game end is in
//! sight; material is the one measure every Axiom game declares, and the
//! default Zillions used. A race game (Senet) must define its own: there
//! every piece borne off would count as a loss. At the horizon, the
//! mover's evaluation is negated for the other of two contestants; for a
//! third contestant or a player without a side, the engine's own side is
//! asked (`Vm::evaluate_as`; `current-player` says which while it runs).
//! Paranoid alpha-beta (all others against the engine's side) was
//! measured for three contestants or more before max^n, and played
//! 4-player Splut! at random's level: against independent opponents no
//! coalition forms, and a search that assumes one finds every line lost.
//!
//! Engines see the game only through the game layer's `Vm` methods
//! (`generate_turn`, `make_move`, `push_board`/`pop_board`, `evaluate`,
//! `game_result`); nothing here touches the inner interpreter.

pub mod alphabeta;
pub mod maxn;
pub mod script;
pub mod uct;
pub mod zobrist;

// The search's state is plain data of `Game` (`state/search/`); these
// names keep the paths above (the tournament, the CLI, the tests) working.
pub use crate::state::search::{ordering, tt, Info, Limits, Search};

use crate::error::{ErrorKind, VmError, VmResult};
use crate::state::Engine;
use crate::vm::Vm;
use std::time::Instant;

/// Why a search ended early (not an error of the script).
pub fn interrupted() -> VmError {
    ErrorKind::Game("interrupted".into()).into()
}

/// Plays move m of the current list inside a search and answers `f` of
/// the position it leads to (given its key), or `repeated` when that
/// position repeats one of the game or of the search path; then takes the
/// move back. The path is on the game's history while `f` runs, so
/// `repetition-count` sees it.
pub fn play_in_search<T>(vm: &mut Vm, m: usize, repeated: T, f: impl FnOnce(&mut Vm, u64) -> VmResult<T>) -> VmResult<T> {
    let turn = vm.game.turn;
    vm.push_board()?;
    vm.game.search.info.nodes += 1;
    let ordinal = m - vm.game.store.current().start;
    vm.game.search.line.push(ordinal as u32);
    let s = vm.make_move(m).and_then(|()| {
        let key = vm.position_key();
        if vm.game.history.contains(&key) {
            return Ok(repeated);
        }
        vm.game.history.push(key);
        let s = f(vm, key);
        vm.game.history.pop();
        s
    });
    vm.pop_board()?;
    vm.game.turn = turn;
    if s.as_ref().err().is_none_or(is_interrupt) {
        vm.game.search.line.pop();
    }
    s
}

/// The texts of the moves of the search's line, played again from the
/// position searched (the board and turn are as they were before): the
/// position the game's code failed in, named so it can be reached again.
/// Stops where the moves no longer replay (a generator that draws at
/// random may list others).
fn line_texts(vm: &mut Vm) -> Vec<String> {
    let line = std::mem::take(&mut vm.game.search.line);
    let turn = vm.game.turn;
    let mut texts = Vec::new();
    if vm.push_board().is_err() {
        return texts;
    }
    for &ordinal in &line {
        if vm.generate_turn().is_err() {
            break;
        }
        let range = vm.game.store.current();
        let m = range.start + ordinal as usize;
        let made = m < range.end && {
            texts.push(crate::game::moves::move_text(&vm.game, &vm.mem, m));
            vm.make_move(m).is_ok()
        };
        vm.game.store.pop_list();
        if !made {
            break;
        }
    }
    let _ = vm.pop_board();
    vm.game.turn = turn;
    texts
}

/// The deepest iteration a depth-first engine runs.
pub const MAX_DEPTH: u32 = 64;

/// Iterative deepening, the driver of the engines that search to a depth
/// (alpha-beta, max^n): `iteration(vm, depth)` runs for depth 1, 2, … up
/// to the depth limit and answers its score and whether a deeper search
/// could change it (false for a forced result, or a tree seen whole). A
/// finished iteration's depth and score go into the search info; one
/// interrupted on the way (time up, stop) reports nothing: what it found
/// is the engine's to keep (its best move so far).
pub fn deepen(vm: &mut Vm, mut iteration: impl FnMut(&mut Vm, u32) -> VmResult<(i64, bool)>) -> VmResult<()> {
    let max_depth = vm.game.search.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
    for depth in 1..=max_depth {
        match iteration(vm, depth) {
            Ok((score, deeper_may_change)) => {
                let info = &mut vm.game.search.info;
                info.depth = depth;
                info.score = Some(score.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
                if !deeper_may_change {
                    break;
                }
            }
            Err(e) if is_interrupt(&e) => break,
            Err(e) => return Err(e),
        }
        if vm.game.search.should_stop() {
            break;
        }
    }
    Ok(())
}

/// The move of a search that was stopped before it knew the score of
/// any (its first iteration cut short inside a long partial chain or a
/// slow move generator): one at random, as `{random}` would play, since a
/// fixed choice among moves not told apart is a bias, not a decision.
pub fn unsearched(vm: &mut Vm, moves: &[usize]) -> usize {
    moves[vm.rand_within(0, 0, moves.len() as i32 - 1) as usize]
}

/// The error is `interrupted()`'s.
fn is_interrupt(e: &VmError) -> bool {
    matches!(&e.kind, ErrorKind::Game(m) if m == "interrupted")
}

impl Vm {
    /// The move of the current list the engine picks. Every engine's
    /// search starts here, with the clock and the counters reset.
    pub fn choose_move(&mut self, engine: Engine) -> VmResult<usize> {
        let range = self.game.store.current();
        if range.is_empty() {
            return Err(ErrorKind::Game("no legal move to choose from".into()).into());
        }
        let now = Instant::now();
        let s = &mut self.game.search;
        s.line.clear();
        // Keep the report buffers: a new search reuses them.
        let (best, current) = (s.info.best_move.take(), s.info.current_move.take());
        s.info = Info { best_move: best.map(|mut b| { b.clear(); b }), current_move: current.map(|mut c| { c.clear(); c }), ..Info::default() };
        s.started = Some(now);
        // Without a time per move (a depth, a number of playouts) a search
        // is as long as it takes: `--timeout` bounds the whole command.
        s.deadline = s.limits.time.map(|t| now + t);
        // Script the engine runs (an event, a script engine) that goes on
        // past the time per move and the grace is stopped there.
        self.hard_deadline = s.deadline.map(|d| d + crate::state::search::ENGINE_GRACE);
        // `player-to-move` answers this player while the engine runs.
        self.game.kernel.root_player = self.player_to_move();
        // A player without a side has nothing to search for: it throws
        // the dice (searches treat its moves as equally likely).
        let engine = match engine {
            Engine::Default | Engine::Uct if self.side_to_move().is_none() => Engine::Random,
            e => e,
        };
        let mut chosen = match engine {
            Engine::First => Ok(range.start),
            Engine::Random => Ok(range.start + self.rand_within(0, 0, range.len() as i32 - 1) as usize),
            Engine::Script(i) => script::choose(self, i),
            Engine::Default if self.game.contestants().count() > 2 => maxn::best_move(self),
            Engine::Default => alphabeta::best_move(self),
            Engine::Uct => uct::best_move(self),
        };
        self.hard_deadline = None;
        if let Err(e) = &mut chosen {
            if !self.game.search.line.is_empty() && !is_interrupt(e) && !e.is_control() {
                e.line = line_texts(self);
            }
        }
        self.game.kernel.root_player = 0;
        // The search left the generation context (`current-player`) at the
        // last position it saw; the chosen move runs its words in the
        // position searched from.
        self.enter_turn();
        let s = &mut self.game.search;
        s.active = false;
        s.info.elapsed = now.elapsed();
        if s.stop_requested() {
            return Err(interrupted());
        }
        chosen
    }
}
