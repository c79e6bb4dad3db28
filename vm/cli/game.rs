//! What the game verbs share: loading a game and replaying `--after`,
//! the verdict of a finished game, and printing the warnings the VM's
//! tolerances raise (AXIOM.md §8) on stderr.

use anyhow::{anyhow, bail, Result};
use axforth::game::{DRAW_SCORE, UNKNOWN_SCORE};
use axforth::{Config, Vm};
use axforth::open::GameFile;

/// Loads the game, starts it, and plays the `--after` moves ("e2 - e4; d7 - d5").
pub fn start(config: Config, game: &GameFile, after: Option<&str>) -> Result<Vm> {
    let mut vm = Vm::new(config)?;
    let loaded = vm.load_game(game);
    vm.flush_output();
    print_warnings(&mut vm);
    loaded?;
    if vm.directive("$gameLog") {
        let path = game.script.with_extension("log");
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
        let m = match vm.match_move(text) {
            Ok(m) => m,
            Err(several) if several.len() > 1 => {
                // One per line: a move's text may hold commas and spaces.
                let named: String = several.iter().map(|&m| format!("\n  {}", axforth::game::moves::move_text(&vm.game, &vm.mem, m))).collect();
                bail!("`{text}` could be any of these moves of {} (give more of its words):{named}", vm.game.player_name(vm.player_to_move()));
            }
            Err(_) => {
                let legal: String = vm.move_texts().iter().map(|t| format!("\n  {t}")).collect();
                bail!("`{text}` is not a legal move for {}; its legal moves:{legal}", vm.game.player_name(vm.player_to_move()));
            }
        };
        vm.make_move(m)?;
        vm.game.store.pop_list();
        vm.remember_position();
    }
    vm.flush_output();
    print_warnings(&mut vm);
    Ok(vm)
}

pub fn to_move(vm: &Vm) -> String {
    vm.game.player_name(vm.player_to_move())
}

/// "Black has won" for a score from the point of view of the player to
/// move, and on a line of its own the message the game's `OnIsGameOver`
/// built (`^"`, `^string`, `^number`), as Zillions showed it beside the result.
pub fn verdict(vm: &Vm, score: i32) -> String {
    match vm.game_over_message() {
        Some(message) => format!("{}\n{}", winner(vm, score), message.trim_end()),
        None => winner(vm, score),
    }
}

fn winner(vm: &Vm, score: i32) -> String {
    let me = to_move(vm);
    // With two contestants, a loss is the other one's win.
    let contestants: Vec<&str> = vm.game.players.iter().filter(|p| !p.neutral && !p.bystander).map(|p| p.name.as_str()).collect();
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

/// Prints the warnings raised since the last call on stderr.
pub fn print_warnings(vm: &mut Vm) {
    for w in vm.take_warnings() {
        eprintln!("{w}");
    }
}

/// The built-in engines the command line names.
pub const ENGINE_NAMES: &str = "random, first, search or uct";

/// An engine by the name the command line gives it.
pub fn engine_named(name: &str) -> Result<axforth::game::Engine, String> {
    use axforth::game::Engine;
    match name.trim().to_ascii_lowercase().as_str() {
        "random" => Ok(Engine::Random),
        "first" => Ok(Engine::First),
        "uct" => Ok(Engine::Uct),
        "search" | "alphabeta" | "alpha-beta" => Ok(Engine::Default),
        other => Err(format!("no built-in engine `{other}`: the engines are {ENGINE_NAMES}")),
    }
}

/// `--engine`: one engine for every seat (`search`), or some seats'
/// engines (`A=search,B=random`); answers each of the `n` seats' choice
/// (None: the file's). `seat` finds a seat by the name given before `=`;
/// `seats` lists the names for the error.
pub fn engine_choices(text: &str, n: usize, seat: impl Fn(&str) -> Option<usize>, seats: &str) -> Result<Vec<Option<axforth::game::Engine>>, String> {
    if !text.contains('=') {
        return Ok(vec![Some(engine_named(text)?); n]);
    }
    let mut choices = vec![None; n];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((who, engine)) = part.split_once('=') else {
            return Err(format!("--engine `{part}`: give SEAT=ENGINE (seats: {seats})"));
        };
        let k = seat(who.trim()).ok_or_else(|| format!("--engine `{part}`: no seat `{}` (seats: {seats})", who.trim()))?;
        choices[k] = Some(engine_named(engine)?);
    }
    Ok(choices)
}
