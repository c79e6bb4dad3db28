//! `axforth run FILE...`: interprets the files in order; at the end, the
//! names declarations used before their definitions must exist.

use super::game::print_warnings;
use anyhow::Result;
use axforth::{Config, Vm};
use std::path::PathBuf;
use std::process::ExitCode;

pub fn run(config: Config, files: &[PathBuf]) -> Result<ExitCode> {
    let mut vm = Vm::new(config)?;
    for file in files {
        let r = vm.run_file(file);
        vm.flush_output();
        print_warnings(&mut vm);
        if let Err(e) = r {
            eprintln!("{e}");
            return Ok(ExitCode::FAILURE);
        }
        if vm.bye_requested() {
            return Ok(ExitCode::SUCCESS);
        }
    }
    if let Err(e) = vm.check_loaded() {
        eprintln!("{e}");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
