//! `axforth show GAME`: the board, and who is to move; `--svg FILE` draws it.

use super::game::{print_warnings, start, to_move, verdict};
use anyhow::{Context, Result};
use axforth::view::Scene;
use axforth::game::UNKNOWN_SCORE;
use axforth::open::{is_zrf, GameFile};
use axforth::zrf::Zrf;
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
    let zrf = Zrf::read(file).map_err(|e| anyhow::anyhow!("{e}"))?;
    for (i, v) in zrf.variants.iter().enumerate() {
        let script = match GameFile::open(file, Some(&(i + 1).to_string())) {
            Ok(g) => g.script.display().to_string(),
            Err(e) => format!("no game: {}", e.lines().next().unwrap_or_default()),
        };
        let default = if v.default { " (default)" } else { "" };
        println!("{:>3}  {}{default}  ({script})", i + 1, v.title.text);
    }
    Ok(())
}
