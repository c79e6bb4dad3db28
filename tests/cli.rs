//! The game verbs of the `axforth` binary: show, moves, perft, play, bench;
//! exit codes and diagnostics as users see them.

use std::process::{Command, Stdio};
mod common;
use common::cli::{axforth, axforth_with_input, stderr, stdout};

const OTHELLO: &str = "scripts/othello/othello.4th";
const TICTACTOE: &str = "scripts/tictactoe/tictactoe.4th";

#[test]
fn moves_lists_the_legal_moves() {
    let o = axforth(&["moves", OTHELLO]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("Black to move (4 moves):\n"), "{out}");
    for m in ["Black Disc d3", "Black Disc c4", "Black Disc f5", "Black Disc e6"] {
        assert!(out.lines().any(|l| l == m), "{m} missing from\n{out}");
    }
}

#[test]
fn moves_after_a_sequence() {
    let o = axforth(&["moves", OTHELLO, "--after", "Disc d3; disc C3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("Black to move"), "{}", stdout(&o));
}

#[test]
fn an_illegal_move_in_after_is_an_error_listing_the_legal_ones() {
    let o = axforth(&["moves", OTHELLO, "--after", "Disc a1"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("`Disc a1` is not a legal move for Black"), "{err}");
    assert!(err.contains("\n  Black Disc d3"), "{err}");
}

/// A move the text does not tell apart from another is named as such,
/// with the candidates one per line (as `play` lists them), not called
/// illegal.
#[test]
fn an_ambiguous_move_in_after_lists_the_candidates() {
    let o = axforth(&["moves", "scripts/draughts/draughts.4th", "--after", "b4"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("`b4` could be any of these moves of Black (give more of its words):\n  Man a3 - b4\n  Man c3 - b4"), "{err}");
}

#[test]
fn show_draws_the_grid() {
    let o = axforth(&["show", OTHELLO, "--after", "Disc d3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Row 3 has Black's new disc on d; row 4 now has two black discs. One
    // piece type: each disc shows its owner's initial.
    assert!(out.contains("3  . . . B . . . .\n"), "{out}");
    assert!(out.contains("4  . . . B B . . .\n"), "{out}");
    assert!(out.contains("(B = Black Disc, W = White Disc)\n"), "{out}");
    assert!(out.contains("pieces on the board: Black 4, White 1\n"), "{out}");
    assert!(out.contains("   a b c d e f g h\n"), "{out}");
    assert!(out.contains("White to move, turn 2"), "{out}");
}

#[test]
fn show_gives_each_piece_type_its_own_letter() {
    // King and Knight both start with K: the shorter name keeps it, the
    // other takes its next free letter, N, as chess players write it.
    let o = axforth(&["show", "scripts/chess/chess.4th"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("8  r n b q k b n r\n"), "{out}");
    assert!(out.contains("1  R N B Q K B N R\n"), "{out}");
    assert!(out.contains("N = White Knight") && out.contains("K = White King"), "{out}");
}

#[test]
fn perft_prints_the_count() {
    let o = axforth(&["perft", TICTACTOE, "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("perft 4: 3024 ("), "{}", stdout(&o));
    let o = axforth(&["perft", OTHELLO, "3", "--divide"]);
    let out = stdout(&o);
    assert_eq!(out.lines().filter(|l| l.starts_with("Black Disc ")).count(), 4, "{out}");
    assert!(out.contains("perft 3: 56 ("), "{out}");
}

#[test]
fn play_watch_runs_a_random_game_to_its_end() {
    let o = axforth(&["play", "scripts/othello/random.4th", "--watch", "--seed", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Black (random): Black Disc "), "{out}");
    assert!(out.trim_end().lines().last().unwrap_or("").starts_with("game over: "), "{out}");
    // Reproducible under --seed.
    let again = axforth(&["play", "scripts/othello/random.4th", "--watch", "--seed", "3"]);
    assert_eq!(stdout(&again), out);
}

#[test]
fn play_engine_overrides_the_files_engines() {
    // tictactoe.4th assigns the built-in search to both players.
    let o = axforth(&["play", TICTACTOE, "--watch", "--engine", "first"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let moves: Vec<&str> = out.lines().filter(|l| l.contains(" (first): ")).collect();
    assert_eq!(moves[..2], ["X (first): X Mark a3", "O (first): O Mark b3"], "{out}");
    // X completes the a1-b2-c3 diagonal on its fourth move.
    assert!(out.trim_end().ends_with("game over: X has won"), "{out}");
}

#[test]
fn play_takes_the_humans_moves_from_the_terminal() {
    // X is human; O uses the default search engine.
    let o = axforth_with_input(&["play", TICTACTOE, "--human", "X"], "b2\nnonsense\nquit\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("X to move, turn 1:\n    1. X Mark a3\n"), "{out}");
    assert!(out.contains("O (search): O Mark "), "{out}");
    assert!(out.contains("`nonsense` is not a legal move"), "{out}");
}

#[test]
fn an_error_in_a_move_word_names_the_place_and_the_move_word() {
    let dir = std::env::temp_dir().join(format!("axforth-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("broken.4th");
    std::fs::write(
        &game,
        "{board 2 2 {grid} board}\n{players {player} A {player} B players}\n\
         : bad-drop ( -- )\n  empty? verify\n  0 0 / drop add-move ;\n\
         {moves drops {move} bad-drop moves}\n{pieces {piece} Stone {drops} drops pieces}\n",
    )
    .unwrap();
    let o = axforth(&["moves", game.to_str().unwrap(), "--strict"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with("error: division by zero in `bad-drop`"), "{err}");
    assert!(err.contains("broken.4th:5:7"), "{err}");
    assert!(err.contains("in drop word `bad-drop` for A's Stone at a2 (generating the moves of A)"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn every_verb_has_help() {
    for verb in ["run", "repl", "show", "moves", "perft", "play", "check", "replay", "bench"] {
        let o = axforth(&[verb, "--help"]);
        assert!(o.status.success(), "{verb} --help failed");
        assert!(stdout(&o).contains("Usage: axforth"), "{verb}: {}", stdout(&o));
    }
}

#[test]
fn max_steps_bounds_each_move_word() {
    let dir = std::env::temp_dir().join(format!("axforth-loop-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = dir.join("loop.4th");
    std::fs::write(
        &game,
        "{board 2 2 {grid} board}\n{players {player} A {player} B players}\n\
         : spin ( -- ) BEGIN AGAIN ;\n\
         {moves drops {move} spin moves}\n{pieces {piece} Stone {drops} drops pieces}\n",
    )
    .unwrap();
    let o = axforth(&["moves", game.to_str().unwrap(), "--max-steps", "100000"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("step budget of 100000 exhausted in `spin`"), "{err}");
    assert!(err.contains("drop word `spin`"), "{err}");
    // A whole perft takes far more steps than one move word may.
    let o = axforth(&["perft", TICTACTOE, "5", "--max-steps", "100000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    // More output than a pipe holds, and the reader gone at once (as
    // `axforth … | head` does): no panic, no message, success.
    let file = std::env::temp_dir().join(format!("axforth-pipe-{}.4th", std::process::id()));
    std::fs::write(&file, ": numbers 300000 0 DO I . LOOP ; numbers\n").unwrap();
    for args in [vec!["run", file.to_str().unwrap()], vec!["moves", "scripts/chess/chess.4th", "--after", "e4"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_axforth"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("running axforth");
        drop(child.stdout.take());
        let o = child.wait_with_output().expect("axforth output");
        assert!(o.status.success(), "{args:?}: {:?} {}", o.status, stderr(&o));
        assert_eq!(stderr(&o), "", "{args:?}");
    }
}

/// Off-grid positions: listed each while they are few; past that only
/// the occupied ones and how many are empty (a game of 1,280 reserve
/// squares printed a line for each).
#[test]
fn show_lists_only_occupied_positions_when_many_are_off_the_grid() {
    let dir = std::env::temp_dir().join(format!("axforth-cli-offgrid-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = |n: usize| {
        let positions: String = (1..=n).map(|i| format!("{{position}} r{i} ")).collect();
        let path = dir.join(format!("reserve{n}.4th"));
        std::fs::write(
            &path,
            format!(
                "{{board 2 2 {{grid}} {positions}board}}\n{{players {{player}} A {{player}} B players}}\n\
                 : put ( -- ) empty? verify drop add-move ;\n{{moves drops {{move}} put moves}}\n\
                 {{pieces {{piece}} Gem {{drops}} drops pieces}}\n{{board-setup {{setup}} A Gem r2 board-setup}}\n"
            ),
        )
        .unwrap();
        stdout(&axforth(&["show", path.to_str().unwrap()]))
    };
    let few = game(3);
    assert!(few.contains("r1: empty\nr2: A Gem\nr3: empty\n"), "{few}");
    let many = game(40);
    assert!(many.contains("r2: A Gem\nand 39 empty positions off the grid\n"), "{many}");
    assert!(!many.contains(": empty"), "{many}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A verb's `--help` lists its own options first, then the VM's (limits,
/// seed, JIT) under a heading of their own.
#[test]
fn help_groups_the_vm_options_apart() {
    let help = stdout(&axforth(&["autoplay", "--help"]));
    let at = |s: &str| help.find(s).unwrap_or_else(|| panic!("no {s} in\n{help}"));
    assert!(at("--games <GAMES>") < at("VM options (every command):"), "{help}");
    assert!(at("VM options (every command):") < at("--seed <SEED>") && at("VM options (every command):") < at("--max-memory <"), "{help}");
}

#[test]
fn replay_help_names_every_record_it_reads() {
    let help = stdout(&axforth(&["replay", "--help"]));
    for input in ["autoplay --log DIR", "autoplay --json FILE", "AutoPlay log of the original Axiom"] {
        assert!(help.contains(input), "`{input}` missing from:\n{help}");
    }
}

#[test]
fn check_shows_an_error_in_a_shared_file_once() {
    let dir = std::env::temp_dir().join(format!("axforth-shared-error-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("common.4th"), ": broken ( -- ) undefined-thing ;\n").unwrap();
    let game = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/tictactoe/tictactoe.4th");
    for v in ["a", "b", "c"] {
        std::fs::write(dir.join(format!("{v}.4th")), format!("LOAD common.4th\nLOAD {}\n", game.display())).unwrap();
    }
    let o = axforth(&["check", dir.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(!o.status.success());
    assert_eq!(out.matches("error: undefined word: undefined-thing").count(), 3, "{out}");
    assert_eq!(out.matches("\n       --> ").count(), 1, "the full error once: {out}");
    assert_eq!(out.matches("the same error as ").count(), 2, "{out}");
    std::fs::remove_dir_all(&dir).ok();
}
