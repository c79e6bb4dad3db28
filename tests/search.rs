//! The built-in engines on positions with known answers, and the promise
//! that searching allocates nothing once warm (a counting allocator).

use axforth::game::Engine;
use axforth::search::Limits;
use axforth::{Config, Vm};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts this thread's allocations (tests run on several threads).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // try_with: the thread's slot may be gone while the thread ends.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

fn allocations_so_far() -> u64 {
    ALLOCATIONS.with(|c| c.get())
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn start(path: &str, after: &[&str]) -> Vm {
    let mut vm = Vm::new(Config { seed: Some(1), ..Config::default() }).unwrap();
    vm.capture_output();
    vm.run_file(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path)).unwrap();
    vm.new_game().unwrap();
    vm.remember_position();
    for text in after {
        vm.generate_turn().unwrap();
        let m = vm.find_move(text).unwrap_or_else(|| panic!("{text} is not legal: {:?}", vm.move_texts()));
        vm.make_move(m).unwrap();
        vm.game.store.pop_list();
        vm.remember_position();
    }
    vm
}

/// The engine's choice (as text) and its score.
fn choose(vm: &mut Vm, engine: Engine, limits: Limits) -> (String, Option<i32>) {
    vm.game.search.limits = limits;
    vm.generate_turn().unwrap();
    let m = vm.choose_move(engine).unwrap();
    let text = axforth::game::moves::move_text(&vm.game, &vm.mem, m);
    vm.game.store.pop_list();
    (text, vm.game.search.info.score)
}

fn depth(d: u32) -> Limits {
    Limits { time: None, depth: Some(d), ..Limits::default() }
}

const TTT: &str = "scripts/tictactoe/tictactoe.4th";

#[test]
fn tictactoe_is_a_draw_with_and_without_the_table() {
    for tt in [1 << 16, 0] {
        let mut vm = start(TTT, &[]);
        let (_, score) = choose(&mut vm, Engine::Default, Limits { tt_entries: tt, ..depth(9) });
        assert_eq!(score, Some(0), "table entries {tt}");
    }
}

#[test]
fn alphabeta_takes_the_win_and_blocks_the_loss() {
    // X: a1 b1 (c1 wins); O: a2 b2.  X to move takes c1.
    let mut vm = start(TTT, &["a1", "a2", "b1", "b2"]);
    let (m, score) = choose(&mut vm, Engine::Default, depth(9));
    assert_eq!(m, "X Mark c1");
    assert!(score.unwrap() > 1_000_000, "{score:?}");
    // X: a1 c3; O: b2 b1.  O threatens b3: X must block it.
    let mut vm = start(TTT, &["a1", "b2", "c3", "b1"]);
    let (m, _) = choose(&mut vm, Engine::Default, depth(9));
    assert_eq!(m, "X Mark b3");
}

#[test]
fn alphabeta_finds_a_fork() {
    // X: a1 c3, O: b2 a3... X to move: c1 forks (b1 and c2).
    let mut vm = start(TTT, &["a1", "b2", "c3", "a3"]);
    let (m, score) = choose(&mut vm, Engine::Default, depth(9));
    assert!(score.unwrap() > 1_000_000, "{m} {score:?}");
    assert_eq!(m, "X Mark c1");
}

#[test]
fn uct_takes_the_win_and_blocks_the_loss() {
    let limits = Limits { time: None, iterations: Some(3000), ..Limits::default() };
    let mut vm = start(TTT, &["a1", "a2", "b1", "b2"]);
    assert_eq!(choose(&mut vm, Engine::Uct, limits.clone()).0, "X Mark c1");
    let mut vm = start(TTT, &["a1", "b2", "c3", "b1"]);
    assert_eq!(choose(&mut vm, Engine::Uct, limits).0, "X Mark b3");
}

#[test]
fn searching_allocates_nothing_per_node() {
    let mut vm = start("scripts/othello/othello.4th", &[]);
    let uct = |n: u64| Limits { time: None, iterations: Some(n), ..Limits::default() };
    for (engine, small, large) in [(Engine::Default, depth(3), depth(5)), (Engine::Uct, uct(100), uct(400))] {
        let mut allocations = |limits: &Limits| {
            vm.game.search.tt.clear(); // the whole search again, not a table lookup
            let before = allocations_so_far();
            choose(&mut vm, engine, limits.clone());
            (allocations_so_far() - before, vm.game.search.info.nodes)
        };
        allocations(&large); // warm: arenas, table, tree
        let (a_small, n_small) = allocations(&small);
        let (a_large, n_large) = allocations(&large);
        // A few per search (the root's move order, the chosen move's
        // text), none per node.
        assert!(n_large > 3 * n_small && n_small > 20, "{engine:?}: {n_small} and {n_large} nodes");
        assert_eq!(a_small, a_large, "{engine:?}: {a_small} allocations for {n_small} nodes, {a_large} for {n_large}");
        assert!(a_large <= 16, "{engine:?}: {a_large} allocations for {n_large} nodes");
    }
}

#[test]
fn a_script_engine_allocates_nothing_per_node() {
    let mut vm = start("scripts/othello/alphabeta.4th", &[]);
    let mut allocations = |depth: u32| {
        vm.run_text("test", format!("{depth} ab-depth !").as_bytes()).unwrap();
        vm.game.search.limits = Limits { time: None, ..Limits::default() };
        vm.generate_turn().unwrap();
        let engine = vm.engine_to_move();
        let before = allocations_so_far();
        vm.choose_move(engine).unwrap();
        let a = allocations_so_far() - before;
        vm.game.store.pop_list();
        (a, vm.game.search.info.nodes)
    };
    allocations(5); // warm
    let (a_small, n_small) = allocations(2);
    let (a_large, n_large) = allocations(5);
    assert!(n_large > 10 * n_small, "{n_small} and {n_large} nodes");
    // Choosing (finding the reported move among the legal ones) costs a
    // few allocations a search; the search itself none.
    assert_eq!(a_small, a_large, "{a_small} allocations for {n_small} nodes, {a_large} for {n_large}");
    assert!(a_large <= 32, "{a_large}");
}

#[test]
fn the_incremental_key_matches_the_key_hashed_afresh() {
    for game in ["scripts/othello/random.4th", "scripts/draughts/random.4th", "scripts/tictactoe/random.4th"] {
        let mut vm = start(game, &[]);
        let mut seen = std::collections::HashSet::new();
        for ply in 0..200 {
            vm.generate_turn().unwrap();
            if vm.game_result().unwrap() != axforth::game::UNKNOWN_SCORE {
                break;
            }
            // Inside a search too: clone, play, deallocate.
            vm.push_board().unwrap();
            let turn = vm.game.turn;
            let before = vm.position_key();
            vm.make_move(vm.game.store.current().start).unwrap();
            assert_eq!(vm.position_key(), vm.position_key_recomputed(), "{game} ply {ply}, in a search");
            vm.pop_board().unwrap();
            vm.game.turn = turn;
            assert_eq!(vm.position_key(), before, "{game} ply {ply}: deallocating restores the key");
            let m = vm.choose_move(Engine::Random).unwrap();
            vm.make_move(m).unwrap();
            vm.game.store.pop_list();
            let key = vm.position_key();
            assert_eq!(key, vm.position_key_recomputed(), "{game} ply {ply}");
            seen.insert(key);
        }
        assert!(seen.len() > 5, "{game}: different positions have different keys");
    }
}

#[test]
fn a_player_moving_twice_keeps_the_sign() {
    // X and O each move twice a turn.  X: a1 b2, O: a2 c3; X to move
    // twice completes a line holding one X and two empty squares: a win
    // two plies deep, seen only if the second ply is X's again.
    let dir = std::env::temp_dir().join(format!("axforth-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("double.4th");
    let game = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(TTT);
    std::fs::write(
        &file,
        format!("LOAD {}\n{{turn-order {{turn}} X {{turn}} X {{turn}} O {{turn}} O turn-order}}\n", game.display()),
    )
    .unwrap();
    let mut vm = start(file.to_str().unwrap(), &["a1", "b2", "a2", "c3"]);
    let (_, score) = choose(&mut vm, Engine::Default, Limits { tt_entries: 0, ..depth(2) });
    assert!(score.unwrap() > 1_000_000, "{score:?}");
}
