//! The malformed-input corpus: every `tests/malformed/*.4th` file must fail
//! with a clean error of the expected kind, at the expected place.
//!
//! Each corpus file starts with a header line:
//!
//! ```text
//! \ expect: <code> <line>:<col> [word=<name>] [max-steps=<n>] [file=<suffix>] [trace=<text>]...
//! ```
//!
//! - `<code>` is `VmError::code()`, `<line>:<col>` the 1-based location.
//! - `word=` also checks `VmError::word`.
//! - `max-steps=` sets the instruction budget (default 10_000_000).
//! - `file=` when the error is located in another file (a LOADed helper in
//!   `tests/malformed/lib/`): the location's file must end with it.
//! - `trace=` (repeatable): some "called from" line must contain the text.
//!
//! A first line `\ corpus: skip` marks helper files (they live in `lib/`,
//! which is not scanned anyway).

use axforth::{Config, Vm, VmError};
use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};
mod common;
use common::cli::axforth;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/malformed");

#[derive(Debug, Default)]
struct Expect {
    code: String,
    line: u32,
    col: u32,
    word: Option<String>,
    max_steps: Option<u64>,
    file: Option<String>,
    trace: Vec<String>,
}

fn first_line(text: &[u8]) -> String {
    let end = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
    String::from_utf8_lossy(&text[..end]).trim_end_matches('\r').to_string()
}

/// None for files marked `\ corpus: skip`.
fn parse_header(path: &Path, text: &[u8]) -> Option<Expect> {
    let line = first_line(text);
    if line.starts_with("\\ corpus: skip") {
        return None;
    }
    let rest = line
        .strip_prefix("\\ expect: ")
        .unwrap_or_else(|| panic!("{}: first line must be `\\ expect: ...`, found {line:?}", path.display()));
    let mut parts = rest.split_whitespace();
    let code = parts.next().expect("code").to_string();
    let (l, c) = parts.next().and_then(|lc| lc.split_once(':')).unwrap_or_else(|| panic!("{}: missing line:col", path.display()));
    let mut e = Expect { code, line: l.parse().expect("line"), col: c.parse().expect("col"), ..Expect::default() };
    for part in parts {
        match part.split_once('=') {
            Some(("word", w)) => e.word = Some(w.to_string()),
            Some(("max-steps", n)) => e.max_steps = Some(n.parse().expect("max-steps")),
            Some(("file", f)) => e.file = Some(f.to_string()),
            Some(("trace", t)) => e.trace.push(t.to_string()),
            _ => panic!("{}: unknown header item {part:?}", path.display()),
        }
    }
    Some(e)
}

fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(CORPUS)
        .expect("tests/malformed exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "4th"))
        .collect();
    files.sort();
    files
}

fn run_corpus_file(path: &Path, max_steps: Option<u64>) -> Result<(), VmError> {
    let config = Config { max_steps: Some(max_steps.unwrap_or(10_000_000)), ..Config::default() };
    let mut vm = Vm::new(config).expect("creating a VM");
    vm.capture_output();
    vm.run_file(path)
}

/// Checks one file; returns a description of every mismatch.
fn check(path: &Path) -> Vec<String> {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let text = std::fs::read(path).unwrap();
    let Some(expect) = parse_header(path, &text) else { return Vec::new() };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_corpus_file(path, expect.max_steps)));
    let err = match result {
        Err(_) => return vec![format!("{name}: the VM panicked")],
        Ok(Ok(())) => return vec![format!("{name}: expected error `{}`, but the file ran without error", expect.code)],
        Ok(Err(e)) => e,
    };
    let rendered = format!("{err}");
    let mut problems = Vec::new();
    let mut problem = |what: String| problems.push(format!("{name}: {what}\n    rendered:\n      {}", rendered.replace('\n', "\n      ")));

    if err.code() != expect.code {
        problem(format!("code: expected `{}`, got `{}`", expect.code, err.code()));
    }
    match &err.location {
        None => problem(format!("no location (expected {}:{})", expect.line, expect.col)),
        Some(loc) => {
            if (loc.line, loc.col) != (expect.line, expect.col) {
                problem(format!("location: expected {}:{}, got {}:{}", expect.line, expect.col, loc.line, loc.col));
            }
            let want_file = expect.file.clone().unwrap_or_else(|| name.clone());
            if !loc.file.ends_with(&want_file) {
                problem(format!("location file: expected …{want_file}, got {}", loc.file));
            }
        }
    }
    if let Some(w) = &expect.word {
        if err.word.as_deref() != Some(w.as_str()) {
            problem(format!("word: expected `{w}`, got {:?}", err.word));
        }
    }
    for t in &expect.trace {
        if !err.trace.iter().any(|line| line.contains(t.as_str())) {
            problem(format!("trace: no \"called from\" line mentions {t:?}"));
        }
    }
    if !rendered.starts_with("error: ") {
        problem("rendered message does not start with `error: `".into());
    }
    if !rendered.contains("--> ") {
        problem("rendered message has no `--> ` location line".into());
    }
    if !rendered.contains(&name) {
        problem(format!("rendered message does not mention the file name {name}"));
    }
    problems
}

#[test]
fn corpus_is_big_enough() {
    let n = corpus_files().iter().filter(|p| parse_header(p, &std::fs::read(p).unwrap()).is_some()).count();
    assert!(n >= 34, "only {n} corpus files");
}

/// One test per corpus file (so each failure is reported on its own); the
/// list must name every file in the folder (checked below).
macro_rules! corpus {
    ($($name:ident),* $(,)?) => {
        const LISTED: &[&str] = &[$(stringify!($name)),*];
        $(
            #[test]
            fn $name() {
                let path = Path::new(CORPUS).join(concat!(stringify!($name), ".4th"));
                let problems = check(&path);
                assert!(problems.is_empty(), "\n{}\n", problems.join("\n\n"));
            }
        )*
    };
}

corpus! {
    abort, abort_quote_triggered, begin_without_until, cfetch_huge, cfetch_negative,
    colon_inside_definition, colon_without_name, compile_only_i, compile_only_if,
    compile_only_semicolon, compile_only_to_r, constant_without_name, crlf_line_ends, cstore_huge,
    cstore_negative, cyclic_load, division_by_zero, divmod_by_zero, do_without_loop,
    else_without_if, execute_negative_xt, execute_non_xt, fetch_huge, fetch_in_word,
    fetch_negative, fetch_offset_out_of_range, fetch_straddling_end, huge_allot, i_outside_loop,
    if_without_then, infinite_loop, infinite_until_loop, is_non_deferred, latin1_and_tabs,
    leave_outside_loop, load_error_inside, load_without_name, loop_without_do, missing_load,
    mod_by_zero, move_out_of_range, muldiv_by_zero, negative_allot, negative_array,
    oversized_negative_in_definition, oversized_number, pick_out_of_range, random_bytes,
    repeat_without_while, return_stack_underflow, runaway_recursion, self_load, stack_overflow,
    store_huge, store_negative, then_without_if, type_bad_address, underflow_deep,
    underflow_deep_inlined, underflow_fused_literal, unknown_word, unknown_word_after_tick, unknown_word_in_definition,
    unset_defer, unterminated_abort_quote, unterminated_comment, unterminated_definition,
    unterminated_dot_quote, unterminated_s_quote, until_without_begin, variable_without_name,
}

#[test]
fn every_corpus_file_has_a_test() {
    let on_disk: Vec<String> = corpus_files()
        .iter()
        .filter(|p| parse_header(p, &std::fs::read(p).unwrap()).is_some())
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut listed: Vec<String> = LISTED.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(listed, on_disk, "add new corpus files to the `corpus!` list");
}

/// `random_bytes.4th` is the header line followed by 1024 bytes of xorshift32
/// output (seed 0x2545F491, shifts 13/17/5, low byte of each step).
#[test]
fn random_bytes_file_is_really_binary() {
    // Guards the corpus itself: the garbage must stay garbage.
    let text = std::fs::read(Path::new(CORPUS).join("random_bytes.4th")).unwrap();
    assert!(text.len() > 1000);
    assert!(text.iter().filter(|&&b| b > 127).count() > 300);
    assert!(text.contains(&0));
}

#[test]
fn header_parser_reads_every_item() {
    let e = parse_header(Path::new("x"), b"\\ expect: step-limit 4:9 word=SPIN max-steps=100 file=lib/a.4th trace=A trace=B\r\nrest").unwrap();
    assert_eq!(
        (e.code.as_str(), e.line, e.col, e.word.as_deref(), e.max_steps, e.file.as_deref(), e.trace.clone()),
        ("step-limit", 4, 9, Some("SPIN"), Some(100), Some("lib/a.4th"), vec!["A".to_string(), "B".to_string()])
    );
    assert!(parse_header(Path::new("x"), b"\\ corpus: skip\n").is_none());
}

// ---- the binary ----------------------------------------------------------------

#[test]
fn binary_exits_non_zero_with_the_diagnostic_on_stderr() {
    let out = axforth(&["run", "tests/malformed/division_by_zero.4th"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "exit status {:?}", out.status);
    assert!(stderr.starts_with("error: division by zero"), "{stderr}");
    assert!(stderr.contains("--> tests/malformed/division_by_zero.4th:2:28"), "{stderr}");
    assert!(stderr.contains("AVERAGE"), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
}

#[test]
fn binary_applies_max_steps() {
    let out = axforth(&["--max-steps", "100000", "run", "tests/malformed/infinite_loop.4th"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.starts_with("error: step budget of 100000"), "{stderr}");
    assert!(stderr.contains("--> tests/malformed/infinite_loop.4th:4:9"), "{stderr}");
}

#[test]
fn binary_stops_at_the_first_failing_file() {
    let dir = std::env::temp_dir().join(format!("axforth-malformed-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ok = dir.join("ok.4th");
    let after = dir.join("after.4th");
    std::fs::write(&ok, ".\" first \"").unwrap();
    std::fs::write(&after, ".\" never\"").unwrap();
    let bad = Path::new(CORPUS).join("unknown_word.4th");
    let out = axforth(&["run", ok.to_str().unwrap(), bad.to_str().unwrap(), after.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "first ");
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: undefined word: frobnicate"));
}
