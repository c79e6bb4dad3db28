//! The results of a set of game records: the original AutoPlay's lines,
//! then the statistics (score, Elo, nElo, LOS, draws, pentanomial pairs,
//! SPRT), the engines' search statistics, and for more than two variants
//! a table ranked by Elo. The same numbers come as JSON, and as the
//! `Charts` the index page of `autoplay --html` draws.

use super::record::{EngineStats, GameRecord, Header};
use super::schedule::Schedule;
use super::stats::{self, EloEstimate, Penta, Sprt, Wdl};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// What a tournament's index page draws, as plain numbers (scores are
/// fractions 0..1; the view layer makes the pictures).
#[derive(Clone, Debug, Default)]
pub struct Charts {
    pub names: Vec<String>,
    /// For a match one bar, the first variant against the second; for
    /// more variants one per variant against the field, best first.
    pub elo: Vec<EloBar>,
    /// The first variant's running score after each game it played, in
    /// game-index order, with its 95 % interval.
    pub score: Vec<ScorePoint>,
    /// Per variant: its results against the field.
    pub totals: Vec<Wdl>,
    /// `[row][column]`: the row variant's results against the column's;
    /// `None` on the diagonal and for variants that never met.
    pub crosstable: Vec<Vec<Option<Wdl>>>,
}

/// An Elo estimate and its 95 % interval (`low`..`high`, lopsided:
/// `error` is its half width, as printed). Any of them may be ±inf.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloBar {
    pub variant: usize,
    pub elo: f64,
    pub error: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScorePoint {
    /// The game's number (its index + 1).
    pub game: u64,
    pub score: f64,
    pub low: f64,
    pub high: f64,
}

pub struct Summary {
    pub names: Vec<String>,
    /// Games that count (finished without error), by variant pairing
    /// (a, b), a < b: results from a's side.
    pub pairings: BTreeMap<(usize, usize), Wdl>,
    /// Pentanomial counts per pairing, over pairs whose two games both
    /// finished.
    pub pentas: BTreeMap<(usize, usize), Penta>,
    /// Per variant: its results against the field.
    pub totals: Vec<Wdl>,
    /// Per variant: what its engines did.
    pub engines: Vec<EngineStats>,
    /// Wins per variant (the original's lines).
    pub wins: Vec<u64>,
    pub draws: u64,
    pub played: u64,
    /// Games that ended in an error, with their index, seed and message,
    /// in the order they were counted (`errors_in_order` sorts them).
    pub errors: Vec<(u64, u64, String)>,
    pub sprt: Option<Sprt>,
    schedule: Schedule,
    /// Games whose pair partner has not been counted: (a, b, pair) → the
    /// game's points for a.
    unpaired: HashMap<(usize, usize, u64), f64>,
    /// Per pairing, the games seen (a hash of seats and moves): games of
    /// deterministic engines repeat, and a repeat is no new evidence.
    seen: HashMap<(usize, usize), HashSet<u64>>,
}

impl Summary {
    /// The summary of `games` (a game recorded twice counts once, as
    /// recorded last).
    pub fn new(header: &Header, games: &[GameRecord]) -> Summary {
        let mut by_index: BTreeMap<u64, &GameRecord> = BTreeMap::new();
        for g in games {
            by_index.insert(g.index, g);
        }
        let mut s = Summary::empty(header);
        for g in by_index.values() {
            s.add(g);
        }
        s
    }

    /// No game yet.
    pub fn empty(header: &Header) -> Summary {
        let n = header.names.len();
        Summary {
            names: header.names.clone(),
            pairings: BTreeMap::new(),
            pentas: BTreeMap::new(),
            totals: vec![Wdl::default(); n],
            engines: vec![EngineStats::default(); n],
            wins: vec![0; n],
            draws: 0,
            played: 0,
            errors: Vec::new(),
            sprt: header.sprt.map(|[elo0, elo1, alpha, beta]| Sprt { elo0, elo1, alpha, beta }),
            schedule: Schedule::of(header),
            unpaired: HashMap::new(),
            seen: HashMap::new(),
        }
    }

    /// Counts one more game (of an index not counted yet): constant work,
    /// so a tournament that summarizes after every game stays O(N).
    pub fn add(&mut self, g: &GameRecord) {
        let n = self.names.len();
        let [x, y] = g.seats;
        if x >= n || y >= n {
            return;
        }
        for (seat, &v) in g.seats.iter().enumerate() {
            self.engines[v].add(&g.engines[seat]);
        }
        let Some(points) = g.points() else {
            let mut e = g.error.clone().unwrap_or_default();
            if let Some(again) = &g.rerun {
                e = format!("{e}\n    again: {again}");
            }
            self.errors.push((g.index, g.seed, e));
            return;
        };
        self.played += 1;
        let (a, b) = (x.min(y), x.max(y));
        let pa = g.points_of(a).unwrap_or(0.0);
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (g.seats, &g.moves).hash(&mut h);
        self.seen.entry((a, b)).or_default().insert(h.finish());
        add(self.pairings.entry((a, b)).or_default(), pa);
        add(&mut self.totals[a], pa);
        add(&mut self.totals[b], 1.0 - pa);
        match points {
            [1.0, _] => self.wins[x] += 1,
            [_, 1.0] => self.wins[y] += 1,
            _ => self.draws += 1,
        }
        // A pair's two games make one pentanomial count once both are in.
        let pair = self.schedule.game(g.index).pair;
        match self.unpaired.remove(&(a, b, pair)) {
            Some(other) => self.pentas.entry((a, b)).or_default().add_pair(other, pa),
            None => {
                self.unpaired.insert((a, b, pair), pa);
            }
        }
    }

    /// Pairing (a, b)'s pentanomial counts, when every game counted is in
    /// a complete pair: with a pair left half played (an interrupted
    /// run, an odd -n), estimates over the pairs would disagree with the
    /// points over all games, so the per-game ones are given instead.
    fn paired(&self, a: usize, b: usize, wdl: &Wdl) -> Option<&Penta> {
        self.pentas.get(&(a, b)).filter(|p| p.pairs() > 0 && 2 * p.pairs() == wdl.games())
    }

    /// The number of different games counted in pairing (a, b).
    pub fn distinct(&self, a: usize, b: usize) -> u64 {
        self.seen.get(&(a, b)).map_or(0, |s| s.len() as u64)
    }

    /// Whether some game of variant i's repeats an earlier one.
    fn repeats(&self, i: usize) -> bool {
        self.pairings.iter().any(|(&(a, b), wdl)| (a == i || b == i) && self.distinct(a, b) < wdl.games())
    }

    /// The errors by game index.
    pub fn errors_in_order(&self) -> Vec<&(u64, u64, String)> {
        let mut e: Vec<_> = self.errors.iter().collect();
        e.sort_by_key(|e| e.0);
        e
    }

    /// The match between the first two variants, as the SPRT sees it.
    pub fn llr(&self) -> Option<f64> {
        let sprt = self.sprt.as_ref()?;
        match self.pentas.get(&(0, 1)) {
            Some(p) if p.counts.iter().sum::<u64>() > 0 => Some(sprt.llr_pentanomial(p)),
            _ => Some(sprt.llr_trinomial(self.pairings.get(&(0, 1)).unwrap_or(&Wdl::default()))),
        }
    }

    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        // The original's wording.
        out.push("Final results:".into());
        for (i, name) in self.names.iter().enumerate() {
            out.push(format!("Player {} \"{name}\", wins = {}.", i + 1, self.wins[i]));
        }
        out.push(format!("Draws = {}", self.draws));
        out.push(format!("{} game(s) played", self.played));
        if !self.errors.is_empty() {
            out.push(format!("{} game(s) ended in an error and do not count:", self.errors.len()));
            for (index, seed, e) in self.errors_in_order().into_iter().take(10) {
                out.push(format!("  game {} (seed {seed}): {e}", index + 1));
            }
        }
        out.push(String::new());
        for (&(a, b), wdl) in &self.pairings {
            let penta = self.paired(a, b, wdl);
            let sprt = (a, b) == (0, 1) && self.names.len() == 2;
            let sprt = self.sprt.as_ref().filter(|_| sprt).zip(self.llr());
            out.extend(stats::report(&self.names[a], &self.names[b], wdl, penta, sprt, Some(self.distinct(a, b))));
            let pairs = self.pentas.get(&(a, b)).map_or(0, Penta::pairs);
            if penta.is_none() && pairs > 0 {
                let alone = wdl.games() - 2 * pairs;
                out.push(format!("Pairs: {pairs} complete, {alone} game(s) without their pair: the statistics are per game"));
            }
            out.push(String::new());
        }
        out.push(format!("{:<24} {:>7} {:>10} {:>12} {:>10} {:>10}", "engine", "moves", "avg depth", "nodes/s", "s/move", "longest s"));
        for (name, e) in self.names.iter().zip(&self.engines) {
            let per = |x: f64| if e.moves > 0 { x / e.moves as f64 } else { 0.0 };
            let nps = if e.time > 0.0 { e.nodes as f64 / e.time } else { 0.0 };
            out.push(format!("{:<24} {:>7} {:>10.2} {:>12.0} {:>10.4} {:>10.4}", name, e.moves, per(e.depth as f64), nps, per(e.time), e.longest));
        }
        if self.names.len() > 2 {
            out.push(String::new());
            out.push(format!("{:<4} {:<24} {:>9} {:>8} {:>7} {:>8} {:>7}", "rank", "name", "elo", "+/-", "games", "score", "draw"));
            for (rank, (i, elo, err)) in self.ranking().into_iter().enumerate() {
                let t = &self.totals[i];
                let or_na = |x: f64, digits: usize, unit: &str| if x.is_nan() { "n/a".to_string() } else { format!("{x:.digits$}{unit}") };
                let (score, draws) = match t.games() {
                    0 => (f64::NAN, f64::NAN),
                    n => (100.0 * t.score(), 100.0 * t.draws as f64 / n as f64),
                };
                out.push(format!(
                    "{:<4} {:<24} {:>9} {:>8} {:>7} {:>8} {:>7}",
                    rank + 1,
                    self.names[i],
                    or_na(elo, 1, ""),
                    or_na(err, 1, ""),
                    t.games(),
                    or_na(score, 1, "%"),
                    or_na(draws, 1, "%"),
                ));
            }
        }
        out
    }

    /// (variant, Elo, error) best first, each from its score against the
    /// field.
    pub fn ranking(&self) -> Vec<(usize, f64, f64)> {
        self.ranked().into_iter().map(|(i, e)| (i, e.elo, e.elo_error)).collect()
    }

    /// Each variant's estimate against the field, best first. A variant
    /// that played no game has no Elo and comes last; one whose games
    /// repeat has no error (`stats::reported_estimate`'s rule).
    fn ranked(&self) -> Vec<(usize, EloEstimate)> {
        let mut r: Vec<(usize, EloEstimate)> = self
            .totals
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let mut e = EloEstimate::trinomial(t);
                if t.games() == 0 {
                    e.elo = f64::NAN;
                }
                if t.games() == 0 || self.repeats(i) {
                    e.elo_error = f64::NAN;
                }
                (i, e)
            })
            .collect();
        r.sort_by(|x, y| y.1.elo.partial_cmp(&x.1.elo).unwrap_or_else(|| x.1.elo.is_nan().cmp(&y.1.elo.is_nan())));
        r
    }

    /// The numbers the index page draws. `first_points` are the first
    /// variant's points in each counted game it played, by game index (a
    /// game given twice counts as given last). The Elo bars are the
    /// estimates `lines` prints: for a match, its report's; for more
    /// variants, the ranking's.
    pub fn charts(&self, first_points: &[(u64, f64)]) -> Charts {
        let bar = |variant: usize, e: EloEstimate| {
            let (low, high) = e.elo_interval();
            EloBar { variant, elo: e.elo, error: e.elo_error, low, high }
        };
        let elo = if self.names.len() == 2 {
            let wdl = self.pairings.get(&(0, 1)).copied().unwrap_or_default();
            vec![bar(0, stats::reported_estimate(&wdl, self.paired(0, 1, &wdl), Some(self.distinct(0, 1))))]
        } else {
            self.ranked().into_iter().map(|(i, e)| bar(i, e)).collect()
        };
        let by_index: BTreeMap<u64, f64> = first_points.iter().copied().collect();
        let mut so_far = Wdl::default();
        let score = by_index
            .into_iter()
            .map(|(index, points)| {
                so_far.add_game(points);
                let e = EloEstimate::trinomial(&so_far);
                ScorePoint { game: index + 1, score: e.score, low: e.score_low, high: e.score_high }
            })
            .collect();
        let n = self.names.len();
        let crosstable = (0..n)
            .map(|r| {
                (0..n)
                    .map(|c| match r.cmp(&c) {
                        std::cmp::Ordering::Less => self.pairings.get(&(r, c)).copied(),
                        std::cmp::Ordering::Greater => self.pairings.get(&(c, r)).map(Wdl::flipped),
                        std::cmp::Ordering::Equal => None,
                    })
                    .collect()
            })
            .collect();
        Charts { names: self.names.clone(), elo, score, totals: self.totals.clone(), crosstable }
    }

    pub fn json(&self) -> String {
        let names: Vec<String> = self.names.iter().map(|n| serde_json::to_string(n).unwrap_or_default()).collect();
        let mut matches = Vec::new();
        for (&(a, b), wdl) in &self.pairings {
            let penta = self.paired(a, b, wdl);
            let sprt = self.sprt.as_ref().filter(|_| (a, b) == (0, 1) && self.names.len() == 2).zip(self.llr());
            matches.push(format!("{{\"a\":{},\"b\":{},\"stats\":{}}}", names[a], names[b], stats::to_json(wdl, penta, sprt, Some(self.distinct(a, b)))));
        }
        let engines: Vec<String> = self
            .names
            .iter()
            .zip(&self.engines)
            .map(|(n, e)| format!("{{\"name\":{},\"stats\":{}}}", serde_json::to_string(n).unwrap_or_default(), serde_json::to_string(e).unwrap_or_default()))
            .collect();
        let ranking: Vec<String> = self
            .ranking()
            .into_iter()
            .map(|(i, elo, err)| format!("{{\"name\":{},\"elo\":{},\"error\":{}}}", names[i], finite(elo), finite(err)))
            .collect();
        let errors: Vec<String> = self
            .errors_in_order()
            .into_iter()
            .map(|(i, seed, e)| format!("{{\"index\":{i},\"seed\":{seed},\"error\":{}}}", serde_json::to_string(e).unwrap_or_default()))
            .collect();
        format!(
            "{{\"players\":[{}],\"wins\":{:?},\"draws\":{},\"played\":{},\"errors\":[{}],\"matches\":[{}],\"engines\":[{}],\"ranking\":[{}]}}",
            names.join(","),
            self.wins,
            self.draws,
            self.played,
            errors.join(","),
            matches.join(","),
            engines.join(","),
            ranking.join(",")
        )
    }
}

fn finite(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else {
        "null".into()
    }
}

fn add(w: &mut Wdl, points: f64) {
    if points == 1.0 {
        w.wins += 1;
    } else if points == 0.0 {
        w.losses += 1;
    } else {
        w.draws += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(names: &[&str], games: u64) -> Header {
        Header {
            kind: "header".into(),
            axforth: String::new(),
            files: names.iter().map(|n| format!("{n}.4th")).collect(),
            names: names.iter().map(|n| n.to_string()).collect(),
            seed: 1,
            games,
            gauntlet: false,
            openings: Vec::new(),
            openings_file: None,
            random_plies: 0,
            max_plies: 100,
            time_per_move: None,
            depth: None,
            engine: None,
            uct_c: 1.4,
            uct_playouts: None,
            sprt: None,
            shard: None,
        }
    }

    /// Game `index` of `h`'s schedule, won by seat 1 (or drawn), with
    /// moves that make it a game of its own.
    fn game(h: &Header, index: u64, result: &str) -> GameRecord {
        let spec = Schedule::of(h).game(index);
        GameRecord {
            kind: "game".into(),
            index,
            seed: spec.seed,
            seats: spec.seats,
            result: result.into(),
            reason: "game over".into(),
            plies: 1,
            opening: None,
            moves: vec![format!("move {index}")],
            opening_plies: 0,
            time: 0.0,
            error: None,
            rerun: None,
            engines: Default::default(),
            message: None,
        }
    }

    fn line<'a>(lines: &'a [String], prefix: &str) -> &'a str {
        lines.iter().find_map(|l| l.strip_prefix(prefix)).unwrap_or_else(|| panic!("no {prefix} in {lines:#?}"))
    }

    #[test]
    fn a_pair_left_half_played_gives_per_game_statistics_that_agree_with_the_points() {
        let h = header(&["A", "B"], 10);
        // Pair 0: seat 1 wins both games (one for each); game 2 (pair 1):
        // A wins, its partner never played.
        let games = [game(&h, 0, "1-0"), game(&h, 1, "1-0"), game(&h, 2, "1-0")];
        let lines = Summary::new(&h, &games).lines();
        assert!(line(&lines, "Games: ").ends_with("Points: 2.0 (66.67 %)"), "{lines:#?}");
        assert!(line(&lines, "Score: ").starts_with("66.67 %"), "{lines:#?}");
        assert_eq!(line(&lines, "Pairs: "), "1 complete, 1 game(s) without their pair: the statistics are per game");
        // Both halves in: the pentanomial statistics again.
        let games = [game(&h, 0, "1-0"), game(&h, 1, "1-0"), game(&h, 2, "1-0"), game(&h, 3, "1/2-1/2")];
        let lines = Summary::new(&h, &games).lines();
        assert!(lines.iter().any(|l| l.starts_with("Ptnml(0-2): [0, 0, 1, 1, 0]")), "{lines:#?}");
        assert!(!lines.iter().any(|l| l.starts_with("Pairs: ")), "{lines:#?}");
    }

    #[test]
    fn a_variant_with_no_game_is_ranked_last_without_an_elo() {
        let h = header(&["A", "B", "C"], 4);
        // Only pairing A–B played; B lost every game.
        let games: Vec<GameRecord> = (0..4).map(|i| game(&h, i, if i % 2 == 0 { "1-0" } else { "0-1" })).collect();
        let s = Summary::new(&h, &games);
        let ranked: Vec<usize> = s.ranking().iter().map(|r| r.0).collect();
        assert_eq!(ranked, [0, 1, 2]);
        let lines = s.lines();
        let c = lines.iter().find(|l| l.starts_with("3    C")).unwrap_or_else(|| panic!("{lines:#?}"));
        assert!(c.contains("n/a") && !c.contains("50.0%"), "{c}");
    }

    #[test]
    fn repeated_games_are_counted_once_and_get_no_error_bars() {
        let h = header(&["A", "B"], 8);
        let mut games: Vec<GameRecord> = (0..8).map(|i| game(&h, i, "1/2-1/2")).collect();
        for g in &mut games {
            g.moves = vec![format!("seat {}", g.seats[0])];
        }
        let s = Summary::new(&h, &games);
        assert_eq!(s.distinct(0, 1), 2);
        let lines = s.lines();
        assert!(line(&lines, "Elo: ").starts_with("0.00 +/- n/a"), "{lines:#?}");
        assert!(line(&lines, "Distinct games: ").starts_with("2 of 8"), "{lines:#?}");
        assert!(s.json().contains("\"distinct_games\": 2"), "{}", s.json());
    }
}
