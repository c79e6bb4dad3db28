//! One game of a tournament: the variants of its two seats, each in a VM
//! of its own (variants differ in their engines and may differ in their
//! code), kept in step move by move. Whoever's seat is to move chooses
//! with its engine; every VM then plays the same move (the same place in
//! the same list, and the same text, or the variants disagree on the
//! rules and the game is an error). A seat moves whenever its contestant
//! gains (`Game::side_of`); players outside the two seats (a chance or
//! neutral mover, a third contestant) use the first variant's engines, as
//! in the original AutoPlay.

use super::record::{EngineStats, GameRecord};
use super::schedule::GameSpec;
use crate::error::VmResult;
use crate::game::{moves::move_text, Engine, UNKNOWN_SCORE};
use crate::search::alphabeta::{settle, Settled};
use crate::search::Limits;
use crate::{Config, Vm};
use crate::open::GameFile;
use crate::snapshot::Snapshot;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256StarStar;
use std::time::Instant;

/// What every game of a tournament shares.
#[derive(Clone)]
pub struct GameOptions {
    pub files: Vec<GameFile>,
    /// Each opening's moves.
    pub openings: Vec<Vec<String>>,
    /// Random plies after the opening line, drawn from the pair's
    /// `opening_seed`.
    pub random_plies: u32,
    pub config: Config,
    /// A game this long is adjudicated a draw.
    pub max_plies: u32,
    pub limits: Limits,
    /// Per variant, the engine that replaces the file's for the
    /// contestants it moves for (None: the file's). Chance players keep
    /// their own: their moves are the dice.
    pub engines: Vec<Option<Engine>>,
    pub verbose: bool,
    /// Put each variant's VM back as loaded for the worker's next game
    /// (`Loaded`), instead of loading it afresh: the same games, without
    /// loading and compiling again. Off only to compare the two.
    pub reuse_vms: bool,
}

/// A worker's loaded variants: each VM between games, with the snapshot
/// it is put back to (`crate::snapshot`).
#[derive(Default)]
pub struct Loaded {
    idle: Vec<Option<Vm>>,
    snapshots: Vec<Option<Snapshot>>,
    /// Variants whose snapshot cannot stand for a fresh load (loading drew
    /// random numbers, or a game changed the code): loaded every game.
    fresh_only: Vec<bool>,
}

impl Loaded {
    /// Variant v's VM, ready for a game under `seed`: put back if it can
    /// be, else loaded.
    fn take(&mut self, options: &GameOptions, v: usize, seed: u64, stop: &Arc<AtomicBool>) -> VmResult<Vm> {
        let n = options.files.len();
        if self.idle.len() < n {
            self.idle.resize_with(n, || None);
            self.snapshots.resize_with(n, || None);
            self.fresh_only.resize(n, false);
        }
        let idle = self.idle[v].take();
        let mut vm = match (idle, &self.snapshots[v]) {
            (Some(mut vm), Some(s)) => {
                if vm.restore(s, seed) {
                    vm
                } else {
                    self.fresh_only[v] = true;
                    self.snapshots[v] = None;
                    Self::load(options, v, seed)?
                }
            }
            _ => {
                let mut vm = Self::load(options, v, seed)?;
                if options.reuse_vms && !self.fresh_only[v] {
                    self.snapshots[v] = Some(vm.snapshot());
                }
                vm
            }
        };
        vm.game.search.limits = options.limits.clone();
        vm.game.search.stop = stop.clone();
        vm.game.search.verbose = options.verbose;
        vm.new_game()?;
        vm.remember_position();
        Game::quiet(&mut vm);
        Ok(vm)
    }

    fn load(options: &GameOptions, v: usize, seed: u64) -> VmResult<Vm> {
        let config = Config { seed: Some(seed), ..options.config.clone() };
        let mut vm = Vm::new(config)?;
        vm.capture_output();
        vm.load_game(&options.files[v])?;
        Ok(vm)
    }

    /// A VM whose game ended: kept for the next, when it has a snapshot.
    fn put_back(&mut self, v: usize, vm: Vm) {
        if self.snapshots.get(v).is_some_and(Option::is_some) {
            self.idle[v] = Some(vm);
        }
    }
}

/// Plays game `spec`; None when it was interrupted (`stop` was set), in
/// which case nothing of it counts.
pub fn play(options: &GameOptions, spec: &GameSpec, stop: &Arc<AtomicBool>, loaded: &mut Loaded) -> Option<GameRecord> {
    let started = Instant::now();
    let mut game = Game { vms: Vec::new(), moves: Vec::new(), opening_plies: 0, engines: Default::default(), contestants: [0; 2], message: None };
    let outcome = game.run(options, spec, stop, loaded);
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    // A VM whose game failed may have stopped anywhere: it is not kept.
    if outcome.is_ok() {
        for (v, vm) in game.vms.drain(..) {
            loaded.put_back(v, vm);
        }
    }
    let (result, reason, error) = match outcome {
        Ok((result, reason)) => (result, reason, None),
        Err(e) => ("*".to_string(), "error".to_string(), Some(e)),
    };
    Some(GameRecord {
        kind: "game".into(),
        index: spec.index,
        seed: spec.seed,
        seats: spec.seats,
        result,
        reason,
        plies: game.moves.len() as u32,
        opening: spec.opening,
        moves: game.moves,
        opening_plies: game.opening_plies,
        time: started.elapsed().as_secs_f64(),
        rerun: None,
        error,
        engines: game.engines,
        message: game.message,
    })
}

struct Game {
    /// (variant, its VM), one per file; the first VM's rules are the game's.
    vms: Vec<(usize, Vm)>,
    moves: Vec<String>,
    opening_plies: u32,
    engines: [EngineStats; 2],
    /// The players of seat 1 and seat 2.
    contestants: [i32; 2],
    /// What the game's `OnIsGameOver` said when it ended the game.
    message: Option<String>,
}

impl Game {
    fn run(&mut self, options: &GameOptions, spec: &GameSpec, stop: &Arc<AtomicBool>, loaded: &mut Loaded) -> Result<(String, String), String> {
        // One VM per file: variants that differ only in the engines the
        // command line gives them play in one, as the original's single
        // engine did (a game whose code keeps state outside the board
        // could otherwise drift apart).
        let mut variants = vec![spec.seats[0], spec.seats[1]];
        variants.dedup_by_key(|v| options.files[*v].spec());
        for v in variants {
            let vm = loaded.take(options, v, spec.seed, stop).map_err(|e| format!("{}: {}", options.files[v].label(), first_lines(&e)))?;
            self.vms.push((v, vm));
        }
        let [a, b] = self.vms[0].1.game.seats()[..] else {
            return Err("the game has no contestant (a player neither neutral nor chance) to seat".into());
        };
        self.contestants = [a, b];
        let opening = spec.opening.and_then(|o| options.openings.get(o)).map_or(&[][..], |o| &o[..]);
        for text in opening {
            if self.generate()? != UNKNOWN_SCORE {
                return Err(format!("the opening move `{text}` comes after the game is over"));
            }
            let m = opening_move(&self.vms[0].1, text)?;
            self.play_everywhere(0, m)?;
        }
        // Both games of a pair draw the same plies from the same start:
        // each side plays the position from both seats. A puzzle (one
        // contestant, against the dice or no one) is its set position:
        // random plies would make the solver's moves for it.
        let mut plies = Xoshiro256StarStar::seed_from_u64(spec.opening_seed);
        let random_plies = if self.vms[0].1.game.contestants().count() >= 2 { options.random_plies } else { 0 };
        for _ in 0..random_plies {
            if self.generate()? != UNKNOWN_SCORE {
                break;
            }
            let store = &self.vms[0].1.game.store;
            if store.count() == 0 {
                break;
            }
            let m = store.current().start + (plies.next_u64() % store.count() as u64) as usize;
            self.play_everywhere(0, m)?;
        }
        self.opening_plies = self.moves.len() as u32;
        while (self.moves.len() as u32) < options.max_plies {
            let score = self.generate()?;
            if score != UNKNOWN_SCORE {
                self.message = self.vms[0].1.game_over_message();
                return Ok((seat_result(&self.vms[0].1, score), "game over".into()));
            }
            let to_move = self.vms[0].1.player_to_move();
            let side = self.vms[0].1.side_to_move();
            let seat = self.contestants.iter().position(|&p| Some(p) == side);
            // Outside the seats: the first variant of the pairing decides.
            let variant = seat.map_or(spec.pairing[0], |s| spec.seats[s]);
            let file = options.files[variant].spec();
            let k = self.vms.iter().position(|(v, _)| options.files[*v].spec() == file).unwrap_or(0);
            let vm = &mut self.vms[k].1;
            let chosen_for_variant = options.engines.get(variant).copied().flatten().filter(|_| side.is_some());
            let engine = chosen_for_variant.unwrap_or_else(|| vm.engine_to_move());
            let t0 = Instant::now();
            let chosen = vm.choose_move(engine);
            let seconds = t0.elapsed().as_secs_f64();
            let m = chosen.map_err(|e| {
                let mut text = format!("{} (engine of {}): {}", options.files[variant].label(), vm.game.player_name(to_move), first_lines(&e));
                if !e.line.is_empty() {
                    let after = self.moves.iter().chain(&e.line).map(String::as_str).collect::<Vec<_>>().join("; ");
                    text += &format!("; in a position the search reached: {}", moves_command(&options.files[variant], &after));
                }
                text
            })?;
            if let Some(s) = seat {
                let info = &vm.game.search.info;
                let e = &mut self.engines[s];
                e.moves += 1;
                e.time += seconds;
                e.longest = e.longest.max(seconds);
                e.depth += info.depth as u64;
                e.nodes += info.nodes;
            }
            if options.verbose {
                let info = &vm.game.search.info;
                eprintln!(
                    "game {} ply {}: {} plays {} (depth {}, score {}, nodes {}, {:.3} s)",
                    spec.index + 1,
                    self.moves.len() + 1,
                    vm.game.player_name(to_move),
                    move_text(&vm.game, &vm.mem, m),
                    info.depth,
                    info.score.map_or("-".into(), |s| s.to_string()),
                    info.nodes,
                    seconds
                );
            }
            self.play_everywhere(k, m)?;
        }
        Ok(("1/2-1/2".into(), "max plies".into()))
    }

    /// What scripts print and the tolerances' warnings are not the
    /// tournament's output.
    fn quiet(vm: &mut Vm) {
        vm.take_output();
        vm.take_warnings();
    }

    /// Generates the turn in every VM; answers the game's verdict (the
    /// rules VM's), after checking the others agree.
    fn generate(&mut self) -> Result<i32, String> {
        let mut first = None;
        for (v, vm) in &mut self.vms {
            let score = vm.generate_turn().and_then(|()| vm.game_result()).map_err(|e| first_lines(&e))?;
            let here = (score, vm.game.store.count(), vm.player_to_move());
            match first {
                None => first = Some(here),
                Some(f) if f != here => {
                    let view = |(score, moves, _): (i32, usize, i32)| match score {
                        UNKNOWN_SCORE => format!("{moves} legal moves"),
                        _ => "the game is over".to_string(),
                    };
                    return Err(format!("the variants disagree on the rules after {} plies: the first sees {}, variant {} {}", self.moves.len(), view(f), *v + 1, view(here)));
                }
                _ => {}
            }
        }
        Ok(first.map_or(UNKNOWN_SCORE, |f| f.0))
    }

    /// Plays move m of VM k's current list in every VM. The others take
    /// VM k's random streams first: its engine drew from them while it
    /// chose, and a game whose moves draw too must go on alike everywhere.
    fn play_everywhere(&mut self, k: usize, m: usize) -> Result<(), String> {
        let random = self.vms[k].1.random_state();
        for (i, (_, vm)) in self.vms.iter_mut().enumerate() {
            if i != k {
                vm.set_random_state(random.clone());
            }
        }
        let (offset, text) = {
            let vm = &self.vms[k].1;
            (m - vm.game.store.current().start, move_text(&vm.game, &vm.mem, m))
        };
        for (_, vm) in &mut self.vms {
            let mm = vm.game.store.current().start + offset;
            let here = move_text(&vm.game, &vm.mem, mm);
            if here != text {
                return Err(format!("the variants disagree on the move list: `{text}` is `{here}` in another"));
            }
            let made = vm.make_move(mm);
            vm.game.store.pop_list();
            made.map_err(|e| format!("playing `{text}`: {}", first_lines(&e)))?;
            vm.remember_position();
            Self::quiet(vm);
        }
        self.moves.push(text);
        Ok(())
    }
}

/// The move `text` names in `vm`'s current list, for an opening line.
fn opening_move(vm: &Vm, text: &str) -> Result<usize, String> {
    vm.find_move(text).ok_or_else(|| format!("the opening move `{text}` is not legal here; legal moves: {}", vm.move_texts().join(", ")))
}

/// What a tournament learns by loading each variant once before its
/// first game, so that what would fail in every game fails once, first,
/// and says where.
pub struct Preflight {
    /// Per variant: its contestants play with a `{search-engine}` word
    /// of the file's own (which `--depth` does not limit).
    pub script_engines: Vec<bool>,
}

/// Loads every variant: each must load, all must declare the same game
/// (board, players, pieces) as the first, and every opening line must be
/// legal from the start. An opening's error names its index in
/// `options.openings`.
pub fn preflight(options: &GameOptions) -> Result<Preflight, PreflightError> {
    let mut script_engines = Vec::new();
    let mut first: Option<(String, Declared)> = None;
    for (v, file) in options.files.iter().enumerate() {
        let mut vm = Loaded::load(options, v, 1).map_err(|e| PreflightError::Variant(format!("{}: {}", file.label(), first_lines(&e))))?;
        let declared = Declared::of(&vm);
        match &first {
            None => first = Some((file.label(), declared)),
            Some((label, d)) => {
                if let Some(diff) = d.differs(&declared) {
                    return Err(PreflightError::Variant(format!("{} and {label} are not the same game ({diff}): a tournament's variants play one game", file.label())));
                }
            }
        }
        let own = |p: &crate::game::PlayerDecl| !p.chance && !p.neutral && matches!(p.engine, Engine::Script(_));
        script_engines.push(options.engines.get(v).copied().flatten().is_none() && vm.game.players.iter().any(own));
        if v == 0 {
            check_openings(options, &mut vm)?;
        }
    }
    Ok(Preflight { script_engines })
}

#[derive(Debug)]
pub enum PreflightError {
    /// A variant that does not load, or is another game.
    Variant(String),
    /// Opening k (index into the openings) cannot be played.
    Opening(usize, String),
}

fn check_openings(options: &GameOptions, vm: &mut Vm) -> Result<(), PreflightError> {
    let start = vm.snapshot();
    for (k, line) in options.openings.iter().enumerate() {
        let fail = |e: String| PreflightError::Opening(k, e);
        if !vm.restore(&start, 1) {
            *vm = Loaded::load(options, 0, 1).map_err(|e| fail(first_lines(&e)))?;
        }
        vm.new_game().map_err(|e| fail(first_lines(&e)))?;
        for text in line {
            let score = vm.generate_turn().and_then(|()| vm.game_result()).map_err(|e| fail(first_lines(&e)))?;
            if score != UNKNOWN_SCORE {
                return Err(fail(format!("the opening move `{text}` comes after the game is over")));
            }
            let m = opening_move(vm, text).map_err(fail)?;
            let made = vm.make_move(m);
            vm.game.store.pop_list();
            made.map_err(|e| fail(format!("playing `{text}`: {}", first_lines(&e))))?;
        }
    }
    Ok(())
}

/// The declarations two variants of one game share.
#[derive(PartialEq)]
struct Declared {
    positions: Vec<String>,
    players: Vec<String>,
    pieces: Vec<String>,
}

impl Declared {
    fn of(vm: &Vm) -> Declared {
        let g = &vm.game;
        Declared {
            positions: g.board.names.clone(),
            players: g.players.iter().map(|p| p.name.clone()).collect(),
            pieces: g.pieces.iter().map(|p| p.name.clone()).collect(),
        }
    }

    /// What differs, in words.
    fn differs(&self, other: &Declared) -> Option<String> {
        let list = |v: &[String]| {
            let shown: Vec<&str> = v.iter().take(8).map(String::as_str).collect();
            format!("{}{}", shown.join(" "), if v.len() > 8 { " …" } else { "" })
        };
        if self.players != other.players {
            Some(format!("players {} against {}", list(&other.players), list(&self.players)))
        } else if self.pieces != other.pieces {
            Some(format!("pieces {} against {}", list(&other.pieces), list(&self.pieces)))
        } else if self.positions != other.positions {
            Some(format!("{} positions against {}", other.positions.len(), self.positions.len()))
        } else {
            None
        }
    }
}

/// "1-0", "0-1" or "1/2-1/2" for a finished game, the score being the
/// player to move's, read as the searches read it
/// (`search::alphabeta::settle`): a seat's win, or a seat's loss, which
/// is the other seat's win. A result for no seat is a draw.
pub fn seat_result(vm: &Vm, score: i32) -> String {
    let seats = vm.game.seats();
    let seat_of = |p: i32| seats.iter().position(|&s| s == p);
    let winner = match settle(vm.side_to_move(), vm.game.turn.by, score) {
        Settled::Won(p) => seat_of(p),
        Settled::Lost(p) => seat_of(p).map(|k| 1 - k),
        Settled::Draw => None,
    };
    match winner {
        Some(0) => "1-0".into(),
        Some(_) => "0-1".into(),
        None => "1/2-1/2".into(),
    }
}

/// An error's headline and place, without the long trace.
fn first_lines(e: &crate::VmError) -> String {
    let text = e.to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    let place = |l: &&str| !l.trim_start().starts_with("in a position the search reached");
    text.lines().filter(place).take(2).map(str::trim).collect::<Vec<_>>().join(" ")
}

/// The command that lists the moves of the position `after` leads to (it
/// shows the error again).
fn moves_command(file: &GameFile, after: &str) -> String {
    let q = super::shell_quote;
    let target = match &file.zrf {
        Some(v) => format!("{} --variant {}", q(&v.zrf().path.display().to_string()), q(v.title())),
        None => q(&file.script.display().to_string()),
    };
    format!("axforth moves {target} --after {}", q(after))
}
