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
        let allocations = |vm: &mut Vm, limits: &Limits| {
            vm.game.search.tt.clear(); // the whole search again, not a table lookup
            let before = allocations_so_far();
            choose(vm, engine, limits.clone());
            (allocations_so_far() - before, vm.game.search.info.nodes)
        };
        // Warm: arenas, table, tree, and native code (made on the JIT's
        // thread, and asked for again as what calls it becomes native).
        for _ in 0..2 {
            allocations(&mut vm, &large);
            vm.jit_settle();
        }
        let (a_small, n_small) = allocations(&mut vm, &small);
        let (a_large, n_large) = allocations(&mut vm, &large);
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
    let allocations = |vm: &mut Vm, depth: u32| {
        vm.run_text("test", format!("{depth} ab-depth !").as_bytes()).unwrap();
        // Its depth bounds it; the time is only a backstop.
        vm.game.search.limits = Limits { time: Some(std::time::Duration::from_secs(600)), ..Limits::default() };
        vm.generate_turn().unwrap();
        let engine = vm.engine_to_move();
        let before = allocations_so_far();
        vm.choose_move(engine).unwrap();
        let a = allocations_so_far() - before;
        vm.game.store.pop_list();
        (a, vm.game.search.info.nodes)
    };
    // Warm, native code included (see above).
    for _ in 0..2 {
        allocations(&mut vm, 5);
        vm.jit_settle();
    }
    let (a_small, n_small) = allocations(&mut vm, 2);
    let (a_large, n_large) = allocations(&mut vm, 5);
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

// ---- players without a side: chance players and three contestants ----

const CLEANER: &str = "tests/chance/tictactoe-cleaner.4th";
const THREE: &str = "tests/chance/tictactoe-three.4th";

fn uct(playouts: u64) -> Limits {
    Limits { time: None, iterations: Some(playouts), ..Limits::default() }
}

/// Both built-in engines, each with enough search to see the position
/// through.
fn engines() -> [(Engine, Limits); 2] {
    [(Engine::Default, depth(9)), (Engine::Uct, uct(20_000))]
}

#[test]
fn with_a_chance_player_between_turns_the_engines_take_the_win_and_block_the_loss() {
    // X, O, ?Cleaner: the player changes three times between X's turns.
    for (engine, limits) in engines() {
        // X: a1 b1 (c1 wins); O: a2 b2.
        let mut vm = start(CLEANER, &["a1", "a2", "Pass", "b1", "b2", "Pass"]);
        let (m, score) = choose(&mut vm, engine, limits.clone());
        assert_eq!(m, "X Mark c1", "{engine:?}");
        if engine == Engine::Default {
            assert!(score.unwrap() > 1_000_000, "{score:?}");
        }
        // X: a1 c3; O: b2 b1.  O threatens b3: X must block it.
        let mut vm = start(CLEANER, &["a1", "b2", "Pass", "c3", "b1", "Pass"]);
        assert_eq!(choose(&mut vm, engine, limits.clone()).0, "X Mark b3", "{engine:?}");
        // From the start, perfect play is a draw, cleaner or not.
        if engine == Engine::Default {
            let mut vm = start(CLEANER, &[]);
            assert_eq!(choose(&mut vm, engine, limits).1, Some(0));
        }
    }
}

#[test]
fn a_neutral_player_in_the_turn_order_is_no_one_s_ally_either() {
    // The cleaner declared `{neutral} Sweeper` instead of `?Cleaner`: it
    // moves in the turn order, and still gains no one.
    let dir = std::env::temp_dir().join(format!("axforth-neutral-mover-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("neutral.4th");
    let cleaner = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CLEANER);
    let text = std::fs::read_to_string(&cleaner).unwrap().replace("{player} ?Cleaner {random}", "{neutral} Sweeper").replace("?Cleaner", "Sweeper");
    let text = text.replace("LOAD ../../scripts/tictactoe/tictactoe.4th", &format!("LOAD {}", cleaner.parent().unwrap().join("../../scripts/tictactoe/tictactoe.4th").display()));
    std::fs::write(&file, text).unwrap();
    let path = file.to_str().unwrap();
    for (engine, limits) in engines() {
        let mut vm = start(path, &["a1", "a2", "Pass", "b1", "b2", "Pass"]);
        assert_eq!(choose(&mut vm, engine, limits.clone()).0, "X Mark c1", "{engine:?}");
        let mut vm = start(path, &["a1", "b2", "Pass", "c3", "b1", "Pass"]);
        assert_eq!(choose(&mut vm, engine, limits).0, "X Mark b3", "{engine:?}");
    }
}

#[test]
fn the_engines_bet_when_the_dice_favour_it_and_only_then() {
    // A bet that wins on 2 faces of 3 is worth a third of a win; on 1
    // face of 3 it is worth minus a third, and the safe draw is better.
    // An engine that took the dice for an opponent would never bet; one
    // that took them for a friend would always.
    for (engine, limits) in engines() {
        let mut vm = start("tests/chance/gamble-good.4th", &[]);
        let (m, score) = choose(&mut vm, engine, limits.clone());
        assert_eq!(m, "Me Stone a2", "{engine:?}");
        if engine == Engine::Default {
            let third = axforth::game::WIN_SCORE as f64 / 3.0;
            assert!((score.unwrap() as f64 - third).abs() < 1000.0, "{score:?}: the mean of win, win, loss");
        }
        let mut vm = start("tests/chance/gamble-bad.4th", &[]);
        let (m, score) = choose(&mut vm, engine, limits);
        assert_eq!(m, "Me Stone a1", "{engine:?}");
        if engine == Engine::Default {
            assert_eq!(score, Some(0));
        }
    }
}

#[test]
fn with_three_contestants_the_engines_take_the_win_and_block_the_next_threat() {
    for (engine, limits) in engines() {
        // X: a1 a2 (a3 wins); O: b1 b2 (b3 would win); Z: c3 c1.
        let mut vm = start(THREE, &["a1", "b1", "c3", "a2", "b2", "c1"]);
        assert_eq!(choose(&mut vm, engine, limits.clone()).0, "X Mark a3", "{engine:?}");
        // X: a1 c1, no row to make; O: b1 b2 and Z: c3 a3 both need b3.
        let mut vm = start(THREE, &["a1", "b1", "c3", "c1", "b2", "a3"]);
        assert_eq!(choose(&mut vm, engine, limits).0, "X Mark b3", "{engine:?}");
    }
}

#[test]
fn uct_finds_the_fork_and_calls_the_start_even() {
    let mut vm = start(TTT, &["a1", "b2", "c3", "a3"]);
    assert_eq!(choose(&mut vm, Engine::Uct, uct(30_000)).0, "X Mark c1");
    // From the start UCT's score is its mean credit per mille: near a
    // draw's 500, far from a win or a loss.
    let mut vm = start(TTT, &[]);
    let score = choose(&mut vm, Engine::Uct, uct(30_000)).1.unwrap();
    assert!((350..=750).contains(&score), "{score}");
}

#[test]
fn a_player_without_a_side_throws_the_dice_whatever_its_engine() {
    // The cleaner's one move, by every engine; the dice's faces spread.
    let mut vm = start(CLEANER, &["a1", "a2"]);
    for engine in [Engine::Default, Engine::Uct, Engine::Random] {
        assert_eq!(choose(&mut vm, engine, depth(3)).0, "Pass");
    }
    let mut faces = std::collections::HashSet::new();
    let mut vm = start("tests/chance/gamble-good.4th", &["a2"]);
    for _ in 0..40 {
        faces.insert(choose(&mut vm, Engine::Default, depth(3)).0);
    }
    assert_eq!(faces.len(), 3, "{faces:?}");
}

#[test]
fn after_choosing_current_player_is_the_player_to_move_again() {
    // A search walks other players' positions; the chosen move's words
    // (which may credit `current-player`) run in the position searched
    // from.
    for engine in [Engine::Default, Engine::Uct] {
        let mut vm = start(TTT, &["a1"]);
        vm.generate_turn().unwrap();
        vm.game.search.limits = Limits { time: None, depth: Some(4), iterations: Some(300), ..Limits::default() };
        vm.choose_move(engine).unwrap();
        assert_eq!(vm.game.gen.player, vm.player_to_move(), "{engine:?}");
        vm.game.store.pop_list();
    }
}

#[test]
fn a_search_stopped_before_it_scored_any_move_plays_at_random_not_the_first() {
    // Every first step's second steps are searched (a partial chain
    // takes no depth) with an evaluation that takes milliseconds: a
    // millisecond ends the search inside its first iteration. Before, it
    // then played the first move generated, every time.
    let mut vm = start("tests/search/slow-chain.4th", &[]);
    let limits = Limits { time: Some(std::time::Duration::from_millis(1)), ..Limits::default() };
    let mut chosen = std::collections::HashSet::new();
    for _ in 0..12 {
        chosen.insert(choose(&mut vm, Engine::Default, limits.clone()).0);
    }
    assert!(chosen.len() > 1, "always {chosen:?}");
}

#[test]
fn uct_credits_a_judged_random_game_by_how_much_it_gained() {
    // Random games outlast the 24 moves after which the evaluation judges
    // them: Gold and Copper both gain, and only a credit graded by the
    // gain tells the Gold's 5 from the Copper's 1.
    let limits = Limits { time: None, iterations: Some(400), ..Limits::default() };
    let mut vm = start("tests/search/gains.4th", &[]);
    for _ in 0..6 {
        assert_eq!(choose(&mut vm, Engine::Uct, limits.clone()).0, "Me Gold a1");
    }
}

#[test]
fn uct_proves_a_forced_win_random_games_never_find() {
    // Six stones in the one right order, out of 60,480 orders: random
    // games all lose, so every first move looks alike to their win rate.
    // Proving the wrong stones lost, the search walks the one line left.
    let limits = Limits { time: None, iterations: Some(2000), ..Limits::default() };
    let mut vm = start("tests/search/lock.4th", &[]);
    assert_eq!(choose(&mut vm, Engine::Uct, limits.clone()), ("Me Stone a1".to_string(), Some(1000)));
    let mut vm = start("tests/search/lock.4th", &["a1", "b2", "c3"]);
    assert_eq!(choose(&mut vm, Engine::Uct, limits), ("Me Stone a3".to_string(), Some(1000)));
}

/// A move's text after `moves`, on a VM that has the game's first list.
fn first_move_and_marks(vm: &mut Vm) -> (String, (usize, u32, u32)) {
    vm.generate_turn().unwrap();
    let first = vm.move_texts()[0].clone();
    (first, (vm.game.store.lists.len(), vm.game.snapshot_count, vm.game.script_lists))
}

/// A `{search-engine}` that never calls `$Yield` (it reports the first
/// move, generates a list, clones the board, plays a move on it, then
/// loops) is stopped a second after its time per move: the position is
/// the one it started from, its list and board are forgotten, and the
/// move it reported is played.
#[test]
fn a_script_engine_that_never_gives_way_is_stopped_and_its_report_played() {
    let mut vm = start("tests/search/stuck.4th", &[]);
    vm.game.search.limits = Limits { time: Some(std::time::Duration::from_millis(50)), ..Limits::default() };
    let key = vm.position_key();
    let (first, marks) = first_move_and_marks(&mut vm);
    let t0 = std::time::Instant::now();
    let engine = vm.engine_to_move();
    let m = vm.choose_move(engine).unwrap();
    let took = t0.elapsed().as_secs_f64();
    assert_eq!(axforth::game::moves::move_text(&vm.game, &vm.mem, m), first);
    assert_eq!(vm.position_key(), key, "the position is put back");
    assert_eq!(vm.position_key_recomputed(), key, "the board's cells are put back");
    assert_eq!((vm.game.store.lists.len(), vm.game.snapshot_count, vm.game.script_lists), marks);
    assert!((1.0..2.0).contains(&took), "stopped after {took:.2} s (time per move 0.05 s, grace 1 s)");
    vm.make_move(m).unwrap();
}

/// One that never reports a move either ends in an error that says why,
/// at the place it was running.
#[test]
fn a_script_engine_that_never_gives_way_nor_reports_fails_clearly() {
    let mut vm = start("tests/search/mute.4th", &[]);
    vm.game.search.limits = Limits { time: Some(std::time::Duration::from_millis(50)), ..Limits::default() };
    let (_, marks) = first_move_and_marks(&mut vm);
    let engine = vm.engine_to_move();
    let e = vm.choose_move(engine).unwrap_err().to_string();
    assert!(e.contains("still searching 1.") && e.contains("after its time per move ran out in `mute`"), "{e}");
    assert!(e.contains("mute.4th:8:"), "{e}");
    assert_eq!((vm.game.store.lists.len(), vm.game.snapshot_count, vm.game.script_lists), marks);
}

/// Script the built-in engine runs at every node (`OnEvaluate` here) is
/// bound by the time per move too: one that never returns ends the
/// search with an out-of-time error after the time and the grace (it
/// hung unless --max-steps was given).
#[test]
fn an_event_that_never_returns_under_the_built_in_engine_is_stopped() {
    let mut vm = start("tests/search/looping-eval.4th", &[]);
    vm.game.search.limits = Limits { time: Some(std::time::Duration::from_millis(50)), ..Limits::default() };
    vm.generate_turn().unwrap();
    let t0 = std::time::Instant::now();
    let e = vm.choose_move(Engine::Default).unwrap_err().to_string();
    let took = t0.elapsed().as_secs_f64();
    assert!(e.contains("still searching") && e.contains("OnEvaluate"), "{e}");
    assert!((1.0..2.5).contains(&took), "stopped after {took:.2} s (time per move 0.05 s, grace 1 s)");
}
