//! Tournaments between game variants (AXIOM.md §6, and what chess
//! testers expect of cutechess-cli and fastchess).
//!
//! Module map:
//! - `schedule`: which games are played: pairings, seats, openings,
//!   seeds, shards
//! - `game`: one game between two variants, a VM each, kept in step
//! - `runner`: games on several threads, reported as they finish
//! - `record`: the JSON Lines records (append-only, torn-line tolerant)
//! - `replay`: a recorded game checked against the rules
//! - `stats`: scores, Elo, pentanomial counts, SPRT
//! - `summary`: the results of a set of records, as text and JSON
//!
//! Nothing here knows the inner interpreter: a game is played through the
//! game layer's `Vm` methods and the engines of `search`.

pub mod game;
pub mod record;
pub mod replay;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod summary;

/// `s` as one word of a POSIX shell command line (commands the reports
/// print to play a game or reach a position again).
pub fn shell_quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=,:+@%".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
