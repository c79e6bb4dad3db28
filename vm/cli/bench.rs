//! `axforth bench`: the numbers the engine users care about, side by side
//! in one run (the machine is noisy; compare within a run):
//! - `perft`: Othello perft in ForthScript against the native mailbox
//!   reference on the same tables;
//! - `games`: perft of every bundled game at its published depth
//!   (tic-tac-toe 9, Othello 8, draughts 8, chess 5), checked;
//! - `paths`: the native fast paths a script engine lives on
//!   (`$CloneBoard`/`$DeallocateBoard`, `$GenerateMoves` + walk +
//!   `$DeallocateMoves`), timed from ForthScript;
//! - `engines`: nodes/s of the built-in alpha-beta with and without its
//!   transposition table, of UCT, and of a ForthScript alpha-beta engine;
//! - `autoplay`: games per minute with `--jobs 1` and `--jobs 2`; and
//!   the real workload of a ForthScript engine (Splut!'s `duel.4th`, and
//!   `--script-engine`'s variant) with the JIT off, auto and all, side by
//!   side, the time spent compiling apart.

use super::game::{print_warnings, start};
use axforth::open::GameFile;
use anyhow::{anyhow, bail, Result};
use axforth::game::Engine;
use axforth::search::Limits;
use axforth::tournament::game::GameOptions;
use axforth::tournament::runner::{self, Next};
use axforth::tournament::schedule::Schedule;
use axforth::jit::JitMode;
use axforth::{Config, Vm};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

pub struct BenchOptions {
    /// The Othello script; None: the bundled one.
    pub game: Option<PathBuf>,
    pub depth: u32,
    pub runs: u32,
    /// Which sections: perft, games, paths, engines, autoplay (empty: all).
    pub sections: Vec<String>,
    /// A variant with a ForthScript engine for the `engines` section.
    pub script_engine: Option<PathBuf>,
}

/// Where the bundled Othello is: under the current folder, beside the
/// binary (in a release archive, or target/release of a checkout), or in
/// the checkout the binary was built from.
fn bundled(relative: &str) -> Result<PathBuf> {
    let mut places = vec![PathBuf::from(".")];
    if let Ok(exe) = std::env::current_exe() {
        places.extend(exe.ancestors().skip(1).take(3).map(Path::to_path_buf));
    }
    places.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    places
        .iter()
        .map(|p| p.join(relative))
        .find(|p| p.is_file())
        .ok_or_else(|| anyhow!("cannot find the bundled {relative} from here or beside the binary: run in the axforth folder, or pass --game FILE"))
}

pub fn bench(config: Config, o: &BenchOptions) -> Result<()> {
    let game = match &o.game {
        Some(g) => g.clone(),
        None => bundled("scripts/othello/othello.4th")?,
    };
    let game = game.as_path();
    let all = o.sections.is_empty();
    let wants = |s: &str| all || o.sections.iter().any(|x| x == s);
    if wants("perft") {
        perft(config.clone(), game, o.depth, o.runs)?;
    }
    if wants("games") {
        games(config.clone(), o.runs)?;
    }
    if wants("paths") {
        paths(config.clone(), game)?;
    }
    if wants("engines") {
        engines(config.clone(), game, o.script_engine.as_deref())?;
    }
    if wants("autoplay") {
        autoplay(config, game, o.script_engine.as_deref())?;
    }
    Ok(())
}

/// Othello perft: the script against the native mailbox reference, on the
/// same position cells and direction links (the game's own tables).
fn perft(config: Config, game: &Path, depth: u32, runs: u32) -> Result<()> {
    use axforth::game::mailbox::{othello_perft, Mailbox};
    let mut vm = start(config, &GameFile::script(game), None)?;
    let b = &vm.game.board;
    let mailbox = Mailbox { positions: b.positions, directions: b.directions.len(), links: b.links.clone() };
    let cells: Vec<i32> = (0..b.positions as i32).map(|p| b.get(&vm.mem, p)).collect::<Result<_, _>>()?;
    let to_move = vm.player_to_move();
    let (mut script_best, mut native_best) = (f64::MAX, f64::MAX);
    let (mut script_nodes, mut native_nodes) = (0, 0);
    for _ in 0..runs.max(1) {
        let t0 = Instant::now();
        script_nodes = vm.perft(depth)?;
        script_best = script_best.min(t0.elapsed().as_secs_f64());
        let mut board = cells.clone();
        let t0 = Instant::now();
        native_nodes = othello_perft(&mailbox, &mut board, to_move, depth).map_err(|e| anyhow!("{}: not an Othello board for the native reference: {e}", game.display()))?;
        native_best = native_best.min(t0.elapsed().as_secs_f64());
    }
    vm.flush_output();
    print_warnings(&mut vm);
    if script_nodes != native_nodes {
        bail!("perft {depth} differs: the script counts {script_nodes}, the native reference {native_nodes}");
    }
    println!("== perft: Othello perft {depth} = {script_nodes} (best of {runs})");
    println!("{:<30} {:>9} {:>14}", "", "seconds", "nodes/s");
    println!("{:<30} {:>9.3} {:>14.0}", "script (ForthScript)", script_best, script_nodes as f64 / script_best);
    println!("{:<30} {:>9.3} {:>14.0}", "native mailbox (Rust)", native_best, native_nodes as f64 / native_best);
    println!("script / native: {:.1}x", script_best / native_best);
    println!();
    Ok(())
}

/// The bundled games' perft at the depths of the published tables (and of
/// the RBG peer benchmark), each checked against its published count.
const PUBLISHED: &[(&str, u32, u64)] = &[
    ("scripts/tictactoe/tictactoe.4th", 9, 127_872),
    ("scripts/othello/othello.4th", 8, 390_216),
    ("scripts/draughts/draughts.4th", 8, 845_931),
    ("scripts/chess/chess.4th", 5, 4_865_609),
];

fn games(config: Config, runs: u32) -> Result<()> {
    println!("== games: perft of the bundled games against the published counts (best of {runs})");
    println!("{:<34} {:>5} {:>10} {:>9} {:>12}", "game", "depth", "nodes", "seconds", "nodes/s");
    for &(file, depth, published) in PUBLISHED {
        let Ok(path) = bundled(file) else {
            println!("{file:<34} not found, skipped");
            continue;
        };
        let mut vm = start(config.clone(), &GameFile::script(&path), None)?;
        let mut best = f64::MAX;
        let mut nodes = 0;
        for _ in 0..runs.max(1) {
            let t0 = Instant::now();
            nodes = vm.perft(depth)?;
            best = best.min(t0.elapsed().as_secs_f64());
        }
        vm.flush_output();
        print_warnings(&mut vm);
        if nodes != published {
            bail!("{file}: perft {depth} = {nodes}, published {published}");
        }
        println!("{file:<34} {depth:>5} {nodes:>10} {best:>9.3} {:>12.0}", nodes as f64 / best);
    }
    println!();
    Ok(())
}

/// Runs `body` (ForthScript, given the loop count on the stack) and
/// answers seconds per iteration, best of three.
fn time_script(vm: &mut Vm, name: &str, body: &str, n: u32) -> Result<f64> {
    vm.run_text("bench", format!(": {name} ( n -- ) {body} ;").as_bytes())?;
    let mut best = f64::MAX;
    for _ in 0..3 {
        let t0 = Instant::now();
        vm.run_text("bench", format!("{n} {name}").as_bytes())?;
        best = best.min(t0.elapsed().as_secs_f64() / n as f64);
    }
    Ok(best)
}

fn paths(config: Config, game: &Path) -> Result<()> {
    let mut vm = start(config, &GameFile::script(game), None)?;
    let region = vm.game.board.region_len;
    let cells = vm.game.board.positions;
    vm.generate_turn()?;
    let per_list = vm.game.store.count().max(1) as f64;
    vm.game.store.pop_list();
    let ns = |s: f64| s * 1e9;
    println!("== paths: native fast paths, timed from ForthScript ({}: {cells} positions, a {region}-byte board region)", game.display());
    let empty = time_script(&mut vm, "bench-empty", "0 DO LOOP", 2_000_000)?;
    let clone = time_script(&mut vm, "bench-clone", "0 DO $CloneBoard $DeallocateBoard LOOP", 2_000_000)? - empty;
    let generate = time_script(&mut vm, "bench-generate", "0 DO current-player FALSE 0 $GenerateMoves $FirstMove BEGIN ?DUP WHILE $NextMove REPEAT $DeallocateMoves LOOP", 100_000)? - empty;
    let apply = time_script(
        &mut vm,
        "bench-apply",
        "current-player FALSE 0 $GenerateMoves 0 DO $CloneBoard $FirstMove .moveCFA EXECUTE $DeallocateBoard LOOP $DeallocateMoves",
        1_000_000,
    )? - empty;
    let key = {
        let t0 = Instant::now();
        let mut x = 0u64;
        for _ in 0..1_000_000 {
            x ^= vm.position_key();
        }
        std::hint::black_box(x);
        t0.elapsed().as_secs_f64() / 1e6
    };
    println!("{:<48} {:>10}", "", "ns");
    println!("{:<48} {:>10.1}", "$CloneBoard + $DeallocateBoard (a pair)", ns(clone));
    println!("{:<48} {:>10.1}", format!("generate + walk + deallocate, per move ({per_list} moves)"), ns(generate / per_list));
    println!("{:<48} {:>10.1}", "$CloneBoard + .moveCFA EXECUTE + $DeallocateBoard", ns(apply));
    println!("{:<48} {:>10.1}", "Zobrist key of the position (native)", ns(key));
    println!();
    Ok(())
}

/// Nodes and seconds of one search of the start position.
fn search_once(vm: &mut Vm, engine: Engine, limits: Limits) -> Result<(u64, f64, u32)> {
    vm.game.search.limits = limits;
    vm.game.search.tt = Default::default();
    vm.generate_turn()?;
    let t0 = Instant::now();
    let chosen = vm.choose_move(engine);
    let seconds = t0.elapsed().as_secs_f64();
    vm.game.store.pop_list();
    chosen?;
    Ok((vm.game.search.info.nodes, seconds, vm.game.search.info.depth))
}

fn engines(config: Config, game: &Path, script: Option<&Path>) -> Result<()> {
    let mut vm = start(config.clone(), &GameFile::script(game), None)?;
    println!("== engines: one search of the start position of {}", game.display());
    println!("{:<40} {:>6} {:>10} {:>9} {:>12}", "", "depth", "nodes", "seconds", "nodes/s");
    let row = |name: &str, (nodes, s, depth): (u64, f64, u32)| {
        println!("{:<40} {:>6} {:>10} {:>9.3} {:>12.0}", name, depth, nodes, s, nodes as f64 / s.max(1e-9));
    };
    let fixed = |depth: u32, tt: usize| Limits { time: None, depth: Some(depth), tt_entries: tt, ..Limits::default() };
    row("alpha-beta, depth 7, transposition table", search_once(&mut vm, Engine::Default, fixed(7, 1 << 18))?);
    row("alpha-beta, depth 7, no table", search_once(&mut vm, Engine::Default, fixed(7, 0))?);
    let uct = Limits { time: None, iterations: Some(2000), ..Limits::default() };
    row("UCT, 2000 playouts", search_once(&mut vm, Engine::Uct, uct)?);
    if let Some(path) = script {
        let mut vm = start(config, &GameFile::script(path), None)?;
        let engine = vm.engine_to_move();
        if !matches!(engine, Engine::Script(_)) {
            bail!("{}: its first player has no ForthScript engine", path.display());
        }
        let name = format!("ForthScript engine of {}", path.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned()));
        row(&name, search_once(&mut vm, engine, Limits { time: None, ..Limits::default() })?);
    }
    println!();
    Ok(())
}

/// Games per minute of the game's own variant against itself, the
/// built-in engine at depth 2, with one and with two jobs; then the real
/// workload of a ForthScript engine: Splut! (`duel.4th`, whose engine is
/// `engines/multi-alphabeta.4th`) against `random.4th`, and the
/// `--script-engine` variant against itself, in each JIT mode side by
/// side, the time spent compiling shown apart.
fn autoplay(config: Config, game: &Path, script: Option<&Path>) -> Result<()> {
    let games = 8;
    println!("== autoplay: {games} games of {} (alpha-beta depth 2 against itself)", game.display());
    println!("{:<10} {:>9} {:>12}", "jobs", "seconds", "games/min");
    let depth2 = Limits { time: None, depth: Some(2), ..Limits::default() };
    for jobs in [1, 2] {
        let s = play_games(&config, [game, game], Some(Engine::Default), depth2.clone(), games, jobs)?;
        println!("{:<10} {:>9.2} {:>12.1}", jobs, s, games as f64 * 60.0 / s);
    }
    println!();
    let duel = bundled("scripts/splut/duel.4th")?;
    let random = bundled("scripts/splut/random.4th")?;
    by_mode(&config, [&duel, &random], 10)?;
    if let Some(path) = script {
        by_mode(&config, [path, path], 4)?;
    }
    Ok(())
}

/// `games` games of the files' own engines, on two jobs, in each JIT mode:
/// wall seconds, and the CPU seconds of making native code (all threads).
fn by_mode(config: &Config, files: [&Path; 2], games: u64) -> Result<()> {
    let jobs = 2;
    println!("== autoplay of the files' own engines: {games} games, {} against {}, --jobs {jobs}", files[0].display(), files[1].display());
    println!("{:<10} {:>9} {:>13} {:>12}", "jit", "seconds", "compiling s", "games/min");
    for (name, mode) in [("off", JitMode::Off), ("auto", JitMode::Auto), ("all", JitMode::All)] {
        let config = Config { jit: mode, ..config.clone() };
        let compiled = axforth::jit::compile_time_in_process();
        let s = play_games(&config, files, None, Limits::default(), games, jobs)?;
        let compiling = (axforth::jit::compile_time_in_process() - compiled).as_secs_f64();
        println!("{:<10} {:>9.2} {:>13.2} {:>12.1}", name, s, compiling, games as f64 * 60.0 / s);
    }
    println!();
    Ok(())
}

/// Plays a tournament of `games` games between the two files (seats
/// swapped every game, seed 1) and answers its wall seconds; a game that
/// fails fails the benchmark.
fn play_games(config: &Config, files: [&Path; 2], engine: Option<Engine>, limits: Limits, games: u64, jobs: usize) -> Result<f64> {
    let options = GameOptions {
        files: files.iter().map(|f| GameFile::script(f)).collect(),
        openings: Vec::new(),
        random_plies: 0,
        config: config.clone(),
        max_plies: 1000,
        limits,
        engines: vec![engine; 2],
        verbose: false,
        reuse_vms: true,
    };
    let schedule = Schedule { variants: 2, games, gauntlet: false, openings: 0, seed: 1, shard: (0, 1) };
    let specs: Vec<_> = schedule.indices().map(|i| schedule.game(i)).collect();
    let stop = Arc::new(AtomicBool::new(false));
    let mut errors = Vec::new();
    let t0 = Instant::now();
    runner::run(&options, &specs, jobs, &stop, |g| {
        if let Some(e) = g.error {
            errors.push(e);
        }
        Next::Continue
    });
    let s = t0.elapsed().as_secs_f64();
    if let Some(e) = errors.first() {
        bail!("a benchmark game failed: {e}");
    }
    Ok(s)
}
