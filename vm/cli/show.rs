//! `axforth show GAME`: the board, and who is to move; `--svg FILE` draws it.

use super::game::{print_warnings, start, to_move, verdict};
use anyhow::{Context, Result};
use axforth::view::Scene;
use axforth::game::UNKNOWN_SCORE;
use axforth::open::{is_zrf, GameFile};
use axforth::Config;
use std::io::IsTerminal;
use std::path::Path;

pub fn show(config: Config, game: &GameFile, after: Option<&str>, svg: Option<&Path>) -> Result<()> {
    let mut vm = start(config, game, after)?;
    print!("{}", axforth::game::show::render(&vm, std::io::stdout().is_terminal() && console::colors_enabled()));
    if let Some(file) = svg {
        let scene = Scene::of_game(&vm, game);
        for w in &scene.warnings {
            eprintln!("{w}");
        }
        let title = game.name();
        std::fs::write(file, axforth::view::svg::document(&scene, &scene.frame(&vm), &title))
            .with_context(|| format!("cannot write {}", file.display()))?;
    }
    vm.generate_turn()?;
    let r = vm.game_result()?;
    vm.flush_output();
    print_warnings(&mut vm);
    if r == UNKNOWN_SCORE {
        println!("{} to move, turn {}", to_move(&vm), vm.game.turn.number);
    } else {
        println!("game over: {}", verdict(&vm, r));
    }
    Ok(())
}

/// `show FILE.zrf --variants`: the variants, numbered as `--variant N`
/// takes them, each with the `.4th` it loads (or why it has none).
pub fn variants(file: &Path) -> Result<()> {
    if !is_zrf(file) {
        anyhow::bail!("--variants lists the variants of a .zrf file; {} is a game script", file.display());
    }
    let games = GameFile::open_all(file).map_err(anyhow::Error::msg)?;
    for (i, game) in games.iter().enumerate() {
        let (title, default, script) = match game {
            Ok(g) => {
                let v = g.zrf.as_ref().map(|z| z.variant());
                (v.map_or(String::new(), |v| v.title.text.clone()), v.is_some_and(|v| v.default), g.script.display().to_string())
            }
            Err(u) => (u.title.clone(), false, format!("no game: {}", u.error.lines().next().unwrap_or_default())),
        };
        let default = if default { " (default)" } else { "" };
        println!("{:>3}  {title}{default}  ({script})", i + 1);
    }
    Ok(())
}
