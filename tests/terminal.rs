//! The terminal as a porter meets it: the REPL's prompt and `ok`, Ctrl-C
//! stopping running code without ending the session, WORDS wrapped, a
//! missing file; `play`'s numbered moves, help, ambiguity and loose
//! entries, `--watch`; boards with owner initials, counts and colour (and
//! NO_COLOR); `bench` from another folder; binary input shown escaped.

use pretty_assertions::assert_eq;
use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::Duration;
mod common;
use common::cli::{axforth_with_input, root};

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const DRAUGHTS: &str = "scripts/draughts/draughts.4th";

#[test]
fn the_repl_says_ok_and_compiled_and_keeps_going_after_an_error() {
    let o = axforth_with_input(&["repl"], "2 3 + .\n: cube ( n -- n^3 ) DUP\nDUP * * ;\n1 dupp\n3 cube .\nBYE\n");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("5  ok\n"), "{text}");
    assert!(text.contains(" compiled\n"), "inside a definition: {text}");
    assert!(text.contains("27  ok\n"), "the definition survived the error: {text}");
    assert!(err(&o).contains("error: undefined word: dupp"), "{}", err(&o));
}

#[test]
fn ctrl_c_interrupts_running_code_and_the_session_goes_on() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_axforth"))
        .arg("repl")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b": spin ( -- ) BEGIN AGAIN ;\n: go ( -- ) spin ;\ngo\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    std::thread::sleep(Duration::from_millis(300));
    stdin.write_all(b"6 7 * .\nBYE\n").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "the REPL survives Ctrl-C: {}", err(&o));
    let e = err(&o);
    assert!(e.contains("error: interrupted in `spin`"), "{e}");
    assert!(e.contains("called from `go`"), "with the backtrace: {e}");
    assert!(out(&o).contains("42  ok"), "{}", out(&o));
}

#[test]
fn words_wraps_and_a_missing_file_is_an_error() {
    let o = axforth_with_input(&["repl"], "WORDS\nBYE\n");
    let text = out(&o);
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("DUP") || l.contains("SWAP") || l.contains("empty?")).collect();
    assert!(!lines.is_empty(), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "WORDS wraps at 80 columns without a terminal:\n{text}");
    let o = axforth_with_input(&["repl", "no-such-file.4th"], "BYE\n");
    assert!(!o.status.success());
    assert_eq!(err(&o).trim(), "error: cannot load no-such-file.4th: no such file");
}

#[test]
fn play_numbers_the_moves_and_takes_numbers_loose_texts_and_help() {
    let o = axforth_with_input(&["play", DRAUGHTS, "--think", "0.05", "--seed", "1"], "?\nf4\n99\nc3-d4\nquit\n");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("    1. Man a3 - b4\n"), "numbered: {text}");
    assert!(text.contains("  moves, m   list the legal moves again"), "help: {text}");
    assert!(text.contains("`f4` is ambiguous; it could be:\n    5. Man e3 - f4\n    6. Man g3 - f4\n"), "{text}");
    assert!(text.contains("there is no move 99: the moves are numbered 1 to 7"), "{text}");
    assert!(text.contains("White (search): "), "c3-d4 was played and the engine answered: {text}");
    for entry in ["C3 - D4", "c3  -d4", "2"] {
        let o = axforth_with_input(&["play", DRAUGHTS, "--think", "0.05"], &format!("{entry}\nquit\n"));
        assert!(out(&o).contains("White (search): "), "`{entry}`: {}", out(&o));
    }
}

#[test]
fn watch_shows_every_board_and_excludes_human() {
    let o = axforth_with_input(&["play", "scripts/tictactoe/random.4th", "--watch", "--seed", "2"], "");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let moves = text.lines().filter(|l| l.contains("(random): ")).count();
    let boards = text.matches("   a b c\n").count();
    assert!(moves >= 5, "{text}");
    assert_eq!(boards, moves + 1, "a board after every move, and the last one: {text}");
    let o = axforth_with_input(&["play", DRAUGHTS, "--watch", "--human", "Black"], "");
    assert!(!o.status.success());
    assert!(err(&o).contains("cannot be used with"), "{}", err(&o));
}

#[test]
fn boards_letter_by_owner_count_pieces_and_colour_only_when_asked() {
    let o = axforth_with_input(&["show", "scripts/tictactoe/tictactoe.4th", "--after", "b2; a1"], "");
    let text = out(&o);
    assert!(text.contains("2  . X .\n") && text.contains("1  O . .\n"), "{text}");
    assert!(text.contains("(X = X Mark, O = O Mark)\n"), "{text}");
    assert!(text.contains("pieces on the board: X 1, O 1\n"), "{text}");
    assert!(!text.contains('\x1b'), "no colour into a pipe");
    // Through a terminal (script(1) gives the command one): colour, unless NO_COLOR.
    let show = format!("{} show scripts/othello/othello.4th", env!("CARGO_BIN_EXE_axforth"));
    let tty = |no_color: bool| {
        let mut c = Command::new("script");
        c.args(["-qc", &show, "/dev/null"]).current_dir(root()).env_remove("NO_COLOR");
        if no_color {
            c.env("NO_COLOR", "1");
        }
        c.output().ok().map(|o| out(&o))
    };
    if let (Some(coloured), Some(plain)) = (tty(false), tty(true)) {
        assert!(coloured.contains("\x1b[1;34mB\x1b[0m"), "{coloured:?}");
        assert!(!plain.contains('\x1b'), "{plain:?}");
    } else {
        eprintln!("script(1) not found: the colour half of this test did not run");
    }
}

#[test]
fn bench_finds_its_game_from_another_folder() {
    let o = Command::new(env!("CARGO_BIN_EXE_axforth")).args(["bench", "perft", "--depth", "3", "--runs", "1"]).current_dir(std::env::temp_dir()).output().unwrap();
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("Othello perft 3 = 56"), "{}", out(&o));
}

#[test]
fn binary_input_is_shown_escaped() {
    let dir = std::env::temp_dir().join(format!("axforth-terminal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("bin.4th"), b"abc\x1b[31m \xff\xfe 1\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_axforth")).args(["run", "bin.4th"]).current_dir(&dir).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(err(&o).trim_end(), "error: undefined word: abc\\x1b[31m\n  --> bin.4th:1:1");
}

#[test]
fn long_perft_and_replay_show_progress_on_a_terminal_only() {
    let dir = std::env::temp_dir().join(format!("axforth-progress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("r.jsonl");
    let bin = env!("CARGO_BIN_EXE_axforth");
    let o = Command::new(bin)
        .args(["autoplay", "scripts/othello/random.4th", "scripts/othello/random.4th", "-n", "4", "--seed", "1", "-q", "--json", record.to_str().unwrap()])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", err(&o));
    let tty = |command: String| Command::new("script").args(["-qc", &command, "/dev/null"]).current_dir(root()).output().ok().map(|o| out(&o));
    let Some(perft) = tty(format!("{bin} perft scripts/othello/othello.4th 4")) else {
        eprintln!("script(1) not found: this test did not run");
        return;
    };
    assert!(perft.contains("first moves") && perft.contains("perft 4: 244"), "{perft:?}");
    let replay = tty(format!("{bin} replay {}", record.display())).unwrap();
    assert!(replay.contains("/4 games") && replay.contains("games replayed: 4, ok: 4"), "{replay:?}");
    // Into a pipe: the results alone.
    let o = Command::new(bin).args(["perft", "scripts/othello/othello.4th", "4"]).current_dir(root()).output().unwrap();
    assert!(!err(&o).contains("first moves") && out(&o).starts_with("perft 4: 244"), "{}{}", out(&o), err(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_lists_a_long_move_list_only_when_asked() {
    let o = axforth_with_input(&["play", "scripts/chess/chess.4th", "--after", "e4; e5", "--think", "0.05"], "moves\nquit\n");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("White to move, turn 3: 29 legal moves (`moves` lists them)"), "{text}");
    assert_eq!(text.matches("   1. ").count(), 1, "listed once, when asked: {text}");
}

#[test]
fn the_repl_shows_the_board_the_moves_and_players_by_name() {
    let o = axforth_with_input(&["repl"], ".board\nLOAD scripts/tictactoe/tictactoe.4th\n.board\n.moves\ncurrent-player .player\nBYE\n");
    let text = out(&o);
    assert!(err(&o).contains("no game is loaded: LOAD a game's file first"), "{}", err(&o));
    assert!(text.contains("3  . . .\n") && text.contains("   a b c\n"), "{text}");
    assert!(text.contains("X to move: 9 move(s)\n    1. X Mark a3\n"), "{text}");
    assert!(text.contains("X  ok"), "{text}");
}
