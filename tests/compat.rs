//! What the original Axiom tolerated and real game files rely on
//! (AXIOM.md §8): each pattern in a small game of our own, with the moves
//! and perft it must give, the warning it raises, and the error `--strict`
//! (`Config::strict`) turns it back into.

use axforth::{Config, Vm, VmError};
use pretty_assertions::assert_eq;

fn config(strict: bool) -> Config {
    Config { seed: Some(3), strict, max_steps: Some(10_000_000), ..Config::default() }
}

fn try_game(src: &str, strict: bool) -> Result<Vm, VmError> {
    let mut vm = Vm::new(config(strict)).unwrap();
    vm.capture_output();
    vm.run_text("game", src.as_bytes())?;
    vm.new_game()?;
    Ok(vm)
}

fn game(src: &str) -> Vm {
    try_game(src, false).unwrap_or_else(|e| panic!("{e}"))
}

fn strict_game(src: &str) -> Vm {
    try_game(src, true).unwrap_or_else(|e| panic!("{e}"))
}

fn moves(vm: &mut Vm) -> Vec<String> {
    vm.generate_turn().unwrap_or_else(|e| panic!("{e}"));
    let texts = vm.move_texts();
    vm.game.store.pop_list();
    texts
}

/// A 3x3 board, two players, a Stone dropped by `stone-drops` (defined
/// by each test before this text).
fn drop_game(words: &str, extra: &str) -> String {
    format!(
        "{{board 3 3 {{grid}} board}}
        {{players {{player}} A {{player}} B players}}
        {words}
        {{moves stone-drops {{move}} put moves}}
        {{pieces {{piece}} Stone {{drops}} stone-drops pieces}}
        {extra}"
    )
}

// ---- 1. the data stack inside move words and events -----------------------------

/// MarGo's pattern: `ELSE DROP` on an empty stack in the branch that adds
/// no move.
const SLOPPY_DROP: &str = ": put ( -- ) empty? IF drop add-move ELSE DROP THEN ;";
const ONE_STONE: &str = "{board-setup {setup} A Stone b2 board-setup}";

#[test]
fn a_move_word_may_drop_below_its_frame() {
    let mut vm = game(&drop_game(SLOPPY_DROP, ONE_STONE));
    assert_eq!(moves(&mut vm).len(), 8);
    assert_eq!(vm.perft(2).unwrap(), 8 * 7);
    assert_eq!(vm.perft(3).unwrap(), 8 * 7 * 6);
    let warnings = vm.take_warnings();
    // Once for the place, however often it ran.
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].starts_with("warning: stack underflow in `put`"), "{}", warnings[0]);
    assert!(warnings[0].contains("--> game:3:"), "{}", warnings[0]);
    assert!(warnings[0].contains("--strict"), "{}", warnings[0]);
}

#[test]
fn strict_makes_the_sloppy_drop_an_underflow() {
    let mut vm = strict_game(&drop_game(SLOPPY_DROP, ONE_STONE));
    let e = vm.generate_turn().unwrap_err();
    assert_eq!(e.code(), "stack-underflow", "{e}");
    assert!(e.to_string().contains("drop word `put`"), "{e}");
}

/// Splut!'s pattern: `DROP DROP DROP` with two cells on the stack; the
/// cells below the frame read as zeros, and nothing leaks to the caller.
#[test]
fn cells_below_the_frame_read_as_zeros() {
    let words = "VARIABLE seen
        : put ( -- ) 7 8 DROP DROP DROP 0= empty? AND IF drop add-move THEN 99 ;";
    let mut vm = game(&drop_game(words, ""));
    assert_eq!(moves(&mut vm).len(), 9);
    assert!(vm.stack().is_empty(), "leaked {:?}", vm.stack());
}

/// LifeOrDeath / QXO: the verdict on top of a wrong depth.
#[test]
fn an_event_result_is_the_top_cell_whatever_the_depth() {
    let over = ": OnIsGameOver ( -- score ) 1 2 3 2DROP stalemate? IF #DrawScore ELSE #UnknownScore THEN ;";
    let src = drop_game(": put ( -- ) empty? verify drop add-move ;", over);
    let mut vm = game(&src);
    // Tic-tac-toe's count of ways to fill the board, with no wins.
    assert_eq!(vm.perft(3).unwrap(), 9 * 8 * 7);
    let w = vm.take_warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("`OnIsGameOver` left 2 cell(s)"), "{}", w[0]);
    let mut vm = strict_game(&src);
    let e = vm.perft(1).unwrap_err();
    assert!(e.to_string().contains("`OnIsGameOver` left 2 cell(s) on the stack, where it should leave 1"), "{e}");
}

#[test]
fn what_an_event_leaves_does_not_reach_the_next() {
    let src = drop_game(": put ( -- ) empty? verify drop add-move ;", ": OnNewGame ( -- ) 1 2 3 ; : OnMakeAMove ( -- ) 4 5 ;");
    let mut vm = game(&src);
    assert_eq!(vm.perft(2).unwrap(), 72);
    assert!(vm.stack().is_empty(), "leaked {:?}", vm.stack());
}

// ---- 2. positions off the board -------------------------------------------------

/// Tavreli's pattern: a flag where a position should be.
#[test]
fn a_query_off_the_board_reads_an_empty_square() {
    let words = ": put ( -- ) empty? verify  -1 piece-type-at 0= verify  from 100 + empty-at? verify  drop add-move ;";
    let mut vm = game(&drop_game(words, ""));
    assert_eq!(moves(&mut vm).len(), 9);
    let w = vm.take_warnings();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(w.iter().all(|w| w.contains("no such position")), "{w:?}");
    let mut vm = strict_game(&drop_game(words, ""));
    let e = vm.generate_turn().unwrap_err();
    assert!(e.to_string().contains("no such position: -1"), "{e}");
}

#[test]
fn an_edit_off_the_board_is_dropped() {
    let words = ": put ( -- ) empty? verify drop -5 capture-at add-move ;";
    let mut vm = game(&drop_game(words, ""));
    assert_eq!(vm.perft(2).unwrap(), 72);
    assert_eq!(vm.take_warnings().len(), 1);
    let mut vm = strict_game(&drop_game(words, ""));
    assert!(vm.generate_turn().unwrap_err().to_string().contains("no such position: -5"));
}

// ---- 3. execution tokens and errors inside move words ---------------------------

/// Jofur's pattern: a helper leaks a count that is then EXECUTEd. A count
/// is never a token, and the error ends the move word as a failed
/// `verify` would, keeping the moves it added.
#[test]
fn a_leaked_count_is_not_an_execution_token() {
    let words = ": put ( -- ) empty? verify drop add-move 4 EXECUTE drop add-move ;";
    let mut vm = game(&drop_game(words, ""));
    assert_eq!(moves(&mut vm).len(), 9);
    let w = vm.take_warnings();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("not an execution token: 4"), "{}", w[0]);
    assert!(w[0].contains("failed `verify`"), "{}", w[0]);
    let mut vm = strict_game(&drop_game(words, ""));
    let e = vm.generate_turn().unwrap_err();
    assert_eq!(e.code(), "not-an-xt", "{e}");
}

#[test]
fn small_numbers_never_run_a_primitive() {
    let mut vm = Vm::new(config(false)).unwrap();
    vm.capture_output();
    for n in [0, 1, 3, 4, 100, -1] {
        let e = vm.run_text("t", format!("{n} EXECUTE").as_bytes()).unwrap_err();
        assert_eq!(e.code(), "not-an-xt", "{n}: {e}");
        vm.reset_after_error();
    }
    // Tokens still work wherever scripts keep them.
    vm.run_text("t", b"DEFER d  ' DUP IS d  ' + CONSTANT plus  : t 3 d plus EXECUTE ;  t").unwrap();
    assert_eq!(vm.stack(), vec![6]);
}

// ---- 4. dead space between data bodies ------------------------------------------

/// QXO's pattern: a search writes one past an array; the next variable
/// keeps its value, as the original's word headers sat between them.
#[test]
fn a_write_one_past_an_array_misses_the_next_variable() {
    let mut vm = Vm::new(config(false)).unwrap();
    vm.capture_output();
    vm.run_text(
        "t",
        b"3 [] pos[]  VARIABLE size  5 size !  -1 3 pos[] !
          CREATE table 1 , 2 ,  VARIABLE after  7 after !  9 table 2 CELLS + !
          size @  after @",
    )
    .unwrap();
    assert_eq!(vm.stack(), vec![5, 7]);
}

// ---- 5. Pass is an ordinary move ------------------------------------------------

/// Splut!, Ur, Senet…: `Pass` ranked below normal moves by
/// `{move-priorities}` is offered only when nothing else is.
#[test]
fn a_pass_ranked_last_is_offered_only_without_other_moves() {
    let src = "{board 1 3 {grid} board}
        {players {player} A {player} B players}
        {directions 0 1 {direction} e directions}
        : step ( -- ) e verify empty? verify from here move add-move ;
        {moves man-moves {move} step {move-type} normal {move} Pass {move-type} pass-type moves}
        {move-priorities {move-priority} normal {move-priority} pass-type move-priorities}
        {pieces {piece} Man {moves} man-moves pieces}
        {board-setup {setup} A Man a1 {setup} B Man c1 board-setup}";
    let mut vm = game(src);
    let first = moves(&mut vm);
    assert_eq!(first.len(), 1, "{first:?}");
    assert!(first[0].ends_with("a1 - b1"), "{first:?}");
    vm.generate_turn().unwrap();
    let m = vm.find_move("b1").unwrap_or_else(|| panic!("{first:?}"));
    vm.make_move(m).unwrap();
    vm.game.store.pop_list();
    // B's man on c1 has no step east: B may only pass.
    assert_eq!(moves(&mut vm), vec!["Pass".to_string()]);
}

#[test]
fn a_pass_carries_what_its_move_word_compiled() {
    let src = "{board 1 2 {grid} board}
        {players {player} A {player} B players}
        VARIABLE passes
        : counted ( -- ) passes ++ ;
        : pass-move ( -- ) COMPILE counted Pass ;
        {moves man-moves {move} pass-move moves}
        {pieces {piece} Man {moves} man-moves pieces}
        {board-setup {setup} A Man a1 {setup} B Man b1 board-setup}";
    let mut vm = game(src);
    vm.generate_turn().unwrap();
    assert_eq!(vm.move_texts(), vec!["Pass".to_string()]);
    let m = vm.game.store.current().start;
    vm.make_move(m).unwrap();
    vm.game.store.pop_list();
    vm.run_text("t", b"passes @").unwrap();
    assert_eq!(vm.stack(), vec![1]);
}

// ---- 6. the kernel's friend? and enemy? -------------------------------------------

/// `enemy?` is `friend? NOT not-empty? AND`: a neutral piece is an enemy.
#[test]
fn a_neutral_piece_is_an_enemy() {
    let src = "{board 1 2 {grid} board}
        {players {player} A {player} B {neutral} N players}
        {turn-order {turn} A {turn} B turn-order}
        {directions 0 1 {direction} e directions}
        : take ( -- ) e verify enemy? verify from here move add-move ;
        {moves man-moves {move} take moves}
        {pieces {piece} Man {moves} man-moves pieces}
        {board-setup {setup} A Man a1 {setup} N Man b1 board-setup}";
    let mut vm = game(src);
    let m = moves(&mut vm);
    assert_eq!(m.len(), 1, "{m:?}");
    assert!(m[0].contains("a1") && m[0].contains("b1"), "{m:?}");
}

/// `friend?` compares with `current-player`, also on a `{for-player}` turn.
#[test]
fn friend_compares_with_the_current_player() {
    let src = "{board 1 3 {grid} board}
        {players {player} A {player} B players}
        {turn-order {turn} A {for-player} B {turn} B turn-order}
        {directions 0 1 {direction} e directions}
        : next-to-friend ( -- ) e verify friend? verify from here move add-move ;
        {moves man-moves {move} next-to-friend moves}
        {pieces {piece} Man {moves} man-moves pieces}
        {board-setup {setup} B Man a1 {setup} A Man b1 board-setup}";
    let mut vm = game(src);
    // A moves B's man on a1; b1 holds A's man, a friend of A.
    let m = moves(&mut vm);
    assert_eq!(m.len(), 1, "{m:?}");
}

// ---- 7. loop words as classic Forth defines them ---------------------------------

#[test]
fn unloop_exit_leave_j_and_k_inside_loops() {
    let mut vm = Vm::new(config(false)).unwrap();
    vm.capture_output();
    vm.run_text(
        "t",
        b": find ( n -- i ) 10 0 DO DUP I = IF DROP I UNLOOP EXIT THEN LOOP DROP -1 ;
          : first-over ( n -- i ) 100 0 DO I OVER > IF DROP I LEAVE THEN LOOP ;
          : jk ( -- n ) 0 2 0 DO 3 0 DO 4 0 DO K J I + + + LOOP LOOP LOOP ;
          7 find  42 find  5 first-over  jk",
    )
    .unwrap();
    // jk sums i+j+k over 2x3x4: 24*(0+1)/2*... computed term by term:
    // sum k (0..2) *12 + sum j (0..3) *8 + sum i (0..4) *6 = 12 + 24 + 36.
    assert_eq!(vm.stack(), vec![7, -1, 6, 72]);
}

// ---- 8. `{board-setup}` records names; `$movesList` -----------------------------

/// Ordo's pattern: the base declares `DEFER MAN` and sets up `MAN`s; the
/// variant that LOADed it says which piece `MAN` is.
#[test]
fn setup_names_resolve_when_the_game_starts() {
    let src = drop_game(
        "DEFER STONE : put ( -- ) empty? verify drop add-move ;",
        "{board-setup {setup} A STONE a1 b1 {setup} B STONE c3 board-setup}
        ' Stone IS STONE",
    );
    let mut vm = game(&src);
    assert_eq!(moves(&mut vm).len(), 6);
    assert_eq!(vm.perft(2).unwrap(), 30);
    vm.run_text("t", b"a1 piece-at b1 piece-at c3 piece-at").unwrap();
    assert_eq!(vm.stack(), vec![1 | 2048, 1 | 2048, 1 | 4096]);
}

#[test]
fn an_unresolvable_setup_name_is_an_error_at_game_start_naming_the_line() {
    let src = drop_game(": put ( -- ) empty? verify drop add-move ;", "DEFER STONE\n{board-setup {setup} A STONE a1 board-setup}");
    let Err(e) = try_game(&src, false) else { panic!("the game started") };
    let text = e.to_string();
    assert_eq!(e.code(), "unset-defer", "{text}");
    assert!(text.contains("--> game:7:"), "{text}");
    assert!(text.contains("resolved as the game starts"), "{text}");
}

/// Abstract Mancala's pattern: the move count read through the list header.
#[test]
fn moves_list_header_holds_the_count_and_the_first_move() {
    let src = drop_game(": put ( -- ) empty? verify drop add-move ;", "");
    let mut vm = game(&src);
    vm.generate_turn().unwrap();
    vm.run_text("t", b"$movesList @ CELLSIZE + @  move-count  $movesList @ 2 CELLS + @  $FirstMove =").unwrap();
    assert_eq!(vm.stack(), vec![9, 9, -1]);
}

/// A negative `PICK` index is not an underflow zeros can repair: it stays
/// an error (resuming would fail again forever).
#[test]
fn a_negative_pick_in_a_move_word_is_an_error_not_a_hang() {
    let words = ": put ( -- ) empty? verify drop add-move 1 2 3 -1 PICK drop add-move ;";
    let mut vm = game(&drop_game(words, ""));
    assert_eq!(moves(&mut vm).len(), 9);
    let warnings = vm.take_warnings();
    assert!(warnings[0].contains("negative index for PICK: -1"), "{warnings:?}");
}
