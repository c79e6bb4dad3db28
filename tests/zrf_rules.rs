//! Plain Zillions games (a `.zrf` with no Axiom engine line): their
//! rules translated into ForthScript (`zrf::forth`) and played as any
//! game. The games are our own (`tests/zrf-rules/`), written the way
//! Zillions authors write them; small ones for single constructs are
//! written here.

use axforth::open::GameFile;
use axforth::{Config, Vm};
use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};
mod common;
use common::cli::{axforth, both, root, scratch, stdout};

const TICTACTOE: &str = "tests/zrf-rules/TicTacToe.zrf";
const DRAUGHTS: &str = "tests/zrf-rules/Draughts.zrf";
const CHESS: &str = "tests/zrf-rules/Chess.zrf";
const REVERSI: &str = "tests/zrf-rules/Reversi.zrf";
const XIANGQI: &str = "tests/zrf-rules/Xiangqi.zrf";
const BREAKTHROUGH: &str = "tests/zrf-rules/Breakthrough.zrf";
const CONNECT_FOUR: &str = "tests/zrf-rules/ConnectFour.zrf";
const KNIGHTTHROUGH: &str = "tests/zrf-rules/Knightthrough.zrf";

fn load_path(path: &Path, variant: Option<&str>) -> Result<Vm, String> {
    let game = GameFile::open(path, variant)?;
    let mut vm = Vm::new(Config { seed: Some(1), ..Config::default() }).map_err(|e| e.to_string())?;
    vm.capture_output();
    vm.load_game(&game).map_err(|e| e.to_string())?;
    vm.new_game().map_err(|e| e.to_string())?;
    Ok(vm)
}

fn load(path: &str) -> Vm {
    load_path(&root().join(path), None).unwrap_or_else(|e| panic!("{e}"))
}

/// A `.zrf` of the test's own, written to a scratch folder.
fn write_zrf(name: &str, text: &str) -> PathBuf {
    let dir = scratch(name);
    let path = dir.join(format!("{name}.zrf"));
    std::fs::write(&path, text).unwrap();
    path
}

fn game(name: &str, text: &str) -> Vm {
    load_path(&write_zrf(name, text), None).unwrap_or_else(|e| panic!("{e}"))
}

fn moves(vm: &mut Vm) -> Vec<String> {
    vm.generate_turn().unwrap_or_else(|e| panic!("{e}"));
    let texts = vm.move_texts();
    vm.game.store.pop_list();
    texts
}

/// What stands on the square named `name`.
fn at(vm: &Vm, name: &str) -> i32 {
    let p = vm.game.board.position_named(name).unwrap_or_else(|| panic!("no square {name}"));
    vm.game.board.get(&vm.mem, p).unwrap()
}

/// Plays the first move the player to move has.
fn play_first(vm: &mut Vm) {
    vm.generate_turn().unwrap_or_else(|e| panic!("{e}"));
    let first = vm.game.store.current().start;
    vm.make_move(first).unwrap_or_else(|e| panic!("{e}"));
}

fn perfts(vm: &mut Vm, n: u32) -> Vec<u64> {
    (1..=n).map(|d| vm.perft(d).unwrap_or_else(|e| panic!("perft {d}: {e}"))).collect()
}

// ---- the two games of the slice, against published counts ---------------------

/// Drops, a grid with word-like names, relative-config goals in an `or`.
/// Perft 9 counts the 9-ply sequences (127872), as scripts/tictactoe's
/// own test does; the 255168 games end at plies 5 to 9.
#[test]
fn tictactoe_perft_1_to_9() {
    let mut vm = load(TICTACTOE);
    assert_eq!(perfts(&mut vm, 9), vec![9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]);
}

/// 32 squares (kill-positions), symmetry, a promotion zone per player,
/// mandatory jumps by move-priorities, multi-jumps by add-partial.
#[test]
fn draughts_perft_1_to_8() {
    let mut vm = load(DRAUGHTS);
    assert_eq!(perfts(&mut vm, 8), vec![7, 49, 302, 1469, 7361, 36768, 179740, 845931]);
}

/// Drops that flip (`flip` on the way back along a line, `opposite`,
/// `mark`/`back`, a flag set in an `if`), a reserve of discs, a forced
/// pass: Othello's published counts (perft 9, 3005288, with its passes,
/// takes seconds and is measured outside the suite).
#[test]
fn reversi_perft_1_to_7() {
    let mut vm = load(REVERSI);
    assert_eq!(perfts(&mut vm, 7), vec![4, 12, 56, 244, 1396, 8200, 55092]);
}

/// Chess as Zillions authors wrote it (`checkmated`, castling by
/// `cascade`, en passant by `last-from?`): the published counts. Depth 4
/// (197281) and 5 (4865609) take seconds to a minute and are measured
/// outside the suite.
#[test]
fn chess_perft_1_to_3() {
    let mut vm = load(CHESS);
    assert_eq!(perfts(&mut vm, 3), [20, 400, 8902]);
}

/// Xiangqi as Zillions authors wrote it: palace and river zones, the
/// horse's leg and the elephant's eye, the cannon's screen, and the
/// generals' facing rule as a move the `checkmated` goal forbids leaving
/// open: the published counts 44, 1920, 79666 (depth 4, 3290240, takes
/// about 2 s in a release build and is measured outside the suite).
#[test]
fn xiangqi_perft_1_to_3() {
    let mut vm = load(XIANGQI);
    assert_eq!(perfts(&mut vm, 3), [44, 1920, 79666]);
}

/// The generals may not face each other on an open file: Red's general
/// may not step onto Black's file, nor may the piece between them leave
/// that file.
#[test]
fn xiangqi_generals_may_not_face() {
    let rules = std::fs::read_to_string(root().join(XIANGQI)).unwrap();
    let start = rules.find("(board-setup").unwrap();
    let end = start + rules[start..].find("(piece").unwrap();
    let setup = "(board-setup (Red (General e1) (Chariot e5)) (Black (General d10) (Soldier a7)))\n   ";
    let text = format!("{}{setup}{}", &rules[..start], &rules[end..]);
    let mut vm = game("xiangqi_facing", &text);
    let moves = moves(&mut vm);
    assert!(moves.iter().any(|m| m.contains("e1 - f1")), "{moves:?}");
    assert!(!moves.iter().any(|m| m.contains("e1 - d1")), "the general steps onto an open file facing the other: {moves:?}");
    // The chariot shields nothing yet (the files differ): it may leave.
    assert!(moves.iter().any(|m| m.contains("e5 - a5")), "{moves:?}");
}

/// With move priorities, an enemy move attacks only if it would be kept:
/// a rook's move of the lower-ranked type that could take the king does
/// not count while the enemy has a capture of the higher-ranked type
/// anywhere (the probe runs the pieces that could reach the king, then
/// asks whether a move ranked above theirs exists).
#[test]
fn ranked_moves_attack_only_when_kept() {
    let rules = |setup: &str| {
        format!(
            r#"
(define slide ($1 (while empty? add $1) (verify not-friend?) add))
(game (title "Ranked") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c/d/e" (10 0)) ("5/4/3/2/1" (0 10)))
     (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0)))
     (symmetry Black (n s) (s n)))
  (move-priorities capture-type normal-type)
  (piece (name King) (moves (move-type normal-type) (n (verify empty?) add) (e (verify empty?) add)))
  (piece (name Rook) (moves (move-type normal-type) (slide n) (slide e) (slide s) (slide w)))
  (piece (name Hunter) (moves (move-type capture-type) (n (verify enemy?) add)))
  (board-setup {setup})
  (loss-condition (White Black) (checkmated King)))
"#
        )
    };
    let king_moves = |name: &str, setup: &str| -> Vec<String> {
        let mut vm = game(name, &rules(setup));
        let mut m: Vec<String> = moves(&mut vm).into_iter().filter(|m| m.starts_with("King")).collect();
        m.sort();
        m
    };
    // The rook on the a-file attacks the king: it must leave the file.
    assert_eq!(king_moves("ranked_check", "(White (King a1)) (Black (Rook a5))"), ["King a1 - b1"]);
    // Black's hunter can take White's rook on c2: Black's rook moves are
    // ranked away, and the king may stay on the file.
    assert_eq!(king_moves("ranked_away", "(White (King a1) (Rook c2)) (Black (Rook a5) (Hunter c3))"), ["King a1 - a2", "King a1 - b1"]);
}

/// Breakthrough: straight steps to an empty square, diagonal ones that
/// may capture, a goal zone per player. The published counts (RBG's
/// compiled rules give the same, and 6182818 at depth 5).
#[test]
fn breakthrough_perft_1_to_4() {
    let mut vm = load(BREAKTHROUGH);
    assert_eq!(perfts(&mut vm, 4), [22, 484, 11132, 256036]);
}

/// Knightthrough: forward knight leaps of three steps each. RBG's
/// compiled rules count the same, and 99598454 and 3929482778 at depths
/// 5 and 6, where knights reaching the far rank end games (measured
/// outside the suite).
#[test]
fn knightthrough_perft_1_to_4() {
    let mut vm = load(KNIGHTTHROUGH);
    assert_eq!(perfts(&mut vm, 4), [40, 1600, 63520, 2521306]);
}

/// Connect Four: drops that fall down their column by `while`. Perft 7
/// is 7^7 less the 7 sequences that filled a column in six plies; the
/// wins of ply 7 end games before ply 8 (5673234, measured outside the
/// suite, as RBG's compiled rules count it).
#[test]
fn connect_four_perft_1_to_7() {
    let mut vm = load(CONNECT_FOUR);
    assert_eq!(perfts(&mut vm, 7), [7, 49, 343, 2401, 16807, 117649, 823536]);
}

/// Four in a column by `relative-config` ends the game.
#[test]
fn connect_four_four_in_a_column_wins() {
    let game = root().join(CONNECT_FOUR);
    let out = axforth(&["moves", game.to_str().unwrap(), "--after", "a1; b1; a2; b2; a3; b3; a4"]);
    assert!(stdout(&out).contains("game over: Red has won"), "{}", stdout(&out));
}

/// En passant and castling, which perft 1-4 never reach.
#[test]
fn chess_en_passant_and_castling() {
    let chess = root().join(CHESS);
    let moves_after = |after: &str| stdout(&axforth(&["moves", chess.to_str().unwrap(), "--after", after]));
    let m = moves_after("e2 - e4; a7 - a6; e4 - e5; d7 - d5");
    assert!(m.lines().any(|l| l.trim() == "Pawn e5 - d6 x d5"), "{m}");
    // One move later the right is gone.
    let m = moves_after("e2 - e4; a7 - a6; e4 - e5; d7 - d5; g1 - f3; a6 - a5");
    assert!(!m.contains("e5 - d6"), "{m}");
    let m = moves_after("e2 - e4; e7 - e5; g1 - f3; b8 - c6; f1 - c4; g8 - f6");
    assert!(m.lines().any(|l| l.contains("King e1 - g1") && l.contains("Rook h1 - f1")), "{m}");
    // Not across an attacked square: the same setup with the black
    // bishop on a6, which watches f1 (and not the king), forbids it; on
    // b7 it does not.
    let before = "e2 - e4; b7 - b6; g1 - f3; c8 - BISHOP; g2 - g3; b8 - c6; f1 - h3; g8 - f6";
    let m = moves_after(&before.replace("BISHOP", "a6"));
    assert!(!m.contains("King e1 - g1") && m.contains("Rook h1 - g1"), "{m}");
    let m = moves_after(&before.replace("BISHOP", "b7"));
    assert!(m.contains("King e1 - g1"), "{m}");
}

/// The same rules from the "Kiwipete" position (Peterkin), where castling
/// on both wings, en passant, promotion and pins all meet by depth 3:
/// its published perft 1-3 (48, 2039, 97862).
#[test]
fn chess_zrf_from_kiwipete() {
    let text = std::fs::read_to_string(root().join(CHESS)).unwrap();
    let (head, tail) = text.split_once("   (board-setup").unwrap();
    let (_, rest) = tail.split_once("   (piece").unwrap();
    let setup = "   (board-setup
      (White (King e1) (Rook a1 h1) (Queen f3) (Bishop d2 e2) (Knight c3 e5)
             (Pawn a2 b2 c2 d5 e4 f2 g2 h2))
      (Black (King e8) (Rook a8 h8) (Queen e7) (Bishop a6 g7) (Knight b6 f6)
             (Pawn a7 c7 d7 f7 e6 g6 b4 h3)))
";
    let mut vm = game("kiwipete", &format!("{head}{setup}   (piece{rest}"));
    assert_eq!(perfts(&mut vm, 3), [48, 2039, 97862]);
}

/// A game Zillions saved (`.zsg`): its moves as Zillions wrote them
/// (captures after the step, `partial N`, attribute settings `@ sq n n`),
/// replayed move by move; a setup line first; an illegal move named.
#[test]
fn replay_reads_a_zillions_saved_game() {
    let dir = scratch("zsg");
    std::fs::copy(root().join(DRAUGHTS), dir.join("Draughts.zrf")).unwrap();
    let header = "Zillions Save Game File Version 0.02 CC\nRulesFile=C:\\Games\\ZoG\\Draughts.zrf\nVariantName=English Draughts\n";
    let good = dir.join("good.zsg");
    std::fs::write(&good, format!("{header}1. Man c3 - d4\n1. Man f6 - e5 @ f6 0 1\n2. partial 2 Man d4 - f6 x e5\n")).unwrap();
    let o = axforth(&["replay", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", both(&o));
    assert!(stdout(&o).contains("3 plies replayed, ok"), "{}", both(&o));
    // A position set up by hand: a white man on e5 (none starts there)
    // takes the man that came to d4.
    let setup = dir.join("setup.zsg");
    std::fs::write(&setup, format!("{header}(x f6)\n(White Man e5)\n1. Man c3 - d4\n1. Man e5 - c3 x d4\n")).unwrap();
    let o = axforth(&["replay", setup.to_str().unwrap()]);
    assert!(stdout(&o).contains("2 plies replayed, ok"), "{}", both(&o));
    // A move the rules do not allow: named with its ply and the legal ones.
    let bad = dir.join("bad.zsg");
    std::fs::write(&bad, format!("{header}1. Man c3 - d4\n1. Man f6 - e5\n2. Man a1 - b2\n")).unwrap();
    let o = axforth(&["replay", bad.to_str().unwrap(), "--json"]);
    assert!(!o.status.success(), "{}", both(&o));
    let out = stdout(&o);
    assert!(out.contains("\"ok\":false") && out.contains("ply 3 (`2. Man a1 - b2`)") && out.contains("legal: Man d4 - f6 x e5"), "{out}");
    // An Axiom game's saved game names its `.zrf` stub's variant; replayed
    // against the `.4th` given instead, that name is not a variant to find.
    let axiom = dir.join("axiom.zsg");
    std::fs::write(&axiom, "Zillions Save Game File Version 0.02 CC\nRulesFile=C:\\Games\\ZoG\\Draughts-AI.zrf\nVariantName=Draughts (alpha-beta)\n1. Man c3 - d4\n1. Man f6 - e5\n").unwrap();
    let script = root().join("scripts/draughts/draughts.4th");
    let o = axforth(&["replay", axiom.to_str().unwrap(), "--game", script.to_str().unwrap()]);
    assert!(o.status.success() && stdout(&o).contains("2 plies replayed, ok"), "{}", both(&o));
}

#[test]
fn draughts_moves_read_as_zillions_moves() {
    let mut vm = load(DRAUGHTS);
    let m = moves(&mut vm);
    assert_eq!(m.len(), 7);
    assert!(m.iter().any(|t| t.contains("a3") && t.contains("b4")), "{m:?}");
}

// ---- constructs ---------------------------------------------------------------

const SLIDER: &str = r#"
(define slide ($1 (while empty? add $1) (verify not-friend?) add))
(game (title "Slide") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c/d" (10 0)) ("4/3/2/1" (0 10)))
     (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
  (board-setup (White (Rook a1) (Pawn b2)) (Black (Rook a3 c1)))
  (piece (name Pawn))
  (piece (name Rook) (moves (slide n) (slide e) (slide s) (slide w))))
"#;

/// `while`, a step off the board ending the block, captures by moving.
#[test]
fn while_slides_and_captures_by_moving() {
    let mut vm = game("slide", SLIDER);
    let mut m = moves(&mut vm);
    m.sort();
    assert_eq!(m.len(), 4, "{m:?}");
    assert!(m.iter().any(|t| t.contains("a1") && t.contains("a3")), "{m:?}");
    assert!(m.iter().any(|t| t.contains("a1") && t.contains("c1")), "{m:?}");
}

/// `mark`/`back`, `(capture dir)`, conditions with a direction argument
/// and their not- forms, `(change-type T)` on the moving piece, `if`/`else`.
#[test]
fn mark_back_capture_at_and_change_type() {
    let src = r#"
(game (title "Marks") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
     (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0))))
  (board-setup (White (Stone b2)) (Black (Stone b3 c2)))
  (piece (name Queen))
  (piece (name Stone)
    (moves
      ; shoot north without moving: the piece stays, the target goes
      (mark (verify (enemy? n)) (capture n) back add)
      ; step west when east is an enemy and north is not empty; crown
      ((verify (enemy? e)) (verify (not-empty? n)) (verify (on-board? s)) w (change-type Queen) add)
      ; step south when west of here is not on the board: never
      ((verify (not-on-board? w)) s add)
      ((verify (on-board? w)) (verify (not-friend? w)) s (if (empty? e) (add Queen Stone) else add)))))
"#;
    let mut vm = game("marks", src);
    let m = moves(&mut vm);
    // The shot (an empty move but for its capture), the crowning step,
    // the south step with its two promotion choices.
    assert_eq!(m.len(), 4, "{m:?}");
    let mut vm2 = game("marks2", src);
    assert_eq!(vm2.perft(1).unwrap(), 4);
}

/// `(verify (not-on-board? s))` is false on b2 (b1 is on the board), so
/// the crowning step is not offered when s exists: check the count moves.
#[test]
fn on_board_with_a_direction_argument() {
    let src = r#"
(game (title "Edge") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b" (10 0)) ("2/1" (0 10)))
     (directions (n 0 -1) (s 0 1))))
  (board-setup (White (Man a1 b2)) (Black (Man a2)))
  (piece (name Man) (moves ((verify (not-on-board? s)) (verify (on-board? n)) n (verify not-friend?) add))))
"#;
    let mut vm = game("edge", src);
    let m = moves(&mut vm);
    // a1: s is off the board, n is a2 (an enemy): taken. b2: s is b1.
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("a1") && m[0].contains("a2"), "{m:?}");
}

/// `adjacent-to-enemy?` looks one step every way from where it is asked,
/// and its `not-` form is the opposite.
#[test]
fn adjacent_to_enemy_looks_every_way() {
    let src = r#"
(game (title "Near") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c/d" (10 0)) ("4/3/2/1" (0 10)))
     (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (board-setup (White (Man a1 d1)) (Black (Man c3)))
  (piece (name Man) (moves
     ((verify not-adjacent-to-enemy?) n (verify empty?) (verify adjacent-to-enemy?) add)
     ((verify not-adjacent-to-enemy?) e (verify empty?) (verify (adjacent-to-enemy? n)) add))))
"#;
    // White a1 and d1, Black c3: no square a man can step to touches c3
    // (a2, d2 and b2, north of b1, have no Black neighbour).
    let mut vm = game("near", src);
    assert_eq!(moves(&mut vm), Vec::<String>::new());
    // White c1 and d2: c2 and d3 touch c3, so c1-c2 and d2-d3; c1 east to
    // d1 asks about d2 (north of d1), which touches no Black man.
    let mut vm = game("near2", &src.replace("(White (Man a1 d1))", "(White (Man c1 d2))"));
    let m = moves(&mut vm);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(m.iter().any(|t| t.contains("c1") && t.contains("c2")), "{m:?}");
    assert!(m.iter().any(|t| t.contains("d2") && t.contains("d3")), "{m:?}");
    // Beside an enemy, the first test (`not-adjacent-to-enemy?`) stops both.
    let mut vm = game("near3", &src.replace("(White (Man a1 d1))", "(White (Man c2))"));
    assert_eq!(moves(&mut vm), Vec::<String>::new());
}

/// Drops from reserves (`off N`): the counts run out.
#[test]
fn drops_take_from_reserves() {
    let src = r#"
(game (title "Reserve") (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1" (0 10))) (directions (e 1 0))))
  (board-setup (A (Disc off 1)) (B (Disc off 2)))
  (piece (name Disc) (drops ((verify empty?) add))))
"#;
    let mut vm = game("reserve", src);
    // A: 3 drops; B: 2; then A has none left: the game stops (a draw
    // by stalemate) with no move.
    assert_eq!(perfts(&mut vm, 3), vec![3, 6, 0]);
}

/// `(turn-order A A B repeat …)`: the order after `repeat` loops.
#[test]
fn turn_order_with_repeat() {
    let src = r#"
(game (title "Order") (players A B) (turn-order A repeat B A)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d/e/f" (10 0)) ("1" (0 10))) (directions (e 1 0))))
  (piece (name Disc) (drops ((verify empty?) add))))
"#;
    let mut vm = game("order", src);
    let mut seen = Vec::new();
    for _ in 0..5 {
        seen.push(vm.game.player_name(vm.player_to_move()));
        vm.generate_turn().unwrap();
        vm.make_move(0).unwrap();
        vm.game.store.pop_list();
    }
    assert_eq!(seen, vec!["A", "B", "A", "B", "A"]);
}

/// `create` where the piece leaves: the new piece stays, the piece moves.
#[test]
fn create_behind_the_moving_piece() {
    let src = r#"
(game (title "Create") (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0))))
  (board-setup (A (Disc a1)))
  (piece (name Disc) (moves (e (verify empty?) (create Disc w) add))))
"#;
    let mut vm = game("create", src);
    vm.generate_turn().unwrap();
    vm.make_move(0).unwrap();
    vm.game.store.pop_list();
    assert_ne!(at(&vm, "a1"), 0, "the created piece");
    assert_ne!(at(&vm, "b1"), 0, "the piece that moved");
}

/// `set-flag`/`flag?` (a condition's value), `set-position-flag`/
/// `position-flag?`, `(opposite dir)`, a position's name as a step.
#[test]
fn flags_opposite_and_positions_as_steps() {
    let src = r#"
(game (title "Flags") (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0))))
  (board-setup (A (Man b1)) (B (Man d1)))
  (piece (name Man) (moves
    ((set-position-flag start true) e (verify empty?) (opposite e) (verify (position-flag? start)) e add)
    ((set-flag went (empty? w)) (verify (flag? went)) (verify (not-position-flag? start)) a1 (verify empty?) add)
    ((verify (flag? went)) w add)))
  (count-condition (A B) stalemated))
"#;
    let mut vm = game("flags", src);
    let mut m = moves(&mut vm);
    m.sort();
    assert_eq!(m, vec!["Man b1 - a1".to_string(), "Man b1 - c1".to_string()]);
}

/// Castling as chess ZRFs write it: `cascade` moves a second piece in
/// the same move; `attribute` / `set-attribute` / an attribute as a
/// condition.
#[test]
fn cascade_and_attributes() {
    // An attribute's name may start with `not-` (Luzhanqi's `not-locked?`).
    for name in ["never-moved?", "not-moved?"] {
        castle_with_attribute(name);
    }
}

fn castle_with_attribute(name: &str) {
    let src = r#"
(game (title "Castle") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d/e/f/g/h" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0))))
  (board-setup (White (King e1) (Rook h1)) (Black (King a1)))
  (piece (name Rook) (attribute never-moved? true) (moves (w (verify empty?) (set-attribute never-moved? false) add)))
  (piece (name King) (attribute never-moved? true)
    (moves
      ((verify never-moved?) e (verify empty?) e (verify empty?) (set-attribute never-moved? false) cascade
        e (verify (and friend? (piece? Rook) never-moved?)) from back e (set-attribute never-moved? false) add))))
"#
    .replace("never-moved?", name);
    let mut vm = game(&format!("castle-{}", name.trim_end_matches('?')), &src);
    let mut m = moves(&mut vm);
    m.sort();
    assert_eq!(m.len(), 2, "{m:?}");
    vm.generate_turn().unwrap();
    let castle = vm.move_texts().iter().position(|t| t.contains("King")).unwrap_or_else(|| panic!("{m:?}"));
    vm.make_move(castle).unwrap();
    vm.game.store.pop_list();
    assert_eq!(at(&vm, "e1"), 0);
    assert_eq!(at(&vm, "h1"), 0);
    assert_eq!(vm.game.piece_name(at(&vm, "g1") & 0x3ff), "King");
    assert_eq!(vm.game.piece_name(at(&vm, "f1") & 0x3ff), "Rook");
    // Both have moved: the attribute (bit 16) is off.
    assert_eq!(at(&vm, "g1") >> 16, 0);
    assert_eq!(at(&vm, "f1") >> 16, 0);
    // The Black king never moved: on.
    assert_eq!(at(&vm, "a1") >> 16, 1);
}

/// `repetition`: the third time the position of the game stands.
#[test]
fn repetition_is_the_third_time() {
    let src = r#"
(game (title "Shuffle") (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0))))
  (board-setup (A (Man a1)) (B (Man d1)))
  (piece (name Man) (moves (e (verify empty?) add) (w (verify empty?) add)))
  (draw-condition (A B) repetition))
"#;
    let mut vm = game("shuffle", src);
    vm.remember_position();
    let mut verdicts = Vec::new();
    for to in ["b1", "c1", "a1", "d1", "b1", "c1", "a1", "d1"] {
        vm.generate_turn().unwrap();
        let m = vm.move_texts().iter().position(|t| t.ends_with(to)).unwrap_or_else(|| panic!("{to}: {:?}", vm.move_texts()));
        vm.make_move(m).unwrap();
        vm.game.store.pop_list();
        vm.remember_position();
        vm.generate_turn().unwrap();
        verdicts.push(vm.game_result().unwrap());
        vm.game.store.pop_list();
    }
    let unknown = -2140000000;
    assert_eq!(verdicts, vec![unknown, unknown, unknown, unknown, unknown, unknown, unknown, 0]);
}

const KINGS: &str = r#"
(define step ($1 (verify not-friend?) add))
(define slide ($1 (while empty? add $1) (verify not-friend?) add))
(game (title "Kings") (players White Black) (turn-order Black White)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
     (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))
  (board-setup (White (King a1) (Rook ROOK)) (Black (King a3)))
  (piece (name King) (moves (step n) (step s) (step e) (step w) (step ne) (step nw) (step se) (step sw)))
  (piece (name Rook) (moves (slide n) (slide s) (slide e) (slide w)))
  (loss-condition (White Black) (checkmated King)))
"#;

/// `(checkmated King)`: no move leaves the king attacked (`attacked?`
/// is the same test), and no move with the king attacked loses.
#[test]
fn checkmated_filters_moves_and_ends_the_game() {
    // The rook on c2: b3 is the only square the black king may take.
    let mut vm = game("kings", &KINGS.replace("ROOK", "c2"));
    assert_eq!(moves(&mut vm), vec!["King a3 - b3".to_string()]);
    // On c3: every square is attacked and so is a3: mate.
    let mut vm = game("mate", &KINGS.replace("ROOK", "c3"));
    vm.generate_turn().unwrap();
    assert_eq!(vm.game.store.count(), 0);
    assert_eq!(vm.game_result().unwrap(), -2130000000);
    vm.game.store.pop_list();
    // `attacked?` as a condition (no checkmated goal here): a step south
    // only onto an attacked square, beside the king's own steps.
    let src = KINGS.replace("ROOK", "c2").replace("(step sw)))", "(step sw) (s (verify attacked?) add)))").replace("(loss-condition (White Black) (checkmated King))", "");
    let mut vm = game("attacked", &src);
    let mut m = moves(&mut vm);
    m.sort();
    assert_eq!(m, ["King a3 - a2", "King a3 - a2", "King a3 - b2", "King a3 - b3"]);
}

/// `attacked?` asks whether an enemy move could capture a piece of the
/// mover's there (a push onto an empty square threatens nothing), and
/// `defended?` whether a friendly move could capture an enemy there.
#[test]
fn attacked_and_defended_ask_about_captures() {
    let src = r#"
(define step ($1 (verify empty?) (verify DIRTEST) add))
(game (title "Threats") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c/d" (10 0)) ("4/3/2/1" (0 10)))
     (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (board-setup (White (Man a1) (Guard d1)) (Black (Pawn b2) (Spear a3)))
  (piece (name Man) (moves (step e) (step n)))
  (piece (name Guard) (moves (w w (verify enemy?) add)))
  (piece (name Pawn) (moves (s (verify empty?) add)))
  (piece (name Spear) (moves (s (verify enemy?) add))))
"#;
    // b1: the pawn's push ends there but takes nothing; a2: the spear
    // would take a man there.
    let mut vm = game("attacked", &src.replace("DIRTEST", "not-attacked?"));
    assert_eq!(moves(&mut vm), ["Man a1 - b1"]);
    let mut vm = game("attacked2", &src.replace("DIRTEST", "attacked?"));
    assert_eq!(moves(&mut vm), ["Man a1 - a2"]);
    // b1: the guard on d1 jumps to b1 onto an enemy; a2 no friend reaches.
    let mut vm = game("defended", &src.replace("DIRTEST", "defended?"));
    assert_eq!(moves(&mut vm), ["Man a1 - b1"]);
    let mut vm = game("defended2", &src.replace("DIRTEST", "not-defended?"));
    assert_eq!(moves(&mut vm), ["Man a1 - a2"]);
    // `(attacked? TYPE)`: by the enemy's moves of that type only.
    let typed = src.replace("(moves (s (verify empty?) add))", "(moves (move-type push) (s (verify empty?) add))").replace("(moves (s (verify enemy?) add))", "(moves (move-type stab) (s (verify enemy?) add))");
    let mut vm = game("stab", &typed.replace("DIRTEST", "(attacked? stab)"));
    assert_eq!(moves(&mut vm), ["Man a1 - a2"]);
    let mut vm = game("push", &typed.replace("DIRTEST", "(not-attacked? push)"));
    assert_eq!(moves(&mut vm).len(), 2);
}

/// `(option "maximal captures" …)`: only the moves that begin a chain of
/// partial moves taking the most pieces; at 2, a tie goes to the chain
/// taking the pieces a move promotes to.
#[test]
fn maximal_captures_keep_the_longest_chains() {
    let src = r#"
(define jump ($1 (verify enemy?) capture $1 (verify empty?) (add-partial)))
(game (title "Most") (players White Black) (turn-order White Black)
  OPTION
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c/d/e" (10 0)) ("5/4/3/2/1" (0 10)))
     (directions (n 0 -1) (e 1 0))))
  (board-setup (White (Man a1)) (Black SETUP))
  (piece (name Man) (moves (jump e) (jump n) ((verify false) (add King))))
  (piece (name King) (moves (jump e))))
"#;
    let game_with = |name: &str, option: &str, setup: &str| game(name, &src.replace("OPTION", option).replace("SETUP", setup));
    // East takes b1 then d1; north takes a2 only.
    let chain = "(Man b1 d1 a2)";
    let mut vm = game_with("most-off", "", chain);
    assert_eq!(moves(&mut vm).len(), 2);
    let mut vm = game_with("most-on", "(option \"maximal captures\" true)", chain);
    let m = moves(&mut vm);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("c1") && m[0].contains("b1"), "{m:?}");
    // One piece each way, a man east and a king north: true keeps both,
    // 2 the king's.
    let tie = "(Man b1) (King a2)";
    let mut vm = game_with("tie-on", "(option \"maximal captures\" true)", tie);
    assert_eq!(moves(&mut vm).len(), 2);
    let mut vm = game_with("tie-2", "(option \"maximal captures\" 2)", tie);
    let m = moves(&mut vm);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("a3") && m[0].contains("a2"), "{m:?}");
}

/// Under "maximal captures", a jump that turns the piece it passes into
/// another (Northern Kings demotes a king to a checker) takes it, as
/// Zillions counts: one such jump ties with one capture. The saved game
/// of Northern Kings (GlukKazan/ZoG) plays a demotion beside a capture.
#[test]
fn maximal_captures_count_a_piece_turned_into_another() {
    let src = r#"
(game (title "Demote") (players White Black) (turn-order White Black)
  (option "maximal captures" true)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c/d/e" (10 0)) ("5/4/3/2/1" (0 10)))
     (directions (n 0 -1) (e 1 0))))
  (board-setup (White (Man a1)) (Black (Man b1) (King a2)))
  (piece (name Man)
     (moves (e (verify enemy?) capture e (verify empty?) add)
            (n (verify enemy?) (change-type Man) n (verify empty?) add)
            (n n n (verify empty?) add)))
  (piece (name King) (moves (e (verify empty?) add))))
"#;
    let mut vm = game("demote", src);
    let m = moves(&mut vm);
    assert_eq!(m.len(), 2, "{m:?}");
    assert!(m.iter().any(|m| m.contains("c1")) && m.iter().any(|m| m.contains("a3")), "{m:?}");
    // Turned into what it already is, the piece is not taken.
    let mut vm = game("same", &src.replace("(change-type Man)", "(change-type King)"));
    let m = moves(&mut vm);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("c1"), "{m:?}");
}

/// `add-copy`: the piece stays and a copy goes (Ataxx's clone step);
/// `add-copy-partial` lets the same player go on.
#[test]
fn add_copy_leaves_the_piece_where_it_was() {
    let src = r#"
(game (title "Clone") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0))))
  (board-setup (White (Blob a1)) (Black (Blob c1)))
  (piece (name Blob) (moves (e (verify empty?) ADD))))
"#;
    for add in ["add-copy", "(add-copy)", "add-copy-partial"] {
        let mut vm = game(&format!("clone-{}", add.trim_matches(['(', ')'])), &src.replace("ADD", add));
        vm.generate_turn().unwrap();
        assert_eq!(vm.move_texts(), ["White Blob b1"], "{add}");
        let m = vm.game.store.current().start;
        vm.make_move(m).unwrap();
        vm.game.store.pop_list();
        assert_ne!(at(&vm, "a1"), 0, "{add}: the piece stays");
        assert_eq!(at(&vm, "a1"), at(&vm, "b1"), "{add}: the same piece goes");
        // A partial copy: White moves on (nothing can follow here, so
        // the turn passes at the next generation).
        assert_eq!(vm.game.turn.partial != axforth::game::moves::NOT_PARTIAL, add == "add-copy-partial", "{add}");
    }
}

/// As Zillions plays a move (the saved game `KoShogi.zsg` shows it): the
/// piece moves first, then its captures, so a `capture` where it lands
/// takes the piece itself and one where it started takes nothing; a
/// `capture` of an empty square records nothing.
#[test]
fn captures_come_after_the_piece_has_moved() {
    let src = r#"
(game (title "Burn") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0))))
  (board-setup (White (Bomb a1) (Torch b1)) (Black (Man d1)))
  (piece (name Bomb) (moves (e e (verify empty?) (capture w) add)))
  (piece (name Torch) (moves (e e (verify enemy?) capture add) (e (verify empty?) capture add)))
  (piece (name Man) (moves (w (verify empty?) add))))
"#;
    let mut vm = game("burn", src);
    vm.generate_turn().unwrap();
    // The bomb's capture behind it is where the torch stands; the torch's
    // capture of the empty c1 records nothing.
    assert_eq!(vm.move_texts(), ["Bomb a1 - c1 x b1", "Torch b1 x d1 x d1", "Torch b1 - c1"]);
    let torch = at(&vm, "b1");
    let texts = vm.move_texts();
    // The torch lands on the enemy and its own capture there takes it.
    let m = vm.game.store.current().start + texts.iter().position(|t| t == "Torch b1 x d1 x d1").unwrap();
    vm.make_move(m).unwrap();
    vm.game.store.pop_list();
    assert_eq!((at(&vm, "b1"), at(&vm, "d1")), (0, 0), "the torch and the man are both gone");
    // The bomb leaves a1 and lands on c1; a capture at its start square
    // (a1, behind b1's empty square now) would take nothing.
    let mut vm = game("burn2", &src.replace("(capture w)", "(capture w) (capture a1)"));
    vm.generate_turn().unwrap();
    let m = vm.game.store.current().start;
    vm.make_move(m).unwrap();
    assert_ne!(at(&vm, "c1"), 0, "the bomb landed and lives");
    assert_eq!(at(&vm, "b1"), 0, "the torch it burned is gone");
    assert_ne!(torch, 0);
}

/// A player with no turn of its own (it owns stones the others move)
/// plays no part in who wins: a tournament seats the two who move.
#[test]
fn a_player_without_turns_is_not_seated() {
    let src = r#"
(game (title "Stones") (players N White Black)
  (turn-order (White N) (Black N) repeat White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1" (0 10))) (directions (e 1 0))))
  (board-setup (N (Stone a1 b1)) (White (Man c1)))
  (piece (name Stone) (moves (e (verify empty?) add)))
  (piece (name Man) (moves (e (verify empty?) add))))
"#;
    let vm = game("stones", src);
    let names: Vec<String> = vm.game.seats().iter().map(|&p| vm.game.player_name(p)).collect();
    assert_eq!(names, ["White", "Black"]);
    assert_eq!(vm.game.contestants().count(), 2);
}

/// `flip`, and goals on pieces:
/// pieces-remaining, total-piece-count, absolute-config.
#[test]
fn flip_create_and_piece_goals() {
    let src = r#"
(game (title "Flip") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c/d" (10 0)) ("1" (0 10)))
     (directions (e 1 0) (w -1 0)))
     (zone (name goal) (players White) (positions d1)) (zone (name goal) (players Black) (positions a1)))
  (board-setup (White (Disc a1)) (Black (Disc b1)))
  (piece (name Disc)
    (moves
      ((verify (enemy? e)) (flip e) add)))
  (win-condition (White Black) (absolute-config Disc (goal)))
  (loss-condition (White Black) (pieces-remaining 0))
  (draw-condition (White Black) (total-piece-count 4)))
"#;
    let mut vm = game("flip", src);
    let m = moves(&mut vm);
    assert_eq!(m.len(), 1, "{m:?}");
    vm.generate_turn().unwrap();
    vm.make_move(0).unwrap();
    vm.game.store.pop_list();
    // Black has lost its only piece to the flip: it loses.
    vm.generate_turn().unwrap();
    let score = vm.game_result().unwrap();
    vm.game.store.pop_list();
    assert_eq!(score, -2130000000, "Black has no piece left");
}

// ---- errors -------------------------------------------------------------------

/// An unsupported construct is named, with its place in the `.zrf`.
#[test]
fn an_unsupported_construct_names_its_place() {
    let src = "(game (title \"Goal\") (players A B) (turn-order A B)\n  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n  (piece (name P) (moves (e (verify not-goal-position?) add))))\n";
    let path = write_zrf("goal", src);
    let e = load_path(&path, None).err().expect("goal-position? is not supported");
    assert!(e.contains("the condition `not-goal-position?` is not supported yet"), "{e}");
    assert!(e.contains("goal.zrf:3:37"), "{e}");
    let o = axforth(&["moves", path.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(both(&o).contains("goal.zrf:3:37"), "{}", both(&o));
    // `check` names it for the variant.
    let o = axforth(&["check", path.to_str().unwrap(), "--games", "1"]);
    assert!(both(&o).contains("not-goal-position?") && both(&o).contains("goal.zrf:3:37"), "{}", both(&o));
}

/// A name the rules do not know (here a direction) is an error at its
/// place.
#[test]
fn an_unknown_name_is_an_error_at_its_place() {
    let src = "(game (title \"Typo\") (players A B) (turn-order A B)\n  (board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"1\" (0 10))) (directions (e 1 0))))\n  (piece (name P) (moves (ee add))))\n";
    let e = load_path(&write_zrf("typo", src), None).err().expect("ee is no direction");
    assert!(e.contains("`ee`") && e.contains("typo.zrf:3:27"), "{e}");
}

// ---- port ---------------------------------------------------------------------

/// `axforth port` writes the text the `.zrf` loads as: the files load
/// with axforth and count the same perft.
#[test]
fn port_writes_files_that_count_the_same_perft() {
    let dir = scratch("port");
    for (zrf, file) in [(DRAUGHTS, "English-Draughts.4th"), (TICTACTOE, "Tic-Tac-Toe.4th")] {
        let o = axforth(&["port", zrf, "-o", dir.to_str().unwrap()]);
        assert!(o.status.success(), "{}", both(&o));
        let written = dir.join(file);
        assert!(stdout(&o).contains(file), "{}", stdout(&o));
        let text = std::fs::read_to_string(&written).unwrap();
        // Readable: the ZRF's names, and where each line comes from.
        assert!(text.contains("\\ Draughts.zrf:") || text.contains("\\ TicTacToe.zrf:"), "{text}");
        let mut ported = load_path(&written, None).unwrap_or_else(|e| panic!("{e}"));
        let mut original = load(zrf);
        assert_eq!(perfts(&mut ported, 3), perfts(&mut original, 3), "{file}");
    }
}

/// A ported game with a `checkmated` goal carries the reach table the
/// `.zrf` works out (`{reach}`), with the fingerprint of its move words:
/// loaded, the probes are cut short as the `.zrf`'s are. A word added by
/// hand keeps the table; a move word changed by hand drops it, with a
/// warning, and every probe runs every piece.
#[test]
fn port_writes_the_reach_table_for_its_move_words() {
    let dir = scratch("port-reach");
    let o = axforth(&["port", CHESS, "-o", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", both(&o));
    let written = dir.join("Chess.4th");
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.contains("{reach} ") && text.contains("King {reach-moves} e1  c1 d2 d1 e2 f2 f1 g1 ;"), "{text}");
    let mut ported = load_path(&written, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(ported.game.reach.is_some());
    assert_eq!(perfts(&mut ported, 3), [20, 400, 8902]);

    let added = dir.join("Added.4th");
    std::fs::write(&added, format!(": my-helper ( -- ) ;\n{text}\n: my-evaluation ( -- n ) 42 ;\n")).unwrap();
    let mut vm = load_path(&added, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(vm.game.reach.is_some(), "{:?}", vm.take_warnings());

    let first = text.find(": Pawn-move-1 ( -- )").expect("a pawn move word");
    let line_end = first + text[first..].find('\n').unwrap() + 1;
    let edited = dir.join("Edited.4th");
    std::fs::write(&edited, format!("{}\t1 DROP\n{}", &text[..line_end], &text[line_end..])).unwrap();
    let mut vm = load_path(&edited, None).unwrap_or_else(|e| panic!("{e}"));
    assert!(vm.game.reach.is_none());
    let warnings = vm.take_warnings().join("\n");
    assert!(warnings.contains("the reach table does not match the move words") && warnings.contains("Edited.4th:"), "{warnings}");
    assert_eq!(perfts(&mut vm, 3), [20, 400, 8902]);
}

/// A move block written the same as one before it (a macro two pieces
/// use, or one under two move types) is the same move word: defined once,
/// named by the first, listed by both, with each list's move type.
#[test]
fn a_move_written_twice_is_one_move_word() {
    let src = r#"
(define step ($1 (verify empty?) add))
(game (title "Twins") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
     (directions (n 0 -1) (e 1 0))))
  (board-setup (White (Rook a1) (Bishop c1)) (Black (Rook a3) (Bishop c3)))
  (piece (name Rook) (moves (move-type slow) (step n) (step e)))
  (piece (name Bishop) (moves (move-type slow) (step e) (move-type fast) (step n) (step e))))
"#;
    let path = write_zrf("twins", src);
    let dir = scratch("twins-port");
    let o = axforth(&["port", path.to_str().unwrap(), "-o", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", both(&o));
    let text = std::fs::read_to_string(dir.join("Twins.4th")).unwrap();
    let defined: Vec<&str> = text.lines().filter(|l| l.starts_with(": Rook-") || l.starts_with(": Bishop-")).map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(defined, ["Rook-move-1", "Rook-move-2"]);
    let bishop = &text[text.find("{moves Bishop-moves").unwrap()..];
    let bishop = &bishop[..bishop.find("moves}").unwrap()];
    assert!(bishop.contains("{move} Rook-move-2 {move-type} slow") && bishop.contains("{move} Rook-move-1 {move-type} fast") && bishop.contains("{move} Rook-move-2 {move-type} fast"), "{bishop}");
    let mut vm = game("twins", src);
    let mut m = moves(&mut vm);
    m.sort();
    assert_eq!(m, ["Bishop c1 - c2", "Rook a1 - a2", "Rook a1 - b1"]);
}

#[test]
fn check_plays_a_rules_game() {
    let o = axforth(&["check", TICTACTOE, DRAUGHTS, "--games", "2"]);
    assert!(o.status.success(), "{}", both(&o));
}

/// The `checkmated` goal's probe runs only the enemy pieces whose moves
/// can reach the royal piece (`zrf/reach.rs`): the same moves as a probe
/// of every piece, whatever way a piece attacks (a slide, a capture
/// beside its path, a jump back to a mark, a drop, `go last-to`).
#[test]
fn the_reach_table_leaves_every_move_as_it_was() {
    let src = r#"
(define step ($1 (verify not-friend?) add))
(define slide ($1 (while empty? add $1) (verify not-friend?) add))
(game (title "Probes") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c/d/e" (10 0)) ("5/4/3/2/1" (0 10)))
     (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
     (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw)))
  (board-setup (White (King c1) (Archer a2) (Rook e2) (Mason off 2))
               (Black (King c5) (Archer e4) (Hopper a4) (Ghost b5) (Mason off 2)))
  (piece (name King) (moves (step n) (step s) (step e) (step w) (step ne) (step nw) (step se) (step sw)))
  (piece (name Rook) (moves (slide n) (slide w)))
  (piece (name Archer) (moves (n (verify empty?) (capture e) add) (s (verify empty?) (capture w) add)))
  (piece (name Hopper) (moves (mark e (verify not-empty?) e e back e e e (verify not-friend?) add)))
  (piece (name Ghost) (moves ((go last-to) e (verify enemy?) add)))
  (piece (name Mason) (drops ((verify empty?) add) ((verify empty?) s (verify enemy?) capture add)))
  (loss-condition (White Black) (checkmated King)))
"#;
    let with = perfts(&mut game("probes", src), 4);
    let mut vm = game("probes-all", src);
    vm.game.reach = None;
    assert_eq!(with, perfts(&mut vm, 4));
    assert!(with[3] > 1000, "{with:?}");
    let mut vm = load(CHESS);
    vm.game.reach = None;
    assert_eq!(perfts(&mut vm, 3), [20, 400, 8902]);
}

/// A name both a position and a direction (ZRF compares names without
/// case: a dummy position `S` beside a direction `s`) is the one spelled
/// exactly as written: `(on-board? s)` asks about the direction.
#[test]
fn a_name_spelled_as_a_direction_is_the_direction() {
    let src = r#"
(game (title "Names") (players A B) (turn-order A B)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1/2" (0 10)))
     (directions (n 0 -1) (s 0 1)))
     (dummy S))
  (board-setup (A (Man a1 b2)))
  (piece (name Man) (moves ((if (on-board? s) s else n) (verify empty?) add)
                           (S (verify empty?) add))))
"#;
    let mut vm = game("names", src);
    let mut m = moves(&mut vm);
    m.sort();
    // a1 has a square south, b2 none (it goes north); `S` is the dummy.
    assert_eq!(m, ["Man a1 - S", "Man a1 - a2", "Man b2 - S", "Man b2 - b1"]);
}

/// `(?N North support)`: a player moving another's pieces. `friend?`,
/// `in-zone?` and the reserve a drop takes from are the owner's, as
/// Zillions did (Gufuu Shogi's saved game).
#[test]
fn a_player_moving_anothers_pieces_sees_as_their_owner() {
    let src = r#"
(game (title "Helper") (players A B ?H) (turn-order (A normal) (?H A help) (B normal) (?H B help))
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10))) (directions (e 1 0)))
     (zone (name home) (players A) (positions c1)) (zone (name home) (players B) (positions a1)))
  (board-setup (A (Stone a1) (Token off 1)) (B (Stone d1) (Token off 1)))
  (piece (name Stone) (moves (move-type normal) (e (verify empty?) add)))
  (piece (name Token) (drops (move-type help) ((verify (in-zone? home)) (verify empty?) add) ((verify friend?) add))))
"#;
    let mut vm = game("helper", src);
    assert_eq!(moves(&mut vm), ["Stone a1 - b1"]);
    vm.generate_turn().unwrap();
    vm.make_move(vm.game.store.current().start).unwrap();
    vm.game.store.pop_list();
    // A's home, and A's own stone (a friend of A's, not of ?H's).
    let mut m = moves(&mut vm);
    m.sort();
    assert_eq!(m, ["A Token b1", "A Token c1"]);
}

/// "recycle captures" (an option, or the older `(recycle-captures
/// true)`): a piece taken, also by landing on it, goes back to its
/// owner's reserve, to be dropped again.
#[test]
fn recycled_captures_go_back_to_their_owners_reserve() {
    let src = r#"
(game (title "Recycle") (players A B) (turn-order A B)
  OPTION
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0)))
     (symmetry B (e w) (w e)))
  (board-setup (A (Stone a1) (Stone off 0)) (B (Stone b1) (Stone off 0)))
  (piece (name Stone) (moves (e (verify not-friend?) add)) (drops ((verify empty?) add))))
"#;
    // A takes B's only stone: without recycling B has nothing to move.
    assert_eq!(perfts(&mut game("keep", &src.replace("OPTION", "")), 2), [1, 0]);
    // Recycled, B drops it back on any empty square.
    assert_eq!(perfts(&mut game("recycle", &src.replace("OPTION", "(option \"recycle captures\" true)")), 2), [1, 3]);
    assert_eq!(perfts(&mut game("recycle-old", &src.replace("OPTION", "(recycle-captures true)")), 2), [1, 3]);
}

/// A drop's piece appears before its captures: a capture where it lands
/// takes the piece just dropped (Bolotoudou drops a Lock on an enemy man
/// and captures there; its saved game then moves onto the empty square).
/// With "recycle captures" both go back to their owners' reserves, so
/// the single Lock is dropped again and again.
#[test]
fn a_drop_that_captures_where_it_lands_takes_itself() {
    let src = r#"
(game (title "Lock") (players A B) (turn-order A B)
  OPTION
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0))))
  (board-setup (A (Lock off 1) (Man off 0)) (B (Man b1 c1) (Lock off 0)))
  (piece (name Lock) (drops ((verify enemy?) capture add)))
  (piece (name Man) (drops ((verify empty?) add))))
"#;
    let mut vm = game("lock", &src.replace("OPTION", ""));
    let m = moves(&mut vm);
    assert_eq!(m.len(), 2, "{m:?}");
    let b1 = m.iter().position(|t| t.contains("b1")).unwrap_or_else(|| panic!("{m:?}"));
    vm.generate_turn().unwrap();
    vm.make_move(vm.game.store.current().start + b1).unwrap();
    vm.game.store.pop_list();
    assert_eq!(at(&vm, "b1"), 0, "the square is empty after the drop");
    assert_eq!(at(&vm, "c1") & 0x3ff, 2, "the other man stays");
    // Recycled: the lock goes back to A, the man to B (who drops it on
    // one of the three empty squares).
    let mut vm = game("lock-recycled", &src.replace("OPTION", "(option \"recycle captures\" true)"));
    assert_eq!(perfts(&mut vm, 3), [2, 6, 12]);
}

/// Zillions writes every change of owner a move makes (`= South on
/// b13`), which axforth's move text leaves out beside a step: a saved
/// game's move with them is that move (Gwangsanghui's cannon takes a
/// general and its guards change sides).
#[test]
fn replay_matches_a_move_whose_changes_of_owner_zillions_lists() {
    let dir = scratch("owners");
    let rules = r#"
(game (title "Turn") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("2/1" (0 10))) (directions (e 1 0) (n 0 -1))))
  (board-setup (White (Man a1)) (Black (Man b1 c2)))
  (piece (name Man) (moves (e (verify enemy?) (change-owner c2) add) (n (verify empty?) add))))
"#;
    std::fs::write(dir.join("Turn.zrf"), rules).unwrap();
    let zsg = dir.join("turn.zsg");
    std::fs::write(&zsg, "Zillions Save Game File Version 0.02 CC\nRulesFile=Turn.zrf\nVariantName=Turn\n1. Man a1 x b1 = White on c2\n").unwrap();
    let o = axforth(&["replay", zsg.to_str().unwrap()]);
    assert!(stdout(&o).contains("1 plies replayed, ok"), "{}", both(&o));
}

/// `cascade`: the moving piece goes where it is bound (`to`, else the
/// cursor) and the piece standing there moves on; each cascaded piece is
/// the one that stood there when the move began, so a ring of pieces
/// pushed round moves as one (Chase's saved game turns a whole edge of
/// its board one place).
#[test]
fn cascades_move_as_one_and_go_where_bound() {
    let src = r#"
(game (title "Ring") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10))) (directions (e 1 0)))
     (links next (a1 b1) (b1 c1) (c1 a1)))
  (board-setup (White (A a1) (B b1) (C c1)) (Black (A d1)))
  (piece (name A) (moves MOVES))
  (piece (name B))
  (piece (name C)))
"#;
    let squares = |vm: &Vm| ["a1", "b1", "c1", "d1"].map(|sq| at(vm, sq) & 0x3ff);
    let play = |name: &str, moves: &str| {
        let mut vm = game(name, &src.replace("MOVES", moves));
        play_first(&mut vm);
        squares(&vm)
    };
    // Round the ring: A to b1, B to c1, C to a1.
    assert_eq!(play("ring", "(next cascade next cascade next add)"), [3, 1, 2, 1]);
    // Bound to b1 by `to`, A goes there when C's square cascades it on;
    // C goes on to d1 (taking the black piece there).
    let src2 = "(e to e cascade e add)";
    let mut vm = game("bound", &src.replace("MOVES", src2).replace("(B b1) (C c1)", "(C c1)"));
    play_first(&mut vm);
    assert_eq!(squares(&vm), [0, 1, 0, 3]);
}

/// An attribute set where the moving piece started is the moving piece's
/// (it takes it where it lands), unless the move created a piece there
/// first: then it is that piece's (KoShogi's cannon shoots, is created
/// again on its square with `enemy-pass?` set, and shoots again a turn
/// later only so).
#[test]
fn an_attribute_set_on_a_piece_created_where_the_mover_started_is_its() {
    let src = r#"
(game (title "Leave") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("1" (0 10))) (directions (e 1 0))))
  (board-setup (White (Man a1)) (Black (Man c1)))
  (piece (name Man) (attribute marked? false) (moves (MOVE))))
"#;
    let play = |name: &str, block: &str| {
        let mut vm = game(name, &src.replace("MOVE", block));
        play_first(&mut vm);
        (at(&vm, "a1"), at(&vm, "b1"))
    };
    let marked = 1 << 16;
    // Created on a1, then marked: the new piece has it.
    let (a1, b1) = play("created", "(create Man) (set-attribute marked? true) e (verify empty?) add");
    assert!(a1 & marked != 0 && b1 & marked == 0, "{a1:#x} {b1:#x}");
    // Marked with nothing created: the moving piece takes it to b1.
    let (a1, b1) = play("moved", "(set-attribute marked? true) e (verify empty?) add");
    assert!(a1 == 0 && b1 & marked != 0, "{a1:#x} {b1:#x}");
}

/// A piece a saved game sets up starts with its type's attributes, as
/// the rules' own setup gives them (Ko Shogi's saved game sets up every
/// piece, and a banner promotes only as a `step-mover?`).
#[test]
fn pieces_a_saved_game_sets_up_have_their_attributes() {
    let dir = scratch("zsg-attributes");
    let rules = r#"
(game (title "Sprinters") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("2/1" (0 10)))
     (directions (e 1 0) (n 0 -1) (s 0 1))))
  (board-setup (White (Runner a1)) (Black (Runner d1)))
  (piece (name Runner) (attribute fresh? true)
     (moves ((verify fresh?) e e (verify empty?) (set-attribute fresh? false) add)
            (n (verify empty?) add) (s (verify empty?) add))))
"#;
    std::fs::write(dir.join("Sprinters.zrf"), rules).unwrap();
    let header = "Zillions Save Game File Version 0.02 CC\nRulesFile=Sprinters.zrf\nVariantName=Sprinters\n";
    // A runner set up on b2 may still sprint two squares.
    let zsg = dir.join("setup.zsg");
    std::fs::write(&zsg, format!("{header}(x a1)\n(White Runner b2)\n1. Runner b2 - d2\n")).unwrap();
    let o = axforth(&["replay", zsg.to_str().unwrap()]);
    assert!(stdout(&o).contains("1 plies replayed, ok"), "{}", both(&o));
}

/// `replay SAVED.zsg --game RULES.zrf` plays the variant the saved game
/// names (`VariantName=`), unless `--variant` says otherwise.
#[test]
fn a_saved_game_given_its_rules_plays_its_own_variant() {
    let dir = scratch("zsg-variant");
    let rules = r#"
(game (title "Steps") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("2/1" (0 10))) (directions (e 1 0) (w -1 0))))
  (board-setup (White (Man b1)) (Black (Man b2)))
  (piece (name Man) (moves (e (verify empty?) add))))
(variant (title "Backwards") (piece (name Man) (moves (w (verify empty?) add))))
"#;
    let other = dir.join("elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("Steps.zrf"), rules).unwrap();
    let zsg = dir.join("game.zsg");
    std::fs::write(&zsg, "Zillions Save Game File Version 0.02 CC\nRulesFile=C:\\ZoG\\Steps.zrf\nVariantName=Backwards\n1. Man b1 - a1\n1. Man b2 - a2\n").unwrap();
    let rules_path = other.join("Steps.zrf");
    let o = axforth(&["replay", zsg.to_str().unwrap(), "--game", rules_path.to_str().unwrap()]);
    assert!(stdout(&o).contains("[Backwards]") && stdout(&o).contains("2 plies replayed, ok"), "{}", both(&o));
    let o = axforth(&["replay", zsg.to_str().unwrap(), "--game", rules_path.to_str().unwrap(), "--variant", "1"]);
    assert!(stdout(&o).contains("[Steps]") && !o.status.success(), "{}", both(&o));
}

/// Two royal pieces of one type: each is kept out of attack (in Zillions
/// checkmating any one wins). The rook on c1 attacks the king on c3,
/// which must step aside; the king on a3 may not move and leave it.
#[test]
fn every_royal_piece_is_kept_out_of_attack() {
    let src = KINGS.replace("(Black (King a3))", "(Black (King a3 c3))").replace("ROOK", "c1");
    let mut vm = game("two-kings", &src);
    assert_eq!(moves(&mut vm), vec!["King c3 - b3".to_string()]);
}

/// Two `checkmated` goals, two royal types: a piece of the second type
/// may no more step into an attack than one of the first.
#[test]
fn every_royal_type_is_kept_out_of_attack() {
    let src = KINGS
        .replace("(Black (King a3))", "(Black (Prince a3))")
        .replace("(piece (name Rook)", "(piece (name Prince) (moves (step n) (step s) (step e) (step w) (step ne) (step nw) (step se) (step sw)))\n  (piece (name Rook)")
        .replace("(loss-condition (White Black) (checkmated King)))", "(loss-condition (White Black) (checkmated King))\n  (loss-condition (White Black) (checkmated Prince)))")
        .replace("ROOK", "c2");
    let mut vm = game("princes", &src);
    assert_eq!(moves(&mut vm), vec!["Prince a3 - b3".to_string()]);
}

/// A chain of partial moves that can come back to a position it left (a
/// king jumping back and forth over a piece it marked, not took) stops
/// short of the return: the chain ends instead of running past the limit
/// of partial moves in a turn (South African Checkers' king does this).
#[test]
fn a_chain_does_not_come_back_to_a_position_it_left() {
    let src = r#"
(game (title "Loop") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c/d" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0))))
  (board-setup (White (King a1)) (Black (Man b1)))
  (piece (name Man) (attribute taken? false) (moves (e (verify empty?) add)))
  (piece (name King) (attribute taken? false)
    (moves (move-type jumps)
      (e (verify enemy?) (set-attribute taken? true) e (verify empty?) (add-partial jumps))
      (w (verify enemy?) (set-attribute taken? true) w (verify empty?) (add-partial jumps)))))
"#;
    let mut vm = game("loop", src);
    // a1 - c1 over b1, back to a1 (a new position: b1 is marked now), and
    // no further: c1 again is where the first jump stood.
    assert_eq!(moves(&mut vm), ["King a1 - c1"]);
    play_first(&mut vm);
    assert_eq!(moves(&mut vm), ["King c1 - a1"]);
    play_first(&mut vm);
    // The chain ended and the turn passed: Black's man moves.
    assert_eq!(moves(&mut vm), ["Man b1 - c1"]);
    let mut fresh = game("loop", src);
    assert_eq!(perfts(&mut fresh, 1), [1]);
}
