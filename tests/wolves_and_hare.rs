//! Wolves and Hare (`scripts/wolves-and-hare/`): four wolves on a1 c1 e1
//! g1 that only step forward, a hare on d8 that steps any diagonal and
//! moves first. Perft counted by hand, the rules on hand-made positions,
//! the breadth-first distance the engine evaluates, and the engine: it
//! beats a random hare, and against itself the wolves win (the published
//! result of perfect play).

mod common;

use common::game::{load_file, load_with, moves, play, result};
use axforth::game::{moves::move_text, LOSS_SCORE, UNKNOWN_SCORE, WIN_SCORE};
use axforth::Vm;
use pretty_assertions::assert_eq;

const GAME: &str = "scripts/wolves-and-hare/wolves-and-hare.4th";
const ENGINE: &str = "scripts/wolves-and-hare/engine.4th";

/// The game started from this position, the hare to move.
fn position(hare: &str, wolves: &str) -> Vm {
    load_with(GAME, &format!("{{board-setup {{setup}} Hares Hare {hare} {{setup}} Wolves Wolf {wolves} board-setup}}"), 7)
}

/// The value a word leaves on the stack.
fn word(vm: &mut Vm, src: &str) -> i32 {
    vm.run_text("test", src.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    vm.pop().unwrap()
}

const HARES: i32 = 2048;
const WOLVES: i32 = 4096;
const SHUT_IN: i32 = 1000;

// ---- perft --------------------------------------------------------------------

/// By hand. Ply 1: the hare on d8 steps to c7 or e7 (row 8 is the top):
/// 2. Ply 2: a1 -> b2, c1 -> b2 d2, e1 -> d2 f2, g1 -> f2 h2: 7 wolf moves,
/// 2 * 7 = 14. Ply 3: the hare, on c7 or e7, far from the wolves on rows
/// 1-2, has all four diagonals free: 14 * 4 = 56. Ply 4: the wolves have 7
/// moves again after a1-b2 (b2 gets a3 c3, c1 loses b2 but keeps d2) and 6
/// after each of the other six first moves (the moved wolf gains two
/// squares or one at the edge, a neighbour loses the one it took, or a1's
/// only one): 7 + 6 * 6 = 43 per hare square, 2 * 4 * 43 = 344.
#[test]
fn perft_1_to_4_by_hand() {
    let mut vm = load_file(GAME);
    for (n, want) in [2, 14, 56, 344].into_iter().enumerate() {
        assert_eq!(vm.perft(n as u32 + 1).unwrap(), want, "perft {}", n + 1);
    }
}

// ---- the rules ------------------------------------------------------------------

#[test]
fn the_start_position() {
    let mut vm = load_file(GAME);
    assert_eq!(vm.player_to_move(), HARES, "the hare moves first");
    assert_eq!(moves(&mut vm), ["Hare d8 - c7", "Hare d8 - e7"]);
    play(&mut vm, "d8 - c7");
    assert_eq!(moves(&mut vm), ["Wolf a1 - b2", "Wolf c1 - b2", "Wolf c1 - d2", "Wolf e1 - d2", "Wolf e1 - f2", "Wolf g1 - f2", "Wolf g1 - h2"]);
}

#[test]
fn the_hare_wins_on_reaching_row_1() {
    let mut vm = position("b2", "e3 g3");
    assert_eq!(result(&mut vm), UNKNOWN_SCORE);
    assert_eq!(moves(&mut vm), ["Hare b2 - a1", "Hare b2 - c1", "Hare b2 - a3", "Hare b2 - c3"]);
    play(&mut vm, "b2 - a1");
    // The wolves are to move, and have lost.
    assert_eq!(vm.player_to_move(), WOLVES);
    assert_eq!(result(&mut vm), LOSS_SCORE);
    assert_eq!(word(&mut vm, "winner"), HARES);
    // Row 2 is not home.
    let mut vm = position("c3", "f4 h4");
    play(&mut vm, "c3 - b2");
    assert_eq!(result(&mut vm), UNKNOWN_SCORE);
}

#[test]
fn the_wolves_win_when_the_hare_cannot_move() {
    // Hare c7, wolves a7 b6: the hare steps to b8; the only wolf move, b6
    // to c7, closes both of b8's squares (a7, c7).
    let mut vm = position("c7", "a7 b6");
    assert_eq!(moves(&mut vm), ["Hare c7 - d6", "Hare c7 - b8", "Hare c7 - d8"]);
    play(&mut vm, "c7 - b8");
    assert_eq!(result(&mut vm), UNKNOWN_SCORE);
    assert_eq!(moves(&mut vm), ["Wolf b6 - c7"]);
    play(&mut vm, "b6 - c7");
    assert_eq!(vm.player_to_move(), HARES);
    assert_eq!(result(&mut vm), LOSS_SCORE);
    assert_eq!(word(&mut vm, "winner"), WOLVES);
}

#[test]
fn wolves_never_step_back() {
    // A lone wolf on d4 in the open: c5 and e5, never c3 or e3.
    let mut vm = position("h8", "d4");
    play(&mut vm, "h8 - g7");
    assert_eq!(moves(&mut vm), ["Wolf d4 - c5", "Wolf d4 - e5"]);
    // And in random games, every wolf move goes one row up.
    for seed in 1..=10 {
        let mut vm = load_with("scripts/wolves-and-hare/random.4th", "", seed);
        for _ in 0..200 {
            vm.generate_turn().unwrap();
            if vm.game_result().unwrap() != UNKNOWN_SCORE {
                break;
            }
            let m = vm.choose_move(vm.engine_to_move()).unwrap();
            let text = move_text(&vm.game, &vm.mem, m);
            vm.make_move(m).unwrap();
            vm.game.store.pop_list();
            if let Some(rest) = text.strip_prefix("Wolf ") {
                let b = rest.as_bytes(); // "d4 - c5"
                assert_eq!(b[6], b[1] + 1, "{text}");
            }
        }
    }
}

#[test]
fn wolves_that_cannot_move_pass() {
    // All four wolves on row 8: nowhere forward.  The hare moves again.
    let mut vm = position("e5", "b8 d8 f8 h8");
    play(&mut vm, "e5 - d4");
    assert_eq!(moves(&mut vm), ["Pass"]);
    assert_eq!(result(&mut vm), UNKNOWN_SCORE);
    play(&mut vm, "Pass");
    assert_eq!(vm.player_to_move(), HARES);
}

// ---- the distance the engine evaluates ------------------------------------------

#[test]
fn the_hares_distance_by_breadth_first_search() {
    // Nothing in the way: one step a row, d4 -> c3 -> b2 -> a1.
    let mut vm = position("d4", "b8 d8");
    assert_eq!(word(&mut vm, "hare-distance"), 3);
    // c3 and e3 closed: the first step must go up a row, then four down:
    // d4 c5 b4 a3 b2 a1 (or round the other side), 5.
    let mut vm = position("d4", "c3 e3");
    assert_eq!(word(&mut vm, "hare-distance"), 5);
    // The start: the wolves stand on every dark square of row 1, so no
    // way home yet; the hare can reach all 32 - 4 dark squares.
    let mut vm = load_file(GAME);
    assert_eq!(word(&mut vm, "hare-distance"), SHUT_IN);
    assert_eq!(word(&mut vm, "hare-room"), 28);
    // c1 freed: from c7 six rows down, six steps (c7 d6 c5 d4 c3 b2 c1).
    play(&mut vm, "d8 - c7");
    play(&mut vm, "c1 - d2");
    assert_eq!(word(&mut vm, "hare-distance"), 6);
    // A wall across row 6 (b6 d6 f6 h6): shut in, with rows 7 and 8 --
    // a7 c7 e7 g7 b8 d8 f8 h8 -- left to the hare.
    let mut vm = position("d8", "b6 d6 f6 h6");
    assert_eq!(word(&mut vm, "hare-distance"), SHUT_IN);
    assert_eq!(word(&mut vm, "hare-room"), 8);
    // The evaluation: the distance for the wolves, its negation for the
    // hare; shut in, more than any distance, less room counting more.
    assert_eq!(word(&mut vm, "OnEvaluate"), -(SHUT_IN + 64 - 8), "the hare is to move");
    play(&mut vm, "d8 - c7");
    assert_eq!(word(&mut vm, "OnEvaluate"), SHUT_IN + 64 - 8, "the wolves are to move");
}

// ---- the engine -------------------------------------------------------------------

/// Plays the game out with the engines the file assigns; the winner.
fn play_out(vm: &mut Vm) -> i32 {
    vm.game.search.limits.time = None;
    for _ in 0..300 {
        vm.generate_turn().unwrap();
        let r = vm.game_result().unwrap();
        let to_move = vm.player_to_move();
        if r != UNKNOWN_SCORE {
            vm.game.store.pop_list();
            assert!(r == WIN_SCORE || r == LOSS_SCORE, "{r}");
            return if (r == WIN_SCORE) == (to_move == HARES) { HARES } else { WOLVES };
        }
        let m = vm.choose_move(vm.engine_to_move()).unwrap_or_else(|e| panic!("{e}"));
        vm.make_move(m).unwrap();
        vm.game.store.pop_list();
    }
    panic!("no end after 300 plies");
}

#[test]
fn the_engine_as_wolves_beats_a_random_hare() {
    let random_hare = "{players {player} Hares {random} {player} Wolves {search-engine} alphabeta-engine players}
        {turn-order {turn} Hares {turn} Wolves turn-order}
        : OnNewGame ( -- ) locate-hare RANDOMIZE ;";
    for seed in 1..=8 {
        let mut vm = load_with(ENGINE, random_hare, seed);
        assert_eq!(play_out(&mut vm), WOLVES, "seed {seed}");
    }
}

/// With perfect play the wolves win; the engine against itself finds it.
#[test]
fn the_engine_against_itself_the_wolves_win() {
    let mut vm = load_file(ENGINE);
    assert_eq!(play_out(&mut vm), WOLVES);
}

/// Every hare, not only the engine's: each hare move is tried at every
/// hare turn, the engine answers for the wolves, and every game must end
/// with the hare shut in. Minutes even in release:
/// `cargo test --release --test wolves_and_hare -- --ignored`.
#[test]
#[ignore]
fn the_engines_wolves_beat_every_hare() {
    let mut vm = load_file(ENGINE);
    vm.game.search.limits.time = None;
    let mut seen = std::collections::HashSet::new();
    let mut lines: Vec<Vec<String>> = vec![vec![]];
    let mut ends = 0;
    while let Some(line) = lines.pop() {
        vm.new_game().unwrap();
        for t in &line {
            play(&mut vm, t);
        }
        let key: Vec<i32> = (0..64).map(|p| vm.game.board.get(&vm.mem, p).unwrap()).chain([vm.player_to_move()]).collect();
        if !seen.insert(key) {
            continue;
        }
        vm.generate_turn().unwrap();
        let r = vm.game_result().unwrap();
        let hare_to_move = vm.player_to_move() == HARES;
        if r != UNKNOWN_SCORE {
            vm.game.store.pop_list();
            assert!(hare_to_move && r == LOSS_SCORE, "the hare wins: {line:?}");
            ends += 1;
            continue;
        }
        assert!(line.len() < 200, "no end: {line:?}");
        if hare_to_move {
            for t in vm.move_texts() {
                lines.push([line.clone(), vec![t]].concat());
            }
            vm.game.store.pop_list();
        } else {
            let m = vm.choose_move(vm.engine_to_move()).unwrap();
            let t = move_text(&vm.game, &vm.mem, m);
            vm.game.store.pop_list();
            lines.push([line, vec![t]].concat());
        }
    }
    assert!(ends > 0);
}
