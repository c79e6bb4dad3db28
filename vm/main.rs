//! The `axforth` command line: one subcommand per job.

use anyhow::Result;
use axforth::{Config, Vm};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod game_cli;
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
    /// Check game code (move words, events, engines) strictly: what the original Axiom tolerated becomes an error
    #[arg(long, global = true)]
    strict: bool,
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
            strict: self.strict,
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
    /// Show the board of a game (after --after moves, if given)
    Show {
        /// The game's top .4th file
        game: PathBuf,
        #[command(flatten)]
        after: After,
    },
    /// List the legal moves of the player to move
    Moves {
        /// The game's top .4th file
        game: PathBuf,
        #[command(flatten)]
        after: After,
    },
    /// Count the move sequences of DEPTH plies (a partial-move chain is one ply)
    Perft {
        /// The game's top .4th file
        game: PathBuf,
        /// Plies to count
        depth: u32,
        /// One count per first move
        #[arg(long)]
        divide: bool,
        #[command(flatten)]
        after: After,
    },
    /// Play in the terminal against the engines the game file assigns
    Play {
        /// The game's top .4th file
        game: PathBuf,
        /// The player you play (default: the first player)
        #[arg(long)]
        human: Option<String>,
        /// No human: the engines play every side
        #[arg(long)]
        watch: bool,
        /// Stop after this many plies
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
        /// Seconds the built-in search engine thinks per move
        #[arg(long, default_value_t = 1.0)]
        think: f64,
        /// Every engine player uses this engine instead of the file's: random, first or search
        #[arg(long, value_parser = ["random", "first", "search"])]
        engine: Option<String>,
        #[command(flatten)]
        after: After,
    },
    /// Othello perft: the ForthScript game against a native Rust mailbox reference
    Bench {
        /// The Othello script to measure
        #[arg(long, default_value = "scripts/othello/othello.4th")]
        game: PathBuf,
        /// Perft depth
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Runs; the best time counts
        #[arg(long, default_value_t = 3)]
        runs: u32,
    },
}

/// Moves to play first, from the start position.
#[derive(Args)]
struct After {
    /// Moves in Zillions notation separated by `;`, e.g. "Disc d3; Disc c5"
    #[arg(long, value_name = "MOVES")]
    after: Option<String>,
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
        Command::Show { game, after } => game_cli::show(config, &game, after.after.as_deref()).map(|_| ExitCode::SUCCESS),
        Command::Moves { game, after } => game_cli::moves(config, &game, after.after.as_deref()).map(|_| ExitCode::SUCCESS),
        Command::Perft { game, depth, divide, after } => {
            game_cli::perft(config, &game, depth, divide, after.after.as_deref()).map(|_| ExitCode::SUCCESS)
        }
        Command::Bench { game, depth, runs } => game_cli::bench(config, &game, depth, runs).map(|_| ExitCode::SUCCESS),
        Command::Play { game, human, watch, max_plies, think, engine, after } => {
            let options = game_cli::PlayOptions { human: human.as_deref(), watch, max_plies, think, engine: engine.as_deref() };
            game_cli::play(config, &game, &options, after.after.as_deref()).map(|_| ExitCode::SUCCESS)
        }
    }
}
