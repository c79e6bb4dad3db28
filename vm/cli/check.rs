//! `axforth check PATH...`: the porter's smoke test. Finds the game
//! variants in the paths, and for each: loads it, counts the moves at the
//! start, plays seeded random games to the end (or a ply cap), and says
//! in one line how it went (the first error with its place, if any).

use anyhow::Result;
use axforth::game::{Engine, UNKNOWN_SCORE};
use axforth::open::{is_zrf, GameFile, Unopened};
use axforth::snapshot::Snapshot;
use axforth::{Config, Vm};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub struct CheckOptions {
    pub games: u32,
    pub max_plies: u32,
    pub timeout: Duration,
    pub json: bool,
    /// Print each variant's warnings under its line (else on stderr).
    pub warnings: bool,
    /// Where failing games are kept as game logs.
    pub log: Option<PathBuf>,
}

/// How one variant fared.
#[derive(Default)]
struct Report {
    path: String,
    start_moves: Option<usize>,
    played: u32,
    finished: u32,
    plies: u64,
    warnings: usize,
    seconds: f64,
    warning_texts: Vec<String>,
    error: Option<String>,
}

pub fn check(config: Config, paths: &[PathBuf], options: &CheckOptions) -> Result<ExitCode> {
    let mut files = Vec::new();
    for p in paths {
        let found = game_files(p);
        if found.is_empty() {
            eprintln!("error: no game in {} (a game is a top-level .4th file that declares `{{players`, or a .zrf)", p.display());
            return Ok(ExitCode::FAILURE);
        }
        for f in found {
            // A .zrf is every variant it lists; one it cannot read is a
            // failed check of its own, not the end of the run.
            match GameFile::open_all(&f) {
                Ok(variants) => files.extend(variants),
                Err(error) => files.push(Err(Unopened { label: f.display().to_string(), title: String::new(), error })),
            }
        }
    }
    let progress = std::io::stderr().is_terminal() && !options.json;
    // Variants are independent (a VM each): check them on every core,
    // report them in order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(files.len().max(1));
    let mut slots: Vec<Option<Report>> = (0..files.len()).map(|_| None).collect();
    let mut reports = Vec::new();
    let mut seen_errors = std::collections::HashMap::new();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (files, next, config) = (&files, &next, &config);
            scope.spawn(move || {
                // The core is busy between variants too (`auto` compiles
                // more while one is left over).
                let _busy = axforth::jit::CoreInUse::new();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(file) = files.get(i) else { break };
                    if tx.send((i, check_file(config, file, options))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, report) in rx {
            slots[i] = Some(report);
            while let Some(report) = slots.get_mut(reports.len()).and_then(Option::take) {
                if progress {
                    eprint!("\r\x1b[K");
                }
                if !options.json {
                    println!("{}", report_line(&report, options.max_plies, &mut seen_errors));
                }
                // Its warnings: under its line with --warnings, else on
                // stderr like every game verb's.
                for w in &report.warning_texts {
                    if options.warnings && !options.json {
                        println!("    {}", w.replace('\n', "\n    "));
                    } else {
                        eprintln!("{w}");
                    }
                }
                reports.push(report);
            }
            if progress {
                eprint!("\r\x1b[K[{}/{}] checked", reports.len(), files.len());
            }
        }
    });
    if progress {
        eprint!("\r\x1b[K");
    }
    let failed = reports.iter().filter(|r| r.error.is_some()).count();
    let warned = reports.iter().filter(|r| r.warnings > 0).count();
    if options.json {
        println!("{}", json(&reports, options));
    } else {
        let unended = reports.iter().filter(|r| none_ended(r)).count();
        println!("{} variants: {} passed, {failed} failed, {warned} with warnings, {unended} where no game ended", reports.len(), reports.len() - failed);
    }
    Ok(if failed > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS })
}

/// No game of the variant ended (and none failed): random play never
/// reaches its goal within the cap, or it has none.
fn none_ended(r: &Report) -> bool {
    r.error.is_none() && r.played > 0 && r.finished == 0
}

/// A variant's line. An error met before, word for word (a file several
/// variants load), is shown once in full, then named in one line.
fn report_line(r: &Report, max_plies: u32, seen: &mut std::collections::HashMap<String, String>) -> String {
    let status = if r.error.is_some() { "FAIL" } else { "ok  " };
    let moves = r.start_moves.map_or("-".to_string(), |n| n.to_string());
    let avg = if r.played > 0 { r.plies as f64 / r.played as f64 } else { 0.0 };
    let mut line = format!(
        "{status} {}  start moves {moves}, games finished {}/{}, average {avg:.1} plies, {} warning(s), {:.1} s",
        r.path, r.finished, r.played, r.warnings, r.seconds
    );
    if let Some(e) = &r.error {
        match seen.get(e) {
            Some(first) => {
                let short: Vec<&str> = e.lines().take(2).map(str::trim).collect();
                line.push_str(&format!("\n     the same error as {first}: {}", short.join(" ")));
            }
            None => {
                line.push_str(&format!("\n     {}", e.replace('\n', "\n     ")));
                seen.insert(e.clone(), r.path.clone());
            }
        }
    }
    if none_ended(r) {
        line.push_str(&format!("\n     note: no game ended within {max_plies} plies (--max-plies): a goal random play never reaches, or none"));
    }
    line
}

fn check_file(config: &Config, file: &Result<GameFile, Unopened>, options: &CheckOptions) -> Report {
    let file = match file {
        Ok(f) => f,
        Err(u) => {
            // A file that cannot be read says `error:` itself; a variant
            // whose script is missing does not.
            let error = if u.error.starts_with("error: ") { u.error.clone() } else { format!("error: {}", u.error) };
            return Report { path: u.label.clone(), error: Some(first_lines(&error)), ..Report::default() };
        }
    };
    let report = Report { path: file.label(), ..Report::default() };
    let started = Instant::now();
    let report = check_games(config, file, options, (started, options.timeout), report);
    Report { seconds: started.elapsed().as_secs_f64(), ..report }
}

/// `time`: when the variant's check started, and how long it may take
/// (script still running then stops with an error; between plies the
/// clock is read too).
fn check_games(config: &Config, file: &GameFile, options: &CheckOptions, time: (Instant, Duration), mut report: Report) -> Report {
    let deadline = time.0 + time.1;
    let text = |e: axforth::VmError| first_lines(&e.to_string());
    // The variant is loaded (and its hot words compiled) once; each game
    // after the first starts from the VM put back as loaded, which plays
    // what a fresh load would under the game's seed (`axforth::snapshot`),
    // or from a fresh load when it cannot be put back.
    let mut kept: Option<(Vm, Snapshot)> = None;
    for game in 1..=options.games.max(1) {
        let seed = game as u64;
        let reused = kept.take().and_then(|(mut vm, s)| vm.restore(&s, seed).then_some((vm, s)));
        let (mut vm, snapshot) = match reused {
            Some(kept) => kept,
            None => {
                let config = Config { seed: Some(seed), max_steps: config.max_steps.or(Some(50_000_000)), ..config.clone() };
                let mut vm = match Vm::new(config) {
                    Ok(vm) => vm,
                    Err(e) => {
                        report.error = Some(first_lines(&e.to_string()));
                        return report;
                    }
                };
                vm.capture_output();
                vm.set_time_limit(Some(time));
                if let Err(e) = vm.load_game(file).and_then(|()| vm.check_loaded()) {
                    report.error = Some(text(e));
                    return report;
                }
                let snapshot = vm.snapshot();
                (vm, snapshot)
            }
        };
        let result = play_one(&mut vm, game == 1, &mut report, options.max_plies, deadline).map_err(|failed| {
            let kept = options.log.as_ref().map(|dir| keep_failed(dir, file, seed, &failed));
            let reached: Vec<String> = failed.played.iter().chain(&failed.failing).cloned().collect();
            let kept = match kept {
                Some(Ok(path)) => format!("\n  = log: {} (axforth view {0} -o failed.html)", path.display()),
                Some(Err(e)) => format!("\n  = log: not written: {e}"),
                None => String::new(),
            };
            format!("{}{}{kept}", failed.error, again(file, &reached))
        });
        // Distinct warnings: the same place warns in every game.
        for w in vm.take_warnings() {
            if !report.warning_texts.contains(&w) {
                report.warning_texts.push(w);
            }
        }
        report.warnings = report.warning_texts.len();
        let _ = vm.take_output();
        if let Err(e) = result {
            report.error = Some(e);
            return report;
        }
        kept = Some((vm, snapshot));
    }
    report
}

/// A random game that failed.
struct Failed {
    /// The headline and place, and, once the game is under way, which
    /// game and ply.
    error: String,
    /// The moves played before the failure.
    played: Vec<String>,
    /// The move whose playing failed, if that is what failed.
    failing: Option<String>,
}

/// Plays one random game in the loaded game; counts it in the report.
fn play_one(vm: &mut Vm, first: bool, report: &mut Report, max_plies: u32, deadline: Instant) -> Result<(), Failed> {
    let text = |e: axforth::VmError| Failed { error: first_lines(&e.to_string()), played: Vec::new(), failing: None };
    vm.new_game().map_err(text)?;
    vm.remember_position();
    for p in &mut vm.game.players {
        p.engine = Engine::Random;
    }
    if first {
        vm.generate_turn().map_err(text)?;
        report.start_moves = Some(vm.game.store.count());
        vm.game.store.pop_list();
    }
    report.played += 1;
    let mut plies = 0;
    let mut moves = Vec::new();
    let mut failing = None;
    let result = play_plies(vm, report.played, max_plies, deadline, &mut plies, &mut moves, &mut failing);
    // A game cut short by an error or the clock counts as far as it went.
    report.plies += plies as u64;
    if result.map_err(|error| Failed { error, played: moves, failing })? {
        report.finished += 1;
    }
    Ok(())
}

/// Plays random moves until the game is over (true) or `max_plies`
/// (false), counting the plies played in `plies`.
/// `moves` gets each move played; `failing` the one whose playing failed.
fn play_plies(vm: &mut Vm, game: u32, max_plies: u32, deadline: Instant, plies: &mut u32, moves: &mut Vec<String>, failing: &mut Option<String>) -> Result<bool, String> {
    let at = |ply: u32| move |e: axforth::VmError| format!("{}\n  = in random game {game} (seed {game}), ply {}", first_lines(&e.to_string()), ply + 1);
    for ply in 0..max_plies {
        *plies = ply;
        if Instant::now() > deadline {
            return Err(format!("error: timed out (more than the --timeout for this file) in random game {game}, ply {}", ply + 1));
        }
        vm.generate_turn().map_err(at(ply))?;
        if vm.game_result().map_err(at(ply))? != UNKNOWN_SCORE {
            vm.game.store.pop_list();
            return Ok(true);
        }
        let m = vm.choose_move(Engine::Random).map_err(at(ply))?;
        let text = axforth::game::moves::move_text(&vm.game, &vm.mem, m);
        if let Err(e) = vm.make_move(m) {
            *failing = Some(text);
            return Err(at(ply)(e));
        }
        moves.push(text);
        vm.game.store.pop_list();
        vm.remember_position();
        // The key engines and repetitions see is kept move by move; a
        // script that writes a position's cell around the game words
        // (`!` at a computed address) leaves it stale.
        if vm.position_key() != vm.position_key_recomputed() {
            return Err(format!(
                "error: a position's cell changed without a game word (create-piece, capture, move, …): the position keys of engines and repetitions go stale\n  = in random game {game} (seed {game}), ply {}",
                ply + 1
            ));
        }
    }
    *plies = max_plies;
    // Over with the last move the cap allows: finished.
    vm.generate_turn().map_err(at(max_plies))?;
    let over = vm.game_result().map_err(at(max_plies))? != UNKNOWN_SCORE;
    vm.game.store.pop_list();
    Ok(over)
}

/// Writes a failed game as a game log (`autoplay --log`'s form: a header
/// naming the variant in both seats, and the game up to its failure),
/// named after the variant and the game's seed.
fn keep_failed(dir: &Path, file: &GameFile, seed: u64, failed: &Failed) -> Result<PathBuf, String> {
    use axforth::tournament::record::{GameLog, GameRecord, Header};
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let name = file.name();
    let header = Header {
        kind: "header".into(),
        axforth: env!("CARGO_PKG_VERSION").into(),
        files: vec![file.spec(), file.spec()],
        names: vec![name.clone(), name.clone()],
        seed,
        games: 1,
        gauntlet: false,
        openings: Vec::new(),
        openings_file: None,
        random_plies: 0,
        max_plies: u32::MAX,
        time_per_move: None,
        depth: None,
        engine: Some("random".into()),
        uct_c: 1.4,
        uct_playouts: None,
        sprt: None,
        shard: None,
    };
    let mut error = failed.error.clone();
    if let Some(m) = &failed.failing {
        error += &format!("\n  = while playing {m}");
    }
    let game = GameRecord {
        kind: "game".into(),
        index: 0,
        seed,
        seats: [0, 1],
        result: "*".into(),
        reason: "error".into(),
        plies: failed.played.len() as u32,
        opening: None,
        moves: failed.played.clone(),
        opening_plies: 0,
        time: 0.0,
        error: Some(error),
        rerun: None,
        engines: Default::default(),
        message: None,
    };
    let stem: String = file.label().chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    let path = dir.join(format!("{}-seed{seed}.json", stem.trim_matches('_')));
    let text = serde_json::to_vec_pretty(&GameLog { header, game }).map_err(|e| e.to_string())?;
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// How to reach the position a failed game stopped in: its moves, and a
/// command that plays them and shows what the game does there (`moves`
/// generates the next turn again; a failed move is the last of them).
fn again(file: &GameFile, moves: &[String]) -> String {
    let quote = axforth::tournament::shell_quote;
    let game = match &file.zrf {
        Some(_) => {
            let (path, title) = axforth::open::split_spec(&file.spec());
            let title = title.map_or(String::new(), |t| format!(" --variant {}", quote(&t)));
            format!("{}{title}", quote(&path.display().to_string()))
        }
        None => quote(&file.script.display().to_string()),
    };
    if moves.is_empty() {
        return format!("\n  = again: axforth moves {game}");
    }
    let line = moves.join("; ");
    format!("\n  = moves: {line}\n  = again: axforth moves {game} --after {}", quote(&line))
}

/// An error's headline and place (the rest of the trace is for `play`).
fn first_lines(e: &str) -> String {
    e.lines().take(2).collect::<Vec<_>>().join("\n")
}

// ---- finding the variants -------------------------------------------------------

/// The game files a path names: the file itself, or the top-level game
/// files and the `.zrf` files of a folder, and of its sub-folders one
/// level down.
pub fn game_files(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut found = games_in(path);
    if let Ok(entries) = std::fs::read_dir(path) {
        let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
        dirs.sort();
        for d in dirs {
            found.extend(games_in(&d));
        }
    }
    found
}

/// The `.4th` files of a folder that no other file of it LOADs and that
/// declare `{players` (themselves or through what they LOAD).
fn games_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut all: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
    all.sort();
    let (zrfs, files): (Vec<PathBuf>, Vec<PathBuf>) = all.into_iter().filter(|p| is_zrf(p) || is_script(p)).partition(|p| is_zrf(p));
    let loaded: Vec<String> = files.iter().flat_map(|f| loads(f)).map(|n| n.to_lowercase()).collect();
    let mut games: Vec<PathBuf> = files
        .into_iter()
        .filter(|f| {
            let name = f.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_default();
            !loaded.contains(&name) && declares_players(f, &mut Vec::new())
        })
        .collect();
    games.extend(zrfs);
    games
}

fn is_script(p: &Path) -> bool {
    p.extension().is_some_and(|x| x.eq_ignore_ascii_case("4th"))
}

/// The words of a file, without its comments (`( … )` and `\ …`), which
/// may well mention `{players` or `LOAD`.
fn tokens(file: &Path) -> Vec<String> {
    let bytes = std::fs::read(file).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let mut out = Vec::new();
    let mut rest: &str = &text;
    loop {
        rest = rest.trim_start();
        let Some(end) = rest.find(|c: char| c.is_ascii_whitespace()).or((!rest.is_empty()).then_some(rest.len())) else {
            return out;
        };
        let (word, after) = rest.split_at(end);
        rest = match word {
            "(" => after.find(')').map_or("", |i| &after[i + 1..]),
            "\\" => after.find('\n').map_or("", |i| &after[i + 1..]),
            _ => {
                out.push(word.to_string());
                after
            }
        };
    }
}

/// The names a file LOADs.
fn loads(file: &Path) -> Vec<String> {
    let t = tokens(file);
    t.windows(2).filter(|w| w[0] == "LOAD").map(|w| w[1].clone()).collect()
}

fn declares_players(file: &Path, seen: &mut Vec<PathBuf>) -> bool {
    if seen.iter().any(|s| s == file) {
        return false;
    }
    seen.push(file.to_path_buf());
    let t = tokens(file);
    if t.iter().enumerate().any(|(i, w)| w == "{players" && (i == 0 || t[i - 1] != ":")) {
        return true;
    }
    let dir = file.parent().unwrap_or(Path::new("."));
    loads(file).iter().filter_map(|n| resolve(dir, n)).any(|f| declares_players(&f, seen))
}

/// LOAD's rule: the name in the folder, else ignoring case.
pub fn resolve(dir: &Path, name: &str) -> Option<PathBuf> {
    axforth::open::file_without_case(dir, name)
}

// ---- JSON -------------------------------------------------------------------------

fn json(reports: &[Report], options: &CheckOptions) -> String {
    let files: Vec<String> = reports
        .iter()
        .map(|r| {
            format!(
                "{{\"path\":{},\"ok\":{},\"start_moves\":{},\"games\":{},\"finished\":{},\"average_plies\":{:.2},\"no_game_ended\":{},\"warnings\":{},\"seconds\":{:.3},\"error\":{}}}",
                string(&r.path),
                r.error.is_none(),
                r.start_moves.map_or("null".to_string(), |n| n.to_string()),
                r.played,
                r.finished,
                if r.played > 0 { r.plies as f64 / r.played as f64 } else { 0.0 },
                none_ended(r),
                r.warnings,
                r.seconds,
                r.error.as_deref().map_or("null".to_string(), string),
            )
        })
        .collect();
    let failed = reports.iter().filter(|r| r.error.is_some()).count();
    format!(
        "{{\"games_per_file\":{},\"max_plies\":{},\"files\":[{}],\"passed\":{},\"failed\":{failed}}}",
        options.games,
        options.max_plies,
        files.join(","),
        reports.len() - failed
    )
}

/// A JSON string literal.
pub fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
