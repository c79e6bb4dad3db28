//! The results of a set of game records: the original AutoPlay's lines,
//! then the statistics (score, Elo, nElo, LOS, draws, pentanomial pairs,
//! SPRT), the engines' search statistics, and for more than two variants
//! a table ranked by Elo. The same numbers come as JSON, and as the
//! `Charts` the index page of `autoplay --html` draws.

use super::record::{EngineStats, GameRecord, Header};
use super::schedule::Schedule;
use super::stats::{self, EloEstimate, Penta, Sprt, Wdl};
use std::collections::{BTreeMap, HashMap};

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
            let penta = self.penta(a, b);
            let sprt = (a, b) == (0, 1) && self.names.len() == 2;
            let sprt = self.sprt.as_ref().filter(|_| sprt).zip(self.llr());
            out.extend(stats::report(&self.names[a], &self.names[b], wdl, penta, sprt));
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
                out.push(format!(
                    "{:<4} {:<24} {:>9.1} {:>8.1} {:>7} {:>7.1}% {:>6.1}%",
                    rank + 1,
                    self.names[i],
                    elo,
                    err,
                    t.games(),
                    100.0 * t.score(),
                    100.0 * t.draws as f64 / t.games().max(1) as f64
                ));
            }
        }
        out
    }

    /// The pair results of a pairing, if it has a finished pair: what
    /// its report is computed from instead of the games.
    fn penta(&self, a: usize, b: usize) -> Option<&Penta> {
        self.pentas.get(&(a, b)).filter(|p| p.counts.iter().sum::<u64>() > 0)
    }

    /// (variant, Elo, error) best first, each from its score against the
    /// field.
    pub fn ranking(&self) -> Vec<(usize, f64, f64)> {
        self.ranked().into_iter().map(|(i, e)| (i, e.elo, e.elo_error)).collect()
    }

    fn ranked(&self) -> Vec<(usize, EloEstimate)> {
        let mut r: Vec<(usize, EloEstimate)> = self.totals.iter().map(EloEstimate::trinomial).enumerate().collect();
        r.sort_by(|x, y| y.1.elo.partial_cmp(&x.1.elo).unwrap_or(std::cmp::Ordering::Equal));
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
            vec![bar(0, stats::reported_estimate(&wdl, self.penta(0, 1)))]
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
            let penta = self.penta(a, b);
            let sprt = self.sprt.as_ref().filter(|_| (a, b) == (0, 1) && self.names.len() == 2).zip(self.llr());
            matches.push(format!("{{\"a\":{},\"b\":{},\"stats\":{}}}", names[a], names[b], stats::to_json(wdl, penta, sprt)));
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
