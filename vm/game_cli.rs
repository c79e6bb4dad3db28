//! The game verbs of the command line: `show`, `moves`, `perft`, `play`.
//! Each loads a game file, starts a new game, replays `--after` moves,
//! then does its job; errors come back as the VM's diagnostics.

use anyhow::{anyhow, bail, Result};
use axforth::game::{Engine, DRAW_SCORE, UNKNOWN_SCORE};
use axforth::{Config, Vm};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::time::Instant;

/// Loads the game, starts it, and plays the `--after` moves ("e2 - e4; d7 - d5").
pub fn start(config: Config, game: &Path, after: Option<&str>) -> Result<Vm> {
    let mut vm = Vm::new(config)?;
    let loaded = vm.run_file(game);
    vm.flush_output();
    loaded?;
    if vm.directive("$gameLog") {
        let path = game.with_extension("log");
        let file = std::fs::File::create(&path).map_err(|e| anyhow!("$gameLog: cannot write {}: {e}", path.display()))?;
        vm.out.log = Some(file);
    }
    vm.new_game()?;
    vm.remember_position();
    for text in after.unwrap_or("").split(';').map(str::trim).filter(|t| !t.is_empty()) {
        vm.generate_turn()?;
        if vm.game_result()? != UNKNOWN_SCORE {
            bail!("cannot play `{text}`: the game is already over");
        }
        let Some(m) = vm.find_move(text) else {
            let legal = vm.move_texts().join(", ");
            bail!("`{text}` is not a legal move for {}; legal moves: {legal}", vm.game.player_name(vm.player_to_move()));
        };
        vm.make_move(m)?;
        vm.game.store.pop_list();
        vm.remember_position();
    }
    vm.flush_output();
    Ok(vm)
}

fn to_move(vm: &Vm) -> String {
    vm.game.player_name(vm.player_to_move())
}

/// "Black has won" for a score from the point of view of the player to move.
fn verdict(vm: &Vm, score: i32) -> String {
    let me = to_move(vm);
    // With two contestants, a loss is the other one's win.
    let contestants: Vec<&str> = vm.game.players.iter().filter(|p| !p.neutral).map(|p| p.name.as_str()).collect();
    match score {
        DRAW_SCORE => "a draw".to_string(),
        s if s > 0 => format!("{me} has won"),
        _ => match contestants[..] {
            [a, b] if a == me => format!("{b} has won"),
            [a, b] if b == me => format!("{a} has won"),
            _ => format!("{me} has lost"),
        },
    }
}

pub fn show(config: Config, game: &Path, after: Option<&str>) -> Result<()> {
    let mut vm = start(config, game, after)?;
    print!("{}", axforth::game::show::render(&vm, std::io::stdout().is_terminal()));
    vm.generate_turn()?;
    let r = vm.game_result()?;
    vm.flush_output();
    if r == UNKNOWN_SCORE {
        println!("{} to move, turn {}", to_move(&vm), vm.game.turn.number);
    } else {
        println!("game over: {}", verdict(&vm, r));
    }
    Ok(())
}

pub fn moves(config: Config, game: &Path, after: Option<&str>) -> Result<()> {
    let mut vm = start(config, game, after)?;
    vm.generate_turn()?;
    let r = vm.game_result()?;
    vm.flush_output();
    if r != UNKNOWN_SCORE {
        println!("game over: {}", verdict(&vm, r));
        return Ok(());
    }
    let texts = vm.move_texts();
    println!("{} to move ({} moves):", to_move(&vm), texts.len());
    for t in texts {
        println!("{t}");
    }
    Ok(())
}

pub fn perft(config: Config, game: &Path, depth: u32, divide: bool, after: Option<&str>) -> Result<()> {
    let mut vm = start(config, game, after)?;
    let t0 = Instant::now();
    let total = if divide {
        let parts = vm.perft_divide(depth)?;
        vm.flush_output();
        for (text, n) in &parts {
            println!("{text}: {n}");
        }
        parts.iter().map(|(_, n)| n).sum()
    } else {
        vm.perft(depth)?
    };
    vm.flush_output();
    let secs = t0.elapsed().as_secs_f64();
    println!("perft {depth}: {total} ({secs:.3} s, {:.0} nodes/s)", total as f64 / secs.max(1e-9));
    Ok(())
}

pub struct PlayOptions<'a> {
    /// The human's player (default: the first player).
    pub human: Option<&'a str>,
    /// No human: the engines play every side.
    pub watch: bool,
    pub max_plies: u32,
    /// Seconds the built-in search thinks per move.
    pub think: f64,
    /// `random`, `first` or `search` for every engine player.
    pub engine: Option<&'a str>,
}

/// A human against the engines the file assigns; `watch` lets the engines
/// play every side.
pub fn play(config: Config, game: &Path, options: &PlayOptions, after: Option<&str>) -> Result<()> {
    let PlayOptions { human, watch, max_plies, think, engine } = *options;
    let mut vm = start(config, game, after)?;
    vm.game.think = std::time::Duration::from_secs_f64(think.max(0.0));
    if let Some(name) = engine {
        let engine = match name {
            "random" => Engine::Random,
            "first" => Engine::First,
            _ => Engine::Default,
        };
        for p in &mut vm.game.players {
            p.engine = engine;
        }
    }
    let colour = std::io::stdout().is_terminal();
    let human = if watch {
        None
    } else {
        let name = human.map(str::to_string).unwrap_or_else(|| vm.game.players[0].name.clone());
        let p = vm.game.players.iter().find(|p| p.name.eq_ignore_ascii_case(&name)).ok_or_else(|| {
            let names: Vec<_> = vm.game.players.iter().map(|p| p.name.clone()).collect();
            anyhow!("no player named `{name}` (the players are {})", names.join(", "))
        })?;
        Some(p.value)
    };
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    for _ in 0..max_plies {
        vm.generate_turn()?;
        let r = vm.game_result()?;
        vm.flush_output();
        if r != UNKNOWN_SCORE {
            print!("{}", axforth::game::show::render(&vm, colour));
            println!("game over: {}", verdict(&vm, r));
            return Ok(());
        }
        let me = vm.player_to_move();
        let m = if Some(me) == human {
            print!("{}", axforth::game::show::render(&vm, colour));
            let texts = vm.move_texts();
            loop {
                println!("{} to move, turn {}: {}", to_move(&vm), vm.game.turn.number, texts.join(", "));
                print!("your move (text or number, `quit`)> ");
                std::io::stdout().flush()?;
                let Some(line) = lines.next() else { return Ok(()) };
                let line = line?;
                let line = line.trim();
                if line == "quit" {
                    return Ok(());
                }
                if let Ok(n) = line.parse::<usize>() {
                    if (1..=texts.len()).contains(&n) {
                        break vm.game.store.current().start + n - 1;
                    }
                }
                if let Some(m) = vm.find_move(line) {
                    break m;
                }
                println!("`{line}` is not a legal move");
            }
        } else {
            let engine = vm.engine_to_move();
            let m = vm.choose_move(engine)?;
            vm.flush_output();
            let name = match engine {
                Engine::Random => "random",
                Engine::First => "first",
                Engine::Script(_) => "script engine",
                Engine::Default | Engine::Uct => "search",
            };
            println!("{} ({name}): {}", to_move(&vm), axforth::game::moves::move_text(&vm.game, m));
            m
        };
        vm.make_move(m)?;
        vm.game.store.pop_list();
        vm.remember_position();
    }
    vm.flush_output();
    println!("stopped after {max_plies} plies");
    Ok(())
}

/// Othello perft: the script against the native mailbox reference, on the
/// same position cells and direction links (the game's own tables).
pub fn bench(config: Config, game: &Path, depth: u32, runs: u32) -> Result<()> {
    use axforth::game::mailbox::{othello_perft, Mailbox};
    let mut vm = start(config, game, None)?;
    let b = &vm.game.board;
    let mailbox = Mailbox { positions: b.positions, directions: b.directions.len(), links: b.links.clone() };
    let cells: Vec<i32> = (0..b.positions as i32).map(|p| b.get(&vm.mem, p)).collect::<Result<_, _>>()?;
    let to_move = vm.player_to_move();
    let (mut script_best, mut native_best) = (f64::MAX, f64::MAX);
    let (mut script_nodes, mut native_nodes) = (0, 0);
    for _ in 0..runs.max(1) {
        let t0 = Instant::now();
        script_nodes = vm.perft(depth)?;
        script_best = script_best.min(t0.elapsed().as_secs_f64());
        let mut board = cells.clone();
        let t0 = Instant::now();
        native_nodes = othello_perft(&mailbox, &mut board, to_move, depth).map_err(|e| anyhow!("{}: not an Othello board for the native reference: {e}", game.display()))?;
        native_best = native_best.min(t0.elapsed().as_secs_f64());
    }
    if script_nodes != native_nodes {
        bail!("perft {depth} differs: the script counts {script_nodes}, the native reference {native_nodes}");
    }
    println!("Othello perft {depth} = {script_nodes} (best of {runs})");
    println!("{:<22} {:>9} {:>14}", "", "seconds", "nodes/s");
    println!("{:<22} {:>9.3} {:>14.0}", "script (ForthScript)", script_best, script_nodes as f64 / script_best);
    println!("{:<22} {:>9.3} {:>14.0}", "native mailbox (Rust)", native_best, native_nodes as f64 / native_best);
    println!("script / native: {:.1}x", script_best / native_best);
    Ok(())
}
