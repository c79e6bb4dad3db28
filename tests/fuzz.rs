//! Property-based fuzzing of the outer interpreter: random programs made of
//! the real vocabulary, numbers, control words and raw bytes must end in Ok
//! or a clean error, never a panic or a hang, and `reset_after_error` must
//! leave a VM that still works.

use axforth::jit::JitMode;
use axforth::{Config, Vm};
use proptest::prelude::*;

mod common;
use common::proptest_config;
use proptest::sample::select;
use std::sync::OnceLock;

fn fuzz_config() -> Config {
    Config {
        stack_depth: 256,
        return_depth: 256,
        data_space: 64 * 1024,
        load_depth: 4,
        max_steps: Some(100_000),
        seed: Some(1),
        strict: false,
        // The fuzzer runs native code too: every definition at its first
        // call, unless AXFORTH_JIT asks for something else.
        jit: if std::env::var_os(JitMode::ENV).is_some() { Config::default().jit } else { JitMode::All },
        // Small, so that a generated program that makes memory grow meets
        // the budget quickly.
        max_memory: 16 << 20,
    }
}

fn new_vm() -> Vm {
    let mut vm = Vm::new(fuzz_config()).expect("creating a VM");
    vm.capture_output();
    vm
}

/// Every name `WORDS` lists in a fresh VM.
fn vocabulary() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut vm = new_vm();
        vm.run_text("words", b"WORDS").expect("WORDS runs");
        let out = vm.take_output();
        let words: Vec<String> = String::from_utf8_lossy(&out).split_whitespace().map(str::to_string).collect();
        assert!(words.len() > 100, "WORDS listed only {} names", words.len());
        words
    })
}

/// Words that change what `1 2 + .` means for the rest of the session
/// (defining words, stores that can hit BASE, EXECUTE of arbitrary numbers
/// as xts, BYE): left out of the programs of the reset property.
const UNSAFE: &[&str] = &[
    ":", "CONSTANT", "VARIABLE", "CREATE", "<BUILDS", "DEFER", "IS", "[]", "TIMER", "IMMEDIATE", "!", "C!", "+!", "2!",
    "ON", "OFF", "++", "--", "FILL", "ERASE", "MOVE", "BASE", "STATE", "HEX", "DECIMAL", "BINARY", "OCTAL", "BYE", "EXECUTE",
    "COMPILE,", "LOAD", "FVARIABLE", "FCONSTANT",
    // The kernel's words that define the name they read (`$DefineMoveType +`
    // makes `+` a constant).
    "$DefineMoveType", "$CreateDirection",
];

/// The game declarations (`{player} +`, `{move-type} BASE`...) define or
/// run the names they read, so they are defining words too.
fn is_declaration(w: &str) -> bool {
    w.starts_with('{') || w.ends_with('}')
}

fn safe_vocabulary() -> Vec<String> {
    vocabulary().iter().filter(|w| !UNSAFE.contains(&w.as_str()) && !is_declaration(w)).cloned().collect()
}

const STRUCTURE: &[&str] = &[
    ":", ";", "IF", "ELSE", "THEN", "ENDIF", "DO", "?DO", "LOOP", "+LOOP", "I", "J", "LEAVE", "UNLOOP", "BEGIN", "UNTIL",
    "WHILE", "REPEAT", "AGAIN", "EXIT", "RECURSE", "(", ")", "\"", ".\"", "S\"", "ABORT\"", "\\", "[", "]", "'", "[']",
    "EXECUTE", "IMMEDIATE", "DOES>", "CREATE", "<BUILDS", "COMPILE", "[COMPILE]", "POSTPONE", "COMPILE-LITERAL", "LITERAL",
    ">R", "R>", "R@", "DEFER", "IS", "CONSTANT", "VARIABLE", "[]", "HERE", "ALLOT", ",", "@", "!", "0", "-1", "1",
];

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => (-20i32..300).prop_map(|n| n.to_string()),
        1 => any::<i32>().prop_map(|n| n.to_string()),
        1 => any::<u64>().prop_map(|n| (n >> (n % 64)).to_string()),
        1 => (0u32..0x10000).prop_map(|n| format!("${n:X}")),
    ]
}

/// One token of a random program (a few are raw, possibly non-UTF-8 bytes).
fn token() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => select(vocabulary().to_vec()).prop_map(String::into_bytes),
        3 => select(STRUCTURE).prop_map(|s| s.as_bytes().to_vec()),
        3 => number().prop_map(String::into_bytes),
        1 => "zz[a-z]{0,3}".prop_map(String::into_bytes),
        1 => proptest::collection::vec(any::<u8>(), 1..8),
    ]
}

fn separator() -> impl Strategy<Value = &'static [u8]> {
    select(vec![&b" "[..], b" ", b" ", b"\n", b"\t", b"\r\n"])
}

fn program_from(tokens: Vec<(Vec<u8>, &'static [u8])>) -> Vec<u8> {
    let mut text = Vec::new();
    for (t, sep) in tokens {
        text.extend_from_slice(&t);
        text.extend_from_slice(sep);
    }
    text
}

/// A random program: a few numbers to work on, then tokens, whole
/// definitions of a handful of names (so they get redefined, called and
/// nested), and calls of those names.
fn program() -> impl Strategy<Value = Vec<u8>> {
    let definition = (0u32..6, proptest::collection::vec((token(), separator()), 0..12)).prop_map(|(n, body)| {
        let mut text = format!(": zzdef{n} ").into_bytes();
        text.extend(program_from(body));
        text.extend_from_slice(b" ;");
        text
    });
    let call = (0u32..6).prop_map(|n| format!("zzdef{n}").into_bytes());
    let element = prop_oneof![6 => token(), 2 => definition, 2 => call];
    let prefix = proptest::collection::vec(-3i32..20, 0..12);
    (prefix, proptest::collection::vec((element, separator()), 0..40)).prop_map(|(numbers, elements)| {
        // The names exist from the start, so calls resolve until a failed
        // redefinition (each later one shadows the older).
        let mut text = b": zzdef0 ; : zzdef1 ; : zzdef2 ; : zzdef3 ; : zzdef4 ; : zzdef5 ;\n".to_vec();
        text.extend(numbers.iter().map(|n| format!("{n} ")).collect::<String>().into_bytes());
        text.extend(program_from(elements));
        text
    })
}

/// A program that cannot redefine or rebase what `1 2 + .` uses: safe
/// words, numbers, structure, and whole definitions of fresh names.
fn safe_program() -> impl Strategy<Value = Vec<u8>> {
    let safe = safe_vocabulary();
    let word = prop_oneof![
        4 => select(safe.clone()),
        2 => number(),
        2 => select(STRUCTURE.iter().filter(|s| !UNSAFE.contains(s)).map(|s| s.to_string()).collect::<Vec<_>>()),
    ];
    let definition = (0u32..1000, proptest::collection::vec(word.clone(), 0..8))
        .prop_map(|(n, body)| format!(": zzdef{n} {} ;", body.join(" ")));
    let element = prop_oneof![6 => word, 1 => definition];
    proptest::collection::vec((element, select(vec![" ", " ", "\n"])), 0..40).prop_map(|parts| {
        let mut s = String::new();
        for (e, sep) in parts {
            s.push_str(&e);
            s.push_str(sep);
        }
        s.into_bytes()
    })
}

/// Runs `text`; on an error checks the message and resets the VM. The
/// caller's assertion is that this returns at all (no panic, no hang).
fn run_and_recover(vm: &mut Vm, text: &[u8]) -> Result<(), TestCaseError> {
    let result = vm.run_text("fuzz", text);
    vm.take_output();
    if let Err(e) = result {
        let rendered = format!("{e}");
        prop_assert!(rendered.starts_with("error: "), "bad rendering: {rendered:?}");
        prop_assert!(!e.code().is_empty());
        vm.reset_after_error();
        prop_assert_eq!(vm.stack(), Vec::<i32>::new(), "stack not empty after reset_after_error");
        prop_assert!(!vm.is_compiling(), "still compiling after reset_after_error");
    }
    Ok(())
}


proptest! {
    #![proptest_config(proptest_config())]

    /// Random token programs, run as up to three chunks through one VM.
    #[test]
    fn token_programs_never_panic(chunks in proptest::collection::vec(program(), 1..4)) {
        let mut vm = new_vm();
        for chunk in &chunks {
            run_and_recover(&mut vm, chunk)?;
        }
    }

    /// Raw bytes straight into the outer interpreter.
    #[test]
    fn raw_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut vm = new_vm();
        run_and_recover(&mut vm, &bytes)?;
        // The same VM takes another helping of the same bytes.
        run_and_recover(&mut vm, &bytes)?;
    }

    /// After an error, reset_after_error leaves a VM that works.
    #[test]
    fn reset_after_error_leaves_a_usable_vm(text in safe_program()) {
        let mut vm = new_vm();
        let mut text = text;
        // Two undefined words on lines of their own: whatever the program
        // left open (a definition, a comment, a string, a parsing word
        // waiting for its name), the run ends in an error.
        text.extend_from_slice(b"\nzz-undefined-final-1\nzz-undefined-final-2\n");
        let result = vm.run_text("fuzz", &text);
        vm.take_output();
        prop_assert!(result.is_err(), "the program was expected to fail:\n{}", String::from_utf8_lossy(&text));
        vm.reset_after_error();
        prop_assert_eq!(vm.stack(), Vec::<i32>::new());
        let ok = vm.run_text("check", b"1 2 + .");
        prop_assert!(ok.is_ok(), "`1 2 + .` failed after reset: {}", ok.unwrap_err());
        prop_assert_eq!(String::from_utf8_lossy(&vm.take_output()).into_owned(), "3 ".to_string());
        prop_assert_eq!(vm.stack(), Vec::<i32>::new());
    }
}

#[test]
fn vocabulary_is_the_real_one() {
    let v = vocabulary();
    for w in ["DUP", ":", ";", "IF", "RAND-WITHIN", "S\"", "LOAD"] {
        assert!(v.iter().any(|x| x == w), "vocabulary lacks {w}");
    }
}

#[test]
fn reset_after_error_then_reuse() {
    let mut vm = new_vm();
    for bad in [&b": X 1 IF ;"[..], b"1 0 /", b"nosuch", b"S\" open", b"-1 @", b": R RECURSE ; R", b": L BEGIN AGAIN ; L", b"DEFER D D"] {
        assert!(vm.run_text("bad", bad).is_err(), "{}", String::from_utf8_lossy(bad));
        vm.reset_after_error();
        vm.take_output();
        vm.run_text("check", b"1 2 + .").unwrap();
        assert_eq!(String::from_utf8_lossy(&vm.take_output()), "3 ");
    }
}

/// A small game for the game-layer properties: a grid, an extra
/// position, directions, two players and a neutral one.
const GAME: &str = "{board 3 3 {grid} {position} pool {variable} tally board}
{directions -1 0 {direction} n 1 0 {direction} s 0 1 {direction} e 0 -1 {direction} w {link} e c1 pool directions}
{players {player} A {player} B {neutral} N players}
{board-setup board-setup}
";

/// The game vocabulary move words use, and names of the game above.
const GAME_WORDS: &[&str] = &[
    "from", "here", "back", "to", "home", "empty?", "not-empty?", "friend?", "enemy?", "verify", "add-move", "move",
    "capture", "capture-at", "drop", "create", "create-at", "drop-piece", "change-type", "change-owner-at", "partial",
    "partial-move-type", "Pass", "n", "s", "e", "w", "a1", "b2", "c3", "pool", "Man", "A", "B", "N", "piece-at",
    "player-at", "empty-at?", "COMPILE", "COMPILE-LITERAL", "$CloneBoard", "$DeallocateBoard", "$GenerateMoves",
    "$DeallocateMoves", "$FirstMove", "$NextMove", ".moveCFA", ".moveType", "$MoveString", "EXECUTE", "move-count",
    "current-player", "tally", "turn-offset", "next-turn-offset", "material-balance", "IF", "THEN", "BEGIN", "UNTIL",
    "DUP", "DROP", "SWAP", "0=", "TRUE", "FALSE",
];

fn move_word_body() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        6 => select(GAME_WORDS).prop_map(str::to_string),
        2 => (-3i32..12).prop_map(|n| n.to_string()),
        1 => select(vocabulary().to_vec()),
    ];
    proptest::collection::vec(word, 0..24).prop_map(|w| w.join(" "))
}

proptest! {
    #![proptest_config(proptest_config())]

    /// Random move words (and drop words) in a real game: loading,
    /// generating, perft and playing end in Ok or a clean error.
    #[test]
    fn random_move_words_never_panic(body in move_word_body(), drops in any::<bool>(), setup in 0usize..4) {
        let mut vm = new_vm();
        let placements = ["", "{setup} A Man a1", "{setup} A Man a1 {setup} B Man c3", "{setup} A Man b2 {setup} N Man pool"][setup];
        let lists = if drops { "{drops} zzlist" } else { "{moves} zzlist" };
        let text = format!(
            "{GAME}\n: zzmove {body} ;\n{{moves zzlist {{move}} zzmove moves}}\n{{pieces {{piece}} Man {lists} pieces}}\n{{board-setup {placements} board-setup}}"
        );
        if vm.run_text("fuzz", text.as_bytes()).is_err() || vm.new_game().is_err() {
            return Ok(());
        }
        // A random game may be a real one with a large tree (chains of
        // partial drops that end): a quarter of a second walks into it,
        // and the end of that time is a clean error too.
        vm.set_time_limit(Some((std::time::Instant::now(), std::time::Duration::from_millis(250))));
        vm.refill_steps();
        let _ = vm.perft(2);
        vm.reset_after_error();
        vm.refill_steps();
        if vm.new_game().is_ok() && vm.generate_turn().is_ok() {
            let range = vm.game.store.current();
            if !range.is_empty() {
                let _ = vm.make_move(range.start);
            }
        }
        vm.take_output();
    }
}

#[test]
fn a_move_that_plays_itself_is_an_error() {
    let mut vm = new_vm();
    let text = format!(
        "{GAME}\n: again ( -- ) $FirstMove .moveCFA EXECUTE ;\n: zzmove ( -- ) from here move COMPILE again add-move ;\n\
         {{moves zzlist {{move}} zzmove moves}}\n{{pieces {{piece}} Man {{drops}} zzlist pieces}}"
    );
    vm.run_text("fuzz", text.as_bytes()).unwrap();
    vm.new_game().unwrap();
    vm.generate_turn().unwrap();
    let first = vm.game.store.current().start;
    let e = vm.make_move(first).unwrap_err();
    assert!(e.to_string().contains("nested deeper than"), "{e}");
}
