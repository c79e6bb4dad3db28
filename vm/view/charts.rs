//! The pictures of a tournament's index page, drawn from the numbers of
//! `tournament::summary::Charts`: the Elo estimates with their 95 %
//! intervals, the first variant's score converging game by game, each
//! variant's wins, draws and losses, and the crosstable. Each chart is
//! inline SVG (a `viewBox`, so it scales) or an HTML table, with stable
//! ids and data attributes carrying the numbers drawn.
//!
//! Owns only the drawing: which estimate a bar shows is the summary's
//! business, so the page and the terminal never disagree. An estimate
//! that is ±inf (every game won, no game played) is drawn clamped to the
//! chart's edge with an arrow and a "∞" label, and written as "+∞"/"−∞"
//! in the data attributes: no coordinate is ever NaN or inf.

use crate::tournament::stats::Wdl;
use crate::tournament::summary::{Charts, EloBar};
use maud::{html, Markup};

/// The charts' width in SVG units; heights follow the number of rows.
const WIDTH: f64 = 640.0;
const ROW: f64 = 34.0;
const WIN: &str = "#4a9d5b";
const DRAW: &str = "#b9b9b0";
const LOSS: &str = "#c8553d";
const INK: &str = "#222";
const FAINT: &str = "#999";

/// A coordinate. Every caller clamps first; a non-finite value that got
/// through anyway is drawn at 0 rather than written into the SVG.
fn at(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "0".into()
    }
}

/// A number for a data attribute: two decimals, or an infinity that no
/// number parser mistakes for a coordinate.
fn datum(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2}")
    } else if x > 0.0 {
        "+∞".into()
    } else if x < 0.0 {
        "−∞".into()
    } else {
        "—".into()
    }
}

/// A score (a fraction) as a label: "62.5%".
fn percent(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1}%", 100.0 * x)
    } else {
        "—".into()
    }
}

/// An Elo difference as a label: "+35.2", "−∞".
fn signed(x: f64) -> String {
    if x.is_finite() {
        let s = format!("{:+.1}", x);
        s.replace('-', "−")
    } else {
        datum(x)
    }
}

/// An error (a half width) as a label: "35.2", "∞".
fn unsigned(x: f64) -> String {
    signed(x).trim_start_matches('+').to_string()
}

/// A name cut to fit its column (the full name stays in the `<title>`).
fn short(name: &str, max: usize) -> String {
    if name.chars().count() <= max {
        name.to_string()
    } else {
        name.chars().take(max - 1).collect::<String>() + "…"
    }
}

/// The half range of the Elo axis: a round number the finite ends fit in
/// with room, up to 1600; past that (and at ±inf) a bar is clamped.
fn elo_range(bars: &[EloBar]) -> f64 {
    let widest = bars.iter().flat_map(|b| [b.elo, b.low, b.high]).filter(|x| x.is_finite()).fold(0.0_f64, |m, x| m.max(x.abs()));
    [50.0, 100.0, 200.0, 400.0, 800.0, 1600.0].into_iter().find(|&r| widest * 1.1 <= r).unwrap_or(1600.0)
}

/// Elo with its 95 % interval: for a match one bar (the first variant
/// against the second), for more variants one per variant against the
/// field, best first. A dot at the estimate, a whisker over the interval.
pub fn elo(c: &Charts) -> Markup {
    const LEFT: f64 = 150.0;
    const X0: f64 = 160.0;
    const X1: f64 = 470.0;
    const TOP: f64 = 8.0;
    let range = elo_range(&c.elo);
    let x = |e: f64| X0 + (e.clamp(-range, range) + range) / (2.0 * range) * (X1 - X0);
    let bottom = TOP + ROW * c.elo.len() as f64;
    let height = bottom + 36.0;
    let ticks = [-range, -range / 2.0, 0.0, range / 2.0, range];
    let name = |b: &EloBar| c.names.get(b.variant).cloned().unwrap_or_default();
    let against = if c.names.len() == 2 { format!("Elo of {} against {}", c.names[0], c.names[1]) } else { "Elo of each variant against the field".to_string() };
    html! {
        svg #elo-chart xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 {WIDTH} {}", at(height))) width="100%" role="img"
            aria-label=(against) font-family="sans-serif" font-size="15" data-range=(range) {
            title { (against) ", with 95 % intervals" }
            @for t in ticks {
                line x1=(at(x(t))) x2=(at(x(t))) y1=(at(TOP)) y2=(at(bottom)) stroke=(if t == 0.0 { FAINT } else { "#e4e4de" }) stroke-dasharray=(if t == 0.0 { "4 3" } else { "none" }) {}
                text x=(at(x(t))) y=(at(bottom + 18.0)) text-anchor="middle" fill=(FAINT) font-size="13" { (format!("{t:.0}").replace('-', "−")) }
            }
            text x=(at((X0 + X1) / 2.0)) y=(at(height - 1.0)) text-anchor="middle" fill=(FAINT) font-size="13" { "Elo" }
            @for (row, b) in c.elo.iter().enumerate() {
                @let y = TOP + ROW * (row as f64 + 0.5);
                @let (lo, hi, e) = (x(b.low), x(b.high), x(b.elo));
                g.elo-bar data-variant=(name(b)) data-elo=(datum(b.elo)) data-error=(datum(b.error)) data-lo=(datum(b.low)) data-hi=(datum(b.high)) {
                    title { (name(b)) ": Elo " (signed(b.elo)) " ± " (unsigned(b.error)) ", 95 % interval " (signed(b.low)) " to " (signed(b.high)) }
                    text x=(at(LEFT)) y=(at(y + 4.0)) text-anchor="end" fill=(INK) { (short(&name(b), 17)) }
                    line.whisker x1=(at(lo)) x2=(at(hi)) y1=(at(y)) y2=(at(y)) stroke="#3567a8" stroke-width="2.5" {}
                    (whisker_end(lo, y, b.low, range))
                    (whisker_end(hi, y, b.high, range))
                    @if b.elo.is_finite() && b.elo.abs() <= range {
                        circle.estimate cx=(at(e)) cy=(at(y)) r="5" fill="#3567a8" {}
                    } @else {
                        // An estimate off the axis: a bigger arrow at the edge it went past.
                        (arrow(e, y, if b.elo > 0.0 { 1.0 } else { -1.0 }, 9.0, "estimate clamped"))
                    }
                    text x=(at(X1 + 12.0)) y=(at(y + 4.0)) fill=(INK) { (signed(b.elo)) " ± " (unsigned(b.error)) }
                }
            }
        }
    }
}

/// A whisker's end: a tick where the interval ends on the axis, an arrow
/// out of the edge it runs past (or is unbounded at).
fn whisker_end(x: f64, y: f64, value: f64, range: f64) -> Markup {
    if value.is_finite() && value.abs() <= range {
        html! { line x1=(at(x)) x2=(at(x)) y1=(at(y - 6.0)) y2=(at(y + 6.0)) stroke="#3567a8" stroke-width="2" {} }
    } else {
        arrow(x, y, if value > 0.0 { 1.0 } else { -1.0 }, 6.0, "interval clamped")
    }
}

/// A triangle at `x` pointing to `side` (−1 left, +1 right).
fn arrow(x: f64, y: f64, side: f64, size: f64, class: &str) -> Markup {
    let tip = x + side * size;
    let points = format!("{},{} {},{} {},{}", at(tip), at(y), at(x), at(y - size * 0.8), at(x), at(y + size * 0.8));
    html! { polygon class=(class) points=(points) fill="#3567a8" {} }
}

/// The first variant's running score after each game it played, with the
/// band of its 95 % interval narrowing as games come in, and the 50 % line.
pub fn score(c: &Charts) -> Markup {
    const X0: f64 = 48.0;
    const X1: f64 = 620.0;
    const Y0: f64 = 28.0;
    const Y1: f64 = 222.0;
    const HEIGHT: f64 = 258.0;
    let n = c.score.len();
    let x = |k: usize| X0 + (k as f64 + 1.0) / n.max(1) as f64 * (X1 - X0);
    let y = |s: f64| Y1 - s.clamp(0.0, 1.0) * (Y1 - Y0);
    let band: Vec<String> = (c.score.iter().enumerate().map(|(k, p)| (x(k), y(p.high))))
        .chain(c.score.iter().enumerate().rev().map(|(k, p)| (x(k), y(p.low))))
        .map(|(px, py)| format!("{},{}", at(px), at(py)))
        .collect();
    let line: Vec<String> = c.score.iter().enumerate().map(|(k, p)| format!("{},{}", at(x(k)), at(y(p.score)))).collect();
    let first = c.names.first().cloned().unwrap_or_default();
    let label = format!("Score of {first} after each game, with its 95 % interval");
    // Dots stay visible for a short match and give way to the line in a long one.
    let radius = if n <= 60 { 3.0 } else if n <= 400 { 1.5 } else { 0.8 };
    let mut x_ticks = vec![0, n / 2, n];
    x_ticks.dedup();
    html! {
        svg #score-chart xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) width="100%" role="img"
            aria-label=(label) font-family="sans-serif" font-size="14" data-games=(n) {
            title { (label) }
            @for s in [0.0, 0.25, 0.5, 0.75, 1.0] {
                line x1=(at(X0)) x2=(at(X1)) y1=(at(y(s))) y2=(at(y(s))) stroke=(if s == 0.5 { FAINT } else { "#e4e4de" }) stroke-dasharray=(if s == 0.5 { "4 3" } else { "none" }) {}
                text x=(at(X0 - 6.0)) y=(at(y(s) + 4.0)) text-anchor="end" fill=(FAINT) font-size="13" { (format!("{:.0}%", s * 100.0)) }
            }
            @for k in x_ticks {
                text x=(at(if k == 0 { X0 } else { x(k - 1) })) y=(at(Y1 + 16.0)) text-anchor="middle" fill=(FAINT) font-size="13" { (k) }
            }
            text x=(at((X0 + X1) / 2.0)) y=(at(HEIGHT - 4.0)) text-anchor="middle" fill=(FAINT) font-size="13" { "games of " (short(&first, 30)) }
            @if n == 0 {
                text x=(at((X0 + X1) / 2.0)) y=(at(y(0.5) - 8.0)) text-anchor="middle" fill=(INK) { "no game counted yet" }
            } @else {
                polygon #score-band points=(band.join(" ")) fill="#3567a8" fill-opacity="0.18" stroke="none" {}
                polyline #score-line points=(line.join(" ")) fill="none" stroke="#3567a8" stroke-width="1.8" {}
                g #score-points fill="#3567a8" {
                    @for (k, p) in c.score.iter().enumerate() {
                        circle.score-point cx=(at(x(k))) cy=(at(y(p.score))) r=(radius)
                            data-game=(p.game) data-score=(datum(100.0 * p.score)) data-lo=(datum(100.0 * p.low)) data-hi=(datum(100.0 * p.high)) {}
                    }
                }
                @if let Some(p) = c.score.last() {
                    text x=(at(X1)) y=(at(Y0 - 12.0)) text-anchor="end" fill=(INK) {
                        (percent(p.score)) " [" (percent(p.low)) ", " (percent(p.high)) "] after " (n) " game(s)"
                    }
                }
            }
        }
    }
}

/// Each variant's wins, draws and losses against the field, as a bar of
/// its games cut in three, the counts written in.
pub fn wdl(c: &Charts) -> Markup {
    const LEFT: f64 = 150.0;
    const X0: f64 = 160.0;
    const X1: f64 = 520.0;
    const TOP: f64 = 26.0;
    let height = TOP + ROW * c.totals.len() as f64 + 4.0;
    html! {
        svg #wdl-chart xmlns="http://www.w3.org/2000/svg" viewBox=(format!("0 0 {WIDTH} {}", at(height))) width="100%" role="img"
            aria-label="Wins, draws and losses of each variant" font-family="sans-serif" font-size="15" {
            title { "Wins, draws and losses of each variant" }
            @for (k, (what, colour)) in [("won", WIN), ("drawn", DRAW), ("lost", LOSS)].into_iter().enumerate() {
                rect x=(at(X0 + 80.0 * k as f64)) y="6" width="12" height="12" fill=(colour) {}
                text x=(at(X0 + 80.0 * k as f64 + 16.0)) y="16" fill=(INK) font-size="13" { (what) }
            }
            @for (row, (name, t)) in c.names.iter().zip(&c.totals).enumerate() {
                @let y = TOP + ROW * row as f64 + 5.0;
                g.wdl-bar data-variant=(name) data-wins=(t.wins) data-draws=(t.draws) data-losses=(t.losses) {
                    title { (name) ": " (t.wins) " won, " (t.draws) " drawn, " (t.losses) " lost" }
                    text x=(at(LEFT)) y=(at(y + 17.0)) text-anchor="end" fill=(INK) { (short(name, 17)) }
                    rect x=(at(X0)) y=(at(y)) width=(at(X1 - X0)) height="24" fill="none" stroke="#ddd" {}
                    @for (count, colour, class, from, to) in segments(t, X0, X1) {
                        rect class=(class) x=(at(from)) y=(at(y)) width=(at(to - from)) height="24" fill=(colour) {}
                        @if to - from >= 9.0 * count.to_string().len() as f64 + 6.0 {
                            text x=(at((from + to) / 2.0)) y=(at(y + 17.0)) text-anchor="middle" fill="#fff" font-size="13" { (count) }
                        }
                    }
                    text x=(at(X1 + 10.0)) y=(at(y + 17.0)) fill=(INK) { (format!("+{} ={} −{}", t.wins, t.draws, t.losses)) }
                }
            }
        }
    }
}

/// A bar's three segments from `x0` to `x1`: (count, colour, class,
/// from, to), each as wide as its share of the variant's games.
fn segments(t: &Wdl, x0: f64, x1: f64) -> Vec<(u64, &'static str, &'static str, f64, f64)> {
    let per_game = (x1 - x0) / t.games().max(1) as f64;
    let mut from = x0;
    [(t.wins, WIN, "won"), (t.draws, DRAW, "drawn"), (t.losses, LOSS, "lost")]
        .into_iter()
        .map(|(count, colour, class)| {
            let to = from + count as f64 * per_game;
            let segment = (count, colour, class, from, to);
            from = to;
            segment
        })
        .collect()
}

/// The crosstable: each cell the row variant's W-D-L and score against
/// the column's, tinted green for a plus score and red for a minus one;
/// the last column its results against the field.
pub fn crosstable(c: &Charts) -> Markup {
    html! {
        table #crosstable {
            thead {
                tr {
                    th { "" }
                    @for name in &c.names { th scope="col" { (name) } }
                    th scope="col" { "Total" }
                }
            }
            tbody {
                @for (r, name) in c.names.iter().enumerate() {
                    tr data-variant=(name) {
                        th scope="row" { (name) }
                        @for (col, cell) in c.crosstable.get(r).map(Vec::as_slice).unwrap_or(&[]).iter().enumerate() {
                            @match cell {
                                Some(w) => { (result_cell("cell", w)) }
                                None if col == r => { td.self { "—" } }
                                None => { td.none title="never met" { "·" } }
                            }
                        }
                        @if let Some(t) = c.totals.get(r) { (result_cell("total", t)) }
                    }
                }
            }
        }
    }
}

fn result_cell(class: &str, w: &Wdl) -> Markup {
    let score = w.score();
    // Lighter the nearer to 50 %: a tint, not a heat map to decode.
    let strength = ((score - 0.5).abs() * 2.0).clamp(0.0, 1.0);
    let hue = if score >= 0.5 { 120 } else { 5 };
    let style = if w.games() == 0 { String::new() } else { format!("background: hsl({hue} 45% {:.0}%)", 97.0 - 17.0 * strength) };
    html! {
        td class=(class) style=(style) data-wins=(w.wins) data-draws=(w.draws) data-losses=(w.losses) data-score=(datum(100.0 * score)) {
            span.wdl { (format!("{}-{}-{}", w.wins, w.draws, w.losses)) }
            " "
            small { (percent(score)) }
        }
    }
}
