//! The ForthScript engines of `engines/` on tic-tac-toe, where the answers
//! are known: the game is a draw, a row is taken, a fork is found, a
//! player with two moves in a row wins where an alternating search would
//! not see it, and no game is lost to `{random}`.

use axforth::game::{Engine, WIN_SCORE};
use axforth::{Config, Vm};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn start(file: &Path, after: &[&str]) -> Vm {
    let mut vm = Vm::new(Config { seed: Some(1), ..Config::default() }).unwrap();
    vm.capture_output();
    vm.run_file(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    vm.new_game().unwrap();
    vm.remember_position();
    for text in after {
        vm.generate_turn().unwrap();
        let m = vm.find_move(text).unwrap_or_else(|| panic!("{text}: {:?}", vm.move_texts()));
        vm.make_move(m).unwrap();
        vm.game.store.pop_list();
        vm.remember_position();
    }
    vm
}

/// The move the file's engine chooses for the player to move, and the
/// score and depth it reported.
fn choose(vm: &mut Vm) -> (String, i32, u32) {
    vm.game.search.limits.time = None;
    vm.generate_turn().unwrap();
    let engine = vm.engine_to_move();
    assert!(matches!(engine, Engine::Script(_)));
    let m = vm.choose_move(engine).unwrap_or_else(|e| panic!("{e}"));
    let text = axforth::game::moves::move_text(&vm.game, &vm.mem, m);
    vm.game.store.pop_list();
    let info = &vm.game.search.info;
    (text, info.score.expect("the engine reports its score"), info.depth)
}

fn variant(name: &str) -> PathBuf {
    root().join("scripts/tictactoe").join(name)
}

const ENGINES: [&str; 3] = ["alphabeta.4th", "multi-alphabeta.4th", "maxn.4th"];

/// multi-alphabeta adds 0..5 at the root so that equal moves vary.
fn near(score: i32, want: i32) -> bool {
    (want..=want + 5).contains(&score)
}

#[test]
fn tictactoe_is_a_draw() {
    for name in ENGINES {
        let mut vm = start(&variant(name), &[]);
        let (_, score, depth) = choose(&mut vm);
        assert!(near(score, 0), "{name}: score {score}");
        assert_eq!(depth, 9, "{name}");
    }
}

#[test]
fn a_row_is_taken_and_a_fork_found() {
    for name in ENGINES {
        // X: a1 b1, O: a2 b2: c1 wins now.
        let mut vm = start(&variant(name), &["a1", "a2", "b1", "b2"]);
        let (m, score, _) = choose(&mut vm);
        assert_eq!(m, "X Mark c1", "{name}");
        assert!(score > WIN_SCORE - 100, "{name}: {score}");
        // X: a1 c3, O: b2 a3: c1 makes two threats (b1, c2).
        let mut vm = start(&variant(name), &["a1", "b2", "c3", "a3"]);
        let (m, score, _) = choose(&mut vm);
        assert_eq!(m, "X Mark c1", "{name}");
        assert!(score > WIN_SCORE - 100, "{name}: {score}");
    }
}

#[test]
fn two_moves_in_a_row_are_searched_as_such() {
    // X and O each move twice a turn.  X: a1 b2, O: a2 c3; X to move
    // twice completes any line holding one X and two empty squares.  A
    // search that alternates sides sees O answer after one X move; the
    // turn order shows X moving again: a win at depth 2.
    let dir = std::env::temp_dir().join(format!("axforth-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("double.4th");
    std::fs::write(
        &file,
        format!(
            "LOAD {}\n: OnEvaluate ( -- score ) 0 ;\nLOAD {}\n2 ma-depth !\n\
             {{players {{player}} X {{search-engine}} multi-alphabeta-engine {{player}} O {{random}} players}}\n\
             {{turn-order {{turn}} X {{turn}} X {{turn}} O {{turn}} O turn-order}}\n",
            root().join("scripts/tictactoe/tictactoe.4th").display(),
            root().join("engines/multi-alphabeta.4th").display()
        ),
    )
    .unwrap();
    let mut vm = start(&file, &["a1", "b2", "a2", "c3"]);
    let (_, score, depth) = choose(&mut vm);
    assert_eq!(depth, 2);
    assert!(score > WIN_SCORE - 100, "score {score}");
}

#[test]
fn no_game_is_lost_to_random() {
    for name in ENGINES {
        let v = variant(name);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_axforth"))
            .args(["autoplay", v.to_str().unwrap(), "scripts/tictactoe/random.4th", "-n", "6", "--seed", "5", "-q"])
            .current_dir(root())
            .output()
            .unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{name}: {out}{}", String::from_utf8_lossy(&o.stderr));
        assert!(out.contains("Player 2 \"random\", wins = 0."), "{name}: {out}");
        assert!(out.contains("6 game(s) played"), "{name}: {out}");
    }
}

#[test]
fn an_engine_that_leaves_a_move_list_is_named() {
    let dir = std::env::temp_dir().join(format!("axforth-engines-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("leaky.4th");
    std::fs::write(
        &file,
        format!(
            "LOAD {}\n: leaky ( -- ) current-player FALSE 0 $GenerateMoves $FirstMove $MoveString BestMove! ;\n\
             {{players {{player}} X {{search-engine}} leaky {{player}} O players}}\n",
            root().join("scripts/tictactoe/tictactoe.4th").display()
        ),
    )
    .unwrap();
    let mut vm = start(&file, &[]);
    vm.generate_turn().unwrap();
    let engine = vm.engine_to_move();
    let e = vm.choose_move(engine).unwrap_err().to_string();
    assert!(e.contains("`leaky`") && e.contains("$DeallocateMoves"), "{e}");
}

#[test]
fn an_engine_past_its_time_is_told_and_its_best_move_stands() {
    let mut vm = start(&root().join("scripts/othello/alphabeta.4th"), &[]);
    vm.run_text("test", b"20 ab-depth !").unwrap();
    vm.game.search.limits.time = Some(std::time::Duration::from_millis(200));
    vm.generate_turn().unwrap();
    let engine = vm.engine_to_move();
    let t0 = std::time::Instant::now();
    let m = vm.choose_move(engine).unwrap();
    let seconds = t0.elapsed().as_secs_f64();
    let info = vm.game.search.info.clone();
    assert!(vm.game.store.current().contains(&m));
    assert!(seconds < 2.0, "{seconds} s");
    assert!(info.timed_out, "{info:?}");
    assert!(info.depth >= 1 && info.depth < 20, "{info:?}");
    assert!(info.best_move.is_some());
}
