//! The porter's verbs as users meet them: `check`, `replay`, the
//! warnings of the tolerances on stderr and `--strict`, and `run`'s check
//! of declarations at the end of loading.

use axforth::game::UNKNOWN_SCORE;
use axforth::{Config, Vm};
use std::path::Path;
mod common;
use common::cli::{axforth, scratch, stderr, stdout};

/// A fresh folder for one test's files.
fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

const SLOPPY: &str = "{board 2 2 {grid} board}\n{players {player} A {player} B players}\n\
    : put ( -- ) empty? IF drop add-move ELSE DROP THEN ;\n\
    {moves drops {move} put moves}\n{pieces {piece} Stone {drops} drops pieces}\n\
    {board-setup {setup} A Stone a1 board-setup}\n";

#[test]
fn check_passes_the_bundled_games() {
    let o = axforth(&["check", "scripts/"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    for game in ["tictactoe", "othello", "draughts"] {
        assert!(out.lines().any(|l| l.starts_with("ok ") && l.contains(&format!("scripts/{game}/"))), "{game}: {out}");
    }
    // Every variant found passes (the bundled variants grow with the games).
    let summary = out.lines().find(|l| l.contains(" variants: ")).unwrap_or_default();
    let counts: Vec<&str> = summary.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).collect();
    assert!(counts.len() >= 3 && counts[0] == counts[1] && counts[2] == "0" && counts[0] != "0", "{out}");
}

#[test]
fn check_names_the_error_and_its_place_and_fails() {
    let dir = scratch("check");
    std::fs::write(dir.join("good.4th"), SLOPPY).unwrap();
    std::fs::write(dir.join("broken.4th"), SLOPPY.replace("add-move ELSE", "add-move 1 0 / ELSE").replace("{players", ": OnNewGame 1 0 / ; {players")).unwrap();
    let o = axforth(&["check", path(&dir)]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let broken = out.lines().position(|l| l.starts_with("FAIL") && l.contains("broken.4th")).unwrap_or_else(|| panic!("{out}"));
    let detail: Vec<&str> = out.lines().skip(broken + 1).take(2).collect();
    assert!(detail[0].contains("error: division by zero in `OnNewGame`"), "{out}");
    assert!(detail[1].contains("broken.4th:2:"), "{out}");
    // The sloppy one passes, with its warning counted.
    assert!(out.lines().any(|l| l.starts_with("ok ") && l.contains("good.4th") && l.contains("1 warning(s)")), "{out}");
    assert!(out.contains("2 variants: 1 passed, 1 failed, 1 with warnings"), "{out}");
    // The same as JSON.
    let o = axforth(&["check", path(&dir), "--json", "--games", "1"]);
    let json = stdout(&o);
    assert_eq!(o.status.code(), Some(1));
    assert_valid_json(&json);
    assert!(json.contains("good.4th\",\"ok\":true") && json.contains("broken.4th\",\"ok\":false"), "{json}");
    assert!(json.contains("\"failed\":1"), "{json}");
}

/// A `.zrf` that cannot be read is a failed line of its own, its error
/// said once, at its place.
#[test]
fn check_names_an_unreadable_rules_file_once() {
    let dir = scratch("check-unreadable");
    std::fs::write(dir.join("broken.zrf"), "(game (title \"Broken\")\n  (players A B\n").unwrap();
    let o = axforth(&["check", path(&dir)]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    let failed = out.lines().position(|l| l.starts_with("FAIL") && l.contains("broken.zrf")).unwrap_or_else(|| panic!("{out}"));
    let detail = out.lines().nth(failed + 1).unwrap_or_default();
    assert!(detail.trim_start().starts_with("error: ") && !detail.contains("error: error:"), "{out}");
    assert!(out.contains("broken.zrf:"), "{out}");
}

#[test]
fn tolerances_warn_on_stderr_and_strict_makes_them_errors() {
    let dir = scratch("strict");
    let game = dir.join("sloppy.4th");
    std::fs::write(&game, SLOPPY).unwrap();
    let o = axforth(&["moves", path(&game)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("(3 moves)"), "{}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(err.matches("warning: stack underflow in `put`").count(), 1, "{err}");
    assert!(err.contains("sloppy.4th:3:"), "{err}");
    let o = axforth(&["moves", path(&game), "--strict"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("error: stack underflow in `put`"), "{}", stderr(&o));
}

#[test]
fn run_fails_on_a_move_list_never_declared() {
    let dir = scratch("run");
    let game = dir.join("lists.4th");
    std::fs::write(&game, "{board 2 2 {grid} board}\n{players {player} A players}\n{pieces {piece} Stone {drops} nowhere pieces}\n").unwrap();
    let o = axforth(&["run", path(&game)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no move list named `nowhere`"), "{}", stderr(&o));
}

/// Plays random games of tic-tac-toe with the library and writes them as
/// the original's AutoPlay would have: moves, then running results by seat.
fn autoplay_log(games: u32) -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/tictactoe/tictactoe.4th");
    let mut log = String::from("\r\nC:\\games>AutoPlay tictactoe tictactoe 3 \r\nPlayer 1 variant = \"tictactoe\"\r\n");
    let mut wins = [0, 0, 0];
    for g in 1..=games {
        let mut vm = Vm::new(Config { seed: Some(g as u64 * 7), ..Config::default() }).unwrap();
        vm.capture_output();
        vm.run_file(&file).unwrap();
        vm.new_game().unwrap();
        log.push_str(&format!("Game {g} of {games}\r\n\r\n(X Mark a1)\r\n\r\n"));
        let seats: Vec<i32> = vm.game.players.iter().filter(|p| !p.neutral).map(|p| p.value).collect();
        for ply in 0.. {
            vm.generate_turn().unwrap();
            let score = vm.game_result().unwrap();
            if score != UNKNOWN_SCORE {
                let to_move = seats.iter().position(|&p| p == vm.player_to_move()).unwrap();
                wins[if score == 0 { 2 } else if score > 0 { to_move } else { 1 - to_move }] += 1;
                break;
            }
            let range = vm.game.store.current();
            let m = range.start + vm.rand_within(0, 0, range.len() as i32 - 1) as usize;
            log.push_str(&format!("{}. {}\r\n", ply / 2 + 1, axforth::game::moves::move_text(&vm.game, &vm.mem, m)));
            vm.make_move(m).unwrap();
            vm.game.store.pop_list();
        }
        log.push_str(&format!(
            "Player 1 - I lose!\r\n\r\nCumulative results following game {g} of {games}:\r\nPlayer 1 \"tictactoe\", wins = {}.\r\nPlayer 2 \"tictactoe\", wins = {}.\r\nDraws = {}\r\n\r\n",
            wins[0], wins[1], wins[2]
        ));
    }
    log.push_str(&format!("Final results:\r\n{games} game(s) played\r\n"));
    log
}

#[test]
fn replay_plays_back_an_autoplay_log_and_names_the_first_disagreement() {
    let dir = scratch("replay");
    let log = dir.join("ttt.log");
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/tictactoe/tictactoe.4th");
    let good = autoplay_log(4);
    std::fs::write(&log, &good).unwrap();
    let o = axforth(&["replay", path(&log), "--game", path(&game)]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("games replayed: 4, ok: 4"), "{}", stdout(&o));
    // One move changed to a square that is not free: game 2 fails there.
    let game2 = good.find("Game 2 of").unwrap();
    let second_move = good[game2..].find("\r\n1. ").map(|i| game2 + i).unwrap();
    let line_end = good[second_move + 2..].find("\r\n").unwrap() + second_move + 2;
    let bad = format!("{}\r\n1. Mark z9{}", &good[..second_move], &good[line_end..]);
    std::fs::write(&log, bad).unwrap();
    let o = axforth(&["replay", path(&log), "--game", path(&game)]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("game 2: ply 1 (`1. Mark z9`): not a legal move of X as written; legal: X Mark a3, X Mark b3"), "{out}");
    assert!(out.contains("games replayed: 4, ok: 3"), "{out}");
}

#[test]
fn after_takes_the_original_text_and_short_forms() {
    for after in ["Man a3 - b4", "a3 - b4", "man  A3 -  B4"] {
        let o = axforth(&["show", "scripts/draughts/draughts.4th", "--after", after]);
        assert!(o.status.success(), "{after}: {}", stderr(&o));
        assert!(stdout(&o).contains("White to move"), "{after}: {}", stdout(&o));
    }
}

#[test]
fn replay_names_a_wrong_winner_a_game_over_too_early_and_one_not_over() {
    let dir = scratch("replay-ends");
    let log = dir.join("ttt.log");
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/tictactoe/tictactoe.4th");
    let good = autoplay_log(1);
    let replay = |text: &str| {
        std::fs::write(&log, text).unwrap();
        axforth(&["replay", path(&log), "--game", path(&game)])
    };
    // The running results give the game to someone else: rotate the
    // one-game counts (Player 1, Player 2, draws).
    let keys = ["Player 1 \"tictactoe\", wins = ", "Player 2 \"tictactoe\", wins = ", "Draws = "];
    let counts = keys.map(|k| {
        let at = good.find(k).unwrap() + k.len();
        good[at..at + 1].to_string()
    });
    let mut flipped = good.clone();
    for (k, key) in keys.iter().enumerate() {
        flipped = flipped.replace(&format!("{key}{}", counts[k]), &format!("{key}{}", counts[(k + 2) % 3]));
    }
    assert_ne!(flipped, good);
    let o = replay(&flipped);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("game 1: the log ends it with"), "{}", stdout(&o));
    // A move logged after the end.
    let last = good.rfind("\r\nPlayer 1 - I lose!").unwrap();
    let extra = format!("{}\r\n9. Mark a1{}", &good[..last], &good[last..]);
    let o = replay(&extra);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("(`9. Mark a1`): the game is already over"), "{}", stdout(&o));
    // The last move missing.
    let cut = good[..last].rfind("\r\n").unwrap();
    let o = replay(&format!("{}{}", &good[..cut], &good[last..]));
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("game 1: the game is not over after its"), "{}", stdout(&o));
    // --json: one document naming the log and the failure.
    std::fs::write(&log, format!("{}{}", &good[..cut], &good[last..])).unwrap();
    let o = axforth(&["replay", path(&log), "--game", path(&game), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let json = stdout(&o);
    assert_valid_json(&json);
    assert!(json.contains("ttt.log") && json.contains("\"ok\":0") && json.contains("not over"), "{json}");
}

#[test]
fn check_finds_the_variants_of_a_folder_and_its_sub_folders() {
    let dir = scratch("find");
    // The base declares the players and is LOADed (in another case) by
    // the variant: only the variant is a game.
    std::fs::write(dir.join("Base.4th"), SLOPPY).unwrap();
    std::fs::write(dir.join("variant.4th"), "\\ plays the base\nLOAD base.4th\n").unwrap();
    // Words named in comments or defined with that name declare nothing.
    std::fs::write(dir.join("notes.4th"), "\\ {players\n( {players ) : {players ( -- ) ;\n").unwrap();
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub").join("other.4th"), SLOPPY).unwrap();
    let o = axforth(&["check", path(&dir), "--games", "1"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    let checked: Vec<&str> = out.lines().filter(|l| l.starts_with("ok ")).collect();
    assert_eq!(checked.len(), 2, "{out}");
    assert!(checked[0].contains("variant.4th") && checked[1].contains("other.4th"), "{out}");
    assert!(out.contains("2 variants: 2 passed, 0 failed, 2 with warnings"), "{out}");
    // The warnings of each file go to stderr, once each.
    assert_eq!(stderr(&o).matches("warning: stack underflow in `put`").count(), 2, "{}", stderr(&o));
    // A folder with no game in it is an error.
    let empty = scratch("find-none");
    let o = axforth(&["check", path(&empty)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no game in"), "{}", stderr(&o));
}

#[test]
fn check_reports_unfinished_games_timeouts_and_errors_during_play() {
    // Stopped at --max-plies: unfinished, not a failure.
    let o = axforth(&["check", "scripts/othello/othello.4th", "--max-plies", "4"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("start moves 4, games finished 0/3, average 4.0 plies"), "{out}");
    // No game ended: said, not failed.
    assert!(out.contains("note: no game ended within 4 plies (--max-plies)") && out.contains("1 where no game ended"), "{out}");
    // A game that ends with the last ply the cap allows has finished:
    // tic-tac-toe is over after 9 moves at most.
    let o = axforth(&["check", "scripts/tictactoe/", "--max-plies", "9"]);
    assert!(stdout(&o).contains("games finished 3/3"), "{}", stdout(&o));
    // Over its time: a failure.
    let o = axforth(&["check", "scripts/othello/othello.4th", "--timeout", "0"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("error: timed out"), "{}", stdout(&o));
    // An event that fails on turn 3: the error, its place, which game and ply.
    let dir = scratch("late");
    let game = dir.join("late.4th");
    std::fs::write(&game, format!("{SLOPPY}: OnIsGameOver ( -- score ) turn-number 3 = IF 1 0 / THEN #UnknownScore ;\n")).unwrap();
    let o = axforth(&["check", path(&game), "--games", "2"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("error: division by zero in `OnIsGameOver`"), "{out}");
    assert!(out.contains("late.4th:7:"), "{out}");
    assert!(out.contains("in random game 1 (seed 1), ply 3"), "{out}");
    assert!(out.contains("games finished 0/1"), "{out}");
    // The way back to it: the moves, and a command that plays them and
    // meets the error again.
    assert!(out.contains("  = moves: "), "{out}");
    let again = out.lines().find_map(|l| l.trim().strip_prefix("= again: axforth ")).unwrap_or_else(|| panic!("no again line: {out}"));
    let (verb_and_file, moves) = again.split_once(" --after ").unwrap_or_else(|| panic!("{again}"));
    let args: Vec<&str> = verb_and_file.split(' ').chain([moves.trim_matches('\'')]).collect();
    let o = axforth(&[args[0], args[1], "--after", args[2]]);
    assert!(stderr(&o).contains("error: division by zero in `OnIsGameOver`"), "{again}: {}", stderr(&o));
    // --log keeps the failing game, which view and replay open.
    let logs = dir.join("failed");
    let o = axforth(&["check", path(&game), "--games", "2", "--log", path(&logs)]);
    let out = stdout(&o);
    let log = out.lines().find_map(|l| l.trim().strip_prefix("= log: ")).unwrap_or_else(|| panic!("no log line: {out}"));
    let log = log.split(" (").next().unwrap();
    assert!(std::path::Path::new(log).is_file(), "{out}");
    let page = dir.join("failed.html");
    let o = axforth(&["view", log, "-o", path(&page)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("division by zero in `OnIsGameOver`"), "the page says how the game ended");
    let o = axforth(&["replay", log]);
    assert!(stdout(&o).contains("games replayed: 1"), "{}", stdout(&o));
}

/// Fails unless `text` is one JSON value (RFC 8259), with only white
/// space around it.
fn assert_valid_json(text: &str) {
    fn ws(b: &[u8], i: &mut usize) {
        while *i < b.len() && b" \t\r\n".contains(&b[*i]) {
            *i += 1;
        }
    }
    fn expect(b: &[u8], i: &mut usize, what: &[u8]) -> Result<(), usize> {
        if b[*i..].starts_with(what) {
            *i += what.len();
            Ok(())
        } else {
            Err(*i)
        }
    }
    fn string(b: &[u8], i: &mut usize) -> Result<(), usize> {
        expect(b, i, b"\"")?;
        loop {
            match b.get(*i) {
                None => return Err(*i),
                Some(b'"') => {
                    *i += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    match b.get(*i + 1) {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => *i += 2,
                        Some(b'u') if b.len() >= *i + 6 && b[*i + 2..*i + 6].iter().all(u8::is_ascii_hexdigit) => *i += 6,
                        _ => return Err(*i),
                    }
                }
                Some(&c) if c < 0x20 => return Err(*i),
                Some(_) => *i += 1,
            }
        }
    }
    fn number(b: &[u8], i: &mut usize) -> Result<(), usize> {
        let start = *i;
        if b.get(*i) == Some(&b'-') {
            *i += 1;
        }
        let digits = |i: &mut usize| {
            let s = *i;
            while b.get(*i).is_some_and(u8::is_ascii_digit) {
                *i += 1;
            }
            *i > s
        };
        if b.get(*i) == Some(&b'0') {
            *i += 1;
        } else if !digits(i) {
            return Err(start);
        }
        if b.get(*i) == Some(&b'.') {
            *i += 1;
            if !digits(i) {
                return Err(*i);
            }
        }
        if matches!(b.get(*i), Some(b'e' | b'E')) {
            *i += 1;
            if matches!(b.get(*i), Some(b'+' | b'-')) {
                *i += 1;
            }
            if !digits(i) {
                return Err(*i);
            }
        }
        Ok(())
    }
    fn value(b: &[u8], i: &mut usize) -> Result<(), usize> {
        ws(b, i);
        match b.get(*i) {
            Some(b'{') => {
                *i += 1;
                ws(b, i);
                if b.get(*i) == Some(&b'}') {
                    *i += 1;
                    return Ok(());
                }
                loop {
                    ws(b, i);
                    string(b, i)?;
                    ws(b, i);
                    expect(b, i, b":")?;
                    value(b, i)?;
                    ws(b, i);
                    if expect(b, i, b",").is_err() {
                        return expect(b, i, b"}");
                    }
                }
            }
            Some(b'[') => {
                *i += 1;
                ws(b, i);
                if b.get(*i) == Some(&b']') {
                    *i += 1;
                    return Ok(());
                }
                loop {
                    value(b, i)?;
                    ws(b, i);
                    if expect(b, i, b",").is_err() {
                        return expect(b, i, b"]");
                    }
                }
            }
            Some(b'"') => string(b, i),
            Some(b't') => expect(b, i, b"true"),
            Some(b'f') => expect(b, i, b"false"),
            Some(b'n') => expect(b, i, b"null"),
            _ => number(b, i),
        }
    }
    let b = text.as_bytes();
    let mut i = 0;
    let r = value(b, &mut i).and_then(|_| {
        ws(b, &mut i);
        if i == b.len() {
            Ok(())
        } else {
            Err(i)
        }
    });
    if let Err(at) = r {
        panic!("not JSON at byte {at}: {:?}\n{text}", String::from_utf8_lossy(&b[at.min(b.len())..(at + 40).min(b.len())]));
    }
}

#[test]
fn the_json_check_knows_json() {
    for good in ["{}", "[]", " {\"a\":[1,-2.5e3,true,false,null,\"x\\n\\u00e9\"]} ", "0"] {
        assert_valid_json(good);
    }
    for bad in ["{", "{\"a\"}", "[1,]", "{\"a\":1}}", "\"\n\"", "01x", "{'a':1}", "\"\\x\""] {
        assert!(std::panic::catch_unwind(|| assert_valid_json(bad)).is_err(), "{bad} passed");
    }
}

/// A move word that leaves a cell (`add-move 42 ;`) is reported where it
/// ends: a warning by default, under `--strict` an error, as an
/// underflow is; whether native code or the interpreter ran it (the test
/// suite runs in every JIT mode).
#[test]
fn a_move_word_leaving_cells_is_a_warning_and_under_strict_an_error() {
    let dir = scratch("left");
    let game = dir.join("left.4th");
    std::fs::write(&game, "{board 3 3 {grid} board}\n{players {player} A {player} B players}\n: put ( -- ) empty? verify drop add-move 42 ;\n{moves drops {move} put moves}\n{pieces {piece} S {drops} drops pieces}\n").unwrap();
    let said = "move word `put` left 1 cell(s) on the stack: a move word takes and leaves nothing `( -- )`";
    let o = axforth(&["check", path(&game), "--warnings"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains(&format!("warning: {said}")) && out.contains("left.4th:3:"), "{out}");
    let o = axforth(&["check", path(&game), "--strict"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains(&format!("error: {said}")), "{out}");
    // Perft counts the moves all the same (the cell is dropped).
    let o = axforth(&["perft", path(&game), "4"]);
    assert!(stdout(&o).contains("perft 4: 3024"), "{}", stdout(&o));
}
