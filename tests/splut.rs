//! Splut! (`scripts/splut/`): the rules of GAMES.md and the rule choices
//! written in `splut.4th`'s header, each checked on a small position set
//! up by hand whose outcome follows from the rules alone; perft from the
//! start counted by hand; and the duel engine against random play.

mod common;

use common::game::{config, load_file, moves, play_exact as play, result, root};
use axforth::game::{LOSS_SCORE, UNKNOWN_SCORE, WIN_SCORE};
use axforth::Vm;
use pretty_assertions::assert_eq;
use std::process::Command;

/// Three steps a turn from the first one (the middle of a game), South
/// first, on a board set up by hand: `setup` is the `{setup}` lines.
fn position(setup: &str) -> Vm {
    let game = root().join("scripts/splut/splut.4th");
    let src = format!(
        "LOAD {}
{{turn-order
	{{turn}} South {{turn}} South {{turn}} South
	{{turn}} North {{turn}} North {{turn}} North
turn-order}}
{{board-setup
{setup}
board-setup}}",
        game.display()
    );
    let mut vm = Vm::new(config(7)).unwrap();
    vm.capture_output();
    vm.run_text("position", src.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    vm.new_game().unwrap_or_else(|e| panic!("{e}"));
    vm
}

fn eval(vm: &mut Vm, src: &str) -> Vec<i32> {
    let before = vm.stack().len();
    vm.run_text("eval", src.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let s = vm.stack()[before..].to_vec();
    vm.set_depth(before as u32);
    s
}

/// What stands on a square: "" or "Owner Piece".
fn at(vm: &mut Vm, square: &str) -> String {
    let c = eval(vm, &format!("{square} piece-at"))[0];
    if c == 0 {
        return String::new();
    }
    let owner = vm.game.player_name(c & 0xFC00);
    let piece = ["Sorcerer", "Dwarf", "Stonetroll", "Rock"][(c & 0x3FF) as usize - 1];
    format!("{owner} {piece}")
}

/// The moves of the piece on `square` (their text starts with it).
fn moves_of(vm: &mut Vm, piece: &str, square: &str) -> Vec<String> {
    let head = format!("{piece} {square} ");
    moves(vm).into_iter().filter(|t| t.starts_with(&head)).collect()
}

// ---- the start ---------------------------------------------------------------

/// Perft counted by hand from the rules.
///
/// South (Sorcerer d2, Dwarf e2, Stonetroll f2, Rock e1) has one step:
/// d2-d3, e2-e3 or f2-f3 -- every other neighbour is off the diamond or
/// taken, the Dwarf's pushes would leave the diamond, no Rock is next to
/// the Troll, and no Rock can float north with the Sorcerer (e1 is
/// blocked by the Dwarf, a5/i5/e9 have no square north).  perft 1 = 3.
///
/// North (Stonetroll d8, Dwarf e8, Sorcerer f8, Rock e9) has the mirror
/// image for its first step, whatever South did: 3.  perft 2 = 9.
///
/// North's second step, by its first:
///  - Sorcerer f8-f7: the Sorcerer f7-f8/g7/f6/e7 (4), floating a5-b5
///    east (1), i5-h5 west (1), and e1-e2 north only if South's Dwarf
///    left e2 (0 or 1); the Dwarf e8-f8 or e7 (2); the Troll d8-d7 (1).
///    9, or 10 after South's Dwarf step.
///  - Dwarf e8-e7: the Sorcerer f8-f7/e8 (2), floating e9-e8 south (1)
///    or i5-h5 west (1); the Dwarf from e7 four ways (4); the Troll to e8
///    or d7 (2): 10.
///  - Troll d8-d7: the Sorcerer f8-f7 (1, e9 cannot float onto the
///    Dwarf); the Dwarf e8-e7 or d8 (2); the Troll four ways (4): 7.
///
/// perft 3 = 2 * (9 + 10 + 7) + (10 + 10 + 7) = 79.
#[test]
fn perft_from_the_start_counted_by_hand() {
    let mut vm = load_file("scripts/splut/splut.4th");
    assert_eq!(moves(&mut vm), vec!["Sorcerer d2 - d3", "Dwarf e2 - e3", "Stonetroll f2 - f3"]);
    for (depth, want) in [3, 9, 79].iter().enumerate() {
        assert_eq!(vm.perft(depth as u32 + 1).unwrap(), *want, "Splut! perft {}", depth + 1);
    }
}

#[test]
fn the_start_position() {
    let mut vm = load_file("scripts/splut/splut.4th");
    for (square, want) in [
        ("d2", "South Sorcerer"),
        ("e2", "South Dwarf"),
        ("f2", "South Stonetroll"),
        ("e1", "West Rock"),
        ("d8", "North Stonetroll"),
        ("e8", "North Dwarf"),
        ("f8", "North Sorcerer"),
        ("e9", "East Rock"),
        ("a5", "West Rock"),
        ("i5", "East Rock"),
    ] {
        assert_eq!(at(&mut vm, square), want, "{square}");
    }
    // 41 squares: rows of 1 3 5 7 9 7 5 3 1.
    assert_eq!(eval(&mut vm, "#squares"), vec![41]);
}

/// South 1 step, North 2, then 3 each: the player to move over the first
/// 17 plies, playing the first legal step each time.
#[test]
fn turns_are_1_then_2_then_3_steps() {
    let mut vm = load_file("scripts/splut/splut.4th");
    let mut seen = String::new();
    for _ in 0..17 {
        let p = vm.player_to_move();
        seen.push(if vm.game.player_name(p) == "South" { 'S' } else { 'N' });
        vm.generate_turn().unwrap();
        let m = vm.game.store.current().start;
        vm.make_move(m).unwrap();
        vm.game.store.pop_list();
    }
    assert_eq!(seen, "SNNSSSNNNSSSNNNSS");
}

// ---- the Stonetroll's throw ------------------------------------------------------

/// The Rock flies over both Dwarves and stops in front of the Troll; east,
/// west and back south it stops at the edge of the diamond (h4, b4, e1).
#[test]
fn a_thrown_rock_flies_over_dwarves_and_stops_in_front_of_a_troll_or_the_edge() {
    let mut vm = position(
        "{setup} South Stonetroll e3  {setup} South Sorcerer a5  {setup} South Dwarf e6
         {setup} North Dwarf e5  {setup} North Stonetroll e8  {setup} North Sorcerer c5
         {setup} West Rock e4",
    );
    let throws: Vec<String> = moves(&mut vm).into_iter().filter(|t| t.starts_with("Stonetroll e3 x e4")).collect();
    assert_eq!(
        throws,
        vec!["Stonetroll e3 x e4 West Rock e7", "Stonetroll e3 x e4 West Rock h4", "Stonetroll e3 x e4 West Rock e1", "Stonetroll e3 x e4 West Rock b4"]
    );
    play(&mut vm, "Stonetroll e3 x e4 West Rock e7");
    assert_eq!(
        ["e3", "e4", "e5", "e6", "e7", "e8"].map(|s| at(&mut vm, s)),
        ["", "South Stonetroll", "North Dwarf", "South Dwarf", "West Rock", "North Stonetroll"]
    );
    assert_eq!(result(&mut vm), UNKNOWN_SCORE);
}

/// Stopped by another Rock, the Rock lands in front of it -- on a Dwarf,
/// who is crushed; at the edge too.  The Dwarf's team plays on.
#[test]
fn a_dwarf_under_the_landing_square_is_crushed() {
    let mut vm = position(
        "{setup} South Stonetroll e3  {setup} South Sorcerer a5
         {setup} North Dwarf e6  {setup} North Sorcerer c6
         {setup} South Dwarf h4
         {setup} West Rock e4  {setup} East Rock e7",
    );
    play(&mut vm, "Stonetroll e3 x e4 x e6 West Rock e6");
    assert_eq!(["e4", "e5", "e6", "e7"].map(|s| at(&mut vm, s)), ["South Stonetroll", "", "West Rock", "East Rock"]);
    assert_eq!(result(&mut vm), UNKNOWN_SCORE, "a crushed Dwarf does not end the game");

    // Landing at the edge on one's own Dwarf crushes him as well.
    let mut vm = position(
        "{setup} South Stonetroll e3  {setup} South Sorcerer a5  {setup} North Sorcerer c6
         {setup} South Dwarf h4  {setup} West Rock e4",
    );
    play(&mut vm, "Stonetroll e3 x e4 x h4 West Rock h4");
    assert_eq!(at(&mut vm, "h4"), "West Rock");
}

/// Splut!  The Rock lands on the Sorcerer (flying over his Dwarf), his
/// whole team leaves the board and the other Sorcerer has won.
#[test]
fn a_sorcerer_hit_takes_his_team_off_the_board_and_loses() {
    let mut vm = position(
        "{setup} South Stonetroll e3  {setup} South Sorcerer a5  {setup} South Dwarf b5
         {setup} North Dwarf e5  {setup} North Sorcerer e7  {setup} North Stonetroll c6
         {setup} West Rock e4  {setup} East Rock i5",
    );
    assert_eq!(result(&mut vm), UNKNOWN_SCORE);
    play(&mut vm, "Stonetroll e3 x e4 x e7 x c6 x e5 West Rock e7");
    assert_eq!(["e4", "e5", "e7", "c6"].map(|s| at(&mut vm, s)), ["South Stonetroll", "", "West Rock", ""]);
    assert_eq!(["a5", "b5", "i5"].map(|s| at(&mut vm, s)), ["South Sorcerer", "South Dwarf", "East Rock"]);
    // South is to move (the rest of his turn): he has won.
    assert_eq!(vm.game.player_name(vm.player_to_move()), "South");
    assert_eq!(result(&mut vm), WIN_SCORE);
}

/// Rule 5: a Rock on one's own Sorcerer kills him too, and loses.
#[test]
fn a_rock_on_ones_own_sorcerer_loses() {
    let mut vm = position(
        "{setup} South Stonetroll e3  {setup} South Sorcerer e6  {setup} South Dwarf a5
         {setup} North Sorcerer c7  {setup} West Rock e4",
    );
    play(&mut vm, "Stonetroll e3 x e4 x e6 x a5 x e4 West Rock e6");
    assert_eq!(["e4", "a5", "e6"].map(|s| at(&mut vm, s)), ["", "", "West Rock"]);
    assert_eq!(result(&mut vm), LOSS_SCORE);
}

/// A throw ends the turn: South threw with his first step; his other two
/// steps can only pass, then North moves.
#[test]
fn a_throw_ends_the_turn() {
    let mut vm = position(
        "{setup} South Stonetroll e3  {setup} South Sorcerer a5  {setup} South Dwarf b5
         {setup} North Sorcerer c7  {setup} North Dwarf g6  {setup} West Rock e4",
    );
    play(&mut vm, "Stonetroll e3 x e4 West Rock e9");
    assert_eq!(moves(&mut vm), vec!["Pass"]);
    play(&mut vm, "Pass");
    assert_eq!(moves(&mut vm), vec!["Pass"]);
    play(&mut vm, "Pass");
    assert_eq!(vm.game.player_name(vm.player_to_move()), "North");
    assert!(moves(&mut vm).len() > 1);
    // North steps freely (three steps), then South's turn is whole again.
    for _ in 0..3 {
        let m = moves(&mut vm)[0].clone();
        play(&mut vm, &m);
    }
    assert_eq!(vm.game.player_name(vm.player_to_move()), "South");
    assert!(moves(&mut vm).iter().any(|t| t.starts_with("Dwarf b5")));
}

/// Rule 1: no throw where the Rock cannot fly a single square (a Troll
/// right in front, a Rock on the left); rule 2: back where the Troll came
/// from is a throw (here it flies to the edge, e1).
#[test]
fn a_throw_must_fly_at_least_one_square_and_may_go_back() {
    let mut vm = position(
        "{setup} South Stonetroll e3  {setup} South Sorcerer a5
         {setup} North Stonetroll e5  {setup} North Sorcerer c7
         {setup} West Rock e4  {setup} East Rock d4",
    );
    let throws: Vec<String> = moves(&mut vm).into_iter().filter(|t| t.starts_with("Stonetroll e3 x e4")).collect();
    assert_eq!(throws, vec!["Stonetroll e3 x e4 West Rock h4", "Stonetroll e3 x e4 West Rock e1"]);
    // With e2 taken, the Rock thrown back lands on e3, the square the
    // Troll left.
    let mut vm = position(
        "{setup} South Stonetroll e3  {setup} South Sorcerer a5  {setup} South Dwarf f2
         {setup} North Stonetroll e2  {setup} North Sorcerer c7  {setup} West Rock e4",
    );
    play(&mut vm, "Stonetroll e3 x e4 West Rock e3");
    assert_eq!(["e2", "e3", "e4"].map(|s| at(&mut vm, s)), ["North Stonetroll", "West Rock", "South Stonetroll"]);
}

// ---- the Stonetroll's pull -------------------------------------------------------

/// Stepping straight away from the Rock behind him, the Troll may pull it
/// into the square he leaves (or not); never sideways, never from afar.
#[test]
fn a_troll_pulls_the_rock_right_behind_him() {
    let mut vm = position(
        "{setup} South Stonetroll e4  {setup} South Sorcerer a5  {setup} North Sorcerer c7
         {setup} West Rock e3  {setup} East Rock d4  {setup} East Rock g4",
    );
    assert_eq!(
        moves_of(&mut vm, "Stonetroll", "e4"),
        vec![
            "Stonetroll e4 - e5",
            "Stonetroll e4 - e5 Rock e3 x e4", // straight away from e3: pulls
            "Stonetroll e4 - f4",              // away from d4: pulls it
            "Stonetroll e4 - f4 Rock d4 x e4",
            // onto a Rock: throws it, over the square he left (e4, back)
            "Stonetroll e4 x e3 West Rock e9",
            "Stonetroll e4 x e3 West Rock g3",
            "Stonetroll e4 x e3 West Rock e1",
            "Stonetroll e4 x e3 West Rock c3",
            "Stonetroll e4 x d4 East Rock d8",
            "Stonetroll e4 x d4 East Rock f4", // in front of the Rock on g4
            "Stonetroll e4 x d4 East Rock d2",
            "Stonetroll e4 x d4 East Rock b4",
        ]
    );
    play(&mut vm, "Stonetroll e4 - e5 Rock e3 x e4");
    assert_eq!(["e3", "e4", "e5", "d4"].map(|s| at(&mut vm, s)), ["", "West Rock", "South Stonetroll", "East Rock"]);
    // A Rock two squares behind stays where it is.
    let mut vm = position("{setup} South Stonetroll e5  {setup} South Sorcerer a5  {setup} North Sorcerer c7  {setup} West Rock e3");
    assert_eq!(moves_of(&mut vm, "Stonetroll", "e5"), vec!["Stonetroll e5 - e6", "Stonetroll e5 - f5", "Stonetroll e5 - e4", "Stonetroll e5 - d5"]);
}

// ---- the Dwarf's push ------------------------------------------------------------

/// The Dwarf pushes the whole line in front of him (a Rock and an enemy
/// Sorcerer) one square on, into the empty square at its end.
#[test]
fn a_dwarf_pushes_the_line_in_front_of_him() {
    let mut vm = position(
        "{setup} South Dwarf e3  {setup} South Sorcerer a5
         {setup} North Sorcerer e5  {setup} West Rock e4",
    );
    play(&mut vm, "Sorcerer e5 - e6 Rock e4 x e5 Dwarf e3 x e4");
    assert_eq!(["e3", "e4", "e5", "e6"].map(|s| at(&mut vm, s)), ["", "South Dwarf", "West Rock", "North Sorcerer"]);
}

/// No push when the line reaches the edge of the diamond without an empty
/// square (north to the tip e9; north from d7, where d9 is on the grid
/// but off the diamond); the Dwarf's other steps remain.
#[test]
fn a_dwarf_cannot_push_a_line_off_the_diamond() {
    let mut vm = position(
        "{setup} South Dwarf e6  {setup} South Sorcerer a5  {setup} South Stonetroll e7
         {setup} North Dwarf e8  {setup} North Sorcerer g5  {setup} East Rock e9",
    );
    assert_eq!(moves_of(&mut vm, "Dwarf", "e6"), vec!["Dwarf e6 - f6", "Dwarf e6 - e5", "Dwarf e6 - d6"]);
    let mut vm = position(
        "{setup} South Dwarf d7  {setup} South Sorcerer a5
         {setup} North Stonetroll d8  {setup} North Sorcerer g5",
    );
    assert_eq!(moves_of(&mut vm, "Dwarf", "d7"), vec!["Dwarf d7 - e7", "Dwarf d7 - d6", "Dwarf d7 - c7"]);
    // The same line with room at its end is pushed.
    let mut vm = position(
        "{setup} South Dwarf d6  {setup} South Sorcerer a5
         {setup} North Stonetroll d7  {setup} North Sorcerer g5",
    );
    assert!(moves(&mut vm).contains(&"Stonetroll d7 - d8 Dwarf d6 x d7".to_string()));
}

// ---- the Sorcerer's levitation ------------------------------------------------------

const FLOAT: &str = "{setup} South Sorcerer e3  {setup} South Dwarf a5  {setup} South Stonetroll i5
    {setup} North Sorcerer e8  {setup} West Rock b5  {setup} East Rock g4";

/// The Rock floats with the Sorcerer's step, in the same direction, from
/// anywhere on the board; one Rock a step, onto an empty square.
#[test]
fn a_levitated_rock_moves_with_the_sorcerer_the_same_way() {
    let mut vm = position(FLOAT);
    assert_eq!(
        moves_of(&mut vm, "Sorcerer", "e3"),
        vec![
            "Sorcerer e3 - e4",
            "Sorcerer e3 - e4 Rock b5 - b6",
            "Sorcerer e3 - e4 Rock g4 - g5",
            "Sorcerer e3 - f3",
            "Sorcerer e3 - f3 Rock b5 - c5",
            "Sorcerer e3 - f3 Rock g4 - h4",
            "Sorcerer e3 - e2",
            "Sorcerer e3 - e2 Rock b5 - b4",
            "Sorcerer e3 - e2 Rock g4 - g3",
            "Sorcerer e3 - d3",
            "Sorcerer e3 - d3 Rock g4 - f4", // b5 west is a5: the Dwarf
        ]
    );
    play(&mut vm, "Sorcerer e3 - e4 Rock g4 - g5");
    assert_eq!(["g4", "g5", "e4"].map(|s| at(&mut vm, s)), ["", "East Rock", "South Sorcerer"]);
    // The second step: only the Rock that floats may go on floating, in
    // the direction of this step.
    assert_eq!(
        moves_of(&mut vm, "Sorcerer", "e4"),
        vec![
            "Sorcerer e4 - e5",
            "Sorcerer e4 - e5 Rock g5 - g6",
            "Sorcerer e4 - f4",
            "Sorcerer e4 - f4 Rock g5 - h5",
            "Sorcerer e4 - e3",
            "Sorcerer e4 - e3 Rock g5 - g4",
            "Sorcerer e4 - d4",
            "Sorcerer e4 - d4 Rock g5 - f5",
        ]
    );
}

/// Rule 3: once a step of the turn goes without the floating Rock, no Rock
/// floats again this turn.
#[test]
fn levitation_does_not_resume_once_it_stopped() {
    let mut vm = position(FLOAT);
    play(&mut vm, "Sorcerer e3 - e4 Rock g4 - g5");
    play(&mut vm, "Sorcerer e4 - e5");
    assert_eq!(moves_of(&mut vm, "Sorcerer", "e5"), vec!["Sorcerer e5 - e6", "Sorcerer e5 - f5", "Sorcerer e5 - e4", "Sorcerer e5 - d5"]);
    // Another piece's step ends it as well.
    let mut vm = position(FLOAT);
    play(&mut vm, "Sorcerer e3 - e4 Rock g4 - g5");
    play(&mut vm, "Stonetroll i5 - h5");
    assert!(moves_of(&mut vm, "Sorcerer", "e4").iter().all(|t| !t.contains("Rock")));
}

/// Rule 3: levitation may begin at a later step of the turn.
#[test]
fn levitation_may_start_after_other_steps() {
    let mut vm = position(FLOAT);
    play(&mut vm, "Stonetroll i5 - h5");
    play(&mut vm, "Sorcerer e3 - e4");
    assert!(moves_of(&mut vm, "Sorcerer", "e4").contains(&"Sorcerer e4 - e5 Rock b5 - b6".to_string()));
}

/// Rule 4: the floating Rock never moves onto a piece, but may take the
/// square its Sorcerer leaves.
#[test]
fn a_levitated_rock_moves_only_onto_an_empty_square() {
    let mut vm = position(
        "{setup} South Sorcerer e4  {setup} South Dwarf d5  {setup} North Sorcerer c7
         {setup} West Rock d4  {setup} East Rock f3",
    );
    let m = moves_of(&mut vm, "Sorcerer", "e4");
    // North: d4 would go onto the Dwarf on d5; east: d4 follows into e4.
    assert!(!m.iter().any(|t| t.contains("Rock d4 - d5") || t.contains("Rock d4 x d5")), "{m:?}");
    assert!(m.contains(&"Sorcerer e4 - f4 Rock d4 x e4".to_string()), "{m:?}");
    // Going north, f3 floats onto the empty f4 (the Sorcerer goes to e5).
    assert!(m.contains(&"Sorcerer e4 - e5 Rock f3 - f4".to_string()), "{m:?}");
    play(&mut vm, "Sorcerer e4 - f4 Rock d4 x e4");
    assert_eq!(["d4", "e4", "f4"].map(|s| at(&mut vm, s)), ["", "West Rock", "South Sorcerer"]);
}

/// A Rock the previous player moved (here North's Troll pulled it) may not
/// be levitated in the next turn -- not even after it was moved again --
/// while the other Rocks may.
#[test]
fn the_rock_the_previous_player_moved_may_not_be_levitated() {
    let mut vm = position(
        "{setup} South Sorcerer e3  {setup} South Stonetroll c4  {setup} North Sorcerer e8
         {setup} North Stonetroll g5  {setup} North Dwarf a5
         {setup} West Rock h5  {setup} East Rock b4",
    );
    // South's turn: three quiet Dwarf-less steps.
    play(&mut vm, "Stonetroll c4 - c3");
    play(&mut vm, "Stonetroll c3 - d3");
    play(&mut vm, "Stonetroll d3 - d2");
    // North: the Troll pulls h5 to g5, then two quiet steps.
    play(&mut vm, "Stonetroll g5 - f5 Rock h5 x g5");
    play(&mut vm, "Dwarf a5 - b5");
    play(&mut vm, "Dwarf b5 - b6");
    let m = moves_of(&mut vm, "Sorcerer", "e3");
    assert!(m.iter().any(|t| t.contains("Rock b4")), "b4 floats: {m:?}");
    assert!(!m.iter().any(|t| t.contains("Rock g5")), "g5 was moved by North: {m:?}");
    // South's own Troll may still move it; it stays unlevitatable.
    play(&mut vm, "Stonetroll d2 - d3");
    play(&mut vm, "Stonetroll d3 - d4");
    let m = moves_of(&mut vm, "Sorcerer", "e3");
    assert!(!m.iter().any(|t| t.contains("Rock g5")), "{m:?}");
    // A turn later (North moved it in the turn before the previous one),
    // it floats again.
    let mut vm2 = position(
        "{setup} South Sorcerer e3  {setup} North Sorcerer e8  {setup} North Stonetroll g5
         {setup} West Rock h5",
    );
    play(&mut vm2, "Sorcerer e3 - d3");
    play(&mut vm2, "Sorcerer d3 - e3");
    play(&mut vm2, "Sorcerer e3 - d3");
    play(&mut vm2, "Stonetroll g5 - f5 Rock h5 x g5");
    play(&mut vm2, "Sorcerer e8 - d8");
    play(&mut vm2, "Sorcerer d8 - e8");
    assert!(!moves(&mut vm2).iter().any(|t| t.contains("Rock g5")));
    play(&mut vm2, "Sorcerer d3 - e3");
    play(&mut vm2, "Sorcerer e3 - d3");
    play(&mut vm2, "Sorcerer d3 - e3");
    play(&mut vm2, "Sorcerer e8 - d8");
    play(&mut vm2, "Sorcerer d8 - e8");
    play(&mut vm2, "Sorcerer e8 - d8");
    assert!(moves(&mut vm2).iter().any(|t| t.contains("Rock g5")));
}

/// Rocks pushed by a Dwarf or thrown count as moved, too.
#[test]
fn pushed_and_thrown_rocks_count_as_moved() {
    let mut vm = position(
        "{setup} South Dwarf c3  {setup} South Stonetroll g3  {setup} South Sorcerer a5
         {setup} North Sorcerer e6
         {setup} West Rock c4  {setup} East Rock g4",
    );
    play(&mut vm, "Rock c4 - c5 Dwarf c3 x c4");
    play(&mut vm, "Stonetroll g3 x g4 East Rock g7");
    play(&mut vm, "Pass");
    assert_eq!(vm.game.player_name(vm.player_to_move()), "North");
    assert_eq!(moves_of(&mut vm, "Sorcerer", "e6"), vec!["Sorcerer e6 - e7", "Sorcerer e6 - f6", "Sorcerer e6 - e5", "Sorcerer e6 - d6"]);
}

// ---- no step --------------------------------------------------------------------

/// Rule 7: a team without a legal step passes (South's Sorcerer on his tip
/// behind a Rock that cannot float: the Rock on e2 has a Rock behind it);
/// the game goes on.
#[test]
fn a_team_with_no_step_passes() {
    let mut vm = position(
        "{setup} South Sorcerer e1  {setup} North Sorcerer e8
         {setup} West Rock e2 e3",
    );
    assert_eq!(moves(&mut vm), vec!["Pass"]);
    assert_eq!(result(&mut vm), UNKNOWN_SCORE);
    play(&mut vm, "Pass");
    assert_eq!(vm.game.player_name(vm.player_to_move()), "South");
}

// ---- whole games ----------------------------------------------------------------

/// Random games end with a Splut!; the Rocks' numbering (rock-square)
/// always points at the four Rocks on the board.
#[test]
fn random_games_end_and_keep_track_of_the_rocks() {
    let mut vm = load_file("scripts/splut/random.4th");
    for game in 0..20 {
        vm.new_game().unwrap();
        let mut plies = 0;
        loop {
            let rocks = eval(&mut vm, "0 rock-square @  1 rock-square @  2 rock-square @  3 rock-square @");
            for (i, &r) in rocks.iter().enumerate() {
                assert_eq!(eval(&mut vm, &format!("{r} rock-at?")), vec![-1], "game {game} ply {plies}: rock {i} at {r}");
            }
            let mut sorted = rocks.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), 4, "game {game} ply {plies}: {rocks:?}");
            vm.generate_turn().unwrap();
            if vm.game_result().unwrap() != UNKNOWN_SCORE {
                vm.game.store.pop_list();
                break;
            }
            let m = vm.choose_move(vm.engine_to_move()).unwrap();
            vm.make_move(m).unwrap();
            vm.game.store.pop_list();
            plies += 1;
            assert!(plies < 3000, "game {game}: no end");
        }
    }
}

/// The engine: duel.4th (multi-alphabeta, five steps deep) beats random
/// play in each of four games, seats swapped every game.
#[test]
fn the_duel_engine_beats_random_play() {
    let o = Command::new(env!("CARGO_BIN_EXE_axforth"))
        .args(["autoplay", "scripts/splut/duel.4th", "scripts/splut/random.4th", "-n", "4", "--jobs", "1", "--seed", "5", "-q"])
        .current_dir(root())
        .output()
        .expect("running axforth");
    let out = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{out}");
    assert!(out.contains("\"random\", wins = 0."), "{out}");
    assert!(out.contains("Draws = 0"), "{out}");
    assert!(out.contains("4 game(s) played"), "{out}");
}
