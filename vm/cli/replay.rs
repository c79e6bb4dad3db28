//! `axforth replay LOG`: plays back a record of axforth's autoplay (a
//! game's log, or a tournament's JSON Lines), an AutoPlay log the original Axiom
//! wrote (`AutoPlay A B N`, then every game's moves and the running
//! results), or a game Zillions saved (`.zsg`), move by move, and says
//! where axforth disagrees: a move that
//! is not legal or not spelt as the original spelt it, a game that is over
//! too early, not over where the log ends it, or won by the other side.

use super::check::string;
use anyhow::{anyhow, bail, Context, Result};
use axforth::game::{Action, DRAW_SCORE, UNKNOWN_SCORE};
use axforth::tournament::record::{self, GameLog};
use axforth::tournament::replay::verify;
use axforth::open::{is_zrf, GameFile};
use axforth::{Config, Vm};
use std::path::Path;
use std::process::ExitCode;

/// One game of the log.
#[derive(Default)]
struct LoggedGame {
    number: u32,
    /// The move lines: the turn number as logged, and the move's text.
    moves: Vec<(String, String)>,
    /// Which seat won (0: `Player 1`, the first player of `{players`;
    /// 1: `Player 2`), or None for a draw; from the change of the running
    /// results after the game.
    winner: Option<Option<usize>>,
}

struct Log {
    variants: [String; 2],
    games: Vec<LoggedGame>,
}

/// `game`: the game file given, and its variant if one was (a saved game
/// names its own: `VariantName=`).
pub fn replay(config: Config, log: &Path, game: Option<&Path>, variant: Option<&str>, json: bool) -> Result<ExitCode> {
    let bytes = std::fs::read(log).with_context(|| format!("cannot read {}", log.display()))?;
    if bytes.trim_ascii_start().starts_with(b"{") {
        return replay_records(config, log, &bytes, json);
    }
    if let Some(saved) = parse_saved(&String::from_utf8_lossy(&bytes)) {
        // The saved game's `VariantName=` names a variant of its `.zrf`; a
        // `.4th` given instead is the variant itself.
        let saved_variant = game.filter(|g| is_zrf(g)).and(saved.variant.as_deref());
        let game = game.map(|g| GameFile::open(g, variant.or(saved_variant))).transpose().map_err(anyhow::Error::msg)?;
        return replay_saved(config, log, game.as_ref(), json, &saved);
    }
    let game = game.map(|g| GameFile::open(g, variant)).transpose().map_err(anyhow::Error::msg)?;
    let game = game.as_ref();
    let parsed = parse(&String::from_utf8_lossy(&bytes))?;
    let game_file = match game {
        Some(g) => g.clone(),
        None => {
            let dir = log.parent().unwrap_or(Path::new("."));
            let name = format!("{}.4th", parsed.variants[0]);
            let found = super::check::resolve(dir, &name).ok_or_else(|| anyhow!("the log's first variant is {}, not found beside the log (give it with --game)", dir.join(&name).display()))?;
            GameFile::script(&found)
        }
    };
    if !game_file.script.is_file() {
        bail!("cannot read the game file {}", game_file.script.display());
    }
    let mut failures = Vec::new();
    // Every game warns at the same places: each warning once, on stderr.
    let mut warned: Vec<String> = Vec::new();
    let bar = super::progress_bar("games");
    bar.set_length(parsed.games.len() as u64);
    for g in &parsed.games {
        let mut vm = Vm::new(Config { seed: Some(g.number as u64), ..config.clone() })?;
        vm.capture_output();
        let result = replay_game(&mut vm, &game_file, g);
        for w in vm.take_warnings() {
            if !warned.contains(&w) {
                bar.suspend(|| eprintln!("{w}"));
                warned.push(w);
            }
        }
        if let Err(why) = result {
            failures.push((g.number, why));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let ok = parsed.games.len() - failures.len();
    if json {
        let items: Vec<String> = failures.iter().map(|(n, why)| format!("{{\"game\":{n},\"error\":{}}}", string(why))).collect();
        println!(
            "{{\"log\":{},\"game_file\":{},\"games\":{},\"ok\":{ok},\"failures\":[{}]}}",
            string(&log.display().to_string()),
            string(&game_file.label()),
            parsed.games.len(),
            items.join(",")
        );
    } else {
        for (n, why) in &failures {
            println!("game {n}: {why}");
        }
        println!("games replayed: {}, ok: {ok}", parsed.games.len());
    }
    Ok(if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// axforth's own records: a game's log (`autoplay --log DIR`) or a whole
/// tournament's JSON Lines.
fn replay_records(config: Config, path: &Path, bytes: &[u8], json: bool) -> Result<ExitCode> {
    let text = String::from_utf8_lossy(bytes);
    let (header, games) = match serde_json::from_str::<GameLog>(&text) {
        Ok(log) => (log.header, vec![log.game]),
        Err(_) => {
            let r = record::parse(&text);
            let header = r.header.ok_or_else(|| anyhow!("{} is neither an AutoPlay log nor an axforth record", path.display()))?;
            (header, r.games)
        }
    };
    header.check().map_err(|e| anyhow!("{}: {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let bar = super::progress_bar("games");
    bar.set_length(games.len() as u64);
    let failures: Vec<(u64, String)> = games
        .iter()
        .filter_map(|g| {
            let verdict = verify(&config, &header, dir, g);
            bar.inc(1);
            verdict.err().map(|why| (g.index + 1, why))
        })
        .collect();
    bar.finish_and_clear();
    let ok = games.len() - failures.len();
    if json {
        let items: Vec<String> = failures.iter().map(|(n, why)| format!("{{\"game\":{n},\"error\":{}}}", string(why))).collect();
        println!("{{\"record\":{},\"games\":{},\"ok\":{ok},\"failures\":[{}]}}", string(&path.display().to_string()), games.len(), items.join(","));
    } else {
        for (n, why) in &failures {
            println!("game {n}: {why}");
        }
        println!("games replayed: {}, ok: {ok}", games.len());
    }
    Ok(if failures.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Replays one game in a fresh VM; the first disagreement, if any.
fn replay_game(vm: &mut Vm, file: &GameFile, g: &LoggedGame) -> Result<(), String> {
    let text = |e: axforth::VmError| e.to_string();
    play_moves(vm, file, &[], &g.moves, Spelling::Exact)?;
    vm.generate_turn().map_err(text)?;
    let score = vm.game_result().map_err(text)?;
    if score == UNKNOWN_SCORE {
        return Err(format!("the game is not over after its {} logged plies", g.moves.len()));
    }
    let Some(expected) = g.winner else { return Ok(()) };
    let contestants: Vec<i32> = vm.game.players.iter().filter(|p| !p.neutral && !p.bystander).map(|p| p.value).collect();
    let to_move = vm.player_to_move();
    let winner = match score {
        DRAW_SCORE => None,
        s if s > 0 => Some(to_move),
        _ => contestants.iter().copied().find(|&p| p != to_move).filter(|_| contestants.len() == 2),
    };
    // The log's `Player k` counts are the wins of seat k (the k-th player
    // of `{players`) in every game, not swapped in even games as AXIOM.md
    // §6 has it: in the four Ordo logs, `Player 1 "Test-(random)"` loses
    // all 100 games to a real engine, and the rules give every one of
    // them to seat 2, so variant A sat at seat 1 in even games too. Its
    // `Player k - I lose!` lines agree.
    let expected_player = expected.map(|seat| contestants.get(seat).copied().unwrap_or(0));
    if winner != expected_player {
        let name = |p: Option<i32>| p.map_or("a draw".to_string(), |p| format!("a win for {}", vm.game.player_name(p)));
        return Err(format!("the log ends it with {}, axforth with {}", name(expected_player), name(winner)));
    }
    Ok(())
}

/// Reads an AutoPlay log (CRLF or LF).
fn parse(text: &str) -> Result<Log> {
    let mut variants = None;
    let mut games: Vec<LoggedGame> = Vec::new();
    let mut counts = [0u32; 3];
    let mut pending: Option<[u32; 3]> = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.split("AutoPlay ").nth(1) {
            let words: Vec<&str> = rest.split_whitespace().collect();
            if words.len() >= 2 {
                variants = Some([words[0].to_string(), words[1].to_string()]);
            }
        } else if let Some(rest) = line.strip_prefix("Game ") {
            let number = rest.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(games.len() as u32 + 1);
            games.push(LoggedGame { number, ..LoggedGame::default() });
        } else if line.starts_with("Cumulative results") {
            pending = Some(counts);
        } else if let Some(n) = line.strip_prefix("Player 1 \"").and_then(wins) {
            counts[0] = n;
        } else if let Some(n) = line.strip_prefix("Player 2 \"").and_then(wins) {
            counts[1] = n;
        } else if let Some(n) = line.strip_prefix("Draws = ").and_then(|r| r.trim().parse().ok()) {
            counts[2] = n;
            if let (Some(before), Some(g)) = (pending.take(), games.last_mut()) {
                g.winner = match (0..3).find(|&i| counts[i] > before[i]) {
                    Some(2) => Some(None),
                    Some(v) => Some(Some(v)),
                    None => None,
                };
            }
        } else if let Some((number, text)) = line.split_once(". ") {
            if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) {
                if let Some(g) = games.last_mut() {
                    g.moves.push((number.to_string(), text.to_string()));
                }
            }
        }
    }
    let Some(variants) = variants else { bail!("not an AutoPlay log: no `AutoPlay A B N` line") };
    Ok(Log { variants, games })
}

/// `…", wins = 12.` → 12
fn wins(rest: &str) -> Option<u32> {
    rest.split("wins = ").nth(1)?.trim().trim_end_matches('.').parse().ok()
}

/// A game Zillions saved (`.zsg`): the rules file and variant it names,
/// and its moves, one line each (`12. Checker d4 - c3`), a step of a
/// chain of partial moves marked `partial N`.
struct SavedGame {
    rules: String,
    variant: Option<String>,
    /// A position set up by hand before the first move: `(x b6)` empties
    /// a square, `(White Checker b6)` puts a piece there.
    setup: Vec<Vec<String>>,
    moves: Vec<(String, String)>,
}

fn parse_saved(text: &str) -> Option<SavedGame> {
    let mut lines = text.lines().map(str::trim);
    if !lines.next()?.starts_with("Zillions Save Game File") {
        return None;
    }
    let mut saved = SavedGame { rules: String::new(), variant: None, setup: Vec::new(), moves: Vec::new() };
    for line in lines {
        if let Some(r) = line.strip_prefix("RulesFile=") {
            saved.rules = r.to_string();
        } else if let Some(v) = line.strip_prefix("VariantName=") {
            saved.variant = Some(v.to_string());
        } else if let Some(edit) = line.strip_prefix('(').and_then(|l| l.strip_suffix(')')) {
            saved.setup.push(edit.split_whitespace().map(str::to_string).collect());
        } else if let Some((number, text)) = line.split_once(". ") {
            if !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()) {
                saved.moves.push((number.to_string(), strip_partial(text).to_string()));
            }
        }
    }
    Some(saved)
}

/// `partial 2 Checker d4 - f2 x e3` → `Checker d4 - f2 x e3`.
fn strip_partial(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("partial ") else { return text };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return text;
    }
    rest[digits..].trim_start()
}

/// Replays a saved game from its start position; the game may stop
/// before its end (it is a saved game, not a finished one).
fn replay_saved(config: Config, path: &Path, game: Option<&GameFile>, json: bool, saved: &SavedGame) -> Result<ExitCode> {
    let game_file = match game {
        Some(g) => g.clone(),
        None => {
            let dir = path.parent().unwrap_or(Path::new("."));
            // Written on Windows: `C:\Games\ZoG\my\Ur\07.Axiomatic.Ur.zrf`.
            let name = saved.rules.rsplit(['\\', '/']).next().unwrap_or("").trim();
            if name.is_empty() {
                bail!("{} names no rules file (RulesFile=); give it with --game", path.display());
            }
            let found = super::check::resolve(dir, name).ok_or_else(|| anyhow!("the saved game's rules file {} is not beside it (give it with --game)", dir.join(name).display()))?;
            GameFile::open(&found, saved.variant.as_deref()).map_err(anyhow::Error::msg)?
        }
    };
    let mut vm = Vm::new(Config { seed: Some(1), ..config })?;
    vm.capture_output();
    let result = play_moves(&mut vm, &game_file, &saved.setup, &saved.moves, Spelling::Zillions);
    for w in vm.take_warnings() {
        eprintln!("{w}");
    }
    if json {
        let error = result.as_ref().err().map_or("null".to_string(), |e| string(e));
        println!("{{\"saved_game\":{},\"game_file\":{},\"plies\":{},\"ok\":{},\"error\":{error}}}", string(&path.display().to_string()), string(&game_file.label()), saved.moves.len(), result.is_ok());
    } else {
        match &result {
            Ok(()) => println!("{}: {} plies replayed, ok", game_file.label(), saved.moves.len()),
            Err(why) => println!("{}: {why}", game_file.label()),
        }
    }
    Ok(if result.is_ok() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// How a record spells its moves.
#[derive(Clone, Copy, PartialEq)]
enum Spelling {
    /// As axforth and the original Axiom write them, exactly.
    Exact,
    /// As Zillions does: `Vm::match_move`'s looser forms.
    Zillions,
}

/// Loads the game, sets up `setup` (a saved game's lines), and plays
/// `moves` (turn number, text) from the start; the first disagreement.
fn play_moves(vm: &mut Vm, file: &GameFile, setup: &[Vec<String>], moves: &[(String, String)], spelling: Spelling) -> Result<(), String> {
    let text = |e: axforth::VmError| e.to_string();
    vm.load_game(file).map_err(text)?;
    vm.check_loaded().map_err(text)?;
    vm.new_game().map_err(text)?;
    for edit in setup {
        set_up(vm, edit).map_err(|why| format!("the setup line `({})`: {why}", edit.join(" ")))?;
    }
    // Pieces a saved game sets up start with their type's attributes, as
    // the pieces of the rules' own setup do (the translated rules' word).
    if !setup.is_empty() && vm.dict.find(ATTRIBUTES_AT_START.as_bytes()).is_some() {
        vm.run_text("the saved game's setup", ATTRIBUTES_AT_START.as_bytes()).map_err(text)?;
    }
    vm.remember_position();
    for (ply, (turn, logged)) in moves.iter().enumerate() {
        let ply = ply + 1;
        let at = |e: axforth::VmError| format!("ply {ply} (`{turn}. {logged}`): {e}");
        vm.generate_turn().map_err(at)?;
        if vm.game_result().map_err(at)? != UNKNOWN_SCORE {
            return Err(format!("ply {ply} (`{turn}. {logged}`): the game is already over"));
        }
        let found = match spelling {
            Spelling::Exact => vm.move_texts().iter().position(|t| t == logged).map(|i| vm.game.store.current().start + i).ok_or_else(Vec::new),
            Spelling::Zillions => vm.match_move(logged),
        };
        let m = match found {
            Ok(m) => m,
            Err(candidates) => {
                let texts = vm.move_texts();
                let legal = if texts.is_empty() { "none".to_string() } else { texts.join(", ") };
                let why = match (spelling, candidates.is_empty()) {
                    (Spelling::Exact, _) => "not a legal move of {} as written",
                    (_, true) => "not a legal move of {}",
                    (_, false) => "more than one legal move of {} reads so",
                };
                let why = why.replace("{}", &vm.game.player_name(vm.player_to_move()));
                return Err(format!("ply {ply} (`{turn}. {logged}`): {why}; legal: {legal}"));
            }
        };
        vm.make_move(m).map_err(at)?;
        vm.game.store.pop_list();
        vm.remember_position();
        let _ = vm.take_output();
    }
    Ok(())
}

/// The word of translated Zillions rules that gives every piece on the
/// board its type's starting attributes (`zrf/forth.rs`).
const ATTRIBUTES_AT_START: &str = "zrf-attributes-at-start";

/// One setup line of a saved game, applied to the board.
fn set_up(vm: &mut Vm, edit: &[String]) -> Result<(), String> {
    let square = |vm: &Vm, name: &str| (0..vm.game.board.positions as i32).find(|&p| vm.game.board.name(p).eq_ignore_ascii_case(name)).ok_or_else(|| format!("no square `{name}`"));
    let action = match edit {
        [x, sq] if x.eq_ignore_ascii_case("x") => Action::Capture(square(vm, sq)?),
        [player, piece, sq] => {
            let p = vm.game.players.iter().find(|p| p.name.eq_ignore_ascii_case(player)).map(|p| p.value).ok_or_else(|| format!("no player `{player}`"))?;
            let t = vm.game.pieces.iter().position(|d| d.name.eq_ignore_ascii_case(piece)).ok_or_else(|| format!("no piece type `{piece}`"))?;
            Action::Place { pos: square(vm, sq)?, content: p | (t as i32 + 1) }
        }
        _ => return Err("neither `(x SQUARE)` nor `(PLAYER PIECE SQUARE)`".into()),
    };
    vm.apply_edit(action).map_err(|e| e.to_string())
}
