//! `axforth repl`: read a line, interpret it, say `ok` (or `compiled`
//! inside a definition, whose lines get a `]` prompt). An error prints its
//! diagnostic, resets the stacks, and the session goes on; so does Ctrl-C
//! while code runs.

use anyhow::{bail, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use axforth::{Config, Vm};
use rustyline::error::ReadlineError;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn repl(config: Config, files: &[PathBuf]) -> Result<ExitCode> {
    if let Some(missing) = files.iter().find(|f| !f.is_file()) {
        bail!("cannot load {}: no such file", missing.display());
    }
    let mut vm = Vm::new(config)?;
    // Ctrl-C while code runs stops it with an error (the session and its
    // definitions stay); while a line is being typed the editor has it.
    let interrupt = Arc::new(AtomicBool::new(false));
    vm.interrupt = Some(interrupt.clone());
    vm.refill_steps();
    ctrlc::set_handler(move || interrupt.store(true, Ordering::SeqCst)).ok();
    if let Some((_, cols)) = console::Term::stdout().size_checked() {
        vm.columns = cols as usize;
    }
    for file in files {
        if let Err(e) = vm.run_file(file) {
            vm.flush_output();
            eprintln!("{e}");
            vm.reset_after_error();
        }
    }
    vm.flush_output();
    let mut editor = rustyline::DefaultEditor::new()?;
    let history = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".axforth_history"));
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    println!("axforth {} — ForthScript REPL. BYE or Ctrl-D leaves.", env!("CARGO_PKG_VERSION"));
    loop {
        let prompt = if vm.is_compiling() { "]  " } else { "" };
        let line = match editor.readline(prompt) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(e.into()),
        };
        let _ = editor.add_history_entry(line.as_str());
        if let Some(flag) = &vm.interrupt {
            flag.store(false, Ordering::SeqCst); // a Ctrl-C typed between lines
        }
        let result = vm.run_text("<repl>", line.as_bytes());
        vm.flush_output();
        match result {
            Ok(()) if vm.bye_requested() => break,
            Ok(()) if vm.is_compiling() => println!(" compiled"),
            Ok(()) => println!(" ok"),
            Err(e) => {
                eprintln!("{e}");
                vm.reset_after_error();
            }
        }
    }
    if let Some(h) = &history {
        let _ = editor.save_history(h);
    }
    Ok(ExitCode::SUCCESS)
}
