//! The command line: the clap definitions of every verb, the flags they
//! share, and the dispatch. Each verb lives in a file of its own.

use anyhow::Result;
use axforth::jit::JitMode;
use axforth::open::GameFile;
use axforth::Config;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

mod autoplay;
mod bench;
mod check;
mod game;
mod merge;
mod moves;
mod perft;
mod play;
mod port;
mod repl;
mod replay;
mod run;
mod show;
mod view;

#[derive(Parser)]
#[command(name = "axforth", version, about = "Runs Axiom .4th board games and ForthScript programs")]
struct Cli {
    #[command(flatten)]
    limits: Limits,
    #[command(subcommand)]
    command: Command,
}

/// Limits and reproducibility, shared by every subcommand (their own
/// heading in each verb's `--help`, after the verb's own options).
#[derive(Args, Clone)]
#[command(next_help_heading = "VM options (every command)")]
struct Limits {
    /// Seed the random streams (RANDOMIZE then reseeds from it: runs repeat exactly)
    #[arg(long, global = true)]
    seed: Option<u64>,
    /// Instruction budget (calls, loop iterations, backward jumps); a runaway loop ends with an error
    #[arg(long, global = true)]
    max_steps: Option<u64>,
    /// Data stack depth in cells (16 to 65534)
    #[arg(long, global = true, default_value_t = Config::default().stack_depth, value_parser = clap::value_parser!(u32).range(16..=65534))]
    stack_depth: u32,
    /// Return stack depth (nested calls, and cells for >R and loops; 16 to 65534)
    #[arg(long, global = true, default_value_t = Config::default().return_depth, value_parser = clap::value_parser!(u32).range(16..=65534))]
    return_depth: u32,
    /// Data space size in bytes
    #[arg(long, global = true, default_value_t = Config::default().data_space)]
    data_space: usize,
    /// How deep LOAD may nest
    #[arg(long, global = true, default_value_t = Config::default().load_depth)]
    load_depth: u32,
    /// Wall-clock limit in seconds: past it the command stops with an error (exit status 124), whatever the files do. Under `check`, each variant's (loading and its games; 300 if not given): a variant over it fails and the others go on
    #[arg(long, global = true, value_name = "SECONDS", value_parser = seconds)]
    timeout: Option<std::time::Duration>,
    /// Memory budget of each VM in bytes: its data space, code and native code, saved boards ($CloneBoard), move lists and their edits, UCT's tree; what would grow past it ends the run (or the game) with an error (native code and UCT's tree stop growing instead)
    #[arg(long, global = true, default_value_t = Config::default().max_memory)]
    max_memory: u64,
    /// Check game code (move words, events, engines) strictly: what the original Axiom tolerated becomes an error
    #[arg(long, global = true)]
    strict: bool,
    /// Native code for hot colon definitions: off (the interpreter only), auto (definitions that loop, or are called often), all (every definition at its first call); the default comes from AXFORTH_JIT, else auto
    #[arg(long, global = true, value_name = "off|auto|all", value_parser = parse_jit)]
    jit: Option<JitMode>,
}

/// `--timeout`: a watchdog that ends the process once the command has
/// run that long. It lives outside the VM, so nothing a file does (a
/// loop in native code, a search that never looks at the clock, a hang
/// in the host) outlasts it.
fn start_watchdog(limit: std::time::Duration) {
    let spawned = std::thread::Builder::new().name("axforth-timeout".into()).spawn(move || {
        std::thread::sleep(limit);
        use std::io::Write;
        let _ = std::io::stdout().flush();
        eprintln!("error: timed out after {:.1} s (--timeout)", limit.as_secs_f64());
        std::process::exit(124);
    });
    if spawned.is_err() {
        eprintln!("warning: --timeout: no thread for the watchdog; the command runs without a time limit");
    }
}

fn parse_jit(s: &str) -> Result<JitMode, String> {
    JitMode::parse(s).ok_or_else(|| format!("{s:?}: expected off, auto or all"))
}

impl Limits {
    fn config(&self) -> Result<Config> {
        let jit = match self.jit {
            Some(mode) => mode,
            None => JitMode::from_env().map_err(anyhow::Error::msg)?,
        };
        Ok(Config {
            stack_depth: self.stack_depth,
            return_depth: self.return_depth,
            data_space: self.data_space,
            load_depth: self.load_depth,
            max_steps: self.max_steps,
            seed: self.seed,
            strict: self.strict,
            jit,
            max_memory: self.max_memory,
        })
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
        #[command(flatten)]
        game: GameArg,
        /// List the variants of a .zrf, one per line with its number, instead of a board
        #[arg(long)]
        variants: bool,
        #[command(flatten)]
        after: After,
        /// Also write the board as an SVG picture to this file
        #[arg(long, value_name = "FILE")]
        svg: Option<PathBuf>,
    },
    /// Write a self-contained HTML page that replays a game: an autoplay game log (`autoplay --log DIR`), or a game file with --after moves
    View {
        /// A game log (game-000001.json), a game's top .4th file, or a .zrf
        input: PathBuf,
        /// With a .zrf: the variant, by title or number from 1 (default: the first)
        #[arg(long)]
        variant: Option<String>,
        #[command(flatten)]
        after: After,
        /// The page to write [default: the input's name with .html, in the current folder]
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// List the legal moves of the player to move
    Moves {
        #[command(flatten)]
        game: GameArg,
        #[command(flatten)]
        after: After,
    },
    /// Count the move sequences of DEPTH plies (a partial-move chain is one ply)
    Perft {
        #[command(flatten)]
        game: GameArg,
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
        #[command(flatten)]
        game: GameArg,
        /// The player you play (default: the first player)
        #[arg(long, conflicts_with = "watch")]
        human: Option<String>,
        /// No human: the engines play every side, and the board is shown after every move
        #[arg(long)]
        watch: bool,
        /// With --watch: seconds to pause after each move
        #[arg(long, default_value = "0", value_parser = seconds, requires = "watch")]
        delay: Duration,
        /// Stop after this many plies
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
        /// Seconds the built-in search engine thinks per move
        #[arg(long, default_value = "1", value_parser = seconds)]
        think: Duration,
        /// Built-in engines instead of the file's: one for every player (random, first, search or uct), or per player as
        /// South=search,North=uct
        #[arg(long, value_name = "ENGINE|PLAYER=ENGINE,...")]
        engine: Option<String>,
        #[command(flatten)]
        after: After,
    },
    /// The porter's smoke test: load every game variant in the paths and play seeded random games
    Check {
        /// Game files (.4th, or .zrf: every variant), or folders (their top-level variants and .zrf files, and those of their sub-folders)
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Random games per variant, with seeds 1, 2, ... (--seed does not apply; --max-steps defaults to 50000000 here)
        #[arg(long, default_value_t = 3)]
        games: u32,
        /// A game not over after this many plies counts as unfinished (not a failure); games
        /// without an end (Go-like games whose original left that to Zillions) make this the
        /// cost of a check
        #[arg(long, default_value_t = 1000)]
        max_plies: u32,
        /// Print each variant's warnings under its line on stdout (without it they go to stderr)
        #[arg(long)]
        warnings: bool,
        /// One JSON document instead of lines
        #[arg(long)]
        json: bool,
        /// Keep each failing game in this folder as a game log (moves up to the failure) that `view`, `replay` and `show --after` open
        #[arg(long, value_name = "DIR")]
        log: Option<PathBuf>,
    },
    /// Translate a Zillions rules game (.zrf without an Axiom engine) into ForthScript: one .4th per variant
    Port {
        /// The .zrf
        game: PathBuf,
        /// Only this variant, by title or number from 1 (default: every variant)
        #[arg(long, value_name = "TITLE|N")]
        variant: Option<String>,
        /// The folder to write the .4th files into
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
    },
    /// Play back a record (an autoplay game log or JSON Lines file, or an AutoPlay log of the original Axiom) move by move; report where the rules disagree
    #[command(after_help = "RECORD is any of:\n  \
        a game's log, `game-000001.json` from `autoplay --log DIR` (the tournament's header and one game)\n  \
        a tournament's JSON Lines, from `autoplay --json FILE` (every game in it; a torn last line is skipped)\n  \
        an AutoPlay log of the original Axiom: `AutoPlay A B N`, then each game's numbered moves and the running results\n\
          (its game file is the log's first variant beside it, A.4th, unless --game names one)\n  \
        a Zillions saved game (.zsg): its RulesFile beside it and its VariantName, unless --game (and --variant) say\n\n\
        Every move must be legal and spelt as recorded (a saved game's moves as Zillions spelt them: the same\n\
        words or squares in any order), and each game must end where and as the record says (a saved game may\n\
        stop before the end).")]
    Replay {
        /// The record: a game's log or a tournament's JSON Lines from autoplay, an AutoPlay log of the original, or a Zillions saved game (see below)
        #[arg(value_name = "RECORD")]
        log: PathBuf,
        /// The game file, .4th or .zrf (default: the log's first variant, or the saved game's rules file, beside it)
        #[arg(long)]
        game: Option<PathBuf>,
        /// With a .zrf --game: the variant, by title or number from 1 (default: a saved game's own, else the first)
        #[arg(long, requires = "game")]
        variant: Option<String>,
        /// One JSON document instead of lines
        #[arg(long)]
        json: bool,
    },
    /// Engine against engine: N games per pairing of the variants, seats swapped every game, with statistics
    Autoplay(Box<autoplay::AutoplayArgs>),
    /// Combine the JSON records of a tournament's shards into the summary of the whole
    Merge {
        /// The shards' JSON Lines files (`autoplay --shard K/N --json FILE`)
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the combined record here
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Write the summary as JSON to this file
        #[arg(long, value_name = "FILE")]
        summary_json: Option<PathBuf>,
    },
    /// Benchmarks: Othello perft against a native reference, the bundled games' perft, the engine fast paths, engine nodes/s, autoplay games/min
    Bench {
        /// Sections to run (default: all)
        #[arg(value_parser = ["perft", "games", "paths", "engines", "autoplay"])]
        sections: Vec<String>,
        /// A variant whose first player has a ForthScript engine, for the engines section (and played
        /// against itself in each JIT mode in the autoplay section)
        #[arg(long)]
        script_engine: Option<PathBuf>,
        /// The Othello script to measure (default: the bundled scripts/othello/othello.4th, found from
        /// the current folder or beside the binary)
        #[arg(long)]
        game: Option<PathBuf>,
        /// Perft depth
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Runs; the best time counts
        #[arg(long, default_value_t = 3)]
        runs: u32,
    },
}

/// A number of seconds (`0.5`, `60`): finite and not negative; anything
/// beyond a year is a year, so adding it to a clock cannot overflow.
/// A bar on stderr for work long enough to wonder about (`perft`,
/// `replay`): drawn only on a terminal (hidden, and free, otherwise).
pub(crate) fn progress_bar(unit: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    let template = format!("{{bar:30}} {{pos}}/{{len}} {unit}  [{{elapsed_precise}}, ETA {{eta}}]");
    bar.set_style(indicatif::ProgressStyle::with_template(&template).unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()));
    bar
}

pub(crate) fn seconds(text: &str) -> Result<Duration, String> {
    const YEAR: f64 = 365.0 * 24.0 * 3600.0;
    match text.trim().parse::<f64>() {
        Ok(s) if s >= 0.0 => Ok(Duration::from_secs_f64(s.min(YEAR))),
        _ => Err(format!("`{text}` is not a number of seconds (0 or more)")),
    }
}

/// `autoplay A.zrf --variant X B.zrf --variant Y`: each `--variant`
/// belongs to the `.zrf` before it, which a flag of clap's cannot say; the
/// pair becomes one argument, `A.zrf#X`, as the tournament's records
/// write a variant (and as it may be given directly).
fn variants_joined(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let Some(verb) = args.iter().position(|a| a == "autoplay") else { return args };
    let mut out: Vec<std::ffi::OsString> = args[..=verb].to_vec();
    let mut rest = args[verb + 1..].iter();
    while let Some(arg) = rest.next() {
        let text = arg.to_string_lossy();
        let value = match text.strip_prefix("--variant") {
            Some("") => rest.clone().next().map(|v| v.to_string_lossy().into_owned()),
            Some(v) if v.starts_with('=') => Some(v[1..].to_string()),
            _ => None,
        };
        let after_zrf = out.last().is_some_and(|prev| {
            let p = prev.to_string_lossy();
            axforth::open::is_zrf(std::path::Path::new(p.as_ref())) && !p.contains('#')
        });
        match value {
            Some(v) if after_zrf => {
                if text == "--variant" {
                    rest.next();
                }
                if let Some(prev) = out.last_mut() {
                    prev.push(format!("#{v}"));
                }
            }
            _ => out.push(arg.clone()),
        }
    }
    out
}

/// The game a verb plays: a `.4th`, or a `.zrf` and one of its variants.
#[derive(Args)]
struct GameArg {
    /// The game: its top .4th file, or a Zillions .zrf (an Axiom game's .zrf: the variant's .4th is found
    /// as the original found it, and the .zrf's start position and options apply)
    game: PathBuf,
    /// With a .zrf: the variant, by title (`"Ordo (simple)"`) or number from 1 (default: the first);
    /// `show FILE.zrf --variants` lists them
    #[arg(long, value_name = "TITLE|N")]
    variant: Option<String>,
}

impl GameArg {
    fn open(&self) -> Result<GameFile> {
        GameFile::open(&self.game, self.variant.as_deref()).map_err(anyhow::Error::msg)
    }
}

/// Output piped into `head` or a pager that quits: the reader has gone,
/// and the command ends quietly, as Unix tools do. Printing panics on the
/// closed pipe (Rust ignores SIGPIPE); the hook turns that panic, and
/// only that one, into a quiet exit from any thread.
fn quiet_on_closed_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info.payload().downcast_ref::<String>().map(String::as_str).or_else(|| info.payload().downcast_ref::<&str>().copied()).unwrap_or("");
        if text.starts_with("failed printing to std") && text.to_ascii_lowercase().contains("pipe") {
            std::process::exit(0);
        }
        default(info)
    }));
}

/// Moves to play first, from the start position.
#[derive(Args)]
struct After {
    /// Moves separated by `;`, e.g. "Disc d3; Disc c5": each the move's whole text, or whole words of it
    /// (piece and player names may be left out, `-` stands for `x`, case and spaces do not matter),
    /// or its last words when only one move ends so ("d3")
    #[arg(long, value_name = "MOVES")]
    after: Option<String>,
}

pub fn main() -> ExitCode {
    quiet_on_closed_pipe();
    let cli = Cli::parse_from(variants_joined(std::env::args_os().collect()));
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            // The VM's diagnostics say `error:` themselves; the CLI's own do not.
            let text = format!("{e:#}");
            if text.starts_with("error") {
                eprintln!("{text}");
            } else {
                eprintln!("error: {text}");
            }
            ExitCode::FAILURE
        }
    }
}

fn dispatch(cli: Cli) -> Result<ExitCode> {
    let config = cli.limits.config()?;
    // `check` times each variant itself, so that one over its time fails
    // and the rest go on.
    if let (Some(limit), false) = (cli.limits.timeout, matches!(cli.command, Command::Check { .. })) {
        start_watchdog(limit);
    }
    match cli.command {
        Command::Run { files } => run::run(config, &files),
        Command::Repl { files } => repl::repl(config, &files),
        Command::Show { game, variants, after, svg } => {
            if variants {
                return show::variants(&game.game).map(|_| ExitCode::SUCCESS);
            }
            show::show(config, &game.open()?, after.after.as_deref(), svg.as_deref()).map(|_| ExitCode::SUCCESS)
        }
        Command::View { input, variant, after, output } => view::view(config, &input, variant.as_deref(), after.after.as_deref(), output.as_deref()).map(|_| ExitCode::SUCCESS),
        Command::Moves { game, after } => moves::moves(config, &game.open()?, after.after.as_deref()).map(|_| ExitCode::SUCCESS),
        Command::Perft { game, depth, divide, after } => {
            perft::perft(config, &game.open()?, depth, divide, after.after.as_deref()).map(|_| ExitCode::SUCCESS)
        }
        Command::Check { paths, games, max_plies, warnings, json, log } => {
            let timeout = cli.limits.timeout.unwrap_or(Duration::from_secs(300));
            let options = check::CheckOptions { games, max_plies, timeout, json, warnings, log };
            check::check(config, &paths, &options)
        }
        Command::Replay { log, game, variant, json } => {
            replay::replay(config, &log, game.as_deref(), variant.as_deref(), json)
        }
        Command::Port { game, variant, output } => port::port(&game, variant.as_deref(), &output).map(|_| ExitCode::SUCCESS),
        Command::Autoplay(args) => autoplay::autoplay(config, &args),
        Command::Merge { files, out, summary_json } => merge::merge(&files, out.as_deref(), summary_json.as_deref()),
        Command::Bench { sections, script_engine, game, depth, runs } => {
            let options = bench::BenchOptions { game, depth, runs, sections, script_engine };
            bench::bench(config, &options).map(|_| ExitCode::SUCCESS)
        }
        Command::Play { game, human, watch, delay, max_plies, think, engine, after } => {
            let options = play::PlayOptions { human: human.as_deref(), watch, max_plies, think, engine: engine.as_deref(), delay };
            play::play(config, &game.open()?, &options, after.after.as_deref()).map(|_| ExitCode::SUCCESS)
        }
    }
}
