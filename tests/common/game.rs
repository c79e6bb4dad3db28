//! Shared by the game suites (`games.rs`, `chess.rs`, `splut.rs`,
//! `haaru.rs`, `wolves_and_hare.rs`): loading a game, its moves as text,
//! playing by text, and the verdict for the player to move.

use axforth::{Config, Vm};
use std::path::Path;

pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn config(seed: u64) -> Config {
    Config { seed: Some(seed), ..Config::default() }
}

/// A game file of the repository, loaded and started (seed 7).
pub fn load_file(path: &str) -> Vm {
    load_with(path, "", 7)
}

/// A game file with more source after it (another setup, other players,
/// another depth), started with this seed.
pub fn load_with(path: &str, more: &str, seed: u64) -> Vm {
    let mut vm = Vm::new(config(seed)).unwrap();
    vm.capture_output();
    let src = format!("LOAD {}\n{more}", root().join(path).display());
    vm.run_text(path, src.as_bytes()).unwrap_or_else(|e| panic!("loading {path}:\n{e}"));
    vm.new_game().unwrap_or_else(|e| panic!("starting {path}:\n{e}"));
    vm
}

/// The legal moves of the player to move, as text.
pub fn moves(vm: &mut Vm) -> Vec<String> {
    vm.generate_turn().unwrap_or_else(|e| panic!("{e}"));
    let texts = vm.move_texts();
    vm.game.store.pop_list();
    texts
}

/// Plays the move this text names (exactly, or as `--after` takes it),
/// and remembers the position reached, as the game loop does.
pub fn play(vm: &mut Vm, text: &str) {
    vm.generate_turn().unwrap_or_else(|e| panic!("{e}"));
    let m = vm.find_move(text).unwrap_or_else(|| panic!("`{text}` is not legal; legal: {:?}", vm.move_texts()));
    vm.make_move(m).unwrap_or_else(|e| panic!("{e}"));
    vm.game.store.pop_list();
    vm.remember_position();
}

/// Plays the move with exactly this text.
pub fn play_exact(vm: &mut Vm, text: &str) {
    vm.generate_turn().unwrap_or_else(|e| panic!("{e}"));
    let texts = vm.move_texts();
    let m = vm.game.store.current().zip(&texts).find(|(_, t)| *t == text).map(|(m, _)| m);
    let m = m.unwrap_or_else(|| panic!("`{text}` is not legal; legal: {texts:?}"));
    vm.make_move(m).unwrap_or_else(|e| panic!("{e}"));
    vm.game.store.pop_list();
    vm.remember_position();
}

/// `OnIsGameOver` for the player to move.
pub fn result(vm: &mut Vm) -> i32 {
    vm.generate_turn().unwrap_or_else(|e| panic!("{e}"));
    let r = vm.game_result().unwrap_or_else(|e| panic!("{e}"));
    vm.game.store.pop_list();
    r
}
