//! Tournament records: JSON Lines, a header line (the files, the seed,
//! the options) then one line per finished game, appended and flushed as
//! each game ends, so a tournament killed at any moment keeps every game
//! it finished. Reading skips a torn or foreign line instead of failing:
//! the last line of a killed run may be half written.

use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

/// The first line of a record file: what the games were.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Header {
    /// "header"
    pub kind: String,
    pub axforth: String,
    /// The variant files, as given.
    pub files: Vec<String>,
    /// Their names (file stems), as the summaries print them.
    pub names: Vec<String>,
    pub seed: u64,
    /// Games per pairing.
    pub games: u64,
    pub gauntlet: bool,
    /// The opening lines (moves separated by `;`), in order.
    pub openings: Vec<String>,
    /// The file they were read from, as given (for the `again:` line).
    #[serde(default)]
    pub openings_file: Option<String>,
    /// Random plies each pair of games starts with, after its opening
    /// line: what varies the games of deterministic engines. Records
    /// older than the option have none.
    #[serde(default)]
    pub random_plies: u32,
    pub max_plies: u32,
    pub time_per_move: Option<f64>,
    pub depth: Option<u32>,
    pub engine: Option<String>,
    #[serde(default = "default_uct_c")]
    pub uct_c: f64,
    #[serde(default)]
    pub uct_playouts: Option<u64>,
    /// elo0, elo1, alpha, beta.
    pub sprt: Option<[f64; 4]>,
    /// This file's shard: [k, n] (1-based k).
    pub shard: Option<[u64; 2]>,
}

fn default_uct_c() -> f64 {
    1.4
}

impl Header {
    /// A header read from a file describes a tournament that can be
    /// played: two variants or more, a name each, games to play.
    pub fn check(&self) -> Result<(), String> {
        if self.files.len() < 2 || self.names.len() != self.files.len() {
            return Err(format!("the header names {} file(s) and {} name(s): a tournament needs two variants or more, a name each", self.files.len(), self.names.len()));
        }
        if self.games == 0 {
            return Err("the header's games per pairing is 0".into());
        }
        if let Some([k, n]) = self.shard {
            if k == 0 || k > n {
                return Err(format!("the header's shard {k}/{n} is not a shard"));
            }
        }
        Ok(())
    }

    /// Two headers describe the same tournament (shards of it may differ).
    pub fn same_tournament(&self, other: &Header) -> bool {
        let strip = |h: &Header| Header { shard: None, axforth: String::new(), ..h.clone() };
        strip(self) == strip(other)
    }
}

/// What a seat's engine did over a game.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct EngineStats {
    /// Moves the engine chose.
    pub moves: u64,
    /// Seconds spent choosing them.
    pub time: f64,
    /// Sum of the depths reached (average = depth / moves).
    pub depth: u64,
    /// Moves played inside its searches.
    pub nodes: u64,
    /// Seconds of its slowest move: an engine may overrun the time per
    /// move (the built-in ones look at every root move once whatever the
    /// clock says), and a mean hides it.
    #[serde(default)]
    pub longest: f64,
}

impl EngineStats {
    pub fn add(&mut self, o: &EngineStats) {
        self.moves += o.moves;
        self.time += o.time;
        self.depth += o.depth;
        self.nodes += o.nodes;
        self.longest = self.longest.max(o.longest);
    }
}

/// One finished game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameRecord {
    /// "game"
    pub kind: String,
    pub index: u64,
    pub seed: u64,
    /// The variant (index into the header's files) in seat 1 and seat 2.
    pub seats: [usize; 2],
    /// "1-0" (seat 1 won), "0-1", "1/2-1/2", or "*" (an error).
    pub result: String,
    /// Why the game ended: "game over", "max plies", or "error".
    pub reason: String,
    pub plies: u32,
    pub opening: Option<usize>,
    /// Every move as text, the opening's included.
    pub moves: Vec<String>,
    /// How many of the moves were the opening's (its line, then its
    /// random plies) before the engines took over.
    #[serde(default)]
    pub opening_plies: u32,
    /// Wall time of the game, in seconds.
    pub time: f64,
    pub error: Option<String>,
    /// For a game that failed: the command that plays it again, alone.
    pub rerun: Option<String>,
    pub engines: [EngineStats; 2],
    /// The text the game's `OnIsGameOver` built for its verdict (`^"`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

impl GameRecord {
    /// Points for seat 1 and 2; None for a game that erred.
    pub fn points(&self) -> Option<[f64; 2]> {
        match self.result.as_str() {
            "1-0" => Some([1.0, 0.0]),
            "0-1" => Some([0.0, 1.0]),
            "1/2-1/2" => Some([0.5, 0.5]),
            _ => None,
        }
    }

    /// Points of variant v in this game, if it played and the game counts.
    pub fn points_of(&self, v: usize) -> Option<f64> {
        let p = self.points()?;
        self.seats.iter().position(|&s| s == v).map(|i| p[i])
    }
}

/// A record file's contents.
#[derive(Debug, Default)]
pub struct Records {
    pub header: Option<Header>,
    pub games: Vec<GameRecord>,
    /// Lines that were neither (a torn last line, say).
    pub skipped: usize,
}

pub fn read(path: &Path) -> std::io::Result<Records> {
    let text = std::fs::read(path)?;
    Ok(parse(&String::from_utf8_lossy(&text)))
}

pub fn parse(text: &str) -> Records {
    let mut r = Records::default();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
            r.skipped += 1;
            continue;
        };
        let parsed = match value.get("kind").and_then(|k| k.as_str()) {
            Some("header") if r.header.is_none() => serde_json::from_value(value).map(|h| r.header = Some(h)).is_ok(),
            Some("header") => true,
            Some("game") => serde_json::from_value(value).map(|g| r.games.push(g)).is_ok(),
            _ => false,
        };
        if !parsed {
            r.skipped += 1;
        }
    }
    r
}

/// Appends lines to a record file, each flushed to the OS when written.
pub struct Writer {
    file: std::fs::File,
}

impl Writer {
    /// Opens for appending; a file that ends in a torn line gets a line
    /// break first, so the next record starts on a line of its own.
    pub fn append(path: &Path) -> std::io::Result<Writer> {
        let torn = std::fs::read(path).map(|b| !b.is_empty() && !b.ends_with(b"\n")).unwrap_or(false);
        let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
        if torn {
            file.write_all(b"\n")?;
        }
        Ok(Writer { file })
    }

    pub fn write<T: Serialize>(&mut self, value: &T) -> std::io::Result<()> {
        let mut line = serde_json::to_vec(value).map_err(std::io::Error::other)?;
        line.push(b'\n');
        // One write call per line: a kill leaves whole lines and at most
        // one torn last line.
        self.file.write_all(&line)?;
        self.file.flush()
    }
}

/// A single game's log (`--log DIR`): the header and the game in one
/// JSON object, which `axforth replay` plays back.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameLog {
    pub header: Header,
    pub game: GameRecord,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64) -> GameRecord {
        GameRecord {
            kind: "game".into(),
            index,
            seed: 9,
            seats: [0, 1],
            result: "1-0".into(),
            reason: "game over".into(),
            plies: 2,
            opening: None,
            moves: vec!["a1".into(), "b2".into()],
            opening_plies: 0,
            time: 0.5,
            error: None,
            rerun: None,
            engines: Default::default(),
            message: None,
        }
    }

    #[test]
    fn a_torn_last_line_is_skipped() {
        let mut text = String::new();
        for i in 0..3 {
            text.push_str(&serde_json::to_string(&game(i)).unwrap());
            text.push('\n');
        }
        let whole = serde_json::to_string(&game(3)).unwrap();
        text.push_str(&whole[..whole.len() / 2]);
        let r = parse(&text);
        assert_eq!(r.games.len(), 3);
        assert_eq!(r.skipped, 1);
        assert_eq!(r.games[2], game(2));
    }

    #[test]
    fn points_follow_the_seats() {
        let mut g = game(0);
        g.seats = [1, 0];
        assert_eq!(g.points_of(0), Some(0.0));
        assert_eq!(g.points_of(1), Some(1.0));
        g.result = "*".into();
        assert_eq!(g.points_of(0), None);
    }
}
