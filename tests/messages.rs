//! What a porter reads when a file is wrong, word for word: did-you-mean
//! hints for names, the real cause of a definition or block left open, and
//! a control structure closed by the wrong word. Each case is a small file
//! run with `axforth run` from its own folder, so the paths are short.

use pretty_assertions::assert_eq;
use std::process::Command;

/// stderr of `axforth run x.4th`, where x.4th holds `source`; it must fail.
fn error_of(source: &str) -> String {
    error_of_verb("run", source)
}

fn error_of_verb(verb: &str, source: &str) -> String {
    let dir = std::env::temp_dir().join(format!("axforth-messages-{}-{:x}", std::process::id(), hash(source)));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("x.4th"), source).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_axforth")).args([verb, "x.4th"]).current_dir(&dir).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!o.status.success(), "`{source}` should fail");
    String::from_utf8_lossy(&o.stderr).trim_end().to_string()
}

fn hash(s: &str) -> u64 {
    s.bytes().fold(1469598103934665603u64, |h, b| (h ^ b as u64).wrapping_mul(1099511628211))
}

const GAME: &str = "{board 3 3 {grid} board}\n{players {player} A {player} B players}\n";

#[test]
fn a_name_in_the_wrong_case_says_names_are_case_sensitive() {
    assert_eq!(error_of("1 dup"), "error: undefined word: dup (names are case-sensitive: did you mean `DUP`?)\n  --> x.4th:1:3");
    // And the other way round, for the game layer's lower-case words.
    assert_eq!(
        error_of(&format!("{GAME}: m ( -- ) FROM here move ;")),
        "error: undefined word: FROM in `m` (names are case-sensitive: did you mean `from`?)\n  --> x.4th:3:12"
    );
}

#[test]
fn a_near_miss_names_the_closest_word() {
    assert_eq!(error_of(": m ( -- ) emtpy? ;"), "error: undefined word: emtpy? in `m` (did you mean `empty?`?)\n  --> x.4th:1:12");
    assert_eq!(error_of("1 2 SWAPP"), "error: undefined word: SWAPP (did you mean `SWAP`?)\n  --> x.4th:1:5");
    assert_eq!(error_of("1 2 zebra"), "error: undefined word: zebra\n  --> x.4th:1:5", "nothing close: no guess");
}

#[test]
fn declarations_suggest_their_own_names_where_they_are_used() {
    let setup = format!("{GAME}: m ( -- ) ;\n{{moves man-moves {{move}} m moves}}\n{{pieces {{piece}} Man {{moves}} man-move pieces}}\n");
    assert_eq!(
        error_of(&setup),
        "error: no move list named `man-move` (a piece uses it; did you mean `man-moves`?) in `{moves}`\n  --> x.4th:5:29"
    );
    // A setup's names are resolved as a game starts (`show` starts one).
    let setup = format!("{GAME}{{pieces {{piece}} Man pieces}}\n{{board-setup {{setup}} A Mna a1 board-setup}}\n");
    let e = error_of_verb("show", &setup);
    assert!(e.contains("undefined word: Mna") && e.contains("did you mean `Man`?") && e.contains("x.4th:4:"), "{e}");
    let dirs = "{board 3 3 {grid} board}\n{directions -1 0 {direction} north 1 0 {direction} south directions}\n{players {player} A {player} B players}\n{symmetries B {symmetry} north sout symmetries}\n";
    let e = error_of(dirs);
    assert!(e.starts_with("error: `{symmetry}`: no direction named `sout` (did you mean `south`?)"), "{e}");
    assert!(e.contains("x.4th:4:"), "{e}");
}

#[test]
fn a_definition_left_open_is_named_with_where_it_opened() {
    assert_eq!(
        error_of(": a 1 2\n: b 3 ;\n"),
        "error: `;` missing: the definition of `a` opened at x.4th:1 is still open, and a new `:` begins here\n  --> x.4th:2:1"
    );
    assert_eq!(error_of(": a 1 2\n"), "error: `;` missing: the definition of `a` opened at x.4th:1 is still open, and the file ends\n  --> x.4th:1:3");
    assert_eq!(
        error_of(": a 1 2\n{board 3 3 {grid} board}\n"),
        "error: `;` missing: the definition of `a` opened at x.4th:1 is still open, and `{board` begins a declaration block here\n  --> x.4th:2:1"
    );
}

#[test]
fn a_structure_closed_by_the_wrong_word_names_the_open_one() {
    assert_eq!(
        error_of(": a 10 0 DO I 5 > IF 1 LOOP ;"),
        "error: unbalanced control structure: `IF` at x.4th:1:19 has no THEN before this `LOOP` in `a`\n  --> x.4th:1:24"
    );
    assert_eq!(
        error_of(": a BEGIN 1 IF THEN ;"),
        "error: unbalanced control structure: `BEGIN` at x.4th:1:5 has no UNTIL, AGAIN or WHILE … REPEAT before `;` in `a`\n  --> x.4th:1:21"
    );
    assert_eq!(error_of(": a 1 THEN ;"), "error: unbalanced control structure: THEN without IF in `a`\n  --> x.4th:1:7");
}

#[test]
fn a_declaration_block_left_open_says_which_and_where() {
    // Blocks do not nest: the next declaration names the one left open.
    assert_eq!(
        error_of("{board 3 3 {grid}\n{players {player} A players}\n"),
        "error: `{board` opened at x.4th:1:1 is still open: `board}` missing before this `{players` in `{players`\n  --> x.4th:2:1"
    );
    assert_eq!(
        error_of("{board 3 3 {grid}\n{directions -1 0 {direction} n directions}\n"),
        "error: `{board` opened at x.4th:1:1 is still open: `board}` missing before this `{directions` in `{directions`\n  --> x.4th:2:1"
    );
    assert_eq!(
        error_of("{players {player} A {player} B players}\n{board 3 3 {grid}\n"),
        "error: `{board` opened at x.4th:2:1 is still open: `board}` missing at the end of loading\n  --> x.4th:2:1"
    );
    assert_eq!(
        error_of(": m ( -- ) ;\n{moves a {move} m\n{moves b {move} m moves}\n"),
        "error: `{moves` opened at x.4th:2:1 is still open: `moves}` missing before this `{moves` in `{moves`\n  --> x.4th:3:1"
    );
}

#[test]
fn an_engine_that_never_comes_is_named_where_it_was_given() {
    let src = "{board 3 3 {grid} board}\n: my-engine ( -- ) ;\n{players {player} A {search-engine} my-engien {player} B players}\n";
    assert_eq!(
        error_of(src),
        "error: the search engine of A is `my-engien`, which is not defined (did you mean `my-engine`?) in `{search-engine}`\n  --> x.4th:3:37"
    );
}

/// A negative PICK or ROLL index, and an array of a negative size, say
/// so, where the stack has cells enough and the data space room enough
/// (they used to read as a stack underflow and an exhausted data space).
#[test]
fn negative_indexes_and_sizes_are_named_as_such() {
    assert_eq!(
        error_of("1 2 3 -1 PICK"),
        "error: negative index for PICK: -1 in `PICK` (the index counts cells below the top: 0 is the top)\n  --> x.4th:1:10"
    );
    assert_eq!(
        error_of(": t ( -- ) 1 2 3 -2 ROLL ;\nt"),
        "error: negative index for ROLL: -2 in `t` (the index counts cells below the top: 0 is the top)\n  --> x.4th:1:21\n  called from x.4th:2:1"
    );
    assert_eq!(error_of("-5 [] x"), "error: negative size for []: -5 cells in `[]`\n  --> x.4th:1:4");
}

/// A stack depth outside what the VM can hold is refused, not clamped
/// in silence.
#[test]
fn a_stack_depth_out_of_range_is_refused() {
    for (flag, value) in [("--stack-depth", "0"), ("--return-depth", "70000")] {
        let o = Command::new(env!("CARGO_BIN_EXE_axforth")).args([flag, value, "run", "x.4th"]).output().unwrap();
        assert!(!o.status.success());
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(&format!("invalid value '{value}' for '{flag}")) && e.contains("16..=65534"), "{e}");
    }
}

/// EXECUTE of a value in the range of move tokens names the value the
/// script had, not a move number worked out from it.
#[test]
fn execute_of_a_stray_value_names_it() {
    assert_eq!(
        error_of("$50000000 EXECUTE"),
        "error: EXECUTE of 1342177280 ($50000000): not a word, nor a move's token from `.moveCFA` in `EXECUTE`\n  --> x.4th:1:11"
    );
}

/// A move word that clones boards and leaves them: at every generation
/// they would pile up. They are dropped with a warning, and under
/// `--strict` it is an error, as it is for an engine.
#[test]
fn a_move_word_that_leaves_cloned_boards_is_told() {
    let src = format!(
        "{GAME}: leaky ( -- ) $CloneBoard $CloneBoard empty? verify drop add-move ;\n{{moves leaks {{move}} leaky moves}}\n{{pieces {{piece}} Stone {{drops}} leaks pieces}}\n"
    );
    let dir = std::env::temp_dir().join(format!("axforth-messages-{}-{:x}", std::process::id(), hash(&src)));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("x.4th"), &src).unwrap();
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_axforth")).args(args).current_dir(&dir).output().unwrap();
    let lenient = run(&["moves", "x.4th"]);
    let strict = run(&["--strict", "moves", "x.4th"]);
    let _ = std::fs::remove_dir_all(&dir);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(lenient.status.success(), "{}", text(&lenient.stderr));
    assert!(text(&lenient.stdout).contains("(9 moves)"), "{}", text(&lenient.stdout));
    let warning = text(&lenient.stderr);
    assert!(warning.contains("move generation left 18 board(s) cloned") && warning.contains("the boards were dropped"), "{warning}");
    assert!(!strict.status.success());
    let error = text(&strict.stderr);
    assert!(error.contains("error: move generation left 18 board(s) cloned: each `$CloneBoard` in a move word needs a `$DeallocateBoard`"), "{error}");
}

/// `{royal}` names a declared piece type.
#[test]
fn royal_names_a_declared_piece_type() {
    assert_eq!(error_of("1 {royal}"), "error: `{royal}` names a piece type: declare the pieces first (`{pieces … pieces}`) in `{royal}`\n  --> x.4th:1:3");
    assert_eq!(
        error_of(&format!("{GAME}{{pieces {{piece}} K pieces}}\n7 {{royal}}")),
        "error: `{royal}` takes a piece type (1 to 1), not 7 in `{royal}`\n  --> x.4th:4:3"
    );
}
