//! Checking a recorded game against the rules: play its moves from the
//! start, each of which must be legal and spelt as the record spells it,
//! and the game must end as recorded (over with the same result, or still
//! going at the ply cap). Only the first seat's variant is loaded: the
//! rules are the same for both, and no engine runs.

use super::game::seat_result;
use super::record::{GameRecord, Header};
use crate::game::UNKNOWN_SCORE;
use crate::{Config, Vm};
use crate::open::{split_spec, GameFile};
use std::path::Path;

/// The variant's game, its file as recorded, or beside the record when
/// the record was moved with its files.
pub fn variant_game(header: &Header, variant: usize, record_dir: &Path) -> Result<GameFile, String> {
    let spec = header.files.get(variant).map_or("?", |s| s.as_str());
    let (recorded, title) = split_spec(spec);
    let found = if recorded.is_file() { Some(recorded) } else { recorded.file_name().map(|n| record_dir.join(n)).filter(|p| p.is_file()) };
    let file = found.ok_or_else(|| format!("the variant file {spec} is not found (nor beside the record)"))?;
    GameFile::open(&file, title.as_deref())
}

/// Plays ply `ply`'s move by its text for the player to move: exactly as
/// the game spells it (`exact`), or any form `find_move` takes. Answers the
/// move's own text; output and warnings of the move are dropped.
pub fn play_recorded(vm: &mut Vm, ply: usize, text: &str, exact: bool) -> Result<String, String> {
    let fail = |e: crate::VmError| e.to_string();
    vm.generate_turn().map_err(fail)?;
    if vm.game_result().map_err(fail)? != UNKNOWN_SCORE {
        return Err(format!("the game is over before ply {} (`{text}`)", ply + 1));
    }
    let texts = vm.move_texts();
    let start = vm.game.store.current().start;
    let found = if exact { texts.iter().position(|t| t == text).map(|i| start + i) } else { vm.find_move(text) };
    let Some(m) = found else {
        vm.game.store.pop_list();
        return Err(format!("ply {}: `{text}` is not a legal move here; legal moves: {}", ply + 1, texts.join(", ")));
    };
    let own = texts.get(m - start).cloned().unwrap_or_else(|| text.to_string());
    let made = vm.make_move(m);
    vm.game.store.pop_list();
    made.map_err(fail)?;
    vm.remember_position();
    vm.take_output();
    vm.take_warnings();
    Ok(own)
}

pub fn verify(config: &Config, header: &Header, record_dir: &Path, game: &GameRecord) -> Result<(), String> {
    let file = variant_game(header, game.seats[0], record_dir)?;
    let mut vm = Vm::new(Config { seed: Some(game.seed), ..config.clone() }).map_err(|e| e.to_string())?;
    vm.capture_output();
    let fail = |e: crate::VmError| e.to_string();
    vm.load_game(&file).map_err(fail)?;
    vm.new_game().map_err(fail)?;
    vm.remember_position();
    for (ply, text) in game.moves.iter().enumerate() {
        play_recorded(&mut vm, ply, text, true)?;
    }
    if game.reason == "error" {
        return Ok(()); // the moves before the error were legal; the error is the record's
    }
    vm.generate_turn().map_err(fail)?;
    let score = vm.game_result().map_err(fail)?;
    match game.reason.as_str() {
        "game over" if score == UNKNOWN_SCORE => Err(format!("the record ends the game after {} plies, but it goes on here", game.plies)),
        "game over" => {
            let result = seat_result(&vm, score);
            if result == game.result {
                Ok(())
            } else {
                Err(format!("the game ends {result} here, {} in the record", game.result))
            }
        }
        "max plies" if score != UNKNOWN_SCORE => Err(format!("the game is over after {} plies here, the record went on to the ply cap", game.plies)),
        _ => Ok(()),
    }
}
