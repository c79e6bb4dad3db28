//! `axforth play GAME`: a human against the engines in the terminal, or
//! (`--watch`) the engines against each other.

use super::game::{print_warnings, start, to_move, verdict};
use anyhow::{anyhow, Result};
use axforth::game::{Engine, UNKNOWN_SCORE};
use axforth::Config;
use std::io::{BufRead, IsTerminal, Write};
use axforth::open::GameFile;

pub struct PlayOptions<'a> {
    /// The human's player (default: the first player).
    pub human: Option<&'a str>,
    /// No human: the engines play every side.
    pub watch: bool,
    pub max_plies: u32,
    /// How long the built-in search thinks per move.
    pub think: std::time::Duration,
    /// `--engine`: a built-in engine for every contestant, or
    /// `PLAYER=ENGINE,…` for some.
    pub engine: Option<&'a str>,
    /// With `watch`: the pause after each move's board.
    pub delay: std::time::Duration,
}

const HELP: &str = "\
  3          play move number 3 of the list
  c3 - d4    play the move with this text; case and spaces do not matter
             (c3-d4, C3 - D4), nor piece and player names, and the end of
             a text is enough when one move ends so (d4)
  moves, m   list the legal moves again
  board, b   show the board again
  pass       pass the turn, when the game's .zrf has the option \"pass turn\" true
  quit, q    leave the game
  help, ?    this help";

/// Move lists up to this long are shown at every turn of the human's.
const LISTED_EACH_TURN: usize = 24;

fn print_numbered(texts: &[String]) {
    for (i, t) in texts.iter().enumerate() {
        println!("  {:>3}. {t}", i + 1);
    }
}

/// A human against the engines the file assigns; `watch` lets the engines
/// play every side.
pub fn play(config: Config, game: &GameFile, options: &PlayOptions, after: Option<&str>) -> Result<()> {
    let PlayOptions { human, watch, max_plies, think, engine, delay } = *options;
    let mut vm = start(config, game, after)?;
    vm.game.search.limits.time = Some(think);
    if let Some(text) = engine {
        // Contestants only: a chance player's moves are the dice.
        let contestants: Vec<usize> = (0..vm.game.players.len()).filter(|&i| vm.game.is_contestant(vm.game.players[i].value)).collect();
        let names: Vec<String> = contestants.iter().map(|&i| vm.game.players[i].name.clone()).collect();
        let seat = |who: &str| names.iter().position(|n| n.eq_ignore_ascii_case(who));
        let choices = super::game::engine_choices(text, names.len(), seat, &names.join(", ")).map_err(anyhow::Error::msg)?;
        for (&i, choice) in contestants.iter().zip(choices) {
            if let Some(e) = choice {
                vm.game.players[i].engine = e;
            }
        }
    }
    let colour = std::io::stdout().is_terminal() && console::colors_enabled();
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
    let human_may_pass = game.zrf.as_ref().is_some_and(|v| v.human_may_pass());
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    for _ in 0..max_plies {
        vm.generate_turn()?;
        let r = vm.game_result()?;
        vm.flush_output();
        print_warnings(&mut vm);
        if r != UNKNOWN_SCORE {
            print!("{}", axforth::game::show::render(&vm, colour));
            println!("game over: {}", verdict(&vm, r));
            return Ok(());
        }
        let me = vm.player_to_move();
        let m = if Some(me) == human {
            print!("{}", axforth::game::show::render(&vm, colour));
            let texts = vm.move_texts();
            // A long list every turn buries the board: it is there on
            // request (`moves`).
            if texts.len() <= LISTED_EACH_TURN {
                println!("{} to move, turn {}:", to_move(&vm), vm.game.turn.number);
                print_numbered(&texts);
            } else {
                println!("{} to move, turn {}: {} legal moves (`moves` lists them)", to_move(&vm), vm.game.turn.number, texts.len());
            }
            loop {
                print!("your move (number or text; `?` for help)> ");
                std::io::stdout().flush()?;
                let Some(line) = lines.next() else { return Ok(()) };
                let line = line?;
                let line = line.trim();
                match line {
                    "" => continue,
                    "quit" | "q" | "exit" => return Ok(()),
                    "?" | "help" => {
                        println!("{HELP}");
                        continue;
                    }
                    "moves" | "m" => {
                        print_numbered(&texts);
                        continue;
                    }
                    "board" | "b" => {
                        print!("{}", axforth::game::show::render(&vm, colour));
                        continue;
                    }
                    // The .zrf's `(option "pass turn" true)`: Zillions' Pass
                    // command, whatever the moves are.
                    "pass" | "Pass" if human_may_pass && !texts.iter().any(|t| t == "Pass") => {
                        vm.game.store.add_empty(true);
                        break vm.game.store.current().end - 1;
                    }
                    _ => {}
                }
                if let Ok(n) = line.parse::<usize>() {
                    if (1..=texts.len()).contains(&n) {
                        break vm.game.store.current().start + n - 1;
                    }
                    println!("there is no move {n}: the moves are numbered 1 to {}", texts.len());
                    continue;
                }
                match vm.match_move(line) {
                    Ok(m) => break m,
                    Err(candidates) if candidates.len() > 1 => {
                        let start = vm.game.store.current().start;
                        println!("`{line}` is ambiguous; it could be:");
                        for m in candidates {
                            println!("  {:>3}. {}", m - start + 1, texts.get(m - start).map_or("?", String::as_str));
                        }
                    }
                    Err(_) => println!("`{line}` is not a legal move (`moves` lists them, `?` helps)"),
                }
            }
        } else {
            let engine = vm.engine_to_move();
            let m = vm.choose_move(engine)?;
            vm.flush_output();
            let name = match engine {
                Engine::Random => "random",
                Engine::First => "first",
                Engine::Script(_) => "script engine",
                Engine::Default => "search",
                Engine::Uct => "uct",
            };
            println!("{} ({name}): {}", to_move(&vm), axforth::game::moves::move_text(&vm.game, &vm.mem, m));
            m
        };
        vm.make_move(m)?;
        vm.game.store.pop_list();
        vm.remember_position();
        print_warnings(&mut vm);
        if watch {
            print!("{}", axforth::game::show::render(&vm, colour));
            std::thread::sleep(delay);
        }
    }
    vm.flush_output();
    println!("stopped after {max_plies} plies");
    Ok(())
}

