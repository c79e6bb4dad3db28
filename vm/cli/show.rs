//! `axforth show GAME`: the board, and who is to move.

use super::game::{print_warnings, start, to_move, verdict};
use anyhow::Result;
use axforth::game::UNKNOWN_SCORE;
use axforth::Config;
use std::io::IsTerminal;
use std::path::Path;

pub fn show(config: Config, game: &Path, after: Option<&str>) -> Result<()> {
    let mut vm = start(config, game, after)?;
    print!("{}", axforth::game::show::render(&vm, std::io::stdout().is_terminal()));
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
