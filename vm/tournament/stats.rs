//! The statistics of an engine-against-engine match, as fastchess reports
//! them: the score with its 95% interval, the Elo difference and its
//! error, normalized Elo (nElo), the likelihood of superiority (LOS), the
//! draw ratio, the pentanomial counts of game pairs and the error they
//! give, and the sequential probability ratio test (SPRT).
//!
//! Pure functions over counts; no I/O. Results are from the first
//! engine's point of view. Trinomial figures treat games as independent;
//! pentanomial ones treat the two games of a pair (one opening, seats
//! swapped) as one sample, which is what makes their error honest when
//! openings or seats favour a side.

/// 97.5% quantile of the standard normal distribution (two-sided 95%).
const Z95: f64 = 1.959_963_984_540_054;

/// 800/ln 10: turns a score difference in standard deviations into nElo.
fn nelo_scale() -> f64 {
    800.0 / std::f64::consts::LN_10
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Points per game (0.5 with no games).
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            self.points() / self.games() as f64
        }
    }

    pub fn add(&mut self, o: &Wdl) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }

    fn samples(&self) -> Samples {
        Samples::new(&[(0.0, self.losses as f64), (0.5, self.draws as f64), (1.0, self.wins as f64)])
    }
}

/// Game pairs by the first engine's points in them: [LL, LD, WL+DD, WD,
/// WW]; WL and DD are also kept apart (fastchess prints their ratio).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u64; 5],
    pub wl: u64,
    pub dd: u64,
}

impl Penta {
    /// A pair whose games scored a and b (0, ½ or 1 each).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let half_points = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[half_points] += 1;
        if half_points == 2 {
            if a == 0.5 {
                self.dd += 1;
            } else {
                self.wl += 1;
            }
        }
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Pair scores on the game scale (0..1).
    fn samples(&self) -> Samples {
        let c = self.counts.map(|n| n as f64);
        Samples::new(&[(0.0, c[0]), (0.25, c[1]), (0.5, c[2]), (0.75, c[3]), (1.0, c[4])])
    }
}

/// Mean and variance of a discrete sample (scores with their counts).
#[derive(Clone, Copy, Debug)]
struct Samples {
    n: f64,
    mean: f64,
    variance: f64,
}

impl Samples {
    fn new(scores: &[(f64, f64)]) -> Samples {
        let n: f64 = scores.iter().map(|s| s.1).sum();
        if n == 0.0 {
            return Samples { n, mean: 0.5, variance: 0.0 };
        }
        let mean = scores.iter().map(|(x, k)| x * k).sum::<f64>() / n;
        let variance = scores.iter().map(|(x, k)| k * (x - mean).powi(2)).sum::<f64>() / n;
        Samples { n, mean, variance }
    }

    /// The standard error of the mean.
    fn stderr(&self) -> f64 {
        if self.n == 0.0 {
            0.0
        } else {
            (self.variance / self.n).sqrt()
        }
    }

    fn interval(&self) -> (f64, f64) {
        let e = Z95 * self.stderr();
        ((self.mean - e).max(0.0), (self.mean + e).min(1.0))
    }
}

/// The Elo difference that makes `score` the expected score (logistic).
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a side `elo` points stronger.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo and the half-width of its 95% interval (the score interval mapped
/// through the logistic curve, as fastchess and cutechess report it).
fn elo_of(s: &Samples) -> (f64, f64) {
    let (lo, hi) = s.interval();
    (score_to_elo(s.mean), (score_to_elo(hi) - score_to_elo(lo)) / 2.0)
}

/// Elo difference ± error, from games taken one by one.
pub fn elo(w: &Wdl) -> (f64, f64) {
    elo_of(&w.samples())
}

/// Elo difference ± error, from game pairs.
pub fn elo_pentanomial(p: &Penta) -> (f64, f64) {
    elo_of(&p.samples())
}

/// Normalized Elo: the score's distance from ½ in standard deviations of
/// one game's result, scaled so that it reads like Elo near 50%.
pub fn nelo(w: &Wdl) -> (f64, f64) {
    let s = w.samples();
    normalized(s.mean, s.variance.sqrt(), s.stderr())
}

/// nElo from pairs: a pair averages two games, so one game's deviation is
/// √2 times the pair's (fastchess's `nEloPenta`).
pub fn nelo_pentanomial(p: &Penta) -> (f64, f64) {
    let s = p.samples();
    let sigma = (2.0 * s.variance).sqrt();
    normalized(s.mean, sigma, s.stderr() * std::f64::consts::SQRT_2)
}

fn normalized(mean: f64, sigma: f64, stderr_in_games: f64) -> (f64, f64) {
    if sigma == 0.0 {
        let n = if mean > 0.5 {
            f64::INFINITY
        } else if mean < 0.5 {
            f64::NEG_INFINITY
        } else {
            0.0
        };
        return (n, f64::NAN);
    }
    let n = (mean - 0.5) / sigma * nelo_scale();
    (n, Z95 * stderr_in_games / sigma * nelo_scale())
}

/// The likelihood that the first engine is the stronger: from wins and
/// losses alone (draws say nothing about who is stronger).
pub fn los(w: &Wdl) -> f64 {
    let decisive = (w.wins + w.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((w.wins as f64 - w.losses as f64) / (2.0 * decisive).sqrt()))
}

pub fn draw_ratio(w: &Wdl) -> f64 {
    if w.games() == 0 {
        0.0
    } else {
        w.draws as f64 / w.games() as f64
    }
}

/// The error function, to 1.2e-7 everywhere (Numerical Recipes' erfc,
/// a Chebyshev fit).
pub fn erf(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06 + t * (0.278_868_07 + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    if x >= 0.0 {
        1.0 - erfc
    } else {
        erfc - 1.0
    }
}

/// A sequential test between H0: Elo = elo0 and H1: Elo = elo1 (logistic
/// Elo), with false positive rate alpha and false negative rate beta.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    /// (lower, upper): below the lower H0 is accepted, above the upper H1.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of games taken one by one.
    pub fn llr_trinomial(&self, w: &Wdl) -> f64 {
        let c = regularize([w.losses, w.draws, w.wins]);
        self.llr(&[(0.0, c[0]), (0.5, c[1]), (1.0, c[2])])
    }

    /// The log-likelihood ratio of game pairs (pair scores on the game
    /// scale, 0..1).
    pub fn llr_pentanomial(&self, p: &Penta) -> f64 {
        let c = regularize(p.counts);
        self.llr(&[(0.0, c[0]), (0.25, c[1]), (0.5, c[2]), (0.75, c[3]), (1.0, c[4])])
    }

    /// The generalized SPRT as fastchess computes it for logistic bounds
    /// (after Michel Van den Bergh): under each hypothesis, the
    /// distribution of results closest to the observed one whose mean is
    /// that hypothesis' expected score; the LLR is N times the difference
    /// of their log-likelihoods. Unlike the normal approximation it stays
    /// bounded when one result has been seen only a few times.
    fn llr(&self, samples: &[(f64, f64)]) -> f64 {
        let n: f64 = samples.iter().map(|s| s.1).sum();
        if n == 0.0 {
            return 0.0;
        }
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        let (l0, l1) = (closest_lambda(samples, n, s0), closest_lambda(samples, n, s1));
        samples.iter().map(|&(x, k)| k * ((1.0 + l0 * (x - s0)).ln() - (1.0 + l1 * (x - s1)).ln())).sum()
    }

    pub fn status(&self, llr: f64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtStatus::AcceptH1
        } else if llr <= lower {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }
}

/// The multiplier λ of the distribution p_i / (1 + λ(x_i − s)) closest
/// (in Kullback-Leibler divergence) to the observed one p_i whose mean is
/// s; found by bisection, the mean being monotone in λ.
fn closest_lambda(samples: &[(f64, f64)], n: f64, s: f64) -> f64 {
    let lo_x = samples.iter().filter(|x| x.1 > 0.0).map(|x| x.0).fold(f64::INFINITY, f64::min);
    let hi_x = samples.iter().filter(|x| x.1 > 0.0).map(|x| x.0).fold(f64::NEG_INFINITY, f64::max);
    if !(lo_x < s && s < hi_x) {
        return 0.0; // every result on one side of s: no such distribution
    }
    // 1 + λ(x − s) > 0 for every x.
    let (mut lo, mut hi) = (-1.0 / (hi_x - s) + 1e-12, 1.0 / (s - lo_x) - 1e-12);
    let mean_gap = |l: f64| samples.iter().map(|&(x, k)| k / n * (x - s) / (1.0 + l * (x - s))).sum::<f64>();
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if mean_gap(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Empty categories get a tiny count, so that a short run of one result
/// does not make the variance zero (fastchess regularizes the same way).
/// Nothing is added to a sample with no results at all.
fn regularize<const N: usize>(counts: [u64; N]) -> [f64; N] {
    if counts.iter().all(|&c| c == 0) {
        return [0.0; N];
    }
    counts.map(|c| if c == 0 { 1e-3 } else { c as f64 })
}

/// A number for people: `inf`, `-inf`, `nan` spelt out.
fn show(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{x:.decimals$}")
    }
}

/// A number for JSON, which has no infinities.
fn json_number(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        "null".into()
    }
}

/// fastchess's result block for `a` against `b`.
pub fn report(a: &str, b: &str, w: &Wdl, penta: Option<&Penta>, sprt: Option<(&Sprt, f64)>) -> Vec<String> {
    let ((e, ee), (n, ne)) = match penta {
        Some(p) => (elo_pentanomial(p), nelo_pentanomial(p)),
        None => (elo(w), nelo(w)),
    };
    let s = w.samples();
    let (lo, hi) = s.interval();
    let mut out = vec![
        format!("Results of {a} vs {b}:"),
        format!("Elo: {} +/- {}, nElo: {} +/- {}", show(e, 2), show(ee, 2), show(n, 2), show(ne, 2)),
    ];
    let mut los_line = format!("LOS: {} %, DrawRatio: {} %", show(100.0 * los(w), 2), show(100.0 * draw_ratio(w), 2));
    if let Some(p) = penta {
        let lost = (p.counts[0] + p.counts[1]) as f64;
        let won = (p.counts[3] + p.counts[4]) as f64;
        los_line.push_str(&format!(", PairsRatio: {}", show(won / lost, 2)));
    }
    out.push(los_line);
    out.push(format!(
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({} %)",
        w.games(),
        w.wins,
        w.losses,
        w.draws,
        w.points(),
        show(100.0 * w.score(), 2)
    ));
    out.push(format!("Score: {} % [{} %, {} %] (95 %)", show(100.0 * s.mean, 2), show(100.0 * lo, 1), show(100.0 * hi, 1)));
    if let Some(p) = penta {
        let c = p.counts;
        out.push(format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            show(p.wl as f64 / p.dd as f64, 2)
        ));
    }
    if let Some((t, llr)) = sprt {
        let (lower, upper) = t.bounds();
        out.push(format!("LLR: {} ({}, {}) [{}, {}]", show(llr, 2), show(lower, 2), show(upper, 2), show(t.elo0, 2), show(t.elo1, 2)));
    }
    out
}

/// The same numbers as a JSON object.
pub fn to_json(w: &Wdl, penta: Option<&Penta>, sprt: Option<(&Sprt, f64)>) -> String {
    let ((e, ee), (n, ne)) = match penta {
        Some(p) => (elo_pentanomial(p), nelo_pentanomial(p)),
        None => (elo(w), nelo(w)),
    };
    let s = w.samples();
    let (lo, hi) = s.interval();
    let penta = penta.map_or("null".to_string(), |p| format!("{:?}", p.counts));
    let (llr, lower, upper) = match sprt {
        Some((t, llr)) => {
            let (l, u) = t.bounds();
            (json_number(llr), json_number(l), json_number(u))
        }
        None => ("null".into(), "null".into(), "null".into()),
    };
    format!(
        "{{\"games\":{},\"wins\":{},\"draws\":{},\"losses\":{},\"score\":{},\"score_low\":{},\"score_high\":{},\"elo\":{},\"elo_error\":{},\"nelo\":{},\"nelo_error\":{},\"los\":{},\"draw_ratio\":{},\"penta\":{penta},\"llr\":{llr},\"llr_lower\":{lower},\"llr_upper\":{upper}}}",
        w.games(),
        w.wins,
        w.draws,
        w.losses,
        json_number(s.mean),
        json_number(lo),
        json_number(hi),
        json_number(e),
        json_number(ee),
        json_number(n),
        json_number(ne),
        json_number(los(w)),
        json_number(draw_ratio(w)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn elo_of_known_scores() {
        // 75% is 400·log10(3) = 190.85 Elo; 50% is 0; 64% is about +100.
        assert!(close(score_to_elo(0.75), 190.848_501_887, 1e-6));
        assert_eq!(score_to_elo(0.5), 0.0);
        assert!(close(elo_to_score(100.0), 0.640_065, 1e-6));
        assert!(close(score_to_elo(elo_to_score(-37.5)), -37.5, 1e-9));
    }

    #[test]
    fn erf_matches_tables() {
        // Abramowitz and Stegun, table 7.1.
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265_0, 2e-7));
        assert_eq!(erf(0.0).abs() < 2e-7, true);
    }

    #[test]
    fn los_of_known_counts() {
        assert_eq!(los(&Wdl::default()), 0.5);
        assert_eq!(los(&Wdl { wins: 0, draws: 10, losses: 0 }), 0.5);
        // 60 wins, 40 losses: (W−L)/√(2(W+L)) = 20/√200 = √2, erf(√2) = 0.9544997.
        assert!(close(los(&Wdl { wins: 60, draws: 0, losses: 40 }), 0.5 * (1.0 + 0.954_499_736), 1e-6));
    }

    #[test]
    fn trinomial_interval_by_hand() {
        // 30 wins, 40 draws, 30 losses: mean ½, variance (30·¼ + 30·¼)/100 = 0.15.
        let w = Wdl { wins: 30, draws: 40, losses: 30 };
        let s = w.samples();
        assert!(close(s.variance, 0.15, 1e-12));
        let (lo, hi) = s.interval();
        assert!(close(hi - 0.5, Z95 * (0.15f64 / 100.0).sqrt(), 1e-12));
        assert!(close(0.5 - lo, hi - 0.5, 1e-12));
        let (e, err) = elo(&w);
        assert_eq!(e, 0.0);
        assert!(close(err, score_to_elo(hi), 1e-9));
        // nElo of an even match is 0, its error 1.96·800/ln10/√N.
        let (n, ne) = nelo(&w);
        assert_eq!(n, 0.0);
        assert!(close(ne, Z95 * nelo_scale() / 10.0, 1e-9));
    }

    #[test]
    fn pentanomial_counts_pairs() {
        let mut p = Penta::default();
        p.add_pair(1.0, 0.0);
        p.add_pair(0.5, 0.5);
        p.add_pair(1.0, 1.0);
        p.add_pair(0.0, 0.5);
        assert_eq!(p.counts, [0, 1, 2, 0, 1]);
        assert_eq!((p.wl, p.dd), (1, 1));
        assert_eq!(p.pairs(), 4);
        // Pair scores 0.25, 0.5, 0.5, 1: mean 0.5625.
        assert!(close(p.samples().mean, 0.5625, 1e-12));
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let t = Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 };
        let (lower, upper) = t.bounds();
        // ln(0.05/0.95) and ln(0.95/0.05).
        assert!(close(lower, -2.944_438_979, 1e-9));
        assert!(close(upper, 2.944_438_979, 1e-9));
        // An even match is evidence for H0, a strong one for H1.
        let even = Wdl { wins: 300, draws: 400, losses: 300 };
        assert!(t.llr_trinomial(&even) < 0.0);
        let strong = Wdl { wins: 600, draws: 300, losses: 100 };
        assert_eq!(t.status(t.llr_trinomial(&strong)), SprtStatus::AcceptH1);
        // Near the hypotheses the exact LLR agrees with the normal
        // approximation N·(s1 − s0)·(2·mean − s0 − s1)/(2·var).
        let (s0, s1) = (0.5, elo_to_score(5.0));
        let approximation = 1000.0 * (s1 - s0) * (1.0 - s0 - s1) / (2.0 * 0.15);
        assert!(close(t.llr_trinomial(&even), approximation, 0.01 * approximation.abs()), "{}", t.llr_trinomial(&even));
        assert_eq!(t.llr_trinomial(&Wdl::default()), 0.0);
        // One game decides nothing.
        assert_eq!(t.status(t.llr_trinomial(&Wdl { wins: 1, draws: 0, losses: 0 })), SprtStatus::Continue);
        let t = Sprt { elo0: 0.0, elo1: 100.0, alpha: 0.05, beta: 0.05 };
        assert_eq!(t.status(t.llr_trinomial(&Wdl { wins: 1, draws: 0, losses: 0 })), SprtStatus::Continue);
    }

    #[test]
    fn edge_cases_do_not_panic_and_print_sensibly() {
        let all_wins = Wdl { wins: 10, draws: 0, losses: 0 };
        let lines = report("A", "B", &all_wins, None, None);
        assert!(lines[1].starts_with("Elo: inf"), "{lines:?}");
        let none = Wdl::default();
        let lines = report("A", "B", &none, Some(&Penta::default()), Some((&Sprt { elo0: 0.0, elo1: 5.0, alpha: 0.05, beta: 0.05 }, 0.0)));
        assert!(lines.iter().any(|l| l.starts_with("Games: 0")), "{lines:?}");
        let draws = Wdl { wins: 0, draws: 8, losses: 0 };
        assert_eq!(elo(&draws).0, 0.0);
        let json = to_json(&all_wins, None, None);
        assert!(json.contains("\"elo\":null"), "{json}");
        assert!(serde_json::from_str::<serde_json::Value>(&json).is_ok(), "{json}");
    }
}
