//! Chess (scripts/chess/): perft from the start and from the Chess
//! Programming Wiki's published positions ("Perft Results"), and the
//! rules' special cases on small positions (tests/chess/*.4th, each a
//! variant of scripts/chess/chess.4th with its own setup) whose answers
//! are counted by hand or are the rules' own.

mod common;

use common::game::{load_file, moves, play, result as verdict};
use axforth::game::{DRAW_SCORE, LOSS_SCORE, UNKNOWN_SCORE};
use axforth::Vm;
use pretty_assertions::assert_eq;

/// A position of tests/chess/.
fn position(name: &str) -> Vm {
    load_file(&format!("tests/chess/{name}.4th"))
}

fn perfts(vm: &mut Vm, published: &[u64], what: &str) {
    for (depth, want) in published.iter().enumerate() {
        assert_eq!(vm.perft(depth as u32 + 1).unwrap(), *want, "{what} perft {}", depth + 1);
    }
}

// ---- perft: published numbers ---------------------------------------------------

#[test]
fn perft_from_the_start_1_to_5() {
    perfts(&mut load_file("scripts/chess/chess.4th"), &[20, 400, 8902, 197281, 4865609], "start");
}

/// Castling both ways, en passant, promotions, pins, checks.
#[test]
fn perft_kiwipete_1_to_4() {
    perfts(&mut position("kiwipete"), &[48, 2039, 97862, 4085603], "Kiwipete");
}

/// An endgame: checks along ranks, en passant that uncovers the king.
#[test]
fn perft_position_3_1_to_5() {
    perfts(&mut position("position3"), &[14, 191, 2812, 43238, 674624], "position 3");
}

/// White in check at once; promotions with captures; Black castles.
#[test]
fn perft_position_4_1_to_4() {
    perfts(&mut position("position4"), &[6, 264, 9467, 422333], "position 4");
}

/// The same position mirrored with colours swapped: Black moves first
/// (a variant's turn order), the same counts.
#[test]
fn perft_position_4_mirrored_black_to_move_1_to_4() {
    let mut vm = position("position4-black");
    assert_eq!(vm.player_to_move(), 4096, "Black moves first");
    perfts(&mut vm, &[6, 264, 9467, 422333], "position 4 mirrored");
}

#[test]
fn perft_position_5_1_to_4() {
    perfts(&mut position("position5"), &[44, 1486, 62379, 2103487], "position 5");
}

#[test]
fn perft_divide_sums_to_perft() {
    let mut vm = position("kiwipete");
    let parts = vm.perft_divide(2, &mut |_, _| {}).unwrap();
    assert_eq!(parts.len(), 48);
    assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 2039);
}

// ---- move texts -----------------------------------------------------------------

#[test]
fn move_texts_read_naturally() {
    let mut vm = load_file("scripts/chess/chess.4th");
    let texts = moves(&mut vm);
    assert!(texts.contains(&"Pawn e2 - e4".to_string()), "{texts:?}");
    assert!(texts.contains(&"Knight g1 - f3".to_string()), "{texts:?}");
    let texts = moves(&mut position("kiwipete"));
    for t in ["King e1 - g1 Rook h1 - f1", "King e1 - c1 Rook a1 - d1", "Bishop e2 x a6", "Knight e5 x f7"] {
        assert!(texts.contains(&t.to_string()), "{t} in {texts:?}");
    }
}

// ---- castling --------------------------------------------------------------------

#[test]
fn castling_through_an_attacked_square_is_refused() {
    // Rook f8 attacks f1. Counted by hand: Ra1 10, Rh1 9, Kd1 Kd2 Ke2, O-O-O.
    let texts = moves(&mut position("castle-through-check"));
    assert_eq!(texts.len(), 23, "{texts:?}");
    assert!(!texts.iter().any(|t| t.starts_with("King e1 - g1")), "{texts:?}");
    assert!(texts.contains(&"King e1 - c1 Rook a1 - d1".to_string()), "{texts:?}");
}

#[test]
fn castling_onto_an_attacked_square_or_out_of_check_is_refused() {
    let texts = moves(&mut position("castle-into-check"));
    assert!(!texts.iter().any(|t| t.starts_with("King e1 - g1")), "g1 is attacked: {texts:?}");
    assert!(texts.contains(&"King e1 - c1 Rook a1 - d1".to_string()), "{texts:?}");
    // In check from e2: only the king's own moves, no castling.
    assert_eq!(moves(&mut position("castle-in-check")), vec!["King e1 x e2", "King e1 - f1", "King e1 - d1"]);
}

#[test]
fn long_castling_may_cross_an_attacked_b1() {
    let texts = moves(&mut position("castle-b1-attacked"));
    assert!(texts.contains(&"King e1 - c1 Rook a1 - d1".to_string()), "{texts:?}");
    assert!(texts.contains(&"King e1 - g1 Rook h1 - f1".to_string()), "{texts:?}");
}

#[test]
fn a_rook_or_king_that_moved_has_lost_its_castling() {
    let mut vm = position("castle-b1-attacked");
    play(&mut vm, "Rook h1 - h2");
    play(&mut vm, "King e8 - d8");
    play(&mut vm, "Rook h2 - h1");
    play(&mut vm, "King d8 - e8");
    let texts = moves(&mut vm);
    assert!(!texts.iter().any(|t| t.starts_with("King e1 - g1")), "the h1 rook has moved: {texts:?}");
    assert!(texts.contains(&"King e1 - c1 Rook a1 - d1".to_string()), "the a1 rook has not: {texts:?}");
    play(&mut vm, "King e1 - d1");
    play(&mut vm, "King e8 - d8");
    play(&mut vm, "King d1 - e1");
    play(&mut vm, "King d8 - e8");
    let texts = moves(&mut vm);
    assert!(!texts.iter().any(|t| t.starts_with("King e1 - c1")), "the king has moved: {texts:?}");
}

#[test]
fn castling_moves_king_and_rook() {
    let mut vm = position("kiwipete");
    play(&mut vm, "King e1 - g1 Rook h1 - f1");
    let at = |vm: &Vm, sq: &str| vm.game.board.get(&vm.mem, vm.game.board.position_named(sq).unwrap()).unwrap();
    let (king, rook) = (2048 | 6, 2048 | 4);
    assert_eq!((at(&vm, "g1"), at(&vm, "f1"), at(&vm, "e1"), at(&vm, "h1")), (king, rook, 0, 0));
}

// ---- en passant -------------------------------------------------------------------

#[test]
fn en_passant_only_on_the_next_ply() {
    let mut vm = position("en-passant");
    play(&mut vm, "Pawn d7 - d5");
    let texts = moves(&mut vm);
    assert!(texts.contains(&"Pawn e5 - d6 x d5".to_string()), "{texts:?}");
    // Taken: the d5 pawn is gone.
    let mut taken = position("en-passant");
    play(&mut taken, "Pawn d7 - d5");
    play(&mut taken, "Pawn e5 - d6 x d5");
    let d5 = taken.game.board.position_named("d5").unwrap();
    assert_eq!(taken.game.board.get(&taken.mem, d5).unwrap(), 0);
    // Not taken at once: the right is gone.
    play(&mut vm, "King e1 - e2");
    play(&mut vm, "King e8 - e7");
    let texts = moves(&mut vm);
    assert!(!texts.iter().any(|t| t.contains("x d5")), "{texts:?}");
    // A single step gives no right at all.
    let mut vm = position("en-passant");
    play(&mut vm, "Pawn d7 - d6");
    assert!(!moves(&mut vm).iter().any(|t| t.contains("- d6 x")));
}

#[test]
fn en_passant_that_uncovers_the_king_is_illegal() {
    // Counted by hand: Ka4 Ka6 Kb6 and b6; bxc6 e.p. would open the rank.
    assert_eq!(moves(&mut position("en-passant-pin")), vec!["King a5 - a6", "King a5 - a4", "King a5 - b6", "Pawn b5 - b6"]);
}

// ---- promotion ----------------------------------------------------------------------

#[test]
fn promotion_to_four_pieces() {
    let mut vm = position("promotion");
    let texts = moves(&mut vm);
    for piece in ["Queen", "Rook", "Bishop", "Knight"] {
        assert!(texts.contains(&format!("Pawn a7 - a8 = {piece}")), "{piece}: {texts:?}");
        assert!(texts.contains(&format!("Pawn a7 x b8 = {piece}")), "{piece}: {texts:?}");
    }
    assert_eq!(texts.len(), 8 + 5);
    play(&mut vm, "Pawn a7 - a8 = Knight");
    let a8 = vm.game.board.position_named("a8").unwrap();
    assert_eq!(vm.game.board.get(&vm.mem, a8).unwrap(), 2048 | 2, "a White Knight");
}

// ---- pins -----------------------------------------------------------------------------

#[test]
fn a_pinned_piece_stays_on_the_pin_line() {
    assert_eq!(
        moves(&mut position("pinned")),
        vec!["Rook e2 - e3", "Rook e2 - e4", "Rook e2 - e5", "Rook e2 - e6", "Rook e2 x e7", "King e1 - f1", "King e1 - d1", "King e1 - f2", "King e1 - d2"]
    );
    assert_eq!(moves(&mut position("pinned-knight")), vec!["King e1 - f1", "King e1 - d1", "King e1 - f2", "King e1 - d2"]);
}

// ---- the end of the game ----------------------------------------------------------------

#[test]
fn checkmate_is_a_loss_for_the_side_to_move() {
    // Fool's mate.
    let mut vm = load_file("scripts/chess/chess.4th");
    for m in ["Pawn f2 - f3", "Pawn e7 - e5", "Pawn g2 - g4"] {
        play(&mut vm, m);
        assert_eq!(verdict(&mut vm), UNKNOWN_SCORE);
    }
    play(&mut vm, "Queen d8 - h4");
    assert_eq!(moves(&mut vm), Vec::<String>::new());
    assert_eq!(verdict(&mut vm), LOSS_SCORE);
}

#[test]
fn stalemate_is_a_draw() {
    let mut vm = position("stalemate");
    assert_eq!(moves(&mut vm), Vec::<String>::new());
    assert_eq!(verdict(&mut vm), DRAW_SCORE);
}

#[test]
fn fifty_moves_without_capture_or_pawn_move_draw() {
    let mut vm = position("fifty-moves");
    assert_eq!(verdict(&mut vm), UNKNOWN_SCORE, "99 plies");
    play(&mut vm, "Rook a1 - a2");
    assert_eq!(verdict(&mut vm), DRAW_SCORE, "100 plies");
    let mut vm = position("fifty-moves");
    play(&mut vm, "Pawn h2 - h3");
    assert_eq!(verdict(&mut vm), UNKNOWN_SCORE, "a pawn move starts the count again");
}

#[test]
fn a_mate_on_the_hundredth_ply_wins() {
    let mut vm = position("fifty-mate");
    play(&mut vm, "Rook a1 - a8");
    assert_eq!(verdict(&mut vm), LOSS_SCORE, "mated, though the clock says 100");
}

#[test]
fn the_third_repetition_draws() {
    let mut vm = load_file("scripts/chess/chess.4th");
    vm.remember_position();
    let shuffle = ["Knight g1 - f3", "Knight g8 - f6", "Knight f3 - g1", "Knight f6 - g8"];
    for m in shuffle {
        play(&mut vm, m);
        assert_eq!(verdict(&mut vm), UNKNOWN_SCORE, "after {m}: the start position has stood twice at most");
    }
    for m in &shuffle[..3] {
        play(&mut vm, m);
        assert_eq!(verdict(&mut vm), UNKNOWN_SCORE, "after {m}");
    }
    play(&mut vm, "Knight f6 - g8");
    assert_eq!(verdict(&mut vm), DRAW_SCORE, "the start position, with the same rights, for the third time");
}

#[test]
fn a_position_with_other_castling_rights_is_another_position() {
    // The king steps out and back twice: the pieces stand as at the start
    // three times, but White's castling rights are gone after the first.
    let mut vm = load_file("scripts/chess/chess.4th");
    vm.remember_position();
    for m in ["Pawn e2 - e4", "Pawn e7 - e5"] {
        play(&mut vm, m);
    }
    for _ in 0..2 {
        for m in ["King e1 - e2", "King e8 - e7", "King e2 - e1", "King e7 - e8"] {
            play(&mut vm, m);
            assert_eq!(verdict(&mut vm), UNKNOWN_SCORE, "after {m}");
        }
    }
    for m in ["King e1 - e2", "King e8 - e7", "King e2 - e1", "King e7 - e8"] {
        play(&mut vm, m);
    }
    assert_eq!(verdict(&mut vm), DRAW_SCORE, "the rightless position for the third time");
}

#[test]
fn a_double_step_nobody_can_take_en_passant_leaves_the_same_position() {
    // After 1.e4 no black pawn stands beside e4: there is no en-passant
    // square, and the knights' dance brings the very same position back.
    let mut vm = load_file("scripts/chess/chess.4th");
    vm.remember_position();
    play(&mut vm, "Pawn e2 - e4");
    for _ in 0..2 {
        for m in ["Knight g8 - f6", "Knight g1 - f3", "Knight f6 - g8"] {
            play(&mut vm, m);
            assert_eq!(verdict(&mut vm), UNKNOWN_SCORE, "after {m}");
        }
        play(&mut vm, "Knight f3 - g1");
    }
    assert_eq!(verdict(&mut vm), DRAW_SCORE, "the position after 1.e4 for the third time");
}

#[test]
fn dead_material_draws() {
    let mut vm = position("dead-capture");
    assert_eq!(verdict(&mut vm), UNKNOWN_SCORE, "a pawn can still promote");
    play(&mut vm, "Knight c2 x d4");
    assert_eq!(verdict(&mut vm), DRAW_SCORE, "king and knight against king");
    assert_eq!(verdict(&mut position("kings-only")), DRAW_SCORE);
    assert_eq!(verdict(&mut position("bishops-same")), DRAW_SCORE, "bishops on one colour");
    assert_eq!(verdict(&mut position("bishops-opposite")), UNKNOWN_SCORE, "bishops on both colours");
}

// ---- the engines -----------------------------------------------------------------------

#[test]
fn random_and_alphabeta_variants_play_legal_games() {
    for file in ["scripts/chess/random.4th", "scripts/chess/alphabeta.4th"] {
        let mut vm = load_file(file);
        vm.remember_position();
        for _ in 0..6 {
            vm.generate_turn().unwrap();
            assert_eq!(vm.game_result().unwrap(), UNKNOWN_SCORE);
            let m = vm.choose_move(vm.engine_to_move()).unwrap_or_else(|e| panic!("{file}: {e}"));
            vm.make_move(m).unwrap();
            vm.game.store.pop_list();
            vm.remember_position();
        }
    }
}

#[test]
fn alphabeta_mates_in_one() {
    // Fool's mate, Black to move: the only mate is Qh4#.
    let mut vm = load_file("scripts/chess/alphabeta.4th");
    for m in ["Pawn f2 - f3", "Pawn e7 - e5", "Pawn g2 - g4"] {
        play(&mut vm, m);
    }
    vm.generate_turn().unwrap();
    let m = vm.choose_move(vm.engine_to_move()).unwrap();
    let text = axforth::game::moves::move_text(&vm.game, &vm.mem, m);
    vm.game.store.pop_list();
    assert_eq!(text, "Queen d8 - h4");
}
