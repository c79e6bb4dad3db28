//! The compiler's optimizer (superinstructions, idiom rewriting, literals
//! moved through `>R ... R>`, rotated WHILE loops) must not change what a
//! program does. Each random definition is compiled twice: as written,
//! and with every primitive called through `['] word EXECUTE`, which
//! nothing fuses. Both must leave the same stack and memory, or fail
//! with the same kind of error.

use axforth::dictionary::WordKind;
use axforth::{Config, Vm};
use proptest::prelude::*;

mod common;
use common::programs::{block, BUF_CELLS};
use common::proptest_config;

fn new_vm() -> Vm {
    let config = Config { stack_depth: 256, return_depth: 256, data_space: 64 * 1024, max_steps: Some(20_000), seed: Some(1), ..Config::default() };
    let mut vm = Vm::new(config).expect("creating a VM");
    vm.capture_output();
    vm.run_text("setup", format!("CREATE BUF {} ALLOT  VARIABLE V", BUF_CELLS * 4).as_bytes()).expect("setup");
    vm
}

/// The same program with each primitive word run through EXECUTE.
fn unfused(vm: &Vm, program: &str) -> String {
    // `>R` and `R>` through EXECUTE would act on the thunk's own return
    // stack frame, so they stay as they are.
    const CONTROL: &[&str] = &["IF", "ELSE", "THEN", "DO", "LOOP", "BEGIN", "WHILE", "REPEAT", "BUF", "V", ">R", "R>"];
    program
        .split_whitespace()
        .map(|t| {
            let is_number = t.parse::<i32>().is_ok();
            let primitive = vm.dict.find(t.as_bytes()).is_some_and(|xt| matches!(vm.dict.word(xt).kind, WordKind::Primitive(_)));
            if is_number || CONTROL.contains(&t) || !primitive {
                t.to_string()
            } else {
                format!("['] {t} EXECUTE")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `: T <body> ; 1 2 3 T` and returns the stack and the buffers, or
/// the error's code.
fn outcome(body: &str) -> Result<(Vec<i32>, Vec<i32>), String> {
    let mut vm = new_vm();
    let text = format!(": T {body} ;\n1 2 3 T");
    let result = vm.run_text("t", text.as_bytes());
    match result {
        Err(e) => Err(e.code().to_string()),
        Ok(()) => {
            let mut mem = Vec::new();
            for i in 0..BUF_CELLS + 2 {
                vm.run_text("m", format!("BUF {} + @", i * 4).as_bytes()).map_err(|e| e.code().to_string())?;
                mem.push(vm.pop().map_err(|e| e.code().to_string())?);
            }
            Ok((vm.stack(), mem))
        }
    }
}


proptest! {
    #![proptest_config(proptest_config())]

    #[test]
    fn optimized_code_does_what_the_words_say(body in block(2, false)) {
        let reference = unfused(&new_vm(), &body);
        let fast = outcome(&body);
        let slow = outcome(&reference);
        // The step budget counts calls, and EXECUTE calls: only compare
        // runs that the budget did not cut short.
        let budget = |r: &Result<_, String>| matches!(r, Err(code) if code == "step-limit");
        if budget(&fast) || budget(&slow) {
            return Ok(());
        }
        // Where both fail, the first error may differ in two ways that are
        // not bugs: a superinstruction checks the stack depth of all its
        // parts before doing any (where `@ +` meets one cell holding a bad
        // address, `@` alone fails on the address, the fused op on the
        // depth), and the reference's `['] w EXECUTE` takes one more data
        // stack cell and one more call frame, so at the limits it can
        // overflow a little sooner or later. Any other difference is a bug.
        let depth_error = |r: &Result<_, String>| {
            matches!(r, Err(code) if ["stack-underflow", "stack-overflow", "return-stack-overflow"].contains(&code.as_str()))
        };
        if fast.is_err() && slow.is_err() && (depth_error(&fast) || depth_error(&slow)) {
            return Ok(());
        }
        prop_assert_eq!(fast, slow, "\n  optimized: {}\n  reference: {}", body, reference);
    }
}

#[test]
fn the_reference_really_is_unfused() {
    let vm = new_vm();
    assert_eq!(unfused(&vm, "I CELLS BUF + @ 5 +"), "['] I EXECUTE ['] CELLS EXECUTE BUF ['] + EXECUTE ['] @ EXECUTE 5 ['] + EXECUTE");
}
