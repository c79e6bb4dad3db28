//! `axforth repl`: read a line, interpret it, say `ok`. An error prints
//! its diagnostic, resets the stacks, and the session goes on.

use anyhow::Result;
use axforth::{Config, Vm};
use rustyline::error::ReadlineError;
use std::path::PathBuf;
use std::process::ExitCode;

pub fn repl(config: Config, files: &[PathBuf]) -> Result<ExitCode> {
    let mut vm = Vm::new(config)?;
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
