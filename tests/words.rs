//! Word-group unit tests: each test runs small ForthScript programs through
//! the public API and checks exact output and stack contents.

use axforth::{Config, ErrorKind, Vm, VmError};
use pretty_assertions::assert_eq;
use std::path::{Path, PathBuf};

// ---- helpers ----------------------------------------------------------------

fn config() -> Config {
    Config { max_steps: Some(50_000_000), seed: Some(12345), ..Config::default() }
}

fn new_vm_with(config: Config) -> Vm {
    let mut vm = Vm::new(config).expect("creating a VM must not fail");
    vm.capture_output();
    vm
}

fn new_vm() -> Vm {
    new_vm_with(config())
}

/// Runs `src` in `vm`; panics with the rendered diagnostic on error.
fn exec(vm: &mut Vm, src: &str) -> String {
    if let Err(e) = vm.run_text("test", src.as_bytes()) {
        panic!("unexpected error running {src:?}:\n{e}");
    }
    String::from_utf8_lossy(&vm.take_output()).into_owned()
}

/// Output and final stack of `src` in a fresh VM.
fn run(src: &str) -> (String, Vec<i32>) {
    let mut vm = new_vm();
    let out = exec(&mut vm, src);
    (out, vm.stack())
}

fn out(src: &str) -> String {
    run(src).0
}

fn stack(src: &str) -> Vec<i32> {
    run(src).1
}

/// The error `src` must fail with.
fn fail(src: &str) -> VmError {
    let mut vm = new_vm();
    match vm.run_text("test", src.as_bytes()) {
        Ok(()) => panic!("expected an error from {src:?}, got stack {:?}", vm.stack()),
        Err(e) => e,
    }
}

fn tokens(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

/// A scratch directory under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
        let p = std::env::temp_dir().join(format!("axforth-words-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run_file(path: &Path) -> Result<String, VmError> {
    let mut vm = new_vm();
    vm.run_file(path)?;
    Ok(String::from_utf8_lossy(&vm.take_output()).into_owned())
}

// ---- stack words --------------------------------------------------------------

#[test]
fn stack_shuffles() {
    assert_eq!(stack("1 DUP"), vec![1, 1]);
    assert_eq!(stack("1 2 DROP"), vec![1]);
    assert_eq!(stack("1 2 SWAP"), vec![2, 1]);
    assert_eq!(stack("1 2 OVER"), vec![1, 2, 1]);
    assert_eq!(stack("1 2 3 ROT"), vec![2, 3, 1]);
    assert_eq!(stack("1 2 3 -ROT"), vec![3, 1, 2]);
    assert_eq!(stack("1 2 NIP"), vec![2]);
    assert_eq!(stack("1 2 TUCK"), vec![2, 1, 2]);
    assert_eq!(stack("10 20 30 0 PICK"), vec![10, 20, 30, 30]);
    assert_eq!(stack("10 20 30 2 PICK"), vec![10, 20, 30, 10]);
    assert_eq!(stack("10 20 30 2 ROLL"), vec![20, 30, 10]);
    assert_eq!(stack("10 20 30 1 ROLL"), vec![10, 30, 20]);
    assert_eq!(stack("10 20 30 0 ROLL"), vec![10, 20, 30]);
    assert_eq!(stack("1 2 2DUP"), vec![1, 2, 1, 2]);
    assert_eq!(stack("1 2 3 2DROP"), vec![1]);
    assert_eq!(stack("1 2 3 4 2SWAP"), vec![3, 4, 1, 2]);
    assert_eq!(stack("1 2 3 4 2OVER"), vec![1, 2, 3, 4, 1, 2]);
    assert_eq!(stack("0 ?DUP"), vec![0]);
    assert_eq!(stack("5 ?DUP"), vec![5, 5]);
    assert_eq!(stack("DEPTH"), vec![0]);
    assert_eq!(stack("7 8 9 DEPTH"), vec![7, 8, 9, 3]);
}

#[test]
fn stack_shuffles_compiled() {
    // The same words inside a definition (compiled code, fused ops).
    let src = ": T1 1 2 3 ROT -ROT SWAP OVER NIP TUCK ;  T1
               : T2 10 20 30 2 PICK 3 ROLL ;  T2
               : T3 1 2 3 4 2SWAP 2OVER 2DROP ?DUP DEPTH ;  T3";
    assert_eq!(stack(src), vec![1, 3, 3, 3, 20, 30, 10, 10, 3, 4, 1, 2, 2, 13]);
}

#[test]
fn return_stack_words_in_definitions() {
    assert_eq!(stack(": T 5 >R 6 R@ R> ; T"), vec![6, 5, 5]);
    assert_eq!(stack(": T 1 2 >R >R R> R> ; T"), vec![1, 2]);
}

#[test]
fn underflow_is_an_error_naming_the_need() {
    let e = fail("1 +");
    assert_eq!(e.code(), "stack-underflow");
    assert_eq!(e.kind, ErrorKind::StackUnderflow { needs: 2, has: 1 });
    assert!(format!("{e}").contains("(needs 2, has 1)"), "{e}");
}

// ---- arithmetic -------------------------------------------------------------------

#[test]
fn arithmetic_basics() {
    assert_eq!(stack("2 3 + 10 4 - 6 7 *"), vec![5, 6, 42]);
    assert_eq!(stack("5 1+ 5 1- 5 2+ 5 2- 5 2* 5 2/"), vec![6, 4, 7, 3, 10, 2]);
    assert_eq!(stack("-5 ABS 5 ABS 5 NEGATE -5 NEGATE"), vec![5, 5, -5, 5]);
    assert_eq!(stack("3 9 MIN 3 9 MAX -3 -9 MIN -3 -9 MAX"), vec![3, 9, -9, -3]);
    assert_eq!(stack("-7 2/"), vec![-4], "2/ is an arithmetic shift");
}

#[test]
fn division_truncates_toward_zero() {
    assert_eq!(stack("7 2 / -7 2 / 7 -2 / -7 -2 /"), vec![3, -3, -3, 3]);
    assert_eq!(stack("7 2 MOD -7 2 MOD 7 -2 MOD -7 -2 MOD"), vec![1, -1, 1, -1]);
    assert_eq!(stack("-7 2 /MOD"), vec![-1, -3], "/MOD leaves rem quot");
    assert_eq!(stack("7 3 /MOD"), vec![1, 2]);
    assert_eq!(stack("-7 1 2 */"), vec![-3]);
    // */ keeps a double-width intermediate: 100000*100000 does not overflow.
    assert_eq!(stack("100000 100000 1000 */"), vec![10_000_000]);
}

#[test]
fn division_truncates_toward_zero_compiled() {
    let src = ": D / ; : M MOD ; : DM /MOD ; : MD */ ;
               -7 2 D  7 -2 D  -7 2 M  7 -2 M  -7 2 DM  -7 1 2 MD";
    assert_eq!(stack(src), vec![-3, -3, -1, 1, -1, -3, -3]);
}

#[test]
fn arithmetic_wraps() {
    assert_eq!(stack("2147483647 1 +"), vec![i32::MIN]);
    assert_eq!(stack("-2147483648 1 -"), vec![i32::MAX]);
    assert_eq!(stack("65536 65536 *"), vec![0]);
    assert_eq!(stack("-2147483648 NEGATE"), vec![i32::MIN]);
    assert_eq!(stack("-2147483648 ABS"), vec![i32::MIN]);
    assert_eq!(stack("-2147483648 -1 /"), vec![i32::MIN]);
    assert_eq!(stack("-2147483648 -1 MOD"), vec![0]);
    assert_eq!(stack("2147483647 1+ 2147483647 2*"), vec![i32::MIN, -2]);
    // Same through fused literal ops in compiled code.
    assert_eq!(stack(": T 1 + ; 2147483647 T : U 2 * ; 2147483647 U : V 1 - ; -2147483648 V"), vec![i32::MIN, -2, i32::MAX]);
}

#[test]
fn division_by_zero_is_an_error() {
    for src in ["1 0 /", "1 0 MOD", "1 0 /MOD", "1 2 0 */", ": T 0 / ; 5 T", ": T 0 MOD ; 5 T"] {
        let e = fail(src);
        assert_eq!(e.code(), "division-by-zero", "{src}");
        assert_eq!(e.kind, ErrorKind::DivisionByZero, "{src}");
    }
}

#[test]
fn logic_and_shifts() {
    assert_eq!(stack("5 3 AND 5 3 OR 5 3 XOR 5 INVERT"), vec![1, 7, 6, -6]);
    assert_eq!(stack("1 4 LSHIFT 256 4 RSHIFT -1 28 RSHIFT 1 31 LSHIFT"), vec![16, 16, 15, i32::MIN]);
    // NOT is logical, INVERT is bitwise.
    assert_eq!(stack("5 NOT 0 NOT -1 NOT 5 INVERT"), vec![0, -1, 0, -6]);
}

// ---- comparisons and flags ---------------------------------------------------------

#[test]
fn flags_are_minus_one_and_zero() {
    assert_eq!(stack("TRUE FALSE"), vec![-1, 0]);
    assert_eq!(stack("1 2 < 2 1 < 1 1 = 1 2 = 1 2 <> 1 1 <>"), vec![-1, 0, -1, 0, -1, 0]);
    assert_eq!(stack("2 1 > 1 2 > 1 1 <= 2 1 <= 1 1 >= 1 2 >="), vec![-1, 0, -1, 0, -1, 0]);
    assert_eq!(stack("0 0= 5 0= 5 0<> 0 0<> -5 0< 5 0< 5 0> -5 0>"), vec![-1, 0, -1, 0, -1, 0, -1, 0]);
    assert_eq!(stack("-1 0 U< 0 -1 U< -5 3 <"), vec![0, -1, -1]);
}

#[test]
fn comparisons_compiled_and_fused_agree_with_interpreted() {
    // `x y OP IF` and `x n OP IF` are fused into compare-and-branch
    // instructions: they must agree with the plain words.
    let ops = ["=", "<>", "<", ">", "<=", ">="];
    let pairs = [(1, 2), (2, 1), (3, 3), (-1, 1), (i32::MIN, i32::MAX)];
    let mut vm = new_vm();
    for op in ops {
        exec(&mut vm, &format!(": F{op} {op} ; : B{op} {op} IF 1 ELSE 0 THEN ;"));
        for (a, b) in pairs {
            exec(&mut vm, &format!(": L{op} {b} {op} IF 1 ELSE 0 THEN ; : E{op} {b} {op} IF ELSE 7 THEN ;"));
            let plain = exec(&mut vm, &format!("{a} {b} {op} ."));
            let flag = exec(&mut vm, &format!("{a} {b} F{op} ."));
            assert_eq!(plain, flag, "{a} {b} {op}");
            let expected = if plain.trim() == "-1" { "1 " } else { "0 " };
            assert_eq!(exec(&mut vm, &format!("{a} {b} B{op} .")), expected, "{a} {b} {op} IF");
            assert_eq!(exec(&mut vm, &format!("{a} L{op} .")), expected, "{a} {b}-literal {op} IF");
            let empty_if = if plain.trim() == "-1" { "" } else { "7 " };
            exec(&mut vm, &format!("{a} E{op}"));
            let left = vm.stack();
            if !left.is_empty() {
                exec(&mut vm, ".");
            }
            assert_eq!(left, if empty_if.is_empty() { vec![] } else { vec![7] }, "{a} {b} {op} IF ELSE");
        }
    }
}

#[test]
fn any_nonzero_is_true() {
    let src = ": T IF 1 ELSE 0 THEN ; 7 T -1 T 0 T i32min T";
    let src = src.replace("i32min", "-2147483648");
    assert_eq!(stack(&src), vec![1, 1, 0, 1]);
    assert_eq!(stack(": U 0 BEGIN 1+ DUP 3 - 0= 5 AND UNTIL ; U"), vec![3]);
    assert_eq!(stack(": Z DUP IF 1+ THEN ; 0 Z 4 Z"), vec![0, 5]);
    assert_eq!(stack(": Q 0= IF 10 ELSE 20 THEN ; 0 Q 3 Q"), vec![10, 20]);
    assert_eq!(stack(": W 0<> IF 10 ELSE 20 THEN ; 0 W 3 W"), vec![20, 10]);
    assert_eq!(stack(": X IF 1 ENDIF ; 9 X"), vec![1], "ENDIF is THEN");
}

// ---- memory -------------------------------------------------------------------------

#[test]
fn cells_are_little_endian() {
    let src = "VARIABLE V 258 V ! V C@ V 1+ C@ V 2 + C@ V 3 + C@";
    assert_eq!(stack(src), vec![2, 1, 0, 0]);
    let src = "VARIABLE V 305419896 V ! V C@ V 3 + C@ -1 V ! V 2 + C@";
    assert_eq!(stack(src), vec![0x78, 0x12, 255]);
    let src = "VARIABLE V 1 V C! 2 V 1+ C! 0 V 2 + C! 128 V 3 + C! V @";
    assert_eq!(stack(src), vec![0x8000_0201u32 as i32]);
    // C! keeps the low byte only.
    assert_eq!(stack("VARIABLE V 0 V ! 513 V C! V @"), vec![1]);
}

#[test]
fn fetch_store_plus_store() {
    assert_eq!(stack("VARIABLE V 42 V ! V @ 5 V +! V @ -50 V +! V @"), vec![42, 47, -3]);
    assert_eq!(out("VARIABLE V 9 V ! V ?"), "9 ");
    assert_eq!(stack("VARIABLE V V @"), vec![0], "variables start at zero");
    // Compiled, with fused constant-address and offset accesses.
    let src = "VARIABLE V CREATE T 3 CELLS ALLOT
               : S 7 V ! V @ 1 V +! V @ ;  S
               : O 11 T 8 + ! T 8 + @ 65 T 5 + C! T 5 + C@ T 2 CELLS + @ ;  O";
    assert_eq!(stack(src), vec![7, 8, 11, 65, 11]);
}

#[test]
fn inc_dec_on_off() {
    assert_eq!(stack("VARIABLE V V ++ V ++ V ++ V -- V @"), vec![2]);
    assert_eq!(stack("VARIABLE V V ON V @ V OFF V @"), vec![-1, 0]);
    assert_eq!(stack("VARIABLE V : T V ++ V ++ V -- V @ V ON V @ V OFF V @ ; T"), vec![1, -1, 0]);
}

#[test]
fn here_allot_comma() {
    assert_eq!(stack("HERE 8 ALLOT HERE SWAP -"), vec![8]);
    assert_eq!(stack("HERE 5 , HERE SWAP -"), vec![4]);
    assert_eq!(stack("HERE 5 C, HERE SWAP -"), vec![1]);
    assert_eq!(stack("HERE 7 , 9 , DUP @ SWAP 4 + @"), vec![7, 9]);
    assert_eq!(stack("3 CELLS CELLSIZE"), vec![12, 4]);
    assert_eq!(stack("HERE 100 ALLOT -100 ALLOT HERE ="), vec![-1], "negative ALLOT gives space back");
}

#[test]
fn fill_erase_move() {
    let src = "CREATE B 8 ALLOT B 8 65 FILL B C@ B 7 + C@ B 2 + 3 ERASE B 1+ C@ B 2 + C@ B 4 + C@ B 5 + C@";
    assert_eq!(stack(src), vec![65, 65, 65, 0, 0, 65]);
    // MOVE copies, also when the ranges overlap.
    let src = "CREATE B 1 C, 2 C, 3 C, 4 C, 5 C, 0 C, 0 C, 0 C,
               B B 2 + 5 MOVE B C@ B 1+ C@ B 2 + C@ B 3 + C@ B 6 + C@";
    assert_eq!(stack(src), vec![1, 2, 1, 2, 5]);
    let src = "CREATE B 1 C, 2 C, 3 C, 4 C, 5 C, B 1+ B 4 MOVE B C@ B 3 + C@ B 4 + C@";
    assert_eq!(stack(src), vec![2, 5, 5]);
}

#[test]
fn memory_is_bounds_checked() {
    for src in ["-1 @", "-4 @", "2147483647 @", "1 -1 !", "1 2147483647 !", "-1 C@", "1 -1 C!", "4194304 C@", "4194302 @",
                "-1 ++", "-1 ON", ": T -8 + @ ; 0 T", ": T 2000000000 @ ; T"] {
        let e = fail(src);
        assert_eq!(e.code(), "address-out-of-range", "{src}");
    }
}

// ---- defining words ------------------------------------------------------------------

#[test]
fn constants_and_variables() {
    assert_eq!(stack("42 CONSTANT X X X +"), vec![84]);
    assert_eq!(stack("-5 CONSTANT N : T N 1+ ; T"), vec![-4]);
    assert_eq!(stack("VARIABLE A VARIABLE B A B <> 3 A ! 4 B ! A @ B @"), vec![-1, 3, 4]);
}

#[test]
fn create_and_comma() {
    assert_eq!(stack("CREATE X 1 , 2 , X @ X 4 + @"), vec![1, 2]);
    assert_eq!(stack("CREATE X ' X >BODY X ="), vec![-1]);
    assert_eq!(stack("CREATE X 10 , : T X @ ; T"), vec![10]);
}

#[test]
fn builds_does() {
    let src = ": CONST <BUILDS , DOES> @ ; 42 CONST FOO 7 CONST BAR FOO BAR : T FOO BAR + ; T";
    assert_eq!(stack(src), vec![42, 7, 49]);
    let src = ": ARR CREATE CELLS ALLOT DOES> SWAP CELLS + ; 3 ARR AA 5 1 AA ! 6 2 AA ! 1 AA @ 2 AA @ 2 AA 1 AA -";
    assert_eq!(stack(src), vec![5, 6, 4]);
    let src = ": COUNTER CREATE 0 , DOES> DUP ++ @ ; COUNTER C1 COUNTER C2 C1 C1 C1 C2";
    assert_eq!(stack(src), vec![1, 2, 3, 1]);
}

#[test]
fn arrays() {
    assert_eq!(stack("5 [] ARR 7 2 ARR ! 2 ARR @ 0 ARR @ 4 ARR @"), vec![7, 0, 0]);
    assert_eq!(stack("5 [] ARR 3 ARR 1 ARR -"), vec![8]);
    let src = "4 [] SQ : FILLSQ 4 0 DO I I * I SQ ! LOOP ; FILLSQ : T 3 SQ @ 2 SQ @ ; T";
    assert_eq!(stack(src), vec![9, 4]);
}

#[test]
fn defer_and_is_interpreting() {
    let src = "DEFER D : A1 111 ; : A2 222 ; ' A1 IS D D ' A2 IS D D";
    assert_eq!(stack(src), vec![111, 222]);
}

#[test]
fn defer_and_is_compiling() {
    let src = "DEFER D : A1 111 ; : A2 222 ;
               : SET1 ['] A1 IS D ;  : SETX ( xt -- ) IS D ;  : CALLD D ;
               SET1 CALLD ' A2 SETX CALLD SET1 D";
    assert_eq!(stack(src), vec![111, 222, 111]);
}

#[test]
fn unset_defer_is_an_error_naming_it() {
    let e = fail("DEFER DD : T DD ; T");
    assert_eq!(e.code(), "unset-defer");
    assert_eq!(e.kind, ErrorKind::UnsetDefer("DD".into()));
    assert!(format!("{e}").contains("DD"), "{e}");
}

#[test]
fn is_needs_a_deferred_word() {
    assert_eq!(fail(": NOTD ; ' NOTD IS NOTD").code(), "not-deferred");
    assert_eq!(fail("DEFER D 999999 IS D").code(), "not-an-xt");
}

#[test]
fn immediate_words_run_while_compiling() {
    let src = ": FIVE 5 ; IMMEDIATE : T FIVE ; DEPTH";
    // FIVE ran while T was compiled: 5 was left on the stack then.
    assert_eq!(stack(src), vec![5, 1]);
    assert_eq!(stack(": L [ 2 3 + ] LITERAL ; L"), vec![5]);
    assert_eq!(stack(": ST STATE @ ; IMMEDIATE : T ST LITERAL ; T ST"), vec![-1, 0]);
}

// ---- compiler words ----------------------------------------------------------------

#[test]
fn compile_and_compile_literal_inside_immediate_words() {
    let src = ": SQUARE-OF-5 5 COMPILE-LITERAL COMPILE DUP COMPILE * ; IMMEDIATE
               : T SQUARE-OF-5 1+ ;  T";
    assert_eq!(stack(src), vec![26]);
    // The immediate word left no code of its own in T.
    let src = ": ADD7 7 COMPILE-LITERAL COMPILE + ; IMMEDIATE : T ADD7 ADD7 ; 1 T";
    assert_eq!(stack(src), vec![15]);
}

#[test]
fn postpone_immediate_and_non_immediate() {
    let src = ": MYIF POSTPONE IF ; IMMEDIATE : MYTHEN POSTPONE THEN ; IMMEDIATE
               : T MYIF 1 ELSE 2 MYTHEN ;  -1 T 0 T";
    assert_eq!(stack(src), vec![1, 2]);
    let src = ": TWICE POSTPONE DUP POSTPONE + ; IMMEDIATE : T TWICE ; 21 T";
    assert_eq!(stack(src), vec![42]);
}

#[test]
fn bracket_compile() {
    let src = ": MYTHEN [COMPILE] THEN ; IMMEDIATE : W IF 7 MYTHEN 8 ; 1 W 0 W";
    assert_eq!(stack(src), vec![7, 8, 8]);
    let src = ": D2 [COMPILE] DUP ; 3 D2";
    assert_eq!(stack(src), vec![3, 3]);
}

#[test]
fn tick_bracket_tick_execute() {
    assert_eq!(stack("3 ' DUP EXECUTE"), vec![3, 3]);
    assert_eq!(stack(": SQ DUP * ; 6 ' SQ EXECUTE"), vec![36]);
    assert_eq!(stack(": T ['] 1+ EXECUTE ; 41 T"), vec![42]);
    assert_eq!(stack("VARIABLE V : SQ DUP * ; ' SQ V ! 5 V @ EXECUTE"), vec![25]);
    assert_eq!(stack("CREATE TBL ' 1+ , ' 2* , 10 TBL @ EXECUTE TBL 4 + @ EXECUTE"), vec![22]);
    assert_eq!(stack("' DUP ' DUP = ' DUP ' DROP ="), vec![-1, 0]);
    assert_eq!(fail("' NO-SUCH-WORD").code(), "undefined-word");
    assert_eq!(fail("-1 EXECUTE").code(), "not-an-xt");
    assert_eq!(fail("123456789 EXECUTE").code(), "not-an-xt");
}

#[test]
fn recurse() {
    let src = ": FACT DUP 1 > IF DUP 1- RECURSE * THEN ; 5 FACT 10 FACT";
    assert_eq!(stack(src), vec![120, 3_628_800]);
    let src = ": FIB DUP 2 < IF ELSE DUP 1- RECURSE SWAP 2 - RECURSE + THEN ; 20 FIB";
    assert_eq!(stack(src), vec![6765]);
}

// ---- strings and output ---------------------------------------------------------------

#[test]
fn dot_quote() {
    assert_eq!(out(".\" hello world\""), "hello world");
    assert_eq!(out(": T .\" in def\" ; T T"), "in defin def");
    assert_eq!(out(".\" a\" CR .\" b\""), "a\nb");
    assert_eq!(out(".\"  two leading\""), " two leading", "only the one delimiting space is skipped");
}

#[test]
fn s_quote_and_type_counted_strings() {
    assert_eq!(out("S\" hello\" TYPE"), "hello");
    assert_eq!(stack("S\" hello\" C@"), vec![5]);
    assert_eq!(stack("S\" hello\" 1+ C@"), vec![b'h' as i32]);
    assert_eq!(stack("S\" \" C@"), vec![0]);
    assert_eq!(stack("S\" abc\" DUP COUNT SWAP ROT -"), vec![3, 1]);
    assert_eq!(out(": T S\" compiled\" TYPE ; T SPACE T"), "compiled compiled");
    // One address only.
    assert_eq!(stack("S\" xyz\" DEPTH NIP"), vec![1]);
}

#[test]
fn emit_space_spaces_dot() {
    assert_eq!(out("65 EMIT 66 EMIT SPACE 67 EMIT 3 SPACES 68 EMIT"), "AB C   D");
    assert_eq!(out("1 . -2 . 0 ."), "1 -2 0 ");
    assert_eq!(out("-1 U."), "4294967295 ");
    assert_eq!(out("42 5 .R"), "   42");
    assert_eq!(out("BL EMIT"), " ");
}

#[test]
fn ascii_char_bracket_char() {
    assert_eq!(stack("ASCII A CHAR B"), vec![65, 66]);
    assert_eq!(stack(": T [CHAR] C ASCII D ; T"), vec![67, 68]);
    assert_eq!(stack("CHAR hello"), vec![b'h' as i32], "first character of the next word");
}

#[test]
fn abort_quote() {
    let mut vm = new_vm();
    exec(&mut vm, ": T ( f -- ) ABORT\" boom\" 5 ;");
    assert_eq!(exec(&mut vm, "0 T ."), "5 ");
    let e = vm.run_text("test", b"1 T").unwrap_err();
    assert_eq!(e.code(), "abort");
    assert_eq!(e.kind, ErrorKind::Abort("boom".into()));
    assert_eq!(e.word.as_deref(), Some("T"));
    assert!(format!("{e}").contains("boom"), "{e}");
    vm.reset_after_error();
    assert_eq!(exec(&mut vm, "1 2 + ."), "3 ");
}

#[test]
fn abort_plain() {
    assert_eq!(fail("1 2 ABORT 3").code(), "abort");
}

#[test]
fn comments() {
    assert_eq!(stack("1 ( a comment ) 2 \\ 3 4\n5"), vec![1, 2, 5]);
    assert_eq!(stack(": T 1 ( inside\n over lines ) 2 \\ rest\n 3 ; T"), vec![1, 2, 3]);
    assert_eq!(fail("(foo").code(), "undefined-word", "a glued ( is not a comment");
}

// ---- system words --------------------------------------------------------------------

#[test]
fn see_shows_the_calls() {
    let mut vm = new_vm();
    exec(&mut vm, ": HALVE DUP 0< IF NEGATE THEN 2/ ; : QUARTER HALVE HALVE 1+ ;");
    let text = exec(&mut vm, "SEE QUARTER");
    assert!(text.contains("QUARTER"), "{text}");
    assert_eq!(text.matches("HALVE").count(), 2, "{text}");
    let text = exec(&mut vm, "SEE HALVE");
    for w in ["HALVE", "NEGATE", "2/", "DUP"] {
        assert!(text.contains(w), "SEE HALVE should mention {w}:\n{text}");
    }
    assert!(!exec(&mut vm, "SEE DUP").is_empty());
}

#[test]
fn words_lists_the_vocabulary() {
    let mut vm = new_vm();
    exec(&mut vm, ": MY-NEW-WORD ;");
    let listed = tokens(&exec(&mut vm, "WORDS"));
    for w in ["DUP", "DROP", "+", "RAND-WITHIN", "SEE", "LOAD", "HEX", "WITHIN", "MY-NEW-WORD", "IF", ":", ";"] {
        assert!(listed.iter().any(|x| x == w), "WORDS should list {w}");
    }
    assert!(!listed.iter().any(|x| x == "dup"));
}

#[test]
fn dot_s_does_not_consume() {
    assert_eq!(run("1 2 3 .S"), ("<3> 1 2 3 ".to_string(), vec![1, 2, 3]));
    assert_eq!(out(".S"), "<0> ");
    assert_eq!(out("-1 255 HEX .S"), "<2> -1 FF ");
}

#[test]
fn base_and_hex() {
    assert_eq!(out("255 HEX . DECIMAL"), "FF ");
    assert_eq!(stack("HEX FF 10 DECIMAL 10"), vec![255, 16, 10]);
    assert_eq!(out("HEX BASE @ DECIMAL ."), "16 ");
    assert_eq!(stack("BINARY 101 OCTAL 17 DECIMAL"), vec![5, 15]);
    assert_eq!(stack("16 BASE ! 1F DECIMAL"), vec![31]);
    assert_eq!(out("HEX -1 . -1 U. DECIMAL"), "-1 FFFFFFFF ");
    assert_eq!(out("-255 HEX . DECIMAL"), "-FF ");
    assert_eq!(stack("HEX FFFFFFFF DECIMAL"), vec![-1]);
    assert_eq!(stack("$10 #10 %10"), vec![16, 10, 2]);
    assert_eq!(fail("12A").code(), "undefined-word", "A is not a decimal digit");
}

#[test]
fn number_out_of_range_is_an_error() {
    for src in ["99999999999", "4294967296", "-2147483649", ": T 99999999999 ;", "HEX 100000000"] {
        assert_eq!(fail(src).code(), "number-out-of-range", "{src}");
    }
    assert_eq!(stack("-2147483648 2147483647"), vec![i32::MIN, i32::MAX]);
}

// ---- random numbers ---------------------------------------------------------------------

fn seeded(seed: u64) -> Vm {
    new_vm_with(Config { seed: Some(seed), ..config() })
}

fn clear(vm: &mut Vm) {
    let n = vm.stack().len();
    for _ in 0..n {
        exec(vm, "DROP");
    }
}

fn take(vm: &mut Vm, word: &str, n: usize) -> Vec<i32> {
    exec(vm, &format!(": TAKE {n} 0 ?DO 1 1000000 {word} LOOP ; TAKE"));
    let s = vm.stack();
    clear(vm);
    s
}

#[test]
fn rand_within_range_inclusive() {
    let mut vm = seeded(7);
    exec(&mut vm, ": R 3000 0 DO -3 3 RAND-WITHIN LOOP ; R");
    let s = vm.stack();
    assert_eq!(s.len(), 3000);
    assert!(s.iter().all(|&x| (-3..=3).contains(&x)), "out of range: {s:?}");
    for v in -3..=3 {
        assert!(s.contains(&v), "{v} never drawn");
    }
    assert_eq!(stack("5 5 RAND-WITHIN"), vec![5]);
    assert_eq!(stack("-2147483648 2147483647 RAND-WITHIN DEPTH NIP"), vec![1]);
    let s = stack(": R 200 0 DO 0 1 RAND-WITHIN2 LOOP ; R");
    assert!(s.iter().all(|&x| x == 0 || x == 1) && s.contains(&0) && s.contains(&1), "{s:?}");
}

#[test]
fn rand_within_is_deterministic_under_a_seed() {
    let a = take(&mut seeded(99), "RAND-WITHIN", 20);
    let b = take(&mut seeded(99), "RAND-WITHIN", 20);
    let c = take(&mut seeded(100), "RAND-WITHIN", 20);
    assert_eq!(a, b, "same seed, same sequence");
    assert_ne!(a, c, "different seed, different sequence");
}

#[test]
fn randomize_reseeds_from_the_fixed_seed() {
    let mut vm = seeded(4242);
    let first = take(&mut vm, "RAND-WITHIN", 10);
    let more = take(&mut vm, "RAND-WITHIN", 10);
    assert_ne!(first, more);
    exec(&mut vm, "RANDOMIZE");
    assert_eq!(take(&mut vm, "RAND-WITHIN", 10), first, "RANDOMIZE restarts the seeded sequence");
}

#[test]
fn rand_within2_is_an_independent_stream() {
    let mut plain = seeded(55);
    let s1 = take(&mut plain, "RAND-WITHIN", 10);

    let mut mixed = seeded(55);
    let t1 = take(&mut mixed, "RAND-WITHIN2", 7);
    let m1 = take(&mut mixed, "RAND-WITHIN", 10);
    assert_eq!(m1, s1, "drawing from stream 2 must not disturb stream 1");
    assert_ne!(t1[..7], s1[..7], "stream 2 is not a copy of stream 1");

    // Same seed reproduces stream 2 too, and RANDOMIZE2 restarts it
    // without touching stream 1.
    let mut again = seeded(55);
    assert_eq!(take(&mut again, "RAND-WITHIN2", 7), t1);
    let a1 = take(&mut again, "RAND-WITHIN", 5);
    exec(&mut again, "RANDOMIZE2");
    assert_eq!(take(&mut again, "RAND-WITHIN2", 7), t1, "RANDOMIZE2 restarts stream 2");
    assert_eq!(take(&mut again, "RAND-WITHIN", 5), s1[5..10].to_vec(), "RANDOMIZE2 left stream 1 alone");
    assert_eq!(a1, s1[..5].to_vec());
}

// ---- loops -----------------------------------------------------------------------------

#[test]
fn do_loop_and_plus_loop() {
    assert_eq!(out(": T 5 0 DO I . LOOP ; T"), "0 1 2 3 4 ");
    assert_eq!(out(": T 10 0 DO I . 3 +LOOP ; T"), "0 3 6 9 ");
    assert_eq!(out(": T 6 0 DO I . 2 +LOOP ; T"), "0 2 4 ");
    assert_eq!(out(": T -2 -5 DO I . LOOP ; T"), "-5 -4 -3 ");
}

#[test]
fn plus_loop_negative_step() {
    assert_eq!(out(": T 0 10 DO I . -3 +LOOP ; T"), "10 7 4 1 ");
    assert_eq!(out(": T 0 10 DO I . -1 +LOOP ; T"), "10 9 8 7 6 5 4 3 2 1 0 ");
    assert_eq!(out(": T 0 0 DO I . -1 +LOOP ; T"), "0 ");
    assert_eq!(out(": T -10 -4 DO I . -2 +LOOP ; T"), "-4 -6 -8 -10 ");
}

#[test]
fn question_do() {
    assert_eq!(out(": T 5 5 ?DO I . LOOP 99 . ; T"), "99 ");
    assert_eq!(out(": T 3 0 ?DO I . LOOP ; T"), "0 1 2 ");
    assert_eq!(out(": T 0 ?DO I . LOOP ; 0 T 2 T"), "0 1 ");
}

#[test]
fn leave_and_unloop_exit() {
    assert_eq!(out(": T 10 0 DO I DUP . 4 = IF LEAVE THEN LOOP 77 . ; T"), "0 1 2 3 4 77 ");
    assert_eq!(out(": T 10 0 ?DO I 2 = IF LEAVE THEN I . LOOP ; T"), "0 1 ");
    assert_eq!(stack(": T 10 0 DO I 3 = IF I UNLOOP EXIT THEN LOOP 99 ; T"), vec![3]);
    // Nested: UNLOOP both levels, then EXIT.
    let src = ": T 5 0 DO 5 0 DO J I * 6 = IF J I UNLOOP UNLOOP EXIT THEN LOOP LOOP 99 ; T 1000";
    assert_eq!(stack(src), vec![2, 3, 1000]);
    // LEAVE leaves only the inner loop.
    assert_eq!(out(": T 3 0 DO 10 0 DO I 1 = IF LEAVE THEN J . LOOP LOOP ; T"), "0 1 2 ");
}

#[test]
fn nested_i_j_k() {
    let src = ": NEST 2 0 DO 2 0 DO 2 0 DO K 100 * J 10 * + I + . LOOP LOOP LOOP ; NEST";
    assert_eq!(out(src), "0 1 10 11 100 101 110 111 ");
    assert_eq!(out(": T 3 1 DO 2 0 DO J . I . LOOP LOOP ; T"), "1 0 1 1 2 0 2 1 ");
}

#[test]
fn begin_until_while_repeat_again() {
    assert_eq!(stack(": B 0 BEGIN 1+ DUP 5 = UNTIL ; B"), vec![5]);
    assert_eq!(stack(": B 0 BEGIN DUP 3 < WHILE 1+ REPEAT ; B"), vec![3]);
    assert_eq!(stack(": B 10 BEGIN DUP 3 < WHILE 1+ REPEAT ; B"), vec![10]);
    assert_eq!(stack(": B 0 BEGIN 1+ DUP 7 = IF EXIT THEN AGAIN ; B"), vec![7]);
    assert_eq!(out(": B 0 BEGIN DUP . 1+ DUP 3 > UNTIL DROP ; B"), "0 1 2 3 ");
    // Nested BEGIN loops.
    let src = ": B 0 3 BEGIN DUP WHILE 2 BEGIN DUP WHILE ROT 1+ -ROT 1- REPEAT DROP 1- REPEAT DROP ; B";
    assert_eq!(stack(src), vec![6]);
}

#[test]
fn if_else_then_nesting() {
    let src = ": SIGN DUP 0< IF DROP -1 ELSE 0> IF 1 ELSE 0 THEN THEN ; -5 SIGN 0 SIGN 9 SIGN";
    assert_eq!(stack(src), vec![-1, 0, 1]);
}

#[test]
fn infinite_loop_hits_the_step_budget() {
    let mut vm = new_vm_with(Config { max_steps: Some(10_000), ..config() });
    let e = vm.run_text("test", b": L BEGIN AGAIN ; L").unwrap_err();
    assert_eq!(e.code(), "step-limit");
    assert_eq!(e.word.as_deref(), Some("L"));
    vm.reset_after_error();
    assert_eq!(exec(&mut vm, "1 2 + ."), "3 ");
}

// ---- the dictionary ------------------------------------------------------------------------

#[test]
fn names_are_case_sensitive() {
    assert_eq!(stack(": drop 99 ; 1 2 DROP drop"), vec![1, 99]);
    assert_eq!(stack(": is 7 ; DEFER D : A 1 ; ' A IS D is D"), vec![7, 1]);
    let e = fail("1 dup");
    assert_eq!(e.code(), "undefined-word");
    assert_eq!(e.kind, ErrorKind::UndefinedWord("dup".into(), Some(Box::new("names are case-sensitive: did you mean `DUP`?".into()))));
}

#[test]
fn newest_definition_wins_old_references_keep_the_old_one() {
    // Short words (inlined) and longer ones (called) behave the same.
    assert_eq!(stack(": X 1 ; : Y X ; : X 2 ; Y X"), vec![1, 2]);
    let src = ": X 3 0 DO LOOP 1 ; : Y X ; : X 3 0 DO LOOP 2 ; Y X";
    assert_eq!(stack(src), vec![1, 2]);
}

#[test]
fn definition_calls_the_old_word_not_itself() {
    assert_eq!(stack(": X 2 ; : X X 10 + ; X"), vec![12]);
    let src = ": X 3 0 DO LOOP 2 ; : X X X * ; X";
    assert_eq!(stack(src), vec![4]);
    // A word that does not exist yet is not found inside its own body.
    assert_eq!(fail(": NEWWORD NEWWORD ;").code(), "undefined-word");
}

#[test]
fn defining_inside_brackets_does_not_cut_the_definition() {
    // `[ 5 CONSTANT Y ]` in the middle of X: either it works (X leaves 1 2)
    // or it is refused with an error; silently losing the rest of X's code
    // is not acceptable.
    let mut vm = new_vm();
    match vm.run_text("test", b": X 1 [ 5 CONSTANT Y ] 2 ; X Y") {
        Ok(()) => assert_eq!(vm.stack(), vec![1, 2, 5], "X must run its whole body"),
        Err(e) => assert!(format!("{e}").starts_with("error: "), "{e}"),
    }
}

#[test]
fn exit_from_a_loop_does_not_disturb_the_callers_loop() {
    let src = ": INNER 10 0 DO I 2 = IF EXIT THEN LOOP ; : OUTER 3 0 DO INNER I . LOOP ; OUTER";
    assert_eq!(out(src), "0 1 2 ");
}

#[test]
fn bye_ends_a_file_cleanly() {
    let dir = TempDir::new("bye");
    let main = dir.write("main.4th", "1 . BYE 2 .\n");
    assert_eq!(run_file(&main).unwrap(), "1 ");
}

#[test]
fn definitions_continue_across_run_text_calls() {
    let mut vm = new_vm();
    exec(&mut vm, ": FOO 1");
    exec(&mut vm, "2 + ;");
    assert_eq!(exec(&mut vm, "FOO ."), "3 ");
}

#[test]
fn reset_after_error_clears_stacks_and_state() {
    let mut vm = new_vm();
    assert!(vm.run_text("t", b"1 2 3 : HALF 4 nosuch").is_err());
    vm.reset_after_error();
    assert_eq!(vm.stack(), Vec::<i32>::new());
    assert_eq!(exec(&mut vm, "1 2 + ."), "3 ");
    assert_eq!(fail("HALF").code(), "undefined-word");
}

// ---- LOAD ----------------------------------------------------------------------------------

#[test]
fn load_is_relative_to_the_loading_file() {
    let dir = TempDir::new("rel");
    let main = dir.write("main.4th", "1 . LOAD sub/mid.4th 4 .\n");
    dir.write("sub/mid.4th", "2 . LOAD leaf.4th\n");
    dir.write("sub/leaf.4th", "3 .\n");
    // A decoy next to main.4th: must not be picked for sub/mid.4th's LOAD.
    dir.write("leaf.4th", ".\" wrong leaf\"\n");
    assert_eq!(run_file(&main).unwrap(), "1 2 3 4 ");
}

#[test]
fn load_falls_back_to_a_case_insensitive_match() {
    let dir = TempDir::new("case");
    let main = dir.write("main.4th", "LOAD board.4TH LOAD SUB/Pieces.4th\n");
    dir.write("Board.4th", ".\" board \"\n");
    dir.write("sub/pieces.4th", ".\" pieces\"\n");
    assert_eq!(run_file(&main).unwrap(), "board pieces");
}

#[test]
fn load_prefers_the_exact_name() {
    let dir = TempDir::new("exact");
    let main = dir.write("main.4th", "LOAD Lib.4th\n");
    dir.write("lib.4th", ".\" lower\"\n");
    dir.write("Lib.4th", ".\" exact\"\n");
    dir.write("LIB.4th", ".\" upper\"\n");
    assert_eq!(run_file(&main).unwrap(), "exact");
}

#[test]
fn load_defines_words_for_the_loader() {
    let dir = TempDir::new("defs");
    let main = dir.write("main.4th", "LOAD lib.4th 20 DOUBLE .\n");
    dir.write("lib.4th", ": DOUBLE 2* ;\n");
    assert_eq!(run_file(&main).unwrap(), "40 ");
}

#[test]
fn load_errors() {
    let dir = TempDir::new("errs");
    let main = dir.write("main.4th", "LOAD missing.4th\n");
    let e = run_file(&main).unwrap_err();
    assert_eq!(e.code(), "load-not-found");
    let a = dir.write("a.4th", "LOAD b.4th\n");
    dir.write("b.4th", "LOAD A.4TH\n");
    let e = run_file(&a).unwrap_err();
    assert_eq!(e.code(), "load-cycle");
    let s = dir.write("self.4th", "1 .\nLOAD self.4th\n");
    assert_eq!(run_file(&s).unwrap_err().code(), "load-cycle");
}

#[test]
fn load_reports_errors_inside_the_loaded_file() {
    let dir = TempDir::new("inner");
    let main = dir.write("main.4th", "1 .\nLOAD lib.4th\n");
    dir.write("lib.4th", "\n\n   oops\n");
    let e = run_file(&main).unwrap_err();
    assert_eq!(e.code(), "undefined-word");
    let loc = e.location.clone().expect("a location");
    assert!(loc.file.ends_with("lib.4th"), "{loc:?}");
    assert_eq!((loc.line, loc.col), (3, 4));
    let text = format!("{e}");
    assert!(text.contains("main.4th"), "the trace should name the loading file:\n{text}");
}

#[test]
fn a_definition_that_compiles_into_itself_while_it_runs() {
    // FOO runs during its own compilation (its xt is X's plus one) and
    // compiles `3 +` into its own tail, which the compiler fuses into one
    // instruction right where FOO is about to continue.
    let src = ": X ;  : FOO 3 COMPILE-LITERAL COMPILE + [ 4 ' X 1+ EXECUTE ] ;";
    assert_eq!(stack(src), vec![7]);
}

/// `RESTART-TIMER name` inside a definition reads the name as it is
/// compiled and restarts that timer each time the definition runs (it
/// used to read a name from the input at run time: here `7`); a word
/// that is not a TIMER is refused, a constant of the same value too.
#[test]
fn restart_timer_inside_a_definition_restarts_its_timer_when_run() {
    let src = "TIMER tt
        : restart ( -- ) RESTART-TIMER tt ;
        : wait ( -- ) BEGIN tt 20 > UNTIL ;
        wait tt 20 > restart 7 tt 20 <";
    assert_eq!(stack(src), vec![-1, 7, -1]);
    assert!(fail("TIMER tt 0 CONSTANT zero : r ( -- ) RESTART-TIMER zero ;").to_string().contains("`zero` is not a TIMER"));
}

/// Captured output keeps its first MiB and says how much more there was
/// (a run that prints in a loop must not make memory grow with it).
#[test]
fn captured_output_keeps_its_first_mebibyte() {
    let text = out(": x ( -- ) 70000 0 DO .\" 0123456789abcdef\" LOOP ; x");
    let kept = 1 << 20;
    assert_eq!(&text[..32], "0123456789abcdef0123456789abcdef");
    assert_eq!(&text[kept..], format!("\n[{} more bytes printed, not kept]\n", 70000 * 16 - kept));
    assert_eq!(out(".\" small\""), "small");
}
