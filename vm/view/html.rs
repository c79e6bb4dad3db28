//! The replay page: one self-contained HTML file (no network, no fonts, no
//! scripts from elsewhere) with the board, the move list, the controls and
//! the result; and a tournament's index page (its charts drawn by
//! `charts`). Text goes through maud,
//! which escapes it; the only data handed to the page's script are numbers.

use super::replay::Replay;
use super::{charts, svg};
use crate::tournament::summary::Charts;
use maud::{html, Markup, PreEscaped, DOCTYPE};

const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 0; background: #fafaf7; color: #222; }
header { padding: 0.6rem 1rem; border-bottom: 1px solid #ddd; }
h1 { font-size: 1.25rem; margin: 0 0 0.3rem; }
header p { margin: 0.15rem 0; }
main { display: flex; flex-wrap: wrap; gap: 1rem; padding: 1rem; align-items: flex-start; }
#board { flex: 1 1 28rem; max-width: min(90vw, 82vh); }
aside { flex: 0 1 18rem; min-width: 14rem; }
.controls button { font-size: 1.1rem; min-width: 2.6rem; padding: 0.2rem 0.4rem; }
#status { font-weight: bold; min-height: 1.4em; }
#moves { max-height: 60vh; overflow-y: auto; margin: 0; padding-left: 2.6rem; font-family: ui-monospace, monospace; }
#moves li { cursor: pointer; padding: 0.05rem 0.3rem; }
#moves li.current { background: #ffe08a; }
.hint { color: #666; font-size: 0.85rem; }
table { border-collapse: collapse; margin: 1rem; }
td, th { border: 1px solid #ccc; padding: 0.2rem 0.6rem; text-align: left; }
pre { margin: 1rem; background: #f0f0ec; padding: 0.6rem; }
#charts { display: flex; flex-wrap: wrap; gap: 1rem; padding: 1rem 1rem 0; align-items: flex-start; }
#charts figure { flex: 1 1 30rem; max-width: 44rem; margin: 0; background: #fff; border: 1px solid #e2e2dc; padding: 0.5rem; }
figcaption { font-weight: bold; font-size: 0.95rem; margin-bottom: 0.3rem; }
#crosstable td, #crosstable th { text-align: center; }
#crosstable small { display: block; color: #555; }
#crosstable td.self, #crosstable td.none { color: #aaa; }
"#;

/// Steps through the frames: arrow keys, Home/End, the buttons and a click
/// on a move. Each piece is a copy of its style's drawing in `<defs>`.
const SCRIPT: &str = r#"
(() => {
  const frames = JSON.parse(document.getElementById('frames').textContent);
  const centres = JSON.parse(document.getElementById('centres').textContent);
  const layer = document.getElementById('pieces');
  const moves = Array.from(document.querySelectorAll('#moves li'));
  const status = document.getElementById('status');
  const last = frames.length - 1;
  let ply = 0;
  function show(k) {
    ply = Math.max(0, Math.min(last, k));
    const pieces = [];
    const f = frames[ply];
    for (let i = 0; i < f.length; i += 2) {
      const c = centres[f[i]];
      if (!c) continue;
      const g = document.getElementById('s' + f[i + 1]).cloneNode(true);
      g.removeAttribute('id');
      g.setAttribute('class', 'piece');
      g.setAttribute('transform', 'translate(' + c[0] + ' ' + c[1] + ')');
      g.setAttribute('data-index', f[i]);
      pieces.push(g);
    }
    layer.replaceChildren(...pieces);
    moves.forEach((li, i) => li.classList.toggle('current', i + 1 === ply));
    status.textContent = ply === 0 ? 'Start (' + last + ' moves)' : 'Ply ' + ply + ' of ' + last + ': ' + moves[ply - 1].textContent;
    document.body.setAttribute('data-ply', ply);
    if (ply > 0) moves[ply - 1].scrollIntoView({ block: 'nearest' });
  }
  const go = { first: () => show(0), back: () => show(ply - 1), forward: () => show(ply + 1), end: () => show(last) };
  for (const [id, f] of Object.entries(go)) document.getElementById(id).addEventListener('click', f);
  moves.forEach((li, i) => li.addEventListener('click', () => show(i + 1)));
  document.addEventListener('keydown', (e) => {
    const f = { ArrowRight: go.forward, ArrowDown: go.forward, ArrowLeft: go.back, ArrowUp: go.back, Home: go.first, End: go.end }[e.key];
    if (f) { f(); e.preventDefault(); }
  });
  show(Number(document.body.getAttribute('data-start')) || 0);
})();
"#;

/// The replay page of one game, opening on frame `start`.
pub fn page(r: &Replay, start: usize) -> String {
    let start = start.min(r.frames.len().saturating_sub(1));
    let frames: Vec<Vec<i64>> = r.frames.iter().map(|f| f.0.iter().flat_map(|&(pos, s)| [pos as i64, s as i64]).collect()).collect();
    let centres: Vec<Option<[f64; 2]>> = r.scene.centres().iter().map(|c| c.map(|(x, y)| [x, y])).collect();
    let markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (r.title) }
                style { (PreEscaped(STYLE)) }
            }
            body data-start=(start) data-ply=(start) {
                header {
                    h1 { (r.title) }
                    @for p in &r.players { p.player { (p) } }
                    @if !r.result.is_empty() { p #result { "Result: " (r.result) } }
                }
                main {
                    div #board { (svg::board(&r.scene, &r.frames[start], &r.title, true)) }
                    aside {
                        div.controls {
                            button #first title="First (Home)" { "|◀" } " "
                            button #back title="Back (←)" { "◀" } " "
                            button #forward title="Forward (→)" { "▶" } " "
                            button #end title="Last (End)" { "▶|" }
                        }
                        p #status {}
                        ol #moves {
                            @for m in &r.moves { li { (m) } }
                        }
                        p.hint { "← → step, Home/End jump, click a move to go there." }
                    }
                }
                // Numbers only: nothing here needs escaping inside <script>.
                script #frames type="application/json" { (PreEscaped(serde_json::to_string(&frames).unwrap_or_default())) }
                script #centres type="application/json" { (PreEscaped(serde_json::to_string(&centres).unwrap_or_default())) }
                script { (PreEscaped(SCRIPT)) }
            }
        }
    };
    markup.into_string()
}

/// One row of a tournament's index.
pub struct IndexRow {
    pub game: u64,
    pub first: String,
    pub second: String,
    pub result: String,
    pub reason: String,
    pub plies: u32,
    /// The game's page, relative to the index.
    pub page: String,
}

/// A tournament's index page: the charts of `c`, the crosstable, the
/// summary as the terminal printed it, and every game.
pub fn index(title: &str, summary: &[String], c: &Charts, rows: &[IndexRow]) -> String {
    let elo_caption = if c.names.len() == 2 { "Elo, 95 % interval" } else { "Elo against the field, 95 % interval" };
    let markup: Markup = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (title) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                header { h1 { (title) } }
                section #charts {
                    figure { figcaption { (elo_caption) } (charts::elo(c)) }
                    figure { figcaption { "Score of " (c.names.first().map_or("", String::as_str)) ", game by game" } (charts::score(c)) }
                    figure { figcaption { "Wins, draws, losses" } (charts::wdl(c)) }
                    figure { figcaption { "Crosstable (row against column)" } (charts::crosstable(c)) }
                }
                pre #summary { @for line in summary { (line) "\n" } }
                table #games {
                    thead { tr { th { "Game" } th { "Seat 1" } th { "Seat 2" } th { "Result" } th { "Ended by" } th { "Plies" } } }
                    tbody {
                        @for row in rows {
                            tr {
                                td { a href=(row.page) { (row.game) } }
                                td { (row.first) } td { (row.second) } td { (row.result) } td { (row.reason) } td { (row.plies) }
                            }
                        }
                    }
                }
            }
        }
    };
    markup.into_string()
}
