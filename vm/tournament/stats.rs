//! The statistics of an engine-vs-engine match, computed and printed the
//! way fastchess does: game results (`Wdl`) and game-pair results
//! (`Penta`), the score with its 95 % interval, logistic Elo and
//! normalized Elo (nElo) with their errors, LOS, draw ratios, the SPRT
//! log-likelihood ratio, a ranking for round robins, and the report lines
//! and JSON a match runner prints.
//!
//! Pure functions over counts: no I/O, no clocks, no randomness.
//!
//! Where this file follows fastchess rather than the textbook (or
//! cutechess) form, the comment at that function says so. The formulas
//! were checked against fastchess's `app/src/matchmaking/elo/`,
//! `sprt/sprt.cpp` and `output/output_fastchess.hpp`, and the tests below
//! reproduce the numbers of fastchess's own `elo_test.cpp` and
//! `sprt_test.cpp`.
//!
//! Degenerate samples never panic and never produce NaN where a number
//! has a meaning: no games is a score of 50 % with an unbounded interval,
//! a 100 % (0 %) score is +inf (−inf) Elo, and all draws is 0 ± 0 Elo.
//! NaN is left only for ratios that are 0/0 (e.g. `PairsRatio` with no
//! decided pairs); the report prints it as `n/a` and the JSON as `null`.

use std::f64::consts::{LN_10, PI};

/// The z-score of a two-sided 95 % normal interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Elo per unit of (score − 0.5)/σ: the slope of the logistic Elo curve
/// at 50 % is 400/(ln 10 · 0.25) = 1600/ln 10, and normalized Elo is
/// defined so that it equals logistic Elo for a sample with σ = 0.5 at
/// 50 %, i.e. (s − 0.5)/σ · 800/ln 10.
pub const NELO_SCALE: f64 = 800.0 / LN_10;

/// The per-game outcomes, for the first engine: loss, draw, win.
const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The per-pair outcomes, for the first engine, halved so a pair scores
/// 0..1 like a game: LL, LD, WL+DD, WD, WW.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

// ---------------------------------------------------------------------------
// Counts
// ---------------------------------------------------------------------------

/// Game results from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

impl Wdl {
    pub fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl { wins, draws, losses }
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Wins count 1, draws ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game, 0..1. With no games there is no evidence either
    /// way, so the score is the neutral 0.5 (and the Elo 0) rather than
    /// 0/0.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / n as f64,
        }
    }

    pub fn add(&mut self, other: &Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// Counts one game the first engine scored `points` in (0, 0.5 or 1).
    pub fn add_game(&mut self, points: f64) {
        match game_outcome_index(points) {
            0 => self.losses += 1,
            1 => self.draws += 1,
            _ => self.wins += 1,
        }
    }

    /// The same results from the second engine's point of view.
    pub fn flipped(&self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// Counts in the order of `GAME_SCORES`.
    fn by_outcome(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

/// Results of game pairs: the two games of a pair are played from the same
/// opening with the seats swapped, so the pair's total cancels most of the
/// opening's bias. `counts` is indexed by the pair's points for the first
/// engine times two: `[LL, LD, WL+DD, WD, WW]`.
///
/// fastchess keeps WL and DD apart to print the WL/DD ratio, which five
/// counts cannot give; `win_loss_pairs` is how many of `counts[2]` were a
/// win and a loss (the rest were two draws).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    pub counts: [u64; 5],
    pub win_loss_pairs: u64,
}

impl Penta {
    /// From the five counts alone (the WL/DD split unknown, taken as all DD).
    pub fn from_counts(counts: [u64; 5]) -> Penta {
        Penta { counts, win_loss_pairs: 0 }
    }

    /// From fastchess's six counts, in the order of its `Stats` constructor.
    pub fn from_fastchess(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Penta {
        Penta { counts: [ll, ld, wl + dd, wd, ww], win_loss_pairs: wl }
    }

    /// Counts one pair from the first engine's scores in its two games
    /// (each 0, 0.5 or 1).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let (a, b) = (game_outcome_index(a), game_outcome_index(b));
        self.counts[a + b] += 1;
        if a + b == 2 && a != b {
            self.win_loss_pairs += 1;
        }
    }

    pub fn add(&mut self, other: &Penta) {
        for (mine, theirs) in self.counts.iter_mut().zip(other.counts) {
            *mine += theirs;
        }
        self.win_loss_pairs += other.win_loss_pairs;
    }

    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Pairs that were two draws.
    pub fn draw_draw_pairs(&self) -> u64 {
        self.counts[2] - self.win_loss_pairs.min(self.counts[2])
    }

    /// Points of a pair per pair, 0..1 (0.5 with no pairs).
    pub fn score(&self) -> f64 {
        sample_mean_and_variance(&PAIR_SCORES, &self.counts).0
    }

    /// The same pairs from the second engine's point of view.
    pub fn flipped(&self) -> Penta {
        let [ll, ld, even, wd, ww] = self.counts;
        Penta { counts: [ww, wd, even, ld, ll], win_loss_pairs: self.win_loss_pairs }
    }
}

/// 0 for a loss, 1 for a draw, 2 for a win. Scores in between are rounded
/// to the nearest outcome so a caller's float noise cannot index out of
/// range.
fn game_outcome_index(points: f64) -> usize {
    (points * 2.0).round().clamp(0.0, 2.0) as usize
}

/// Mean and (population) variance of a sample given as counts per outcome.
/// An empty sample has mean 0.5 (see `Wdl::score`) and variance 0.
fn sample_mean_and_variance(outcomes: &[f64], counts: &[u64]) -> (f64, f64) {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return (0.5, 0.0);
    }
    let n = n as f64;
    let mean = outcomes.iter().zip(counts).map(|(x, &c)| x * c as f64).sum::<f64>() / n;
    let variance = outcomes
        .iter()
        .zip(counts)
        .map(|(x, &c)| c as f64 * (x - mean) * (x - mean))
        .sum::<f64>()
        / n;
    (mean, variance)
}

// ---------------------------------------------------------------------------
// Special functions and Elo conversions
// ---------------------------------------------------------------------------

/// The error function, accurate to about 1e-14 everywhere.
///
/// Below |x| = 3 the Maclaurin series (it converges for all x, and by 3 the
/// largest term is ~1e3, so cancellation costs three digits at most);
/// above, the continued fraction of erfc, which converges quickly there;
/// past 6, erf is 1 to double precision.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < 0.0 {
        return -erf(-x);
    }
    if x >= 6.0 {
        return 1.0;
    }
    if x < 3.0 {
        // erf x = 2/√π · Σ (−1)ⁿ x^(2n+1) / (n! (2n+1))
        let x2 = x * x;
        let mut power_over_factorial = x; // (−1)ⁿ x^(2n+1) / n!
        let mut sum = x;
        for n in 1..200 {
            power_over_factorial *= -x2 / n as f64;
            let term = power_over_factorial / (2 * n + 1) as f64;
            sum += term;
            if term.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        return 2.0 / PI.sqrt() * sum;
    }
    // erfc x = e^(−x²)/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …)))))
    // evaluated from a fixed depth inwards.
    let mut tail = x;
    for k in (1..=80).rev() {
        tail = x + (k as f64 / 2.0) / tail;
    }
    1.0 - (-x * x).exp() / PI.sqrt() / tail
}

/// Logistic Elo difference of a score: −400·log10(1/s − 1). ±inf at 100 %
/// and 0 % (no finite difference explains a perfect result).
pub fn elo_from_score(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        // = −400·log10(1/s − 1), written so 50 % gives +0.0, not −0.0
        // (which would print as "-0.00").
        400.0 * (score / (1.0 - score)).log10()
    }
}

/// A score interval as Elo: one formula for the half width `EloEstimate`
/// reports and the interval the charts draw.
fn elo_interval(score_low: f64, score_high: f64) -> (f64, f64) {
    (elo_from_score(score_low), elo_from_score(score_high))
}

/// The expected score of a logistic Elo difference: 1/(1 + 10^(−elo/400)).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Normalized Elo of a score given the standard deviation `sigma` of the
/// unit the score is averaged over (a game, or a pair for pentanomial,
/// where fastchess passes √2 · σ_pair). With σ = 0 the sample is all one
/// outcome: 0 for a 50 % score, ±inf otherwise.
pub fn nelo_from_score(score: f64, sigma: f64) -> f64 {
    let excess = score - 0.5;
    if sigma > 0.0 {
        excess / sigma * NELO_SCALE
    } else if excess == 0.0 {
        0.0
    } else {
        excess.signum() * f64::INFINITY
    }
}

/// Likelihood of superiority the way cutechess computes it, from wins and
/// losses alone (draws carry no information about who is stronger):
/// ½·(1 + erf((W − L)/√(2(W + L)))). 50 % with no decisive games.
/// fastchess's reports use `EloEstimate::los` instead.
pub fn los_from_wins_losses(wdl: &Wdl) -> f64 {
    let decisive = (wdl.wins + wdl.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    let margin = wdl.wins as f64 - wdl.losses as f64;
    0.5 * (1.0 + erf(margin / (2.0 * decisive).sqrt()))
}

/// Draws per game, 0..1 (0 with no games).
pub fn draw_ratio(wdl: &Wdl) -> f64 {
    ratio_or_zero(wdl.draws, wdl.games())
}

/// Pairs that ended even (WL or DD) per pair, 0..1: what fastchess prints
/// as `DrawRatio` when it reports pentanomial statistics.
pub fn pair_draw_ratio(penta: &Penta) -> f64 {
    ratio_or_zero(penta.counts[2], penta.pairs())
}

/// fastchess's `PairsRatio`: pairs won (WW + WD) per pair lost (LL + LD).
/// +inf with wins and no losses; NaN (undefined) with neither.
pub fn pairs_ratio(penta: &Penta) -> f64 {
    let [ll, ld, _, wd, ww] = penta.counts;
    (ww + wd) as f64 / (ll + ld) as f64
}

/// fastchess's `WL/DD Ratio`: even pairs that were a win and a loss per
/// even pair that was two draws. A high ratio means the openings decide
/// games more than the engines do. +inf / NaN as for `pairs_ratio`.
pub fn wl_dd_ratio(penta: &Penta) -> f64 {
    penta.win_loss_pairs as f64 / penta.draw_draw_pairs() as f64
}

fn ratio_or_zero(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

// ---------------------------------------------------------------------------
// Estimates
// ---------------------------------------------------------------------------

/// What a sample of results says about the first engine's strength: the
/// score with its 95 % interval, Elo and nElo with their 95 % errors
/// (half widths), and the likelihood of superiority. All fractions are
/// 0..1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    pub elo: f64,
    pub elo_error: f64,
    pub nelo: f64,
    pub nelo_error: f64,
    pub los: f64,
}

impl EloEstimate {
    /// From game results (fastchess `EloWDL`): the variance is that of the
    /// per-game score (0, ½, 1), the standard error √(var/N).
    pub fn trinomial(wdl: &Wdl) -> EloEstimate {
        let (score, variance) = sample_mean_and_variance(&GAME_SCORES, &wdl.by_outcome());
        EloEstimate::from_sample(wdl.games(), score, variance, variance.sqrt(), 1.0)
    }

    /// From pair results (fastchess `EloPentanomial`): the variance is that
    /// of the per-pair score halved to 0..1, the standard error
    /// √(var/pairs). nElo divides by √2 · σ_pair, the σ of one game implied
    /// by the pairs (fastchess: `(s − 0.5)/√(2·var)`), so trinomial and
    /// pentanomial nElo measure the same thing.
    pub fn pentanomial(penta: &Penta) -> EloEstimate {
        let (score, variance) = sample_mean_and_variance(&PAIR_SCORES, &penta.counts);
        EloEstimate::from_sample(penta.pairs(), score, variance, (2.0 * variance).sqrt(), 2.0)
    }

    /// The 95 % interval in Elo, `(low, high)`: the score interval's ends
    /// as Elo. Logistic Elo is not linear in the score, so the interval
    /// is lopsided around `elo`; `elo_error` is its half width. An end at
    /// 0 % or 100 % is ±inf.
    pub fn elo_interval(&self) -> (f64, f64) {
        elo_interval(self.score_low, self.score_high)
    }

    /// `units` games or pairs with mean `score` and variance `variance`;
    /// `game_sigma` is the per-game σ nElo divides by, and a unit is worth
    /// `games_per_unit` games for nElo's error.
    fn from_sample(
        units: u64,
        score: f64,
        variance: f64,
        game_sigma: f64,
        games_per_unit: f64,
    ) -> EloEstimate {
        if units == 0 {
            return EloEstimate {
                score,
                score_low: 0.0,
                score_high: 1.0,
                elo: 0.0,
                elo_error: f64::INFINITY,
                nelo: 0.0,
                nelo_error: f64::INFINITY,
                los: 0.5,
            };
        }
        let n = units as f64;
        let half_width = Z_95 * (variance / n).sqrt();
        // fastchess does not clamp, so an interval reaching past 0 or 1
        // gives it a NaN Elo error; clamped, the error is +inf, which says
        // the same thing (the data cannot bound the Elo on that side)
        // in a form that prints and compares.
        let score_low = (score - half_width).max(0.0);
        let score_high = (score + half_width).min(1.0);
        let (elo_low, elo_high) = elo_interval(score_low, score_high);
        let elo_error = if elo_low.is_finite() && elo_high.is_finite() {
            (elo_high - elo_low) / 2.0
        } else {
            f64::INFINITY
        };
        // nElo is linear in the score, so fastchess's half-width
        // (nElo(high) − nElo(low))/2 is Z·√(var/n)/(√k·σ_unit)·scale, and
        // σ cancels: Z·scale/√(k·n). Written that way it stays finite when
        // every game had the same result.
        let nelo_error = Z_95 * NELO_SCALE / (games_per_unit * n).sqrt();
        EloEstimate {
            score,
            score_low,
            score_high,
            elo: elo_from_score(score),
            elo_error,
            nelo: nelo_from_score(score, game_sigma),
            nelo_error,
            los: los_from_score(score, variance / n),
        }
    }
}

/// fastchess's LOS: the probability that the true score exceeds 50 % under
/// a normal approximation of the sample mean, ½·(1 + erf((s − ½)/√(2·var/N))).
/// (cutechess's wins-and-losses form is `los_from_wins_losses`.)
fn los_from_score(score: f64, variance_of_mean: f64) -> f64 {
    let excess = score - 0.5;
    if variance_of_mean > 0.0 {
        0.5 * (1.0 + erf(excess / (2.0 * variance_of_mean).sqrt()))
    } else if excess > 0.0 {
        1.0
    } else if excess < 0.0 {
        0.0
    } else {
        0.5
    }
}

/// The score and its 95 % interval from game results:
/// `(score, low, high)`, clamped to 0..1.
pub fn score_interval_trinomial(wdl: &Wdl) -> (f64, f64, f64) {
    let e = EloEstimate::trinomial(wdl);
    (e.score, e.score_low, e.score_high)
}

/// The score and its 95 % interval from pair results: `(score, low, high)`.
pub fn score_interval_pentanomial(penta: &Penta) -> (f64, f64, f64) {
    let e = EloEstimate::pentanomial(penta);
    (e.score, e.score_low, e.score_high)
}

// ---------------------------------------------------------------------------
// SPRT
// ---------------------------------------------------------------------------

/// A sequential probability ratio test of H0: Elo = `elo0` against
/// H1: Elo = `elo1` (logistic Elo), with false-positive rate `alpha` and
/// false-negative rate `beta`.
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

/// fastchess replaces an empty outcome count by this before estimating, so
/// the maximum-likelihood distributions never put zero mass on an outcome
/// (a log of zero) when a sample has not seen it yet.
const SPRT_EMPTY_COUNT: f64 = 1e-3;

impl Sprt {
    /// The usual test: α = β = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt { elo0, elo1, alpha: 0.05, beta: 0.05 }
    }

    /// `(lower, upper)` = (ln(β/(1−α)), ln((1−β)/α)): H0 is accepted at or
    /// below `lower`, H1 at or above `upper`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
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

    /// How far the LLR has gone towards the bound on its side, as fastchess
    /// prints it after the LLR (1.0 = that bound reached).
    pub fn progress(&self, llr: f64) -> f64 {
        let (lower, upper) = self.bounds();
        if llr >= 0.0 {
            llr / upper
        } else {
            llr / lower
        }
    }

    /// The expected scores under H0 and H1.
    pub fn expected_scores(&self) -> (f64, f64) {
        (score_from_elo(self.elo0), score_from_elo(self.elo1))
    }

    /// The generalized log-likelihood ratio of the game results.
    ///
    /// fastchess (like fishtest) does not use the normal approximation
    /// N·(s1 − s0)·(2·mean − s0 − s1)/(2·var) here (that is
    /// `llr_normal_approximation`) but the exact GSPRT: for each
    /// hypothesis the distribution over outcomes closest to the observed
    /// one with the hypothesis's expected score (the maximum-likelihood
    /// estimate, Van den Bergh, "Comparing the approximations for the
    /// generalized log likelihood ratio of a multinomial distribution",
    /// Prop. 1.1), and the LLR is N·Σ p̂ᵢ·ln(p1ᵢ/p0ᵢ). The two agree closely
    /// for long matches; this follows fastchess. 0 with no games.
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        self.llr_logistic(&GAME_SCORES, &wdl.by_outcome())
    }

    /// The generalized log-likelihood ratio of the pair results, with the
    /// pair scores halved to 0..1 (so the logistic Elo bounds keep their
    /// meaning per game). Exact GSPRT as in `llr_trinomial`. 0 with no
    /// pairs.
    pub fn llr_pentanomial(&self, penta: &Penta) -> f64 {
        if penta.pairs() == 0 {
            return 0.0;
        }
        self.llr_logistic(&PAIR_SCORES, &penta.counts)
    }

    fn llr_logistic(&self, outcomes: &[f64], counts: &[u64]) -> f64 {
        let regularized: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { SPRT_EMPTY_COUNT } else { c as f64 })
            .collect();
        let total: f64 = regularized.iter().sum();
        let observed: Vec<f64> = regularized.iter().map(|c| c / total).collect();
        let (s0, s1) = self.expected_scores();
        // The ML distribution for expected score s is p̂ᵢ/(1 + θ(aᵢ − s)),
        // so ln(p1ᵢ/p0ᵢ) = ln(1 + θ0(aᵢ − s0)) − ln(1 + θ1(aᵢ − s1)).
        let theta0 = mle_theta(outcomes, &observed, s0);
        let theta1 = mle_theta(outcomes, &observed, s1);
        total
            * outcomes
                .iter()
                .zip(&observed)
                .map(|(a, p)| {
                    p * ((1.0 + theta0 * (a - s0)).ln() - (1.0 + theta1 * (a - s1)).ln())
                })
                .sum::<f64>()
    }
}

/// The θ of the maximum-likelihood distribution with expected score `s`:
/// the root of Σ p̂ᵢ(aᵢ − s)/(1 + θ(aᵢ − s)) = 0 (Van den Bergh, eq. 1.3)
/// on the interval where every 1 + θ(aᵢ − s) is positive. The function
/// falls strictly from +inf to −inf across that interval, so bisection
/// finds the root; fastchess uses the ITP method to a looser tolerance,
/// which changes the LLR only at second order (the LLR is stationary in θ
/// at the root).
fn mle_theta(outcomes: &[f64], observed: &[f64], s: f64) -> f64 {
    let lowest = outcomes.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = outcomes.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // A hypothesis of ±1000s of Elo puts s on an end of the range, where
    // the interval is unbounded; keep it strictly inside.
    let s = s.clamp(lowest + 1e-12, highest - 1e-12);
    let slope_sum = |theta: f64| -> f64 {
        outcomes
            .iter()
            .zip(observed)
            .map(|(a, p)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    let mut low = -1.0 / (highest - s);
    let mut high = -1.0 / (lowest - s);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high {
            break;
        }
        if slope_sum(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
}

/// The normal approximation of the GSPRT LLR that cutechess uses for
/// logistic bounds: N·(s1 − s0)·(2·mean − s0 − s1)/(2·var), with `units`
/// games (or pairs), the sample's `mean` score and per-unit `variance`.
/// 0 when the variance is 0 (nothing to scale by).
pub fn llr_normal_approximation(units: f64, mean: f64, variance: f64, s0: f64, s1: f64) -> f64 {
    if variance <= 0.0 {
        return 0.0;
    }
    units * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
}

// ---------------------------------------------------------------------------
// Round robins
// ---------------------------------------------------------------------------

/// One player's line in a round-robin table: its results against the
/// whole field and what they say about its strength relative to the field.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    pub name: String,
    pub wdl: Wdl,
    pub estimate: EloEstimate,
}

/// Standings from each player's aggregate results against the field,
/// best Elo first (ties by score, then by name, so the order is stable).
pub fn standings(players: &[(&str, Wdl)]) -> Vec<Standing> {
    let mut table: Vec<Standing> = players
        .iter()
        .map(|(name, wdl)| Standing {
            name: name.to_string(),
            wdl: *wdl,
            estimate: EloEstimate::trinomial(wdl),
        })
        .collect();
    table.sort_by(|a, b| {
        b.estimate
            .elo
            .total_cmp(&a.estimate.elo)
            .then(b.estimate.score.total_cmp(&a.estimate.score))
            .then(a.name.cmp(&b.name))
    });
    table
}

/// The standings as a fastchess-style table (header first).
pub fn standings_table(table: &[Standing]) -> Vec<String> {
    let width = table.iter().map(|s| s.name.chars().count()).max().unwrap_or(0).max(25);
    let mut lines = vec![format!(
        "{:<4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw"
    )];
    for (rank, s) in table.iter().enumerate() {
        let e = &s.estimate;
        lines.push(format!(
            "{:>4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>9.1}% {:>9.1}%",
            rank + 1,
            s.name,
            number(e.elo, 2),
            number(e.elo_error, 2),
            number(e.nelo, 2),
            number(e.nelo_error, 2),
            s.wdl.games(),
            e.score * 100.0,
            draw_ratio(&s.wdl) * 100.0,
        ));
    }
    lines
}

// ---------------------------------------------------------------------------
// Reports
// ---------------------------------------------------------------------------

/// The estimate a report prints: pentanomial when pair results are given,
/// as fastchess does.
///
/// Games that repeat an earlier one move for move (deterministic engines
/// from one start) are no new evidence: the errors then count the
/// distinct games only (widened by √(games / distinct)), and with fewer
/// than `MIN_DISTINCT` of them, or no spread at all, every interval and
/// the LOS are unknown (NaN), never the ±0 that identical samples give.
pub fn reported_estimate(wdl: &Wdl, penta: Option<&Penta>, distinct: Option<u64>) -> EloEstimate {
    let mut e = match penta {
        Some(p) => EloEstimate::pentanomial(p),
        None => EloEstimate::trinomial(wdl),
    };
    if let Some(d) = distinct.filter(|&d| d < wdl.games()) {
        if too_few_distinct(d, &e) {
            for x in [&mut e.elo_error, &mut e.nelo_error, &mut e.score_low, &mut e.score_high, &mut e.los] {
                *x = f64::NAN;
            }
        } else {
            let widen = (wdl.games() as f64 / d as f64).sqrt();
            e.nelo_error *= widen;
            e.score_low = (e.score - (e.score - e.score_low) * widen).max(0.0);
            e.score_high = (e.score + (e.score_high - e.score) * widen).min(1.0);
            // The Elo error is the wider score interval's, as Elo.
            let (low, high) = e.elo_interval();
            e.elo_error = if low.is_finite() && high.is_finite() { (high - low) / 2.0 } else { f64::INFINITY };
        }
    }
    e
}

/// Distinct games below this leave no error to speak of.
const MIN_DISTINCT: u64 = 10;

fn too_few_distinct(distinct: u64, e: &EloEstimate) -> bool {
    // No spread: a zero error, or none at all (NaN).
    let spread = e.elo_error.partial_cmp(&0.0) == Some(std::cmp::Ordering::Greater);
    distinct < MIN_DISTINCT || !spread
}

/// The draw ratio a report prints: per pair when pair results are given
/// (fastchess's `drawRatioPenta`), per game otherwise.
fn reported_draw_ratio(wdl: &Wdl, penta: Option<&Penta>) -> f64 {
    match penta {
        Some(p) => pair_draw_ratio(p),
        None => draw_ratio(wdl),
    }
}

/// A number with `decimals` places; ±inf as `inf`/`-inf`, NaN as `n/a`.
fn number(x: f64, decimals: usize) -> String {
    if x.is_nan() {
        "n/a".to_string()
    } else {
        format!("{x:.decimals$}")
    }
}

/// The match summary fastchess prints between games, one line per entry.
/// `sprt` is the test and the LLR to show (from `llr_trinomial` or
/// `llr_pentanomial`, whichever the caller tests on). `distinct` is the
/// number of different games among them, when known.
///
/// Departures from fastchess: the first line has no time control, threads,
/// hash or book (the caller knows those); the `Score:` line with its
/// interval is ours (fastchess prints only the points ratio); and the LLR
/// line has fastchess's current form `LLR: 2.95 (100.2%) (-2.94, 2.94)
/// [0.00, 5.00]`, with the progress towards the bound in parentheses.
pub fn report(
    name_a: &str,
    name_b: &str,
    wdl: &Wdl,
    penta: Option<&Penta>,
    sprt: Option<(&Sprt, f64)>,
    distinct: Option<u64>,
) -> Vec<String> {
    let e = reported_estimate(wdl, penta, distinct);
    let mut lines = vec![
        format!("Results of {name_a} vs {name_b}:"),
        format!(
            "Elo: {} +/- {}, nElo: {} +/- {}",
            number(e.elo, 2),
            number(e.elo_error, 2),
            number(e.nelo, 2),
            number(e.nelo_error, 2)
        ),
    ];
    let pairs_ratio_part = match penta {
        Some(p) => format!(", PairsRatio: {}", number(pairs_ratio(p), 2)),
        None => String::new(),
    };
    lines.push(format!(
        "LOS: {} %, DrawRatio: {} %{}",
        number(e.los * 100.0, 2),
        number(reported_draw_ratio(wdl, penta) * 100.0, 2),
        pairs_ratio_part
    ));
    lines.push(format!(
        "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({} %)",
        wdl.games(),
        wdl.wins,
        wdl.losses,
        wdl.draws,
        wdl.points(),
        number(wdl.score() * 100.0, 2)
    ));
    if let Some(d) = distinct.filter(|&d| d < wdl.games()) {
        let counted = match e.elo_error.is_nan() {
            true => "too few for error bars (vary the games: --random-plies, --openings)",
            false => "the errors count the distinct games only",
        };
        lines.push(format!("Distinct games: {d} of {}: the others repeat one move for move; {counted}", wdl.games()));
    }
    lines.push(match e.score_low.is_nan() {
        true => format!("Score: {} % (no interval)", number(e.score * 100.0, 2)),
        false => format!(
            "Score: {} % [{} %, {} %] (95 %)",
            number(e.score * 100.0, 2),
            number(e.score_low * 100.0, 1),
            number(e.score_high * 100.0, 1)
        ),
    });
    if let Some(p) = penta {
        let [ll, ld, even, wd, ww] = p.counts;
        lines.push(format!(
            "Ptnml(0-2): [{ll}, {ld}, {even}, {wd}, {ww}], WL/DD Ratio: {}",
            number(wl_dd_ratio(p), 2)
        ));
    }
    if let Some((test, llr)) = sprt {
        let (lower, upper) = test.bounds();
        lines.push(format!(
            "LLR: {} ({}%) ({}, {}) [{}, {}]",
            number(llr, 2),
            number(test.progress(llr) * 100.0, 1),
            number(lower, 2),
            number(upper, 2),
            number(test.elo0, 2),
            number(test.elo1, 2)
        ));
    }
    lines
}

/// A JSON number, or `null` for ±inf and NaN (JSON has neither).
fn json_number(x: f64) -> String {
    if x.is_finite() {
        // Display gives the shortest text that reads back as the same f64,
        // never in exponent form: valid JSON.
        format!("{x}")
    } else {
        "null".to_string()
    }
}

/// The numbers of `report` as one JSON object. Scores, LOS and the draw
/// ratio are fractions 0..1 (the report prints percentages); `penta` is
/// `[LL, LD, WL+DD, WD, WW]` or null; `llr`, `llr_lower`, `llr_upper` are
/// null without an SPRT.
pub fn to_json(wdl: &Wdl, penta: Option<&Penta>, sprt: Option<(&Sprt, f64)>, distinct: Option<u64>) -> String {
    let e = reported_estimate(wdl, penta, distinct);
    let penta_json = match penta {
        Some(p) => format!(
            "[{}]",
            p.counts.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", ")
        ),
        None => "null".to_string(),
    };
    let (llr, llr_lower, llr_upper) = match sprt {
        Some((test, llr)) => {
            let (lower, upper) = test.bounds();
            (json_number(llr), json_number(lower), json_number(upper))
        }
        None => ("null".to_string(), "null".to_string(), "null".to_string()),
    };
    let fields = [
        ("games", wdl.games().to_string()),
        ("wins", wdl.wins.to_string()),
        ("draws", wdl.draws.to_string()),
        ("losses", wdl.losses.to_string()),
        ("score", json_number(e.score)),
        ("score_low", json_number(e.score_low)),
        ("score_high", json_number(e.score_high)),
        ("elo", json_number(e.elo)),
        ("elo_error", json_number(e.elo_error)),
        ("nelo", json_number(e.nelo)),
        ("nelo_error", json_number(e.nelo_error)),
        ("los", json_number(e.los)),
        ("draw_ratio", json_number(reported_draw_ratio(wdl, penta))),
        ("penta", penta_json),
        ("llr", llr),
        ("llr_lower", llr_lower),
        ("llr_upper", llr_upper),
        ("distinct_games", distinct.map_or("null".to_string(), |d| d.to_string())),
    ];
    let body: Vec<String> = fields.iter().map(|(key, value)| format!("\"{key}\": {value}")).collect();
    format!("{{{}}}", body.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
        (actual - expected).abs() <= tolerance
    }

    macro_rules! assert_close {
        ($actual:expr, $expected:expr, $tolerance:expr) => {{
            let (a, e) = ($actual, $expected);
            assert!(close(a, e, $tolerance), "{} = {a}, expected {e} ± {}", stringify!($actual), $tolerance);
        }};
    }

    /// fastchess's `Stats(wins, losses, draws)` constructor order.
    fn fastchess_wdl(wins: u64, losses: u64, draws: u64) -> Wdl {
        Wdl { wins, draws, losses }
    }

    // --- erf: reference values (Abramowitz & Stegun table 7.1, DLMF) ---

    #[test]
    fn erf_matches_tabulated_values() {
        assert_eq!(erf(0.0), 0.0);
        assert_close!(erf(1.0), 0.842_700_792_949_714_9, 1e-13);
        assert_close!(erf(0.5), 0.520_499_877_813_046_5, 1e-13);
        assert_close!(erf(2.0), 0.995_322_265_018_952_7, 1e-13);
        assert_close!(erf(2.5), 0.999_593_047_982_555, 1e-13);
        assert_close!(erf(3.0), 0.999_977_909_503_001_4, 1e-13);
        assert_close!(erf(3.5), 0.999_999_256_901_627_7, 1e-13);
        assert_close!(erf(-1.0), -0.842_700_792_949_714_9, 1e-13);
        assert_eq!(erf(10.0), 1.0);
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert_eq!(erf(f64::NEG_INFINITY), -1.0);
    }

    // --- Elo conversions ---

    #[test]
    fn elo_of_known_scores() {
        // −400·log10(1/3) = 400·log10 3
        assert_close!(elo_from_score(0.75), 190.848_501_887_864_98, 1e-9);
        assert_close!(elo_from_score(0.25), -190.848_501_887_864_98, 1e-9);
        assert_eq!(elo_from_score(0.5), 0.0);
        // 10/11 is 400 Elo: 1/(1 + 10^-1)
        assert_close!(elo_from_score(10.0 / 11.0), 400.0, 1e-9);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_close!(score_from_elo(400.0), 10.0 / 11.0, 1e-12);
        assert_close!(score_from_elo(190.848_501_887_864_98), 0.75, 1e-12);
    }

    // --- fastchess app/tests/elo_test.cpp (tolerance: its 1 % Approx) ---

    #[test]
    fn fastchess_elo_wdl_1() {
        let e = EloEstimate::trinomial(&fastchess_wdl(76, 89, 123));
        assert_close!(e.nelo, -20.76, 0.21);
        assert_close!(e.nelo_error, 40.13, 0.41);
        assert_eq!(format!("{:.2}", e.los * 100.0), "15.53");
        assert_close!(e.score, 0.477, 0.005);
    }

    #[test]
    fn fastchess_elo_wdl_2() {
        let e = EloEstimate::trinomial(&fastchess_wdl(136, 96, 111));
        assert_close!(e.nelo, 49.77, 0.5);
        assert_close!(e.nelo_error, 36.77, 0.37);
        assert_close!(e.elo, 40.70, 0.41);
        assert_close!(e.elo_error, 30.43, 0.31);
        assert_eq!(format!("{:.2}", e.los * 100.0), "99.60");
        assert_close!(e.score, 0.558, 0.006);
    }

    #[test]
    fn fastchess_elo_wdl_3() {
        let e = EloEstimate::trinomial(&fastchess_wdl(34, 356, 0));
        assert_close!(e.nelo, -508.44, 5.1);
        assert_close!(e.nelo_error, 34.48, 0.35);
        assert_close!(e.score, 0.087, 0.001);
    }

    #[test]
    fn fastchess_elo_pentanomial_1() {
        let e = EloEstimate::pentanomial(&Penta::from_fastchess(34, 54, 31, 32, 64, 75));
        assert_close!(e.nelo, 57.94, 0.58);
        assert_close!(e.nelo_error, 28.28, 0.29);
        assert_close!(e.elo, 55.58, 0.56);
        assert_close!(e.elo_error, 27.65, 0.28);
        assert_eq!(format!("{:.2}", e.los * 100.0), "100.00");
        assert_close!(e.score, 0.579, 0.006);
    }

    #[test]
    fn fastchess_elo_pentanomial_2() {
        let e = EloEstimate::pentanomial(&Penta::from_fastchess(332, 433, 457, 41, 333, 334));
        assert_close!(e.nelo, -9.17, 0.1);
        assert_close!(e.nelo_error, 10.96, 0.11);
        assert_close!(e.elo, -8.64, 0.09);
        assert_close!(e.elo_error, 10.33, 0.1);
        assert_eq!(format!("{:.2}", e.los * 100.0), "5.05");
        assert_close!(e.score, 0.488, 0.005);
    }

    #[test]
    fn fastchess_elo_pentanomial_3() {
        let e = EloEstimate::pentanomial(&Penta::from_fastchess(7895, 8757, 5485, 200, 568, 9999));
        assert_close!(e.nelo, -19.01, 0.19);
        assert_close!(e.nelo_error, 2.65, 0.03);
        assert_close!(e.elo, -21.04, 0.21);
        assert_close!(e.elo_error, 2.95, 0.03);
        assert_eq!(format!("{:.2}", e.los * 100.0), "0.00");
        assert_close!(e.score, 0.470, 0.005);
    }

    // --- fastchess app/tests/sprt_test.cpp, logistic model ---

    #[test]
    fn sprt_bounds_for_five_percent_errors() {
        let (lower, upper) = Sprt::new(0.0, 5.0).bounds();
        // ln(0.05/0.95) = −ln 19
        assert_close!(lower, -2.944_438_979_166_440_4, 1e-12);
        assert_close!(upper, 2.944_438_979_166_440_4, 1e-12);
    }

    #[test]
    fn fastchess_logistic_trinomial() {
        let llr = Sprt::new(0.5, 2.5).llr_trinomial(&fastchess_wdl(21404, 21184, 40708));
        assert_close!(llr, -1.57, 0.016);
        let llr = Sprt::new(0.0, 2.0).llr_trinomial(&fastchess_wdl(57433, 57030, 106593));
        assert_close!(llr, -2.59, 0.026);
    }

    #[test]
    fn fastchess_logistic_pentanomial() {
        let penta = Penta::from_fastchess(223, 9863, 20279, 1000, 10037, 246);
        assert_close!(Sprt::new(0.5, 2.5).llr_pentanomial(&penta), -3.07, 0.031);
        let penta = Penta::from_fastchess(871, 26175, 55003, 980, 26678, 821);
        assert_close!(Sprt::new(0.0, 2.0).llr_pentanomial(&penta), -4.98, 0.05);
    }

    #[test]
    fn normal_approximation_agrees_with_exact_gsprt_on_long_matches() {
        let sprt = Sprt::new(0.0, 2.0);
        let wdl = fastchess_wdl(57433, 57030, 106593);
        let (mean, variance) = sample_mean_and_variance(&GAME_SCORES, &wdl.by_outcome());
        let (s0, s1) = sprt.expected_scores();
        let approx = llr_normal_approximation(wdl.games() as f64, mean, variance, s0, s1);
        assert_close!(approx, sprt.llr_trinomial(&wdl), 0.01);
    }

    #[test]
    fn sprt_status_and_progress() {
        let sprt = Sprt::new(0.0, 5.0);
        assert_eq!(sprt.status(0.0), SprtStatus::Continue);
        assert_eq!(sprt.status(2.95), SprtStatus::AcceptH1);
        assert_eq!(sprt.status(-2.95), SprtStatus::AcceptH0);
        assert_close!(sprt.progress(2.944_438_979), 1.0, 1e-9);
        assert_close!(sprt.progress(-2.944_438_979 / 2.0), 0.5, 1e-9);
        // A clear winner drives the LLR up, a clear loser down.
        assert!(sprt.llr_trinomial(&Wdl::new(600, 200, 200)) > 2.95);
        assert!(sprt.llr_trinomial(&Wdl::new(200, 200, 600)) < -2.95);
    }

    #[test]
    fn sprt_of_degenerate_samples_is_finite() {
        let sprt = Sprt::new(0.0, 5.0);
        assert_eq!(sprt.llr_trinomial(&Wdl::default()), 0.0);
        assert_eq!(sprt.llr_pentanomial(&Penta::default()), 0.0);
        for wdl in [Wdl::new(50, 0, 0), Wdl::new(0, 0, 50), Wdl::new(0, 50, 0)] {
            assert!(sprt.llr_trinomial(&wdl).is_finite(), "{wdl:?}");
        }
        assert!(sprt.llr_trinomial(&Wdl::new(50, 0, 0)) > 0.0);
        assert!(sprt.llr_pentanomial(&Penta::from_counts([0, 0, 0, 0, 40])).is_finite());
        assert!(Sprt::new(-5000.0, 5000.0).llr_trinomial(&Wdl::new(3, 4, 5)).is_finite());
    }

    // --- LOS and ratios ---

    #[test]
    fn los_without_decisive_games_is_even() {
        assert_eq!(los_from_wins_losses(&Wdl::default()), 0.5);
        assert_eq!(los_from_wins_losses(&Wdl::new(0, 10, 0)), 0.5);
        assert_eq!(EloEstimate::trinomial(&Wdl::default()).los, 0.5);
        assert_eq!(EloEstimate::trinomial(&Wdl::new(0, 10, 0)).los, 0.5);
    }

    #[test]
    fn los_from_wins_losses_matches_the_normal_cdf() {
        // W − L = 2 over W + L = 2: ½(1 + erf(1)) = Φ(√2)
        assert_close!(los_from_wins_losses(&Wdl::new(2, 5, 0)), 0.921_350_396_474_857_4, 1e-12);
        // Symmetric.
        let a = los_from_wins_losses(&Wdl::new(30, 10, 20));
        let b = los_from_wins_losses(&Wdl::new(20, 10, 30));
        assert_close!(a + b, 1.0, 1e-12);
    }

    #[test]
    fn pair_counting_and_ratios() {
        let mut penta = Penta::default();
        for (a, b) in [(0.0, 0.0), (0.5, 0.0), (1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (1.0, 0.5), (1.0, 1.0)] {
            penta.add_pair(a, b);
        }
        assert_eq!(penta.counts, [1, 1, 3, 1, 1]);
        assert_eq!(penta.win_loss_pairs, 2);
        assert_eq!(penta.draw_draw_pairs(), 1);
        assert_eq!(penta.pairs(), 7);
        assert_eq!(wl_dd_ratio(&penta), 2.0);
        assert_eq!(pairs_ratio(&penta), 1.0);
        assert_close!(pair_draw_ratio(&penta), 3.0 / 7.0, 1e-12);
        assert_eq!(penta.flipped().counts, [1, 1, 3, 1, 1]);
        assert!(pairs_ratio(&Penta::default()).is_nan());
        assert_eq!(pairs_ratio(&Penta::from_counts([0, 0, 1, 0, 3])), f64::INFINITY);

        let mut wdl = Wdl::default();
        for points in [1.0, 0.5, 0.0, 1.0] {
            wdl.add_game(points);
        }
        assert_eq!(wdl, Wdl::new(2, 1, 1));
        wdl.add(&Wdl::new(1, 1, 1));
        assert_eq!((wdl.games(), wdl.points(), wdl.score()), (7, 4.0, 4.0 / 7.0));
        assert_eq!(draw_ratio(&wdl), 2.0 / 7.0);
    }

    // --- Degenerate samples ---

    #[test]
    fn no_games() {
        let e = EloEstimate::trinomial(&Wdl::default());
        assert_eq!((e.score, e.score_low, e.score_high), (0.5, 0.0, 1.0));
        assert_eq!((e.elo, e.elo_error), (0.0, f64::INFINITY));
        assert_eq!((e.nelo, e.nelo_error), (0.0, f64::INFINITY));
        assert_eq!(EloEstimate::pentanomial(&Penta::default()), e);
        assert_eq!(draw_ratio(&Wdl::default()), 0.0);
        let lines = report("A", "B", &Wdl::default(), Some(&Penta::default()), None, None);
        assert_eq!(lines[1], "Elo: 0.00 +/- inf, nElo: 0.00 +/- inf");
        assert_eq!(lines[2], "LOS: 50.00 %, DrawRatio: 0.00 %, PairsRatio: n/a");
    }

    #[test]
    fn all_wins() {
        let wdl = Wdl::new(20, 0, 0);
        let e = EloEstimate::trinomial(&wdl);
        assert_eq!((e.score, e.score_low, e.score_high), (1.0, 1.0, 1.0));
        assert_eq!((e.elo, e.elo_error), (f64::INFINITY, f64::INFINITY));
        assert_eq!(e.nelo, f64::INFINITY);
        assert!(e.nelo_error.is_finite());
        assert_eq!(e.los, 1.0);
        let lines = report("A", "B", &wdl, None, None, None);
        assert!(lines[1].starts_with("Elo: inf +/- inf, nElo: inf +/- "), "{}", lines[1]);
        assert!(to_json(&wdl, None, None, None).contains("\"elo\": null, \"elo_error\": null"));
        let e = EloEstimate::trinomial(&wdl.flipped());
        assert_eq!((e.elo, e.los), (f64::NEG_INFINITY, 0.0));
    }

    #[test]
    fn all_draws() {
        let wdl = Wdl::new(0, 30, 0);
        let e = EloEstimate::trinomial(&wdl);
        assert_eq!((e.score, e.score_low, e.score_high), (0.5, 0.5, 0.5));
        assert_eq!((e.elo, e.elo_error, e.nelo), (0.0, 0.0, 0.0));
        assert!(e.nelo_error.is_finite());
        assert_eq!(draw_ratio(&wdl), 1.0);
        let lines = report("A", "B", &wdl, None, None, None);
        assert_eq!(lines[1], format!("Elo: 0.00 +/- 0.00, nElo: 0.00 +/- {:.2}", e.nelo_error));
        assert_eq!(lines[2], "LOS: 50.00 %, DrawRatio: 100.00 %");
    }

    #[test]
    fn wide_interval_clamps_to_the_score_range() {
        // 2 wins 1 loss: 66.7 % ± 53 % reaches past 100 %.
        let e = EloEstimate::trinomial(&Wdl::new(2, 0, 1));
        assert_eq!(e.score_high, 1.0);
        assert!(e.score_low > 0.0);
        assert_eq!(e.elo_error, f64::INFINITY);
        assert!(e.elo.is_finite());
    }

    // --- Reports ---

    #[test]
    fn report_lines_in_fastchess_form() {
        let wdl = fastchess_wdl(136, 96, 111);
        let lines = report("new", "old", &wdl, None, None, None);
        assert_eq!(lines[0], "Results of new vs old:");
        // fastchess elo_test "EloWDL 2": Elo 40.70 ± 30.43, nElo 49.77 ± 36.77, LOS 99.60 %
        assert!(lines[1].starts_with("Elo: 40.7"), "{}", lines[1]);
        assert!(lines[1].contains("+/- 30.4"), "{}", lines[1]);
        assert!(lines[1].contains("nElo: 49.") && lines[1].contains("+/- 36."), "{}", lines[1]);
        assert!(lines[2].starts_with("LOS: 99.60 %, DrawRatio: 32.36 %"), "{}", lines[2]);
        assert_eq!(lines[3], "Games: 343, Wins: 136, Losses: 96, Draws: 111, Points: 191.5 (55.83 %)");
        assert!(lines[4].starts_with("Score: 55.83 % ["), "{}", lines[4]);
        assert_eq!(lines.len(), 5);

        let penta = Penta::from_fastchess(10, 100, 150, 50, 150, 40);
        let sprt = Sprt::new(0.0, 5.0);
        let lines = report("A", "B", &wdl, Some(&penta), Some((&sprt, 2.95)), None);
        assert!(lines[2].ends_with(", PairsRatio: 1.73"), "{}", lines[2]);
        assert_eq!(lines[5], "Ptnml(0-2): [10, 100, 200, 150, 40], WL/DD Ratio: 3.00");
        assert_eq!(lines[6], "LLR: 2.95 (100.2%) (-2.94, 2.94) [0.00, 5.00]");
    }

    #[test]
    fn repeated_games_widen_the_errors_or_leave_none() {
        let wdl = Wdl::new(40, 30, 30);
        let all = reported_estimate(&wdl, None, Some(100));
        let some = reported_estimate(&wdl, None, Some(25));
        let (low, high) = some.elo_interval();
        assert_close!(some.elo_error, (high - low) / 2.0, 1e-9);
        assert!(some.elo_error > 1.9 * all.elo_error, "{some:?} {all:?}");
        assert_close!(some.score - some.score_low, 2.0 * (all.score - all.score_low), 1e-9);
        assert_eq!((some.elo, some.los), (all.elo, all.los));
        let lines = report("A", "B", &wdl, None, None, Some(25));
        assert!(lines.iter().any(|l| l == "Distinct games: 25 of 100: the others repeat one move for move; the errors count the distinct games only"), "{lines:#?}");
        let few = report("A", "B", &wdl, None, None, Some(9));
        assert!(few[1].starts_with("Elo: 34.86 +/- n/a"), "{few:#?}");
        assert!(few.iter().any(|l| l.ends_with("too few for error bars (vary the games: --random-plies, --openings)")), "{few:#?}");
        // Identical pairs only: no spread to widen, so no error at all.
        let penta = Penta::from_counts([0, 0, 50, 0, 0]);
        let none = reported_estimate(&Wdl::new(50, 0, 50), Some(&penta), Some(20));
        assert!(none.elo_error.is_nan() && none.score_low.is_nan(), "{none:?}");
    }

    #[test]
    fn json_has_every_key_and_nulls() {
        let wdl = Wdl::new(3, 4, 1);
        let json = to_json(&wdl, None, None, None);
        for key in [
            "games", "wins", "draws", "losses", "score", "score_low", "score_high", "elo",
            "elo_error", "nelo", "nelo_error", "los", "draw_ratio", "penta", "llr",
            "llr_lower", "llr_upper", "distinct_games",
        ] {
            assert!(json.contains(&format!("\"{key}\": ")), "{key} missing in {json}");
        }
        assert!(json.starts_with("{\"games\": 8, \"wins\": 3, \"draws\": 4, \"losses\": 1, \"score\": 0.625,"));
        assert!(json.ends_with("\"penta\": null, \"llr\": null, \"llr_lower\": null, \"llr_upper\": null, \"distinct_games\": null}"));
        assert!(!json.contains("inf") && !json.contains("NaN"));

        let penta = Penta::from_counts([0, 1, 2, 1, 0]);
        let sprt = Sprt::new(0.0, 5.0);
        let json = to_json(&wdl, Some(&penta), Some((&sprt, 0.25)), None);
        assert!(json.contains("\"penta\": [0, 1, 2, 1, 0], \"llr\": 0.25, \"llr_lower\": -2.94"), "{json}");
    }

    // --- Round robins ---

    #[test]
    fn standings_rank_by_elo() {
        let table = standings(&[
            ("middle", Wdl::new(10, 10, 10)),
            ("perfect", Wdl::new(30, 0, 0)),
            ("weak", Wdl::new(5, 5, 20)),
            ("strong", Wdl::new(20, 5, 5)),
        ]);
        let names: Vec<&str> = table.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["perfect", "strong", "middle", "weak"]);
        assert_eq!(table[2].estimate.elo, 0.0);
        // strong scores 75 %: +190.85 Elo
        assert_close!(table[1].estimate.elo, 190.848_501_887_864_98, 1e-9);
        let lines = standings_table(&table);
        assert_eq!(lines.len(), 5);
        assert!(lines[0].starts_with("Rank Name"));
        assert!(lines[1].contains("perfect") && lines[1].contains("inf"), "{}", lines[1]);
        assert!(lines[2].contains("190.85"), "{}", lines[2]);
    }
}
