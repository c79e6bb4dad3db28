//! `axforth show GAME`: the board, and who is to move; `--svg FILE` draws it.

use super::game::{print_warnings, start, to_move, verdict};
use anyhow::{Context, Result};
use axforth::view::Scene;
use axforth::game::UNKNOWN_SCORE;
use axforth::Config;
use std::io::IsTerminal;
use std::path::Path;

pub fn show(config: Config, game: &Path, after: Option<&str>, svg: Option<&Path>) -> Result<()> {
    let mut vm = start(config, game, after)?;
    print!("{}", axforth::game::show::render(&vm, std::io::stdout().is_terminal() && console::colors_enabled()));
    if let Some(file) = svg {
        let scene = Scene::of(&vm);
        let title = game.file_stem().map_or_else(|| "board".into(), |s| s.to_string_lossy().into_owned());
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
