//! Opening games by their `.zrf`, as Zillions users did: the variant's
//! `.4th` found by the original's rule, the `.zrf`'s start position and
//! options applied, every verb taking a `.zrf`. The game is one of our
//! own (`tests/zrf/`): its `.zrf` stands in `Rules/`, its `.4th` files in
//! `Axiom/Hop/`, as in the real corpus, and its start position is only in
//! the `.zrf`.

use axforth::open::GameFile;
use axforth::{Config, Vm};
use pretty_assertions::assert_eq;
use std::path::PathBuf;
use std::process::{Command, Output};
mod common;
use common::cli::{axforth, axforth_in, root};

mod bmp;

const HOP: &str = "tests/zrf/Rules/Hop.zrf";

fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

fn load(variant: Option<&str>) -> Result<Vm, String> {
    let game = GameFile::open(&root().join(HOP), variant)?;
    let mut vm = Vm::new(Config { seed: Some(1), ..Config::default() }).map_err(|e| e.to_string())?;
    vm.capture_output();
    vm.load_game(&game).map_err(|e| e.to_string())?;
    vm.new_game().map_err(|e| e.to_string())?;
    Ok(vm)
}

fn moves(vm: &mut Vm) -> Vec<String> {
    vm.generate_turn().unwrap_or_else(|e| panic!("{e}"));
    let texts = vm.move_texts();
    vm.game.store.pop_list();
    texts
}

#[test]
fn a_variant_loads_the_4th_named_after_its_title() {
    let file = |v: &str| GameFile::open(&root().join(HOP), Some(v)).unwrap_or_else(|e| panic!("{e}")).script;
    let name = |p: PathBuf| p.file_name().unwrap().to_string_lossy().into_owned();
    // Spaces become `-`; the engine's folder (`..\Axiom\HOP`) and the
    // file (`hop-[random].4th`) are found without case.
    assert_eq!(name(file("Hop (simple)")), "Hop-(simple).4th");
    assert_eq!(name(file("hop [RANDOM]")), "hop-[random].4th");
    assert_eq!(name(file("Hop")), "Hop.4th");
    // By number, in the menu's order: the variant before the game block
    // first, the separator left out.
    assert_eq!(name(file("1")), "Hop-(simple).4th");
    assert_eq!(name(file("2")), "Hop.4th");
    assert_eq!(name(file("3")), "hop-[random].4th");
    // No variant: the first.
    assert_eq!(name(GameFile::open(&root().join(HOP), None).unwrap().script), "Hop-(simple).4th");
}

#[test]
fn a_zrf_beside_its_4th_opens_from_its_own_folder() {
    let o = axforth_in(&root().join("tests/zrf/Axiom/Hop"), &["moves", "Beside.zrf"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert_eq!(out, "White to move (1 moves):\nMan b1 - b2\n");
}

#[test]
fn the_engines_folder_may_start_above_the_zrf_or_be_missing() {
    // Rules/Sub/Deep.zrf says `Axiom\Hop\axiom.dll`: two folders up.
    let o = axforth(&["moves", "tests/zrf/Rules/Sub/Deep.zrf"]);
    assert!(o.status.success(), "{}", text(&o).1);
    assert_eq!(text(&o).0, "White to move (1 moves):\nMan c1 - c2\n");
    // An engine path of another machine: the .4th beside the .zrf.
    let o = axforth(&["moves", "tests/zrf/Axiom/Hop/Elsewhere.zrf"]);
    assert!(o.status.success(), "{}", text(&o).1);
    assert_eq!(text(&o).0, "White to move (1 moves):\nMan a1 - a2\n");
}

#[test]
fn an_unknown_variant_lists_the_variants() {
    let e = GameFile::open(&root().join(HOP), Some("Hop Deluxe")).unwrap_err();
    assert!(e.contains("has no variant `Hop Deluxe`"), "{e}");
    assert!(e.contains("1  Hop (simple)") && e.contains("Hop Stuck"), "{e}");
    assert!(!e.contains("  -\n"), "the separator is no variant: {e}");
}

#[test]
fn a_variant_without_its_4th_says_which_file_axiom_wanted() {
    let e = GameFile::open(&root().join(HOP), Some("Hop Lost")).unwrap_err();
    assert!(e.contains("Hop-Lost.4th"), "{e}");
    assert!(e.contains("Hop.zrf:"), "the place of the variant's title: {e}");
}

#[test]
fn the_start_position_comes_from_the_zrf_when_the_4th_has_none() {
    let mut vm = load(Some("Hop")).unwrap();
    // The .zrf's macro `men` placed three men a side.
    let mut first = moves(&mut vm);
    first.sort();
    assert_eq!(first, vec!["Man a1 - a2", "Man b1 - b2", "Man c1 - c2"]);
    // Black's man in front of White's first step is blocked: 3 × 2.
    assert_eq!(vm.perft(2).unwrap(), 6);
    // Every variant inherits the game's setup unless it gives its own.
    let mut simple = load(Some("Hop (simple)")).unwrap();
    assert_eq!(moves(&mut simple).len(), 3);
}

#[test]
fn the_4ths_own_setup_wins_and_a_difference_warns() {
    let mut vm = load(Some("Hop Own")).unwrap();
    assert_eq!(moves(&mut vm), vec!["Man a1 - a2"]);
    let warnings = vm.take_warnings().join("\n");
    assert!(warnings.contains("differs from the `{board-setup`"), "{warnings}");
}

#[test]
fn a_setup_name_the_4th_does_not_know_is_an_error_in_the_zrf() {
    let e = load(Some("Hop Bad")).err().expect("an error");
    assert!(e.contains("the piece `Pawn`"), "{e}");
    assert!(e.contains("Hop-Bad.4th"), "the .4th is named: {e}");
    // The place in the .zrf: line and column of `Pawn` in `(board-setup (White (Pawn a1)))`.
    let zrf = std::fs::read_to_string(root().join(HOP)).unwrap();
    let line = zrf.lines().position(|l| l.contains("(Pawn a1)")).unwrap() + 1;
    let col = zrf.lines().nth(line - 1).unwrap().find("Pawn").unwrap() + 1;
    assert!(e.contains(&format!("Hop.zrf:{line}:{col}")), "{e}");
}

#[test]
fn a_setup_position_the_4th_does_not_know_is_an_error_too() {
    let dir = game_with_pictures("far");
    std::fs::write(dir.join("Rules/Far.zrf"), "(game (title \"Hop\") (engine \"../Axiom/Hop/axiom.dll\")\n  (board-setup (White (Man a1 z9))))").unwrap();
    let game = GameFile::open(&dir.join("Rules/Far.zrf"), None).unwrap();
    let mut vm = Vm::new(Config::default()).unwrap();
    let e = vm.load_game(&game).unwrap_err().to_string();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(e.contains("names the position `z9`, which") && e.contains("Hop.4th does not declare in `board-setup`"), "{e}");
    assert!(e.contains("Far.zrf:2:31"), "the place of z9: {e}");
}

#[test]
fn pass_turn_forced_in_the_zrf_passes_a_player_without_moves() {
    let mut vm = load(Some("Hop Stuck")).unwrap();
    assert_eq!(moves(&mut vm), vec!["Pass"]);
    assert_eq!(vm.perft(3).unwrap(), 1);
    // Without the option the same position is lost at once.
    let src = std::fs::read_to_string(root().join("tests/zrf/Axiom/Hop/Hop.4th")).unwrap();
    let mut plain = Vm::new(Config::default()).unwrap();
    plain.run_text("hop", format!("{src}\n{{board-setup {{setup}} White Man a3 {{setup}} Black Man a1 board-setup}}").as_bytes()).unwrap();
    plain.new_game().unwrap();
    assert_eq!(moves(&mut plain), Vec::<String>::new());
}

/// `play` with lines typed at the prompt.
fn play_typing(variant: &str, typed: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_axforth"))
        .args(["--seed", "1", "play", HOP, "--variant", variant, "--engine", "random"])
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(typed.as_bytes()).unwrap();
    String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned()
}

#[test]
fn pass_turn_true_lets_the_human_pass_at_any_turn() {
    // White passes with three moves open; Black then moves, and White is
    // asked again on turn 3 (without the pass, `pass` is refused and `q`
    // quits before Black moves).
    let out = play_typing("Hop Free", "pass\nq\n");
    assert!(out.contains("Black (random): Man "), "{out}");
    let again = out.split("White to move, turn 3:").nth(1).unwrap_or_else(|| panic!("{out}"));
    assert!(again.contains("Man a1 - a2") || again.contains("Man b1 - b2") || again.contains("Man c1 - c2"), "{out}");
    // Without the option, `pass` is no move.
    let out = play_typing("Hop", "pass\nq\n");
    assert!(out.contains("`pass` is not a legal move"), "{out}");
}

#[test]
fn show_lists_the_variants_and_draws_the_zrf_start() {
    let o = axforth(&["show", HOP, "--variants"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert!(lines[0].contains("1  Hop (simple)") && lines[0].contains("Hop-(simple).4th"), "{out}");
    assert!(lines[1].contains("2  Hop (default)"), "{out}");
    assert!(lines[7].contains("8  Hop Lost") && lines[7].contains("no game"), "{out}");

    let o = axforth(&["show", HOP, "--variant", "Hop"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("3  B B B\n2  . . .\n1  W W W\n"), "the .zrf's start:\n{out}");
}

#[test]
fn every_game_verb_takes_a_zrf_and_a_variant() {
    for args in [
        vec!["moves", HOP, "--variant", "2"],
        vec!["perft", HOP, "2", "--variant", "Hop"],
        vec!["play", HOP, "--variant", "Hop", "--watch", "--engine", "random", "--max-plies", "4"],
    ] {
        let o = axforth(&args);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{args:?}: {err}");
        assert!(!out.is_empty(), "{args:?}");
    }
    // The game ends when a player's men are all blocked; its
    // `OnIsGameOver` says so with `^"`, under the verdict.
    let (out, _) = text(&axforth(&["--seed", "5", "play", HOP, "--variant", "Hop", "--watch", "--engine", "random"]));
    let over = out.lines().position(|l| l.starts_with("game over: ")).unwrap_or_else(|| panic!("{out}"));
    assert_eq!(out.lines().nth(over + 1), Some("No man can step."), "{out}");
    let (out, _) = text(&axforth(&["perft", HOP, "2", "--variant", "Hop"]));
    assert!(out.starts_with("perft 2: 6 "), "{out}");
    let html = std::env::temp_dir().join(format!("axforth-zrf-view-{}.html", std::process::id()));
    let o = axforth(&["view", HOP, "--variant", "Hop", "--after", "a2", "-o", html.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o).1);
    let page = std::fs::read_to_string(&html).unwrap();
    let _ = std::fs::remove_file(&html);
    assert!(page.contains("Man a1 - a2"), "the move in the page");
}

#[test]
fn check_checks_every_variant_of_a_zrf() {
    let o = axforth(&["check", HOP, "--games", "1", "--max-plies", "20"]);
    let (out, err) = text(&o);
    // "Hop Bad" and "Hop Lost" fail; the six others pass.
    assert!(!o.status.success(), "{out}{err}");
    assert!(out.contains("8 variants: 6 passed, 2 failed"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("ok") && l.contains("[Hop Stuck]")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("FAIL") && l.contains("[Hop Lost]")), "{out}");
}

#[test]
fn autoplay_takes_zrf_variants_and_the_originals_batch_form() {
    let o = axforth(&["--seed", "3", "autoplay", HOP, "--variant", "Hop", HOP, "--variant", "Hop [random]", "-n", "2", "--engine", "random", "-q"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("\"Hop\"") && out.contains("\"Hop [random]\""), "{out}");
    assert!(out.contains("2 game(s) played"), "{out}");
    // A game line and the record carry what `OnIsGameOver` said.
    let json = std::env::temp_dir().join(format!("axforth-zrf-autoplay-{}.jsonl", std::process::id()));
    let _ = std::fs::remove_file(&json);
    let o = axforth(&["--seed", "3", "autoplay", HOP, "--variant", "Hop", HOP, "--variant", "2", "-n", "1", "--engine", "random", "--json", json.to_str().unwrap()]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("{game over: No man can step., "), "{out}");
    let record = std::fs::read_to_string(&json).unwrap();
    let _ = std::fs::remove_file(&json);
    assert!(record.contains("\"message\":\"No man can step.\""), "{record}");
    assert!(record.contains("Hop.zrf#Hop\""), "the header names the variant: {record}");

    // `AutoPlay Hop Hop-(simple) 2`, run in the variants' folder.
    let o = axforth_in(&root().join("tests/zrf/Axiom/Hop"), &["--seed", "3", "autoplay", "Hop", "Hop-(simple)", "2", "--engine", "random", "-q"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(out.contains("2 game(s) played"), "{out}");

    let o = axforth(&["autoplay", "scripts/othello/othello.4th", "--variant", "2", HOP]);
    assert!(!o.status.success());
    assert!(text(&o).1.contains("belongs to the .zrf file just before it"), "{}", text(&o).1);
}

/// Copies the test game's files into a fresh folder, with the pictures its
/// `.zrf` names written there (`Images/Hop/…`, beside `Rules/`).
fn game_with_pictures(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("axforth-zrf-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for sub in ["Rules", "Axiom/Hop", "Images/Hop"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for f in ["Rules/Hop.zrf", "Axiom/Hop/Hop.4th", "Axiom/Hop/Hop-(simple).4th"] {
        std::fs::copy(root().join("tests/zrf").join(f), dir.join(f)).unwrap();
    }
    // A 170×170 board (the grid's rectangles start at 10,10, 50 apart), and
    // 30×30 men on a magenta ground, the corner colour Zillions left out.
    let board = bmp::bmp(4, 170, 170, &[[200, 180, 140], [90, 60, 30]], |x, y| u32::from((x / 50 + y / 50) % 2 == 1));
    std::fs::write(dir.join("Images/Hop/board.bmp"), board).unwrap();
    for (file, ink) in [("wman.bmp", bmp::rgb(250, 250, 250)), ("bman.bmp", bmp::rgb(20, 20, 20))] {
        std::fs::write(dir.join("Images/Hop").join(file), bmp::bmp(24, 30, 30, &[], |x, y| if (5..25).contains(&x) && (5..25).contains(&y) { ink } else { bmp::rgb(255, 0, 255) })).unwrap();
    }
    dir
}

#[test]
fn view_and_svg_draw_a_zrf_game_with_its_own_pictures() {
    let dir = game_with_pictures("pictures");
    let o = axforth_in(&dir, &["view", "Rules/Hop.zrf", "--variant", "Hop", "-o", "hop.html"]);
    assert!(o.status.success(), "{}", text(&o).1);
    assert!(text(&o).1.is_empty(), "no picture warning: {}", text(&o).1);
    let page = std::fs::read_to_string(dir.join("hop.html")).unwrap();
    // The board picture under the positions, and the men as pictures (one
    // embedded copy per picture, drawn with `<use>`), not discs.
    assert!(page.contains("data:image/png;base64,"), "embedded pictures");
    assert!(page.matches("<image").count() >= 3, "board, white man, black man");
    assert!(page.contains("<use"), "pieces drawn from their pictures");
    // b2's rectangle is 60..110 both ways: its invisible square is there.
    assert!(page.contains(r#"data-pos="b2" x="60" y="60""#), "{}", &page[..page.len().min(3000)]);

    let o = axforth_in(&dir, &["show", "Rules/Hop.zrf", "--variant", "Hop", "--svg", "hop.svg"]);
    assert!(o.status.success(), "{}", text(&o).1);
    let svg = std::fs::read_to_string(dir.join("hop.svg")).unwrap();
    assert!(svg.contains(r#"viewBox="0 0 170 170""#), "the board picture's size");
    assert!(svg.contains("data:image/png;base64,"));

    // Without the pictures, the drawing of today, and no warning: a
    // .zrf's pictures are often not shipped with it.
    let o = axforth(&["show", HOP, "--variant", "Hop", "--svg", dir.join("plain.svg").to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o).1);
    let plain = std::fs::read_to_string(dir.join("plain.svg")).unwrap();
    assert!(!plain.contains("data:image"), "nothing to embed");
    let _ = std::fs::remove_dir_all(&dir);
}
