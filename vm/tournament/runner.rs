//! Plays a list of games on `jobs` threads, one VM (or two) per game (each
//! worker keeps its VMs from game to game: `game::Loaded`), and
//! hands each finished game to the caller as it ends, in the order they
//! end. The caller may stop the tournament (a decided SPRT, Ctrl-C): the
//! games in progress are then abandoned, and nothing of them is reported.

use super::game::{play, GameOptions, Loaded};
use super::record::GameRecord;
use super::schedule::GameSpec;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// What the caller wants after a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Continue,
    Stop,
}

pub fn run(options: &GameOptions, games: &[GameSpec], jobs: usize, stop: &Arc<AtomicBool>, mut on_game: impl FnMut(GameRecord) -> Next) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, games.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                // Each variant is loaded once per worker, and put back
                // between its games.
                let mut loaded = Loaded::default();
                while !stop.load(Ordering::Relaxed) {
                    let Some(spec) = games.get(next.fetch_add(1, Ordering::Relaxed)) else { break };
                    let Some(record) = play(options, spec, stop, &mut loaded) else { break };
                    if tx.send(record).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for record in rx {
            if stop.load(Ordering::Relaxed) {
                continue; // finished after the stop: it does not count
            }
            if on_game(record) == Next::Stop {
                stop.store(true, Ordering::Relaxed);
            }
        }
    });
}
