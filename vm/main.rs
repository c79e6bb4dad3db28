//! The `axforth` command line: one subcommand per job.

use anyhow::Result;
use axforth::{Config, Vm};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod repl;

#[derive(Parser)]
#[command(name = "axforth", version, about = "Runs Axiom .4th board games and ForthScript programs")]
struct Cli {
    #[command(flatten)]
    limits: Limits,
    #[command(subcommand)]
    command: Command,
}

/// Limits and reproducibility, shared by every subcommand.
#[derive(Args, Clone)]
struct Limits {
    /// Seed the random streams (RANDOMIZE then reseeds from it: runs repeat exactly)
    #[arg(long, global = true)]
    seed: Option<u64>,
    /// Instruction budget (calls, loop iterations, backward jumps); a runaway loop ends with an error
    #[arg(long, global = true)]
    max_steps: Option<u64>,
    /// Data stack depth in cells
    #[arg(long, global = true, default_value_t = Config::default().stack_depth)]
    stack_depth: u32,
    /// Return stack depth (nested calls, and cells for >R and loops)
    #[arg(long, global = true, default_value_t = Config::default().return_depth)]
    return_depth: u32,
    /// Data space size in bytes
    #[arg(long, global = true, default_value_t = Config::default().data_space)]
    data_space: usize,
    /// How deep LOAD may nest
    #[arg(long, global = true, default_value_t = Config::default().load_depth)]
    load_depth: u32,
}

impl Limits {
    fn config(&self) -> Config {
        Config {
            stack_depth: self.stack_depth,
            return_depth: self.return_depth,
            data_space: self.data_space,
            load_depth: self.load_depth,
            max_steps: self.max_steps,
            seed: self.seed,
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Interpret ForthScript files, in order; exits non-zero on the first error
    Run {
        /// Files to interpret
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Interactive session with line editing and history; errors reset the stacks and the session goes on
    Repl {
        /// Files to load before the prompt
        files: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    let config = cli.limits.config();
    match cli.command {
        Command::Run { files } => {
            let mut vm = Vm::new(config)?;
            for file in files {
                let r = vm.run_file(&file);
                vm.flush_output();
                if let Err(e) = r {
                    eprintln!("{e}");
                    return Ok(ExitCode::FAILURE);
                }
                if vm.bye_requested() {
                    break;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Repl { files } => repl::repl(config, &files),
    }
}
