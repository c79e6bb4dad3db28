//! `axforth autoplay A.4th B.4th [C.4th …] -n N`: engine against engine,
//! as the original's AutoPlay (AXIOM.md §6) and beyond it: parallel
//! games, reproducible seeds, openings, SPRT, JSON Lines records that
//! survive a kill and can be resumed, sharded and merged.

use super::game::engine_choices;
use anyhow::{anyhow, bail, Context, Result};
use axforth::search::Limits;
use axforth::tournament::game::{preflight, GameOptions, PreflightError};
use axforth::view;
use axforth::tournament::record::{self, GameLog, GameRecord, Header, Writer};
use axforth::tournament::runner::{self, Next};
use axforth::tournament::schedule::Schedule;
use axforth::tournament::stats::SprtStatus;
use axforth::tournament::summary::Summary;
use axforth::Config;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use axforth::open::{split_spec, GameFile};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Args)]
pub struct AutoplayArgs {
    /// The variants (two for a match; more for a round robin): .4th files, or .zrf files each followed by
    /// `--variant TITLE|N`; or, as the original's batch files wrote it, variant names without `.4th` run in
    /// their folder, with the number of games last (`autoplay Duel Random 5`)
    files: Vec<String>,
    /// The variant of the .zrf file just before it (by title or number from 1; default: the first)
    #[arg(long, value_name = "TITLE|N")]
    variant: Vec<String>,
    /// Games per pairing (seats swap every game) [default: 10]
    #[arg(short = 'n', long = "games")]
    games: Option<u64>,
    /// Games played at once, one VM per variant per game (default: the cores)
    #[arg(short, long)]
    jobs: Option<usize>,
    /// Opening lines, one per line (moves separated by `;`); each is played twice, seats swapped
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Random moves each pair of games starts with (after its opening line), drawn from the seed: both games
    /// of a pair start alike, seats swapped. What keeps deterministic engines from replaying one game. A puzzle
    /// (one contestant) starts from its set position [default: 2, or 0 with --openings]
    #[arg(long, value_name = "PLIES")]
    random_plies: Option<u32>,
    /// A game this long is adjudicated a draw
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// Seconds an engine may think per move (script engines are told through `searching?`; script run past it and 1 s more is stopped); default 1, none with --depth (then only --timeout bounds a search)
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds)]
    time_per_move: Option<Duration>,
    /// Plies the built-in search looks ahead (with no --time-per-move, the games repeat exactly under --seed)
    #[arg(long)]
    depth: Option<u32>,
    /// Built-in engines instead of the files': one for every variant (random, first, search or uct),
    /// or per variant as A=search,B=random (variants by letter, number from 1, or name)
    #[arg(long, value_name = "ENGINE|V=ENGINE,...")]
    engine: Option<String>,
    /// UCB1's exploration constant for {UCT}
    #[arg(long, default_value_t = 1.4)]
    uct_c: f64,
    /// Playouts per move for {UCT} (with no --time-per-move, the games repeat exactly under --seed)
    #[arg(long)]
    uct_playouts: Option<u64>,
    /// The first variant against each of the others, instead of a round robin
    #[arg(long)]
    gauntlet: bool,
    /// Sequential test ELO0,ELO1[,ALPHA,BETA] (logistic Elo): stops the match once decided
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    sprt: Option<String>,
    /// Write each finished game to this JSON Lines file, a header line first (a new file: one that holds a record is continued with --resume)
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Continue the tournament of this JSON Lines file: play only its missing games
    #[arg(long, value_name = "FILE", conflicts_with = "json")]
    resume: Option<PathBuf>,
    /// Write one record per game into this folder (`axforth replay` plays them back)
    #[arg(long, value_name = "DIR")]
    log: Option<PathBuf>,
    /// With --log: also a replay page per game (game-000001.html) and an index.html of the tournament
    #[arg(long, requires = "log")]
    html: bool,
    /// Play only shard K of N (game indices i with i mod N = K-1); merge the shards' JSON with `axforth merge`
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Play only these games (numbers as the game lines print them, e.g. 7,12): a failed game again, with its own seed
    #[arg(long, value_name = "N,...", value_delimiter = ',')]
    only: Vec<u64>,
    /// Write the summary as JSON to this file
    #[arg(long, value_name = "FILE")]
    summary_json: Option<PathBuf>,
    /// No progress bar and no line per game: only the summary
    #[arg(short, long)]
    quiet: bool,
    /// Every move with its search statistics, on stderr
    #[arg(short, long)]
    verbose: bool,
}

pub fn autoplay(config: Config, args: &AutoplayArgs) -> Result<ExitCode> {
    // The header says what the tournament is; a resumed one takes its own.
    let (header, done, record_path) = match &args.resume {
        Some(path) => {
            let r = record::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let header = r.header.ok_or_else(|| anyhow!("{} has no header line: not an axforth record", path.display()))?;
            header.check().map_err(|e| anyhow!("{}: {e}", path.display()))?;
            // The record says what the tournament is: a command line that
            // says otherwise is a mistake, not an instruction to ignore.
            if !args.files.is_empty() {
                let (files, games) = variants_and_count(&args.files, args.games)?;
                let specs: Vec<String> = files.iter().map(GameFile::spec).collect();
                if specs != header.files || (args.games.is_some() || args.files.len() > files.len()) && games != header.games {
                    bail!(
                        "--resume {} continues its own tournament ({}, -n {}); this command line names {} -n {games}: give only --resume {0} (and -q, --jobs, --log)",
                        path.display(),
                        header.files.join(" "),
                        header.games,
                        specs.join(" ")
                    );
                }
            }
            // Games of other indices or variants are not this tournament's.
            let total = Schedule::of(&header).total();
            let games = r.games.into_iter().filter(|g| g.index < total && g.seats.iter().all(|&v| v < header.files.len())).collect();
            (header, games, Some(path.clone()))
        }
        None => {
            // A record is one tournament: games appended under a second
            // header would be counted into the first by `merge` and
            // `--resume`.
            if let Some(path) = args.json.as_ref().filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > 0)) {
                bail!("{} already holds a tournament's record: continue it with --resume {0}, or name another file (or remove this one) for a new tournament", path.display());
            }
            (new_header(&config, args)?, Vec::new(), args.json.clone())
        }
    };
    let files: Vec<GameFile> = header.files.iter().map(|f| GameFile::from_spec(f)).collect::<Result<_, _>>().map_err(anyhow::Error::msg)?;
    let openings: Vec<Vec<String>> =
        header.openings.iter().map(|line| line.split(';').map(str::trim).filter(|t| !t.is_empty()).map(str::to_string).collect()).collect();
    let mut schedule = Schedule::of(&header);
    if let Some([k, n]) = header.shard {
        schedule.shard = (k - 1, n);
    }
    let finished: std::collections::HashSet<u64> = done.iter().map(|g| g.index).collect();
    let only = |i: &u64| args.only.is_empty() || args.only.contains(&(i + 1));
    let todo: Vec<_> = schedule.indices().filter(|i| !finished.contains(i) && only(i)).map(|i| schedule.game(i)).collect();

    let mut limits = Limits { time: header.time_per_move.map(Duration::from_secs_f64), depth: header.depth, ..Limits::default() };
    limits.uct_c = header.uct_c;
    limits.iterations = header.uct_playouts;
    let engines = match header.engine.as_deref() {
        Some(text) => variant_engines(text, &header.names).map_err(anyhow::Error::msg)?,
        None => Vec::new(),
    };
    let options = GameOptions {
        files: files.clone(),
        openings,
        random_plies: header.random_plies,
        config: config.clone(),
        max_plies: header.max_plies,
        limits,
        engines,
        verbose: args.verbose,
        reuse_vms: true,
    };
    // What would fail in every game fails here, once.
    let preflight = preflight(&options).map_err(|e| match e {
        PreflightError::Variant(text) => anyhow!(text),
        PreflightError::Opening(k, text) => anyhow!("{}: {text}", opening_place(&header, k)),
    })?;
    if header.depth.is_some() {
        let own: Vec<&str> = header.names.iter().zip(&preflight.script_engines).filter(|(_, &s)| s).map(|(n, _)| n.as_str()).collect();
        if !own.is_empty() {
            eprintln!("note: --depth limits the built-in search only; {} play{} with the file's own {{search-engine}} word, which it does not limit", own.join(", "), if own.len() == 1 { "s" } else { "" });
        }
    }

    let mut writer = match &record_path {
        Some(p) => {
            let mut w = Writer::append(p).with_context(|| format!("cannot write {}", p.display()))?;
            if args.resume.is_none() {
                w.write(&header)?;
            }
            Some(w)
        }
        None => None,
    };
    if let Some(dir) = &args.log {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }

    let stop = Arc::new(AtomicBool::new(false));
    let interrupted = Arc::new(AtomicBool::new(false));
    {
        let (stop, interrupted) = (stop.clone(), interrupted.clone());
        // A second Ctrl-C leaves at once.
        let _ = ctrlc::set_handler(move || {
            if interrupted.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            stop.store(true, Ordering::SeqCst);
        });
    }

    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let bar = progress_bar(args.quiet, todo.len() as u64);
    if !args.quiet {
        let line = format!("{} game(s) to play ({} done before), seed {}, {jobs} job(s)", todo.len(), done.len(), header.seed);
        // Without a terminal the bar, and its println, are hidden: the
        // seed goes to stderr, so that a redirected run can be repeated.
        if bar.is_hidden() {
            eprintln!("{line}");
        } else {
            bar.println(line);
        }
    }
    let mut summary = Summary::new(&header, &done);
    let mut counted = done.len();
    // With --html: the index page's rows (the records themselves are not
    // kept: a long tournament's moves would fill the memory).
    let mut rows: Vec<view::html::IndexRow> = if args.html { done.iter().map(|g| index_row(&header, g)).collect() } else { Vec::new() };
    // And the first variant's points per game, for the score chart.
    let mut first_points: Vec<(u64, f64)> = if args.html { done.iter().filter_map(|g| Some((g.index, g.points_of(0)?))).collect() } else { Vec::new() };
    drop(done);
    let mut write_error = None;
    runner::run(&options, &todo, jobs, &stop, |mut g: GameRecord| {
        if g.error.is_some() {
            g.rerun = Some(rerun_command(&header, g.index));
        }
        if let Some(w) = &mut writer {
            if let Err(e) = w.write(&g) {
                write_error = Some(e);
                return Next::Stop;
            }
        }
        if let Some(dir) = &args.log {
            let log = GameLog { header: header.clone(), game: g.clone() };
            let path = dir.join(format!("game-{:06}.json", g.index + 1));
            if let Err(e) = std::fs::write(&path, serde_json::to_vec_pretty(&log).unwrap_or_default()) {
                write_error = Some(e);
                return Next::Stop;
            }
            if args.html {
                // A page that cannot be drawn (the game erred at its first
                // move, say) is a line on the bar, not the end of the match.
                let page = view::replay::of_record(&config, &header, dir, &g).map(|r| view::html::page(&r, 0));
                let written = page.map_err(std::io::Error::other).and_then(|p| std::fs::write(dir.join(page_name(g.index)), p));
                if let Err(e) = written {
                    bar.println(format!("game {}: no replay page: {e}", g.index + 1));
                }
            }
        }
        if !args.quiet {
            // The bar is hidden when stderr is no terminal, and its
            // println with it: the line then goes to stdout, as the
            // original AutoPlay's did.
            if bar.is_hidden() {
                println!("{}", game_line(&header, &g));
            } else {
                bar.println(game_line(&header, &g));
            }
        }
        summary.add(&g);
        counted += 1;
        if args.html {
            rows.push(index_row(&header, &g));
            first_points.extend(g.points_of(0).map(|p| (g.index, p)));
        }
        bar.set_message(progress_message(&summary));
        bar.inc(1);
        match (summary.sprt.as_ref(), summary.llr()) {
            (Some(sprt), Some(llr)) if sprt.status(llr) != SprtStatus::Continue => Next::Stop,
            _ => Next::Continue,
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error {
        bail!("cannot write the records: {e}");
    }
    if interrupted.load(Ordering::SeqCst) {
        let resume = match &record_path {
            Some(p) => format!("; play the rest with: axforth autoplay --resume {}", axforth::tournament::shell_quote(&p.display().to_string())),
            None => "; a run with --json FILE can be continued where it stopped (--resume FILE)".to_string(),
        };
        println!("interrupted: the summary of the {counted} finished game(s) follows{resume}");
    }
    for line in summary.lines() {
        println!("{line}");
    }
    if let (Some(sprt), Some(llr)) = (summary.sprt.as_ref(), summary.llr()) {
        let verdict = match sprt.status(llr) {
            SprtStatus::AcceptH0 => "H0 accepted",
            SprtStatus::AcceptH1 => "H1 accepted",
            SprtStatus::Continue => "undecided",
        };
        println!("SPRT: {verdict}");
    }
    if let (Some(dir), true) = (&args.log, args.html) {
        rows.sort_by_key(|r| r.game);
        let title = format!("{} — {} game(s)", header.names.join(" vs "), rows.len());
        let path = dir.join("index.html");
        std::fs::write(&path, view::html::index(&title, &summary.lines(), &summary.charts(&first_points), &rows)).with_context(|| format!("cannot write {}", path.display()))?;
        if !args.quiet {
            println!("replay pages: {}", path.display());
        }
    }
    if let Some(path) = &args.summary_json {
        std::fs::write(path, summary.json() + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(if summary.errors.is_empty() && !interrupted.load(Ordering::SeqCst) { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Random plies a pair starts with when the command line names no
/// openings: two plies give tic-tac-toe 72 starts and Othello 12, enough
/// that deterministic engines do not replay one game, and few enough
/// not to spoil a position.
const DEFAULT_RANDOM_PLIES: u32 = 2;

/// An openings file's lines (1-based number, text): blank lines and `#`
/// comments aside.
fn opening_lines(text: &str) -> Vec<(usize, String)> {
    text.lines().enumerate().map(|(i, l)| (i + 1, l.trim())).filter(|(_, l)| !l.is_empty() && !l.starts_with('#')).map(|(i, l)| (i, l.to_string())).collect()
}

/// Where opening k was read: its file and line, when the file is still
/// there and unchanged.
fn opening_place(h: &Header, k: usize) -> String {
    let line = h.openings_file.as_ref().and_then(|f| {
        let lines = opening_lines(&std::fs::read_to_string(f).ok()?);
        let (n, text) = lines.get(k)?;
        (Some(text) == h.openings.get(k)).then(|| format!("{f}:{n}"))
    });
    line.unwrap_or_else(|| format!("opening {} of the record's header", k + 1))
}

fn page_name(index: u64) -> String {
    format!("game-{:06}.html", index + 1)
}

fn new_header(config: &Config, args: &AutoplayArgs) -> Result<Header> {
    if let Some(v) = args.variant.first() {
        bail!("--variant {v}: a variant belongs to the .zrf file just before it (`autoplay A.zrf --variant 1 B.zrf --variant 2`)");
    }
    let (files, games) = variants_and_count(&args.files, args.games)?;
    if files.len() < 2 {
        bail!("autoplay needs two variant files or more (or --resume FILE)");
    }
    if games == 0 {
        bail!("-n must be at least 1");
    }
    let openings = match &args.openings {
        Some(p) => opening_lines(&std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?).into_iter().map(|(_, l)| l).collect(),
        None => Vec::new(),
    };
    let random_plies = args.random_plies.unwrap_or(if openings.is_empty() { DEFAULT_RANDOM_PLIES } else { 0 });
    let shard = match &args.shard {
        Some(text) => {
            let parsed = text.split_once('/').and_then(|(k, n)| Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)));
            match parsed {
                Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Some([k, n]),
                _ => bail!("--shard `{text}`: give K/N with 1 <= K <= N, e.g. 2/4"),
            }
        }
        None => None,
    };
    let sprt = match &args.sprt {
        Some(text) => {
            let v: Vec<f64> = text.split(',').map(|x| x.trim().parse::<f64>()).collect::<Result<_, _>>().map_err(|_| anyhow!("--sprt `{text}`: numbers separated by commas"))?;
            match v[..] {
                [e0, e1] if e0 < e1 => Some([e0, e1, 0.05, 0.05]),
                [e0, e1, a, b] if e0 < e1 && a > 0.0 && a < 0.5 && b > 0.0 && b < 0.5 => Some([e0, e1, a, b]),
                _ => bail!("--sprt `{text}`: ELO0,ELO1 with ELO0 < ELO1, then optionally ALPHA,BETA in (0, 0.5)"),
            }
        }
        None => None,
    };
    if sprt.is_some() && files.len() != 2 {
        bail!("--sprt is for a match of two variants");
    }
    // A variant given its own built-in engine is named with it: the same
    // file may then play itself (`Random.4th Random.4th --engine
    // A=search`). One engine for all names none.
    let mut names = unique_names(&files);
    if let Some(text) = args.engine.as_ref().filter(|t| t.contains('=')) {
        let engines = variant_engines(text, &names).map_err(anyhow::Error::msg)?;
        for (name, engine) in names.iter_mut().zip(engines) {
            if let Some(e) = engine {
                *name = format!("{name} [{}]", engine_label(e));
            }
        }
    }
    // The same file twice, playing alike: told apart by number.
    for i in 1..names.len() {
        let twins = names[..i].iter().filter(|n| n.split(" #").next() == Some(&names[i])).count();
        if twins > 0 {
            names[i] = format!("{} #{}", names[i], twins + 1);
        }
    }
    let seed = config.seed.unwrap_or_else(|| std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(1, |d| d.as_nanos() as u64));
    Ok(Header {
        kind: "header".into(),
        axforth: env!("CARGO_PKG_VERSION").into(),
        names,
        files: files.iter().map(GameFile::spec).collect(),
        seed,
        games,
        gauntlet: args.gauntlet,
        openings,
        openings_file: args.openings.as_ref().map(|p| p.display().to_string()),
        random_plies,
        max_plies: args.max_plies,
        time_per_move: match (args.time_per_move, args.depth.or(args.uct_playouts.map(|_| 0))) {
            (Some(t), _) => Some(t.as_secs_f64()),
            (None, Some(_)) => None,
            (None, None) => Some(1.0),
        },
        uct_c: args.uct_c,
        uct_playouts: args.uct_playouts,
        depth: args.depth,
        engine: args.engine.clone(),
        sprt,
        shard,
    })
}

/// The variants' short names (`GameFile::name`), each made unique by as
/// much of its path as tells it from the others (`tictactoe/random` and
/// `othello/random`).
fn unique_names(files: &[GameFile]) -> Vec<String> {
    // Level k: the name preceded by k folders.
    let at = |f: &GameFile, k: usize| {
        let path = f.zrf.as_ref().map_or(f.script.clone(), |v| v.zrf().path.clone());
        let folders: Vec<String> = path.parent().into_iter().flat_map(|p| p.components()).map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        let mut parts: Vec<String> = folders[folders.len().saturating_sub(k)..].to_vec();
        if f.zrf.is_some() && k > 0 {
            parts.push(path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default());
        }
        parts.push(f.name());
        (parts.join("/"), k < folders.len() + usize::from(f.zrf.is_some()))
    };
    let mut level = vec![0; files.len()];
    loop {
        let names: Vec<(String, bool)> = files.iter().zip(&level).map(|(f, &k)| at(f, k)).collect();
        let mut deeper = false;
        for i in 0..files.len() {
            // The same file twice is told apart by number, below.
            let clash = names.iter().enumerate().any(|(j, n)| n.0 == names[i].0 && files[j].spec() != files[i].spec());
            if clash && names[i].1 {
                level[i] += 1;
                deeper = true;
            }
        }
        if !deeper {
            return names.into_iter().map(|n| n.0).collect();
        }
    }
}

/// `--engine`'s choice per variant; a variant is named by its letter (A
/// for the first), its number from 1, or its name.
fn variant_engines(text: &str, names: &[String]) -> Result<Vec<Option<axforth::game::Engine>>, String> {
    let letter = |i: usize| char::from(b'A' + (i % 26) as u8);
    let seat = |who: &str| {
        let by_letter = (who.len() == 1).then(|| names.iter().enumerate().position(|(i, _)| who.eq_ignore_ascii_case(&letter(i).to_string()))).flatten();
        let by_number = who.parse::<usize>().ok().filter(|&k| (1..=names.len()).contains(&k)).map(|k| k - 1);
        let plain = |n: &String| n.split(" [").next().unwrap_or_default().to_string();
        by_letter.or(by_number).or_else(|| names.iter().position(|n| plain(n).eq_ignore_ascii_case(who)))
    };
    let listed: Vec<String> = names.iter().enumerate().map(|(i, n)| format!("{} or {} = {n}", letter(i), i + 1)).collect();
    engine_choices(text, names.len(), seat, &listed.join(", "))
}

fn engine_label(e: axforth::game::Engine) -> &'static str {
    use axforth::game::Engine;
    match e {
        Engine::Random => "random",
        Engine::First => "first",
        Engine::Uct => "uct",
        _ => "search",
    }
}

/// The command that plays game `index` of this tournament again, alone:
/// the same files, options and seed give it the same seed and seats.
fn rerun_command(h: &Header, index: u64) -> String {
    let quote = axforth::tournament::shell_quote;
    let mut cmd = format!("axforth --seed {} autoplay", h.seed);
    for f in &h.files {
        cmd += &format!(" {}", quote(f));
    }
    cmd += &format!(" -n {} --max-plies {}", h.games, h.max_plies);
    if let Some(t) = h.time_per_move {
        cmd += &format!(" --time-per-move {t}");
    }
    if let Some(d) = h.depth {
        cmd += &format!(" --depth {d}");
    }
    if let Some(p) = h.uct_playouts {
        cmd += &format!(" --uct-playouts {p}");
    }
    if h.uct_c != 1.4 {
        cmd += &format!(" --uct-c {}", h.uct_c);
    }
    if let Some(e) = &h.engine {
        cmd += &format!(" --engine {e}");
    }
    if h.gauntlet {
        cmd += " --gauntlet";
    }
    match (&h.openings_file, h.openings.is_empty()) {
        (Some(f), false) => cmd += &format!(" --openings {}", quote(f)),
        // A record older than `openings_file`: the lines are in its header.
        (None, false) => cmd += " --openings <the header's openings, one per line>",
        _ => {}
    }
    if h.random_plies != if h.openings.is_empty() { DEFAULT_RANDOM_PLIES } else { 0 } {
        cmd += &format!(" --random-plies {}", h.random_plies);
    }
    cmd + &format!(" --only {} -v", index + 1)
}

/// The variants the command line names, and the number of games: `-n`,
/// or the original's batch form, where a bare number ends the names and a
/// name without `.4th` is that file in the current folder.
fn variants_and_count(args: &[String], games: Option<u64>) -> Result<(Vec<GameFile>, u64)> {
    let mut names = args;
    let mut count = games;
    if let Some((last, rest)) = args.split_last() {
        if let (Ok(n), None, false) = (last.parse::<u64>(), games, Path::new(last).exists()) {
            names = rest;
            count = Some(n);
        }
    }
    let files = names.iter().map(|name| open_variant(name)).collect::<Result<_>>()?;
    Ok((files, count.unwrap_or(10)))
}

fn open_variant(name: &str) -> Result<GameFile> {
    let (file, title) = split_spec(name);
    if !file.exists() && file.extension().is_none() {
        let dir = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let script = file.file_name().map(|n| format!("{}.4th", n.to_string_lossy())).unwrap_or_default();
        if let Some(found) = super::check::resolve(dir, &script) {
            return Ok(GameFile::script(&found));
        }
    }
    if !file.is_file() {
        bail!("no variant file {}", file.display());
    }
    GameFile::open(&file, title.as_deref()).map_err(anyhow::Error::msg)
}


fn progress_bar(quiet: bool, len: u64) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let style = ProgressStyle::with_template("{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}, ETA {eta}]").unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// W/D/L of the first variant and its running score.
fn index_row(header: &Header, g: &GameRecord) -> view::html::IndexRow {
    view::html::IndexRow {
        game: g.index + 1,
        first: header.names.get(g.seats[0]).cloned().unwrap_or_default(),
        second: header.names.get(g.seats[1]).cloned().unwrap_or_default(),
        result: g.result.clone(),
        reason: g.reason.clone(),
        plies: g.plies,
        page: page_name(g.index),
    }
}

fn progress_message(s: &Summary) -> String {
    let t = &s.totals[0];
    let errors = if s.errors.is_empty() { String::new() } else { format!("  errors {}", s.errors.len()) };
    format!("{}: +{} ={} -{}  score {:.1}%{errors}", s.names[0], t.wins, t.draws, t.losses, 100.0 * t.score())
}

fn game_line(h: &Header, g: &GameRecord) -> String {
    let [a, b] = g.seats;
    let how = match &g.error {
        Some(e) => format!("error: {e}; again: {}", g.rerun.as_deref().unwrap_or("")),
        None => match &g.message {
            Some(m) => format!("{}: {}, {} plies", g.reason, m.trim_end().replace('\n', " / "), g.plies),
            None => format!("{}, {} plies", g.reason, g.plies),
        },
    };
    format!("Finished game {} ({} vs {}): {} {{{how}}}", g.index + 1, h.names[a], h.names[b], g.result)
}
