//! Native code against the interpreter: the same random definitions run
//! with `--jit off` and `--jit all` must leave the same stack, memory and
//! output, or fail with the same error, word for word (message, location,
//! backtrace). Errors are the interpreter's own in both runs: native code
//! hands the failing instruction back to it.

use axforth::jit::JitMode;
use axforth::{Config, Vm};
use proptest::prelude::*;

mod common;
use common::programs::{balanced, block, BUF_CELLS};
use common::proptest_config;

fn new_vm(jit: JitMode, max_steps: u64) -> Vm {
    let config = Config {
        stack_depth: 64,
        return_depth: 64,
        data_space: 64 * 1024,
        max_steps: Some(max_steps),
        seed: Some(1),
        jit,
        ..Config::default()
    };
    let mut vm = Vm::new(config).expect("creating a VM");
    vm.capture_output();
    vm.run_text("setup", format!("CREATE BUF {} ALLOT  VARIABLE V", BUF_CELLS * 4).as_bytes()).expect("setup");
    vm
}

#[derive(Debug, PartialEq)]
struct Outcome {
    result: Result<(), String>,
    stack: Vec<i32>,
    memory: Vec<i32>,
    output: String,
}

/// Runs `text` and then reads everything a difference could show in;
/// also answers how many definitions were compiled, and how many of those
/// with a fixed stack shape.
fn run(jit: JitMode, max_steps: u64, text: &str) -> (Outcome, (u32, u32)) {
    let mut vm = new_vm(jit, max_steps);
    let (compiled, fixed, _) = vm.jit_counts();
    let result = vm.run_text("t", text.as_bytes()).map_err(|e| e.to_string());
    let stack = vm.stack();
    // Read from Rust: a program may have stored over BASE.
    let buf = vm.dict.find(b"BUF").and_then(|xt| vm.dict.word(xt).body()).expect("BUF") as i32;
    let cells = (0..16).step_by(4).chain((0..(BUF_CELLS + 2) * 4).step_by(4).map(|i| buf + i));
    let memory = cells.map(|a| vm.mem.fetch(a).expect("a cell in range")).collect();
    let output = String::from_utf8_lossy(&vm.take_output()).into_owned();
    let (compiled_now, fixed_now, _) = vm.jit_counts();
    (Outcome { result, stack, memory, output }, (compiled_now - compiled, fixed_now - fixed))
}

/// Both engines on the same program: the outcomes, and how many
/// definitions the native run compiled.
fn both(max_steps: u64, text: &str) -> (Outcome, Outcome, (u32, u32)) {
    let (interpreted, _) = run(JitMode::Off, max_steps, text);
    let (native, compiled) = run(JitMode::All, max_steps, text);
    (interpreted, native, compiled)
}

/// A random definition, called from another (so native code calls native
/// code), twice, with a few cells under it; `.` shows intermediate values.
fn program(body: &str) -> String {
    format!(": T {body} ;\n: U T DUP . T ;\n1 2 3 U")
}

proptest! {
    #![proptest_config(proptest_config())]

    #[test]
    fn native_code_does_what_the_interpreter_does(body in block(2, false)) {
        let text = program(&body);
        let (interpreted, native, (compiled, _)) = both(20_000, &text);
        prop_assert!(compiled >= 1, "nothing was compiled for {}", text);
        prop_assert_eq!(interpreted, native, "\n  program: {}", text);
    }

    /// The step budget runs out at the same instruction in both.
    #[test]
    fn the_step_budget_ends_both_at_the_same_place(body in block(2, false), budget in 1u64..200) {
        let text = program(&body);
        let (interpreted, native, _) = both(budget, &text);
        prop_assert_eq!(interpreted, native, "\n  program: {}\n  budget: {}", text, budget);
    }

    /// Definitions with a fixed stack shape (checked once at entry, cells
    /// kept in registers across branches and loops), calling each other
    /// (`TL` loops, so it is called rather than translated in place), and
    /// through DEFER: `D` first holds `T`, then a word of another effect.
    #[test]
    fn fixed_shapes_do_what_the_interpreter_does(body in balanced(2, 0), budget in prop_oneof![1u64..300, Just(50_000u64)]) {
        let text = format!(": T {body} ;\n: TL {body} 1 0 DO LOOP ;\nDEFER D ' T IS D\n: U T DUP . TL DUP 5 > IF EXIT THEN 3 0 DO DUP 1 AND IF TL ELSE 1+ THEN D LOOP ;\n: W 0 SWAP U DROP ;\n1 2 3 W U\n: T2 DUP 1 AND ; ' T2 IS D 5 W");
        let (interpreted, native, (compiled, fixed)) = both(budget, &text);
        prop_assert_eq!(&interpreted, &native, "\n  program: {}\n  budget: {}", text, budget);
        prop_assert!(compiled >= 1 && fixed == compiled, "{} of {} with a fixed shape in {}", fixed, compiled, text);
    }
}

#[test]
fn errors_deep_in_native_code_keep_their_place_and_backtrace() {
    // Short callees are translated into their callers (one native
    // function, frames pushed as by calls); a long one stays a native call
    // of its own. Both must report the interpreter's place and backtrace.
    let long = "1 V +! ".repeat(60);
    for (inner_body, at_least) in [("", 1), (long.as_str(), 2)] {
        let text = format!(": INNER ( n -- ) {inner_body} 0 DO I 3 = IF 1 0 / THEN LOOP ;\n: MIDDLE 10 INNER ;\n: OUTER 5 0 DO MIDDLE LOOP ;\nOUTER");
        let (interpreted, native, (compiled, _)) = both(1_000_000, &text);
        assert!(compiled >= at_least, "compiled {compiled}");
        assert_eq!(interpreted, native);
        let message = native.result.unwrap_err();
        assert!(message.contains("division by zero in `INNER`"), "{message}");
        assert!(message.contains("t:1:"), "{message}");
        assert!(message.contains("called from `MIDDLE` (t:2)"), "{message}");
        assert!(message.contains("called from `OUTER` (t:3)"), "{message}");
    }
}

#[test]
fn underflow_overflow_and_bad_addresses_are_the_interpreters() {
    same_both_ways(&[
        ": A DROP DROP DROP DROP ; A",
        ": B BEGIN 1 AGAIN ; B",
        ": C RECURSE ; C",
        ": D -4 @ ; D",
        ": E BUF 1000000 + C! ; 7 E",
        ": F >R ; F",
        ": G R> DROP ; 1 G",
        ": H 5 0 DO I LOOP 0 PICK 9 PICK ; H",
        ": K 2 0 DO ['] DUP EXECUTE LOOP ; 1 K",
        ": L 12345 EXECUTE ; L",
        "DEFER P : M P ; M",
        ": N 3 0 DO I 1 = IF UNLOOP EXIT THEN LOOP 99 ; N",
        ": Q -1 0 DO I DROP LOOP ; Q",
    ]);
}

/// Each program ends the same (stacks, memory, output, error) under the
/// interpreter and in native code.
fn same_both_ways(texts: &[&str]) {
    for text in texts {
        let (interpreted, native, _) = both(100_000, text);
        assert_eq!(interpreted, native, "{text}");
    }
}

#[test]
fn deferred_words_pointed_elsewhere_call_their_new_target() {
    // Native code calls a deferred word's target as it was when the code
    // was made, while no deferred word has been pointed elsewhere since:
    // at top level, by `IS` compiled into a word, in the middle of the
    // word that calls it; a constant as the target; an unset one.
    same_both_ways(&[
        "DEFER D 5 CONSTANT FIVE : SQ DUP * ; ' FIVE IS D : CALLS 3 0 DO D LOOP ; CALLS ' SQ IS D CALLS",
        "DEFER D 5 CONSTANT FIVE : SQ DUP * ; : TO-SQ ['] SQ IS D ; ' FIVE IS D : C2 D D TO-SQ D ; C2 C2",
        "DEFER D 5 CONSTANT FIVE : SQ DUP * ; : MIX 0 ['] FIVE IS D D + ['] SQ IS D D + ; MIX MIX",
        "DEFER E : CE 1 E ; CE",
    ]);
}

#[test]
fn tokens_known_where_translated_run_as_the_interpreter_runs_them() {
    // A token the translator can see (a literal, moved by stack words,
    // through guards and into a callee translated in place) is executed
    // without a lookup: a word of any shape, a host word, a token that
    // names nothing.
    same_both_ways(&[
        ": SQ DUP * ; : A 3 ['] SQ EXECUTE ; A",
        ": RUN ( x xt -- y ) EXECUTE ; : B 4 ['] SQ RUN 5 ['] SQ RUN ; B",
        ": C 4 ['] SQ SWAP OVER EXECUTE SWAP EXECUTE ; C",
        ": TWO 1 2 ; : D ['] TWO EXECUTE ; D D",
        ": NONE ; : E 7 ['] NONE EXECUTE ; E",
        ": F 9 ['] DROP EXECUTE ['] DUP EXECUTE ; 1 F",
        ": G ['] SQ 1000 + EXECUTE ; G",
        ": H 2 ['] SQ DUP 0= IF DROP ['] DUP THEN EXECUTE ; H",
        ": K 2 0 DO 3 ['] SQ EXECUTE LOOP ; K",
    ]);
}

#[test]
fn loops_of_known_bounds_run_as_the_interpreter_runs_them() {
    // Translated once per index: the index a constant, tables at known
    // addresses read without a check, tokens read from them guessed.
    same_both_ways(&[
        ": SQ DUP * ; CREATE T ' SQ , ' DUP , ' 1+ , : U 3 0 DO 2 I CELLS T + @ EXECUTE LOOP ; U",
        "CREATE V 5 , 6 , 7 , 8 , : S 0 4 0 DO I CELLS V + @ + LOOP ; S",
        ": IN I ; : X 3 0 DO IN LOOP ; X",
        "CREATE W 1 , 2 , : Y 2 0 DO I CELLS W + @ 1+ I CELLS W + ! LOOP W @ W 4 + @ ; Y Y",
        ": Z 8 0 DO I 5 = IF 1 0 / THEN LOOP ; Z",
        ": Q 3 0 DO I 1 = IF 10 ELSE 20 THEN LOOP ; Q",
        ": R 5 2 DO I DUP 3 = IF DROP THEN LOOP ; R",
        ": P 2 0 DO 3 0 DO I J + LOOP LOOP ; P",
    ]);
}

#[test]
fn one_budget_check_covering_branches_and_unrolled_copies_runs_out_where_the_interpreters_does() {
    // `INC` is translated in place, nine times in each of eight copies of
    // `U`'s loop: 80 steps, more than one check covers, through a join of
    // branches at every call. With every budget from 1 up, the budget runs
    // out at each step in turn (a check that claimed more than it checked
    // would let native code run past the budget).
    let text = ": INC ( n -- n ) DUP 0= IF 1+ THEN ;\n: U ( n -- n ) 8 0 DO INC INC INC INC INC INC INC INC INC LOOP ;\n: W 0 2 0 DO U 1+ LOOP ;\nW";
    for budget in 1..200 {
        let (interpreted, native, (compiled, _)) = both(budget, text);
        assert!(compiled >= 1, "nothing compiled with budget {budget}");
        assert_eq!(interpreted, native, "budget {budget}");
    }
    let (interpreted, _, _) = both(100_000, text);
    assert_eq!(interpreted.result, Ok(()));
}

#[test]
fn recursion_deeper_than_native_frames_falls_back_to_the_interpreter() {
    // Deeper than `NATIVE_FRAMES` (768) and than the return stack allows.
    let config = |jit| Config { return_depth: 4000, max_steps: Some(10_000_000), jit, ..Config::default() };
    let text = b": DOWN ( n -- ) ?DUP IF 1- RECURSE THEN ; 3000 DOWN 42";
    let mut results = Vec::new();
    for jit in [JitMode::Off, JitMode::All] {
        let mut vm = Vm::new(config(jit)).unwrap();
        vm.capture_output();
        vm.run_text("t", text).unwrap();
        results.push(vm.stack());
    }
    assert_eq!(results[0], vec![42]);
    assert_eq!(results[0], results[1]);
}

#[test]
fn off_compiles_nothing_and_auto_compiles_a_hot_loop_once_the_run_has_paid_for_it() {
    // BIG loops, is large (compiling it costs milliseconds), and MAIN
    // calls it 20,000 times: long past what compiling it costs
    // (`jit/payback.rs`). MAIN, called once, is compiled only if the run
    // had paid for it by then; TWICE, called once, never is.
    let text = format!(": BIG ( n -- n ) 2 0 DO{} LOOP ; : TWICE 2 * ; : MAIN 0 20000 0 DO BIG LOOP ; MAIN 3 TWICE", " 1+".repeat(200));
    let (_, off) = run(JitMode::Off, 100_000_000, &text);
    let (_, auto) = run(JitMode::Auto, 100_000_000, &text);
    let (_, all) = run(JitMode::All, 100_000_000, &text);
    assert_eq!(off.0, 0);
    assert!((1..=2).contains(&auto.0), "BIG compiled, TWICE not: {auto:?}");
    assert!(all.0 >= 3, "{all:?}");
}

#[test]
fn auto_compiles_nothing_in_a_run_too_short_to_pay_for_it() {
    // A large loop word called once, in a run of a few milliseconds:
    // compiling it would cost more than the whole run (the process is
    // fresh, so nothing else has run long enough to pay).
    let dir = std::env::temp_dir().join(format!("axforth-short-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let file = dir.join("sum.4th");
    std::fs::write(&file, format!(": BIG ( n -- n ) 2 0 DO{} LOOP ; 0 BIG .", " 1+".repeat(200))).expect("writing the program");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_axforth"))
        .arg("run")
        .arg(&file)
        .env("AXFORTH_JIT", "auto")
        .env("AXFORTH_JIT_DUMP", "1")
        .output()
        .expect("running axforth");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "400");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("compiling"), "{err}");
}

/// A VM under `config` with the game `src` loaded and a game started.
fn game_vm(config: Config, src: &str) -> Vm {
    let mut vm = Vm::new(config).expect("creating a VM");
    vm.capture_output();
    vm.run_text("game", src.as_bytes()).expect("the game loads");
    vm.new_game().expect("the game starts");
    vm
}

/// Native code builds the board's layout in (its table of steps, the
/// cells' address): a layout changed afterwards is the one every step
/// reads, also when the change comes from a word native code called (here
/// `{link}` adding a direction, which makes the table anew, then a step
/// along it: a1 to a2, position 3).
#[test]
fn a_layout_changed_after_native_code_was_made_is_the_one_steps_read() {
    let text = "{board 3 3 {grid} board}
        {directions -1 0 {direction} n 1 0 {direction} s directions}
        : walk ( pos xt -- pos' ) SWAP to EXECUTE DROP here ;
        : walk-n ( pos -- pos' ) to n DROP here ;
        : probe ( -- ) a1 walk-n . b1 walk-n . c1 walk-n . a3 walk-n . a1 ['] s walk . ;
        probe probe
        {link} n a1 c3  probe
        : unlink-then-walk ( -- ) b1 walk-n . {unlink} b1 walk-n . ;
        unlink-then-walk n b1  probe
        : link-then-walk ( -- ) {link} ' a1 SWAP walk . b1 walk-n . ;
        link-then-walk e a1 a2 e  probe";
    let (interpreted, native, (compiled, _)) = both(100_000, text);
    assert_eq!(interpreted, native);
    assert!(compiled >= 3, "{compiled} definitions compiled");
    assert_eq!(interpreted.output, "3 4 5 0 6 3 4 5 0 6 2 4 5 0 6 4 7 2 7 5 0 6 3 7 2 7 5 0 6 ");
}

/// Without `OnFriends?`, native code compares owners for `enemy?` without
/// asking; a game that defines `OnFriends?` afterwards is asked from then
/// on. Here a stone may not go right under an enemy stone, until every
/// player is everyone's friend.
#[test]
fn on_friends_defined_after_native_code_was_made_is_asked() {
    let run = |jit: JitMode| {
        let src = "{board 3 3 {grid} board}
            {directions -1 0 {direction} n directions}
            {players {player} A {player} B players}
            : put ( -- ) empty? verify  n IF enemy? 0= verify back THEN  drop add-move ;
            {moves stone-drops {move} put moves}
            {pieces {piece} Stone {drops} stone-drops pieces}";
        let config = Config { max_steps: Some(1_000_000), jit, ..Config::default() };
        let mut vm = game_vm(config, src);
        let before = vm.perft(3).map_err(|e| e.to_string());
        vm.run_text("friends", b": OnFriends? ( p1 p2 -- ? ) 2DROP TRUE ;").expect("OnFriends? compiles");
        let after = vm.perft(3).map_err(|e| e.to_string());
        (before, after)
    };
    let (interpreted, native) = (run(JitMode::Off), run(JitMode::All));
    assert_eq!(interpreted, native);
    assert!(matches!(interpreted, (Ok(a), Ok(b)) if a < b), "{interpreted:?}");
}

/// The generator's loop scans for the pieces of the side to move four
/// squares at a time while four are left, then one by one: boards of
/// every length modulo four, with pieces of both sides spread so that
/// ours fall on every lane and at the very end, move the same pieces in
/// native code as in the interpreter.
#[test]
fn the_scan_for_pieces_finds_them_on_boards_of_any_length() {
    let run = |jit: JitMode, cols: usize, rows: usize, pattern: usize| {
        let name = |i: usize| format!("{}{}", (b'a' + (i % cols) as u8) as char, i / cols + 1);
        let squares = cols * rows;
        let ours: Vec<String> = (0..squares).filter(|&i| (i * pattern + i / 3) % 5 < 2 || i + 1 == squares).map(name).collect();
        let theirs: Vec<String> = (0..squares).filter(|&i| (i * pattern + i / 3) % 5 == 3 && i + 1 != squares).map(name).collect();
        let mut setup = format!("{{setup}} A Man {}", ours.join(" "));
        if !theirs.is_empty() {
            setup += &format!(" {{setup}} B Man {}", theirs.join(" "));
        }
        let src = format!(
            "{{board {rows} {cols} {{grid}} board}}
            {{directions -1 0 {{direction}} n 1 0 {{direction}} s 0 1 {{direction}} e 0 -1 {{direction}} w directions}}
            {{players {{player}} A {{player}} B players}}
            : step ( xt -- ) EXECUTE verify empty? verify from here move add-move ;
            : step-n ( -- ) ['] n step ; : step-s ( -- ) ['] s step ;
            : step-e ( -- ) ['] e step ; : step-w ( -- ) ['] w step ;
            {{moves man-moves {{move}} step-n {{move}} step-s {{move}} step-e {{move}} step-w moves}}
            {{pieces {{piece}} Man {{moves}} man-moves pieces}}
            {{board-setup {setup} board-setup}}"
        );
        let config = Config { max_steps: Some(1_000_000), jit, ..Config::default() };
        let mut vm = game_vm(config, &src);
        let perft = vm.perft(3).map_err(|e| e.to_string());
        let texts = first_moves_afresh(&mut vm);
        ((perft, texts), vm.jit_entries())
    };
    let (mut with_moves, mut entered) = (0, 0);
    for (cols, rows) in [(1, 1), (2, 1), (3, 1), (5, 1), (6, 1), (7, 1), (3, 3), (4, 3), (5, 3), (7, 2), (9, 1), (11, 2)] {
        for pattern in [1, 2, 3] {
            let ((interpreted, _), (native, entries)) = (run(JitMode::Off, cols, rows, pattern), run(JitMode::All, cols, rows, pattern));
            assert_eq!(interpreted, native, "{cols}x{rows}, pattern {pattern}");
            with_moves += !interpreted.1.is_empty() as u32;
            entered += (entries > 0) as u32;
        }
    }
    // Half the boards leave the first player no move (its pieces packed
    // together); native code must have run on the others.
    assert!(with_moves >= 15 && entered >= with_moves, "{with_moves} of 36 boards have moves, native code ran on {entered}");
}

/// A game whose move word `put` is `words`, its moves, warnings and error
/// (generating the first turn, then a perft of 2) under one engine.
fn game_outcome(jit: JitMode, strict: bool, words: &str) -> GameOutcome {
    let list = if words.contains(": put2 ") { "{move} put {move} put2" } else { "{move} put" };
    let src = format!(
        "{{board 3 3 {{grid}} board}}
        {{players {{player}} A {{player}} B players}}
        {words}
        {{moves stone-drops {list} moves}}
        {{pieces {{piece}} Stone {{drops}} stone-drops pieces}}"
    );
    let config = Config { seed: Some(3), strict, max_steps: Some(1_000_000), jit, ..Config::default() };
    let mut vm = game_vm(config, &src);
    let mut texts = Vec::new();
    let result = vm.generate_turn().map(|()| {
        texts = vm.move_texts();
        vm.game.store.pop_list();
    });
    let result = result.and_then(|()| vm.perft(2)).map_err(|e| e.to_string());
    (result, texts, vm.take_warnings())
}

/// A move word stepping in the direction a table holds, the table
/// rewritten (`rewrite`) by every attempt: perft 4, the first moves, and
/// how many definitions got native code.
fn guessing_game(jit: JitMode, rewrite: &str) -> (Result<u64, String>, Vec<String>, u32) {
    let src = format!(
        "{{board 3 3 {{grid}} board}}
        {{directions -1 0 {{direction}} n 1 0 {{direction}} s directions}}
        {{players {{player}} A {{player}} B players}}
        CREATE dir ' n ,
        : put ( -- ) dir @ EXECUTE back {rewrite} IF drop add-move THEN ;
        {{moves stone-drops {{move}} put moves}}
        {{pieces {{piece}} Stone {{drops}} stone-drops pieces}}"
    );
    let config = Config { max_steps: Some(1_000_000), jit, ..Config::default() };
    let mut vm = game_vm(config, &src);
    let perft = vm.perft(4).map_err(|e| e.to_string());
    let mut texts = Vec::new();
    if vm.generate_turn().is_ok() {
        texts = vm.move_texts();
    }
    (perft, texts, vm.jit_counts().0)
}

/// Native code trusts a token guessed from a table (what follows the
/// EXECUTE is translated for that direction, a miss hands the word to the
/// interpreter). A table that keeps changing makes the guess miss again
/// and again: the code is made again without trusting it, and the moves
/// stay the interpreter's throughout.
#[test]
fn a_guessed_token_that_keeps_missing_is_no_longer_trusted() {
    let flip = "dir @ ['] n = IF ['] s ELSE ['] n THEN dir !";
    let (interpreted, native) = (guessing_game(JitMode::Off, flip), guessing_game(JitMode::All, flip));
    assert_eq!((&interpreted.0, &interpreted.1), (&native.0, &native.1));
    assert!(matches!(native.0, Ok(n) if n > 0), "{native:?}");
    let steady = guessing_game(JitMode::All, "");
    assert_eq!(guessing_game(JitMode::Off, "").0, steady.0);
    assert!(native.2 > steady.2, "made again after the misses: {} definitions compiled, {} when the table stays", native.2, steady.2);
}

/// The game words native code calls directly (their arguments in
/// registers) fail, warn and record as the interpreter's do: a failure
/// hands the word back to the interpreter, which reports it.
#[test]
fn direct_game_words_fail_and_warn_as_the_interpreters_do() {
    for words in [
        ": put ( -- ) empty? verify  -1 piece-type-at 0= verify  drop add-move ;",
        ": put ( -- ) empty? verify  drop  -5 capture-at  add-move ;",
        ": put ( -- ) empty? verify  from 99 move  add-move ;",
        ": put ( -- ) empty? verify  from 1+ to  not-empty-at? DROP  current-piece-type 1 = verify  drop add-move ;",
        ": put ( -- ) empty? verify  42 to  piece DROP  drop add-move ;",
        ": put ( -- ) empty? verify  current-player from change-owner-at  1 from 2 - change-type-at  drop  1 partial-move-type  add-move ;",
        ": put ( -- ) empty? verify  drop  $FirstMove DUP IF .moveType @ DROP ELSE DROP THEN  add-move  stalemate? verify ;",
    ] {
        for strict in [false, true] {
            let interpreted = game_outcome(JitMode::Off, strict, words);
            let native = game_outcome(JitMode::All, strict, words);
            assert_eq!(interpreted, native, "{words} (strict: {strict})");
        }
    }
}

/// Edits a move word recorded but did not add (it failed a `verify`
/// after them, or ended without `add-move`) are gone before the next move
/// word starts, and a move word whose first instruction verifies its
/// square adds its moves only where that holds: the same from the native
/// generator loop as from the interpreter.
#[test]
fn move_words_start_clean_after_unfinished_moves() {
    let cases: [(&str, u64, usize); 3] = [
        // put: an edit then a failed verify; put2 must add one drop only.
        (": put ( -- ) empty? verify drop  0 verify ; : put2 ( -- ) empty? verify drop add-move ;", 72, 9),
        // put leaves its drop without adding it (no verify at all).
        (": put ( -- ) drop ; : put2 ( -- ) drop add-move ;", 81, 9),
        // not-empty? first: nothing is taken at the start, so no moves.
        (": put ( -- ) not-empty? verify drop add-move ; : put2 ( -- ) not-empty? verify drop add-move ;", 0, 0),
    ];
    for (words, perft2, first_moves) in cases {
        let interpreted = game_outcome(JitMode::Off, false, words);
        let native = game_outcome(JitMode::All, false, words);
        assert_eq!(interpreted, native, "{words}");
        assert_eq!(native.0, Ok(perft2), "{words}");
        assert_eq!(native.1.len(), first_moves, "{words}: {:?}", native.1);
        assert!(native.1.iter().all(|m| m.matches(' ').count() <= 2), "one drop per move: {:?}", native.1);
    }
}

/// A draughts-like game on 4x4 whose move words test squares a step or
/// two away, after calls (five steps) and a verify of their own: the generator's loop
/// checks such tests (the word's guard) before entering the word. Perft 4,
/// the first moves, and how many attempts entered native code.
fn guarded_game(jit: JitMode, max_steps: u64, friends: bool) -> (Result<u64, String>, Vec<String>, u64) {
    // Friends by script: nobody is a friend, every piece an enemy.
    let friends = if friends { ": OnFriends? ( p1 p2 -- ? ) 2DROP FALSE ;" } else { "" };
    let src = format!(
        "{{board 4 4 {{grid}} {{variable}} chain board}}
        {{players {{player}} A {{player}} B players}}
        {{directions -1 -1 {{direction}} nw -1 1 {{direction}} ne 1 -1 {{direction}} sw 1 1 {{direction}} se
            -1 0 {{direction}} n 1 0 {{direction}} s directions}}
        {{symmetries B {{symmetry}} nw sw {{symmetry}} ne se {{symmetry}} n s symmetries}}
        {friends}
        : chain-ok? ( -- ? ) chain @ DUP 0< SWAP from = OR ;
        : ok1 ( -- ? ) ['] chain-ok? EXECUTE ; : ok2 ( -- ? ) ['] ok1 EXECUTE ; : ok3 ( -- ? ) ['] ok2 EXECUTE ;
        : jump ( xt -- ) ok3 verify DUP EXECUTE verify enemy? verify here SWAP EXECUTE verify empty? verify
            from here move capture-at add-move ;
        : shift ( xt -- ) EXECUTE verify empty? verify from here move add-move ;
        : swap-friend ( -- ) ['] n EXECUTE verify friend? verify not-empty? verify from here move add-move ;
        : push ( -- ) n verify not-empty? verify n verify empty? verify from here move add-move ;
        : jump-nw ['] nw jump ; : jump-ne ['] ne jump ; : shift-nw ['] nw shift ; : shift-ne ['] ne shift ;
        {{move-priorities {{move-priority}} jumping {{move-priority}} other move-priorities}}
        {{moves man-moves {{move}} jump-nw {{move-type}} jumping {{move}} jump-ne {{move-type}} jumping
            {{move}} shift-nw {{move-type}} other {{move}} shift-ne {{move-type}} other
            {{move}} swap-friend {{move-type}} other {{move}} push {{move-type}} other moves}}
        {{pieces {{piece}} Man {{moves}} man-moves pieces}}
        {{board-setup {{setup}} A Man a1 b1 c1 d1 a2 c2 {{setup}} B Man b4 c4 d4 b3 d3 board-setup}}
        : OnNewGame ( -- ) -1 chain ! ;"
    );
    let config = Config { seed: Some(7), max_steps: Some(max_steps), jit, ..Config::default() };
    let mut vm = game_vm(config, &src);
    let perft = vm.perft(4).map_err(|e| e.to_string());
    let texts = first_moves_afresh(&mut vm);
    (perft, texts, vm.jit_entries())
}

/// The first player's moves in a new game, after whatever error the VM
/// last met (none when the game cannot start again).
fn first_moves_afresh(vm: &mut Vm) -> Vec<String> {
    vm.reset_after_error();
    vm.refill_steps();
    if vm.new_game().is_ok() && vm.generate_turn().is_ok() {
        vm.move_texts()
    } else {
        Vec::new()
    }
}

/// Attempts that would fail their move word's guard are not entered, and
/// nothing else changes: the same perft, moves and errors as the
/// interpreter's, under budgets that run out in the words (where only the
/// tests made before any step may be skipped), and with friends decided by
/// script (whose `friend?` and `enemy?` are never skipped).
#[test]
fn attempts_that_fail_their_guard_are_passed_with_the_same_moves() {
    let full = guarded_game(JitMode::All, 1_000_000, false);
    assert!(matches!(full.0, Ok(n) if n > 100), "{full:?}");
    for friends in [false, true] {
        for max_steps in [1, 2, 3, 5, 8, 13, 40, 127, 128, 1_000_000] {
            let interpreted = guarded_game(JitMode::Off, max_steps, friends);
            let native = guarded_game(JitMode::All, max_steps, friends);
            assert_eq!((&interpreted.0, &interpreted.1), (&native.0, &native.1), "steps {max_steps}, friends by script: {friends}");
        }
    }
    // With friends by script every `enemy?` runs it: the jumps are
    // entered at every man that can step, where without it most are passed.
    let scripted = guarded_game(JitMode::All, 1_000_000, true);
    assert!(full.2 * 2 < scripted.2, "attempts entered: {} with guards, {} with friends by script", full.2, scripted.2);
}

/// The game words random move words are made of: direct ones, script
/// runners (a nested generation), queries and names of the game below.
const MOVE_WORDS: &[&str] = &[
    "from", "here", "back", "to", "home", "empty?", "not-empty?", "friend?", "enemy?", "verify", "add-move", "move",
    "capture", "capture-at", "drop", "create", "create-at", "drop-piece", "change-type", "change-owner-at", "partial",
    "partial-move-type", "Pass", "n", "s", "e", "w", "a1", "b2", "c3", "Man", "A", "B", "piece-at", "player-at",
    "empty-at?", "piece-type-at", "not-empty-at?", "current-player", "current-piece-type", "on-board?", "stalemate?",
    "move-count", "COMPILE-LITERAL", "$FirstMove", "$NextMove", ".moveType", "$CloneBoard", "$DeallocateBoard",
    "current-player TRUE 0 $GenerateMoves move-count $DeallocateMoves", "EXECUTE", "IF add-move THEN",
    "0= IF drop THEN", "DUP", "DROP", "SWAP", "OVER", "0=", "1+", "+", "['] n", "['] e EXECUTE", "['] zzstep",
    "['] zzstep EXECUTE verify",
    // Owners and values asked of a position and a player (off the board
    // too: 42), friends by script or not.
    "friend-at?", "enemy-at?", "friend-of?", "enemy-of?", "c3 A friend-of?", "a1 B enemy-of?", "42 enemy-at?",
    "turn-offset next-turn-offset turn-offset-to-player", "9 turn-offset-to-player", "next-player", "turn-number",
    "searching?", "$Yield",
    "c3 enemy-at? verify", "piece-value", "a1 piece-at piece-value", "Man piece-value 7 = verify", "piece-value 7 = verify",
    // A loop of known bounds over a table of direction tokens (unrolled,
    // each token guessed from the table), and a store that changes the
    // table under it.
    "4 0 DO I zzdir EXECUTE DROP LOOP", "2 0 DO back I zzdir EXECUTE verify LOOP", "3 1 DO I zzdir EXECUTE IF from here move THEN LOOP",
    "['] s 0 CELLS zzdirs + !", "['] zzstep 1 CELLS zzdirs + !",
];

fn random_move_word() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        6 => proptest::sample::select(MOVE_WORDS).prop_map(str::to_string),
        2 => (-3i32..12).prop_map(|n| n.to_string()),
    ];
    // Some begin by verifying their square, or squares a step or two away
    // after a call or a verify of their own (a guard, which the generator
    // may check before entering them); most end by adding what they
    // built, so most runs have moves to play.
    let start = proptest::sample::select(
        &[
            "",
            "",
            "empty? verify ",
            "not-empty? verify ",
            "n verify empty? verify ",
            "e verify enemy? verify e verify empty? verify ",
            "['] s EXECUTE verify friend? verify ",
            "zzok verify w verify not-empty? verify ",
            "zzok verify ['] n zzjump ",
            "1 verify s verify enemy? verify friend? verify ",
            "empty? verify n verify n verify ",
            "here from = verify e verify not-empty? enemy? AND verify ",
        ][..],
    );
    (start, proptest::collection::vec(word, 0..16), any::<bool>())
        .prop_map(|(start, w, add)| format!("{start}{}{}", w.join(" "), if add { " add-move" } else { "" }))
}

/// What a game run shows: perft 2 (or its error), the first moves, the
/// warnings.
type GameOutcome = (Result<u64, String>, Vec<String>, Vec<String>);

/// A random move word's game under one engine (an error when it does not
/// load).
fn random_game_outcome(jit: JitMode, (body, body2): (&str, &str), drops: bool, max_steps: u64, friends: bool) -> Result<GameOutcome, String> {
    let lists = if drops { "{drops} zzlist" } else { "{moves} zzlist" };
    // Friends by script: `friend?` and `enemy?` run it.
    let friends = if friends { ": OnFriends? ( p1 p2 -- ? ) 2DROP FALSE ;" } else { "" };
    let src = format!(
        "{{board 3 3 {{grid}} board}}
        {{directions -1 0 {{direction}} n 1 0 {{direction}} s 0 1 {{direction}} e 0 -1 {{direction}} w directions}}
        {{players {{player}} A {{player}} B players}}
        : zzstep ( -- ? ) w DUP IF here a1 = AND THEN ;
        CREATE zzdirs ' n , ' e , ' s , ' w ,
        : zzdir ( i -- xt ) CELLS zzdirs + @ ;
        : zzok ( -- ? ) zzdirs @ DUP 0< SWAP from = OR 0= ;
        : zzjump ( xt -- ) DUP EXECUTE verify enemy? verify EXECUTE verify empty? verify ;
        {friends}
        : zzmove {body} ;
        : zzmove2 {body2} ;
        {{moves zzlist {{move}} zzmove {{move}} zzmove2 moves}}
        {{pieces {{piece}} Man {lists} 7 {{value}} pieces}}
        {{board-setup {{setup}} A Man a1 {{setup}} B Man c3 board-setup}}"
    );
    let config = Config { seed: Some(5), max_steps: Some(max_steps), jit, ..Config::default() };
    let mut vm = Vm::new(config).expect("creating a VM");
    vm.capture_output();
    vm.run_text("game", src.as_bytes()).map_err(|e| e.to_string())?;
    vm.new_game().map_err(|e| e.to_string())?;
    // A random game may be a real one with a large tree (chains of
    // partial steps that end): walked for a second at most, and a game
    // that takes longer is left out of the comparison.
    vm.set_time_limit(Some((std::time::Instant::now(), std::time::Duration::from_secs(1))));
    vm.refill_steps();
    let perft = vm.perft(2).map_err(|e| e.to_string());
    // The first list is perft's first too: if it took longer, perft
    // timed out already.
    vm.set_time_limit(Some((std::time::Instant::now(), std::time::Duration::from_secs(1))));
    let texts = first_moves_afresh(&mut vm);
    Ok((perft, texts, vm.take_warnings()))
}

proptest! {
    #![proptest_config(proptest_config())]

    /// Random move words (direct game words, nested generations, board
    /// clones), two to a piece, generate the same moves, perft, warnings
    /// and errors with the generator entering native code as with the
    /// interpreter; under a step budget that may run out in the words or
    /// their guards, and with friends decided by script or not.
    #[test]
    fn random_move_words_generate_the_same_both_ways(
        body in random_move_word(),
        body2 in random_move_word(),
        drops in any::<bool>(),
        max_steps in prop_oneof![3 => Just(100_000u64), 1 => 1u64..300],
        friends in prop::bool::weighted(0.2),
    ) {
        let interpreted = random_game_outcome(JitMode::Off, (&body, &body2), drops, max_steps, friends);
        let native = random_game_outcome(JitMode::All, (&body, &body2), drops, max_steps, friends);
        let timed_out = |o: &Result<GameOutcome, String>| matches!(o, Ok((Err(e), _, _)) if e.contains("timed out"));
        prop_assume!(!timed_out(&interpreted) && !timed_out(&native));
        prop_assert_eq!(interpreted, native, "\n  move words: {} / {}\n  steps: {}, friends by script: {}", body, body2, max_steps, friends);
    }
}

/// `to` moves `here`, which the move word's first test reads: a check
/// failing after it must hand the interpreter the exact state, not the
/// word's entry (run again from there, `not-empty?` would look at the
/// square `to` chose, fail, and the warnings of the rest would be lost).
/// Found by the property test above.
#[test]
fn a_check_after_to_hands_over_the_exact_state() {
    let body = "not-empty? verify empty? 0 to 9 1 verify a1 friend-of?";
    for max_steps in [100_000, u64::MAX] {
        let interpreted = random_game_outcome(JitMode::Off, (body, ""), false, max_steps, false);
        let native = random_game_outcome(JitMode::All, (body, ""), false, max_steps, false);
        assert_eq!(interpreted, native);
        let warnings = interpreted.map(|o| o.2.len()).unwrap_or(0);
        assert_eq!(warnings, 2, "the position 9 and the cells left");
    }
}
