//! A tournament's workers keep each variant's VM from game to game, put
//! back as it stood after loading (`axforth::snapshot`): the games must be
//! the games freshly loaded VMs play, whatever ran before, in every JIT
//! mode; and a VM put back compiles nothing new for its next game.

use axforth::game::Engine;
use axforth::jit::JitMode;
use axforth::open::GameFile;
use axforth::search::Limits;
use axforth::tournament::game::GameOptions;
use axforth::tournament::record::GameRecord;
use axforth::tournament::runner;
use axforth::tournament::schedule::Schedule;
use axforth::{Config, Vm};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

fn file(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// The records of `games` games of `path` against itself, each seat's
/// engine `engine` (None: the file's), played one after the other on one worker; without
/// their timings.
fn tournament(path: &str, engine: Option<Engine>, limits: Limits, games: u64, jit: JitMode, reuse_vms: bool) -> Vec<GameRecord> {
    match_of([path, path], engine, limits, games, jit, reuse_vms)
}

/// `tournament` of two variants, one against the other.
fn match_of(paths: [&str; 2], engine: Option<Engine>, limits: Limits, games: u64, jit: JitMode, reuse_vms: bool) -> Vec<GameRecord> {
    let options = GameOptions {
        files: paths.iter().map(|p| GameFile::script(&file(p))).collect(),
        openings: Vec::new(),
        random_plies: 0,
        config: Config { jit, ..Config::default() },
        max_plies: 300,
        limits,
        engines: vec![engine; 2],
        verbose: false,
        reuse_vms,
    };
    let schedule = Schedule { variants: 2, games, gauntlet: false, openings: 0, seed: 11, shard: (0, 1) };
    let specs: Vec<_> = schedule.indices().map(|i| schedule.game(i)).collect();
    let mut records = Vec::new();
    runner::run(&options, &specs, 1, &Arc::new(AtomicBool::new(false)), |mut g| {
        g.time = 0.0;
        g.engines = Default::default();
        records.push(g);
        runner::Next::Continue
    });
    records.sort_by_key(|g| g.index);
    records
}

fn depth(d: u32) -> Limits {
    Limits { time: None, depth: Some(d), ..Limits::default() }
}

#[test]
fn reused_vms_play_the_games_fresh_ones_play() {
    let playouts = Limits { time: None, iterations: Some(300), ..Limits::default() };
    let cases = [
        ("scripts/tictactoe/tictactoe.4th", Some(Engine::Random), Limits::default(), 12),
        ("scripts/tictactoe/tictactoe.4th", Some(Engine::Uct), playouts, 4),
        ("scripts/tictactoe/alphabeta.4th", None, Limits::default(), 2),
        ("scripts/othello/othello.4th", Some(Engine::Default), depth(2), 4),
        ("tests/reuse/leaky.4th", Some(Engine::Random), Limits::default(), 12),
        ("tests/reuse/leaky.4th", Some(Engine::Default), depth(3), 6),
        ("tests/reuse/drawing.4th", Some(Engine::Random), Limits::default(), 6),
    ];
    for jit in [JitMode::Off, JitMode::Auto, JitMode::All] {
        for (path, engine, limits, games) in &cases {
            let fresh = tournament(path, *engine, limits.clone(), *games, jit, false);
            let reused = tournament(path, *engine, limits.clone(), *games, jit, true);
            assert_eq!(fresh.len() as u64, *games);
            assert!(fresh.iter().all(|g| g.error.is_none()), "{path}: {:?}", fresh.iter().find_map(|g| g.error.as_ref()));
            for (f, r) in fresh.iter().zip(&reused) {
                assert_eq!(
                    serde_json::to_string(f).unwrap(),
                    serde_json::to_string(r).unwrap(),
                    "{path} ({engine:?}, --jit {jit:?}): game {} differs in a reused VM",
                    f.index + 1
                );
            }
        }
    }
}

/// Plays a game of random moves to its end.
fn play_out(vm: &mut Vm) {
    for _ in 0..100 {
        vm.generate_turn().unwrap();
        if vm.game_result().unwrap() != axforth::game::UNKNOWN_SCORE {
            return;
        }
        let m = vm.choose_move(Engine::Random).unwrap();
        vm.make_move(m).unwrap();
        vm.game.store.pop_list();
    }
    panic!("the game did not end");
}

#[test]
fn a_vm_put_back_compiles_nothing_new_for_its_next_game() {
    let config = Config { jit: JitMode::All, seed: Some(5), ..Config::default() };
    let mut vm = Vm::new(config).unwrap();
    vm.capture_output();
    vm.load_game(&GameFile::script(&file("scripts/othello/othello.4th"))).unwrap();
    let loaded = vm.snapshot();
    vm.new_game().unwrap();
    play_out(&mut vm);
    let (compiled, _, _) = vm.jit_counts();
    assert!(compiled > 0, "the first game made native code");
    for seed in [6, 7] {
        assert!(vm.restore(&loaded, seed), "a VM whose loading drew no random number is put back");
        vm.new_game().unwrap();
        play_out(&mut vm);
        assert_eq!(vm.jit_counts().0, compiled, "game under seed {seed} compiled again");
    }
}

/// Native code is made once per process: a second VM of the same game,
/// on another thread (as under `--jobs`), plays the same game with the
/// code the first one's compiler made, and compiles nothing itself.
#[test]
fn a_second_vm_of_a_game_takes_the_native_code_the_first_made() {
    let played = || {
        let mut vm = Vm::new(Config { jit: JitMode::All, seed: Some(5), ..Config::default() }).unwrap();
        vm.capture_output();
        vm.load_game(&GameFile::script(&file("scripts/othello/othello.4th"))).unwrap();
        vm.new_game().unwrap();
        play_out(&mut vm);
        vm
    };
    let mut first = played();
    let (compiled, _, _) = first.jit_counts();
    assert!(compiled > 0, "the first game made native code");
    let (second_compiled, shared) = std::thread::spawn(move || {
        let mut second = played();
        (second.jit_counts().0, second.jit_shared())
    })
    .join()
    .unwrap();
    assert_eq!(second_compiled, compiled, "the second VM has native code for the same definitions");
    assert_eq!(shared, second_compiled, "every definition of the second VM's came from the first's compiler");
    drop(first);
}

#[test]
fn a_vm_whose_loading_drew_random_numbers_is_not_put_back() {
    let mut vm = Vm::new(Config { seed: Some(5), ..Config::default() }).unwrap();
    vm.capture_output();
    vm.load_game(&GameFile::script(&file("tests/reuse/drawing.4th"))).unwrap();
    let loaded = vm.snapshot();
    assert!(!vm.restore(&loaded, 6));
}

/// Two variants that define the same word names otherwise (`pick`: the
/// first move of the list in one, the last in the other) each play their
/// own, in every JIT mode and with VMs reused from game to game: every
/// move of a game is the first or the last of the legal moves, as its
/// mover's variant says.
#[test]
fn variants_defining_the_same_names_otherwise_each_play_their_own() {
    let twins = ["tests/reuse/twin-first.4th", "tests/reuse/twin-last.4th"];
    let interpreted = match_of(twins, None, Limits::default(), 4, JitMode::Off, true);
    for jit in [JitMode::Auto, JitMode::All] {
        assert_eq!(match_of(twins, None, Limits::default(), 4, jit, true), interpreted, "--jit {jit:?}");
    }
    check_choices(&interpreted, |seat, texts| if seat == 1 { texts.last() } else { texts.first() });
}

/// Two variants whose words lie at the same addresses with the same
/// lengths, and differ in one literal (`skip`: 0 or 1), so that each one's
/// native code would fit the other's calls: each plays its own, in every
/// JIT mode, when both run in one process (native code is shared between
/// VMs only where what it was made from is the same).
#[test]
fn variants_differing_at_the_same_address_share_no_native_code() {
    let twins = ["tests/reuse/skip-0.4th", "tests/reuse/skip-1.4th"];
    let interpreted = match_of(twins, None, Limits::default(), 4, JitMode::Off, true);
    for jit in [JitMode::Auto, JitMode::All] {
        for reuse in [true, false] {
            assert_eq!(match_of(twins, None, Limits::default(), 4, jit, reuse), interpreted, "--jit {jit:?}, VMs reused: {reuse}");
        }
    }
    check_choices(&interpreted, |seat, texts| texts.get(seat.min(texts.len() - 1)));
}

/// Every move of every game of `games` is the one `expected` picks from the
/// legal moves' texts for the seat (0 or 1) of the variant that moved.
fn check_choices(games: &[GameRecord], expected: impl Fn(usize, &[String]) -> Option<&String>) {
    for g in games {
        assert!(g.error.is_none(), "game {}: {:?}", g.index, g.error);
        let mut vm = Vm::new(Config { seed: Some(1), ..Config::default() }).unwrap();
        vm.capture_output();
        vm.load_game(&GameFile::script(&file("scripts/tictactoe/tictactoe.4th"))).unwrap();
        vm.new_game().unwrap();
        for (ply, played) in g.moves.iter().enumerate() {
            vm.generate_turn().unwrap();
            let texts = vm.move_texts();
            // Seat 0 moves first; seats[s] is the variant in seat s.
            let variant = g.seats[ply % 2];
            assert_eq!(Some(played), expected(variant, &texts), "game {} ply {}: {:?}", g.index, ply + 1, texts);
            let m = vm.find_move(played).unwrap();
            vm.make_move(m).unwrap();
            vm.game.store.pop_list();
        }
    }
}
