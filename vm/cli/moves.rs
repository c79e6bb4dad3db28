//! `axforth moves GAME`: the legal moves of the player to move.

use super::game::{print_warnings, start, to_move, verdict};
use anyhow::Result;
use axforth::game::UNKNOWN_SCORE;
use axforth::Config;
use axforth::open::GameFile;

pub fn moves(config: Config, game: &GameFile, after: Option<&str>) -> Result<()> {
    let mut vm = start(config, game, after)?;
    vm.generate_turn()?;
    let r = vm.game_result()?;
    vm.flush_output();
    print_warnings(&mut vm);
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
