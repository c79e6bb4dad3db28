//! The frames of a game: load the game, play its moves by their texts, and
//! take a picture of the board before the first move and after each one.

use super::{Frame, Scene};
use crate::game::Engine;
use crate::tournament::record::{GameRecord, Header};
use crate::open::GameFile;
use crate::{Config, Vm};
use std::path::Path;

/// A game ready to be drawn.
pub struct Replay {
    pub title: String,
    pub scene: Scene,
    /// `frames[0]` is the start, `frames[k]` the board after `moves[k-1]`.
    pub frames: Vec<Frame>,
    /// Each move's text as the game spells it.
    pub moves: Vec<String>,
    /// The game's players, neutral ones left out.
    pub sides: Vec<String>,
    /// Who played: one line per seat.
    pub players: Vec<String>,
    pub result: String,
}

/// Plays `moves` (exact texts or the loose forms `moves --after` takes)
/// from the start of the game in `file`.
pub fn of_moves(config: &Config, file: &GameFile, moves: &[String]) -> Result<(Vm, Replay), String> {
    let fail = |e: crate::VmError| e.to_string();
    let mut vm = Vm::new(config.clone()).map_err(fail)?;
    vm.capture_output();
    vm.load_game(file).map_err(fail)?;
    vm.new_game().map_err(fail)?;
    vm.remember_position();
    let scene = Scene::of_game(&vm, file);
    let mut frames = vec![scene.frame(&vm)];
    let mut texts = Vec::with_capacity(moves.len());
    for (ply, text) in moves.iter().enumerate() {
        texts.push(crate::tournament::replay::play_recorded(&mut vm, ply, text, false)?);
        frames.push(scene.frame(&vm));
    }
    let title = file.name();
    let contestants = vm.game.players.iter().filter(|p| !p.neutral);
    let sides = contestants.clone().map(|p| p.name.clone()).collect();
    let players = contestants.map(|p| format!("{}: {}", p.name, engine_name(&vm.game, p.engine))).collect();
    let replay = Replay { title, scene, frames, moves: texts, sides, players, result: String::new() };
    Ok((vm, replay))
}

/// A game from `axforth autoplay` records: the first seat's variant is
/// loaded (the rules are the same for both seats).
pub fn of_record(config: &Config, header: &Header, record_dir: &Path, game: &GameRecord) -> Result<Replay, String> {
    let file = crate::tournament::replay::variant_game(header, game.seats[0], record_dir)?;
    let config = Config { seed: Some(game.seed), ..config.clone() };
    let (_, mut replay) = of_moves(&config, &file, &game.moves)?;
    let name = |seat: usize| header.names.get(game.seats[seat]).cloned().unwrap_or_else(|| format!("variant {}", game.seats[seat] + 1));
    replay.players = (0..2)
        .map(|seat| {
            let e = &game.engines[seat];
            let side = replay.sides.get(seat).map_or(String::new(), |s| format!(" ({s})"));
            let per_move = if e.moves > 0 { e.time / e.moves as f64 } else { 0.0 };
            format!("{}{side}: {} moves, {per_move:.3} s a move, {} nodes", name(seat), e.moves, e.nodes)
        })
        .collect();
    let winner = match game.result.as_str() {
        "1-0" => format!("{} won", name(0)),
        "0-1" => format!("{} won", name(1)),
        "1/2-1/2" => "a draw".to_string(),
        _ => "no result".to_string(),
    };
    replay.title = format!("{} vs {}, game {}", name(0), name(1), game.index + 1);
    replay.result = format!("{} {winner} ({}, {} plies)", game.result, game.reason, game.plies);
    if let Some(m) = &game.message {
        replay.result += &format!(": {}", m.trim_end());
    }
    if let Some(e) = &game.error {
        replay.result += &format!(": {e}");
    }
    Ok(replay)
}

fn engine_name(game: &crate::game::Game, engine: Engine) -> String {
    match engine {
        Engine::Default => "the built-in search".into(),
        Engine::Random => "{random}".into(),
        Engine::First => "{first}".into(),
        Engine::Uct => "{UCT}".into(),
        Engine::Script(i) => game.engine_names.get(i as usize).cloned().unwrap_or_default(),
    }
}
