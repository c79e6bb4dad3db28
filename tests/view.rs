//! Pictures: `show --svg` for every bundled variant (well-formed XML, one
//! piece drawn per piece on the board, every square named), names that
//! need escaping, `view` of a game file and of a game log, and
//! `autoplay --log --html`. The browser test (`browser.rs`) steps through
//! the pages themselves.

use std::path::PathBuf;
mod common;
use common::cli::{axforth, root, scratch};

fn ok(args: &[&str]) -> String {
    let o = axforth(args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "axforth {args:?}:\n{out}{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// Every .4th file of scripts/ that declares players (a playable game or
/// variant), and its folder's name.
fn variants() -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in std::fs::read_dir(root().join("scripts")).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            if f.extension().is_some_and(|e| e == "4th") && text.contains("{players") {
                found.push(f);
            }
        }
    }
    found.sort();
    found
}

/// The number of pieces `show` prints on the grid and off it.
fn pieces_in_show(text: &str) -> usize {
    let grid: usize = text
        .lines()
        .take_while(|l| l.split_whitespace().next().is_some_and(|w| w.parse::<u32>().is_ok()))
        .map(|l| l.split_whitespace().skip(1).filter(|c| *c != ".").count())
        .sum();
    let off = text.lines().filter(|l| l.split_once(": ").is_some_and(|(n, w)| !n.contains(' ') && w != "empty" && !l.starts_with('('))).count();
    grid + off
}

#[test]
fn every_bundled_variant_draws_as_well_formed_svg() {
    let dir = scratch("svg");
    let all = variants();
    assert!(all.len() >= 8, "{all:?}");
    for v in &all {
        let file = dir.join("board.svg");
        let shown = ok(&["show", v.to_str().unwrap(), "--svg", file.to_str().unwrap()]);
        let svg = std::fs::read_to_string(&file).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{}: not XML: {e}", v.display()));
        let root = doc.root_element();
        assert_eq!(root.tag_name().name(), "svg");
        assert!(root.attribute("viewBox").is_some(), "{}: scales only with a viewBox", v.display());
        let pieces = doc.descendants().filter(|n| n.attribute("class") == Some("piece")).count();
        assert_eq!(pieces, pieces_in_show(&shown), "{}: pieces drawn vs shown\n{shown}", v.display());
        let squares = doc.descendants().filter(|n| n.attribute("class") == Some("square")).count();
        assert!(squares > 0, "{}", v.display());
        assert!(doc.descendants().filter(|n| n.attribute("class") == Some("square")).all(|n| n.attribute("data-pos").is_some()));
    }
}

#[test]
fn names_are_escaped_in_svg_and_html() {
    let dir = scratch("escape");
    let game = dir.join("odd.4th");
    std::fs::write(
        &game,
        "{board 2 3 {grid} {position} <store&> board}\n\
         {players {player} <A&\"B\"> {player} Z'z players}\n\
         : put ( -- ) empty? verify drop add-move ;\n\
         {moves drops {move} put moves}\n\
         {pieces {piece} <Gem> {drops} drops pieces}\n\
         {board-setup {setup} <A&\"B\"> <Gem> <store&> board-setup}\n",
    )
    .unwrap();
    let svg_file = dir.join("odd.svg");
    ok(&["show", game.to_str().unwrap(), "--after", "a1", "--svg", svg_file.to_str().unwrap()]);
    let svg = std::fs::read_to_string(&svg_file).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"));
    let names: Vec<&str> = doc.descendants().filter_map(|n| n.attribute("data-piece")).collect();
    assert_eq!(names, vec!["<A&\"B\"> <Gem>", "<A&\"B\"> <Gem>"], "{svg}");
    assert!(doc.descendants().any(|n| n.text() == Some("<store&>")), "the slot's name is written: {svg}");
    let page = dir.join("odd.html");
    ok(&["view", game.to_str().unwrap(), "--after", "a1", "-o", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("&lt;A&amp;&quot;B&quot;&gt; &lt;Gem&gt; a1"), "the move is escaped in the list: {html}");
    assert!(!html.contains("<A&"), "{html}");
}

#[test]
fn view_opens_a_game_file_on_the_position_after_the_moves() {
    let dir = scratch("after");
    let page = dir.join("o.html");
    ok(&["view", "scripts/othello/othello.4th", "--after", "d3; c5", "-o", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("data-start=\"2\""), "opens on ply 2");
    assert!(html.contains("<li>Black Disc d3</li><li>White Disc c5</li>"), "{html}");
    assert!(html.contains("Black to move, turn 3"), "{html}");
    for fetch in ["src=", "<link", "@import", "url(", "href=\"http"] {
        assert!(!html.contains(fetch), "self-contained: nothing to fetch, but `{fetch}` is there");
    }
    let bad = axforth(&["view", "scripts/othello/othello.4th", "--after", "a1", "-o", page.to_str().unwrap()]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("`a1` is not a legal move"), "{}", String::from_utf8_lossy(&bad.stderr));
}

#[test]
fn autoplay_html_writes_a_page_per_game_and_an_index_and_view_reads_the_logs() {
    let dir = scratch("html");
    let log = dir.join("log");
    ok(&["autoplay", "scripts/tictactoe/tictactoe.4th", "scripts/tictactoe/random.4th", "-n", "2", "--depth", "2", "--seed", "3", "--log", log.to_str().unwrap(), "--html", "-q"]);
    let index = std::fs::read_to_string(log.join("index.html")).unwrap();
    assert!(index.contains("href=\"game-000001.html\"") && index.contains("href=\"game-000002.html\""), "{index}");
    assert!(index.contains("Elo"), "the summary is on the index: {index}");
    for g in ["game-000001", "game-000002"] {
        let page = std::fs::read_to_string(log.join(format!("{g}.html"))).unwrap();
        let record: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(log.join(format!("{g}.json"))).unwrap()).unwrap();
        let moves = record["game"]["moves"].as_array().unwrap();
        assert_eq!(page.matches("<li>").count(), moves.len(), "{g}: one list item per move");
        assert!(page.contains("tictactoe") && page.contains("random"), "the engines are named");
        // `view` of the log writes the same page.
        let again = dir.join("again.html");
        ok(&["view", log.join(format!("{g}.json")).to_str().unwrap(), "-o", again.to_str().unwrap()]);
        assert_eq!(std::fs::read_to_string(&again).unwrap(), page);
    }
    let bad = axforth(&["view", log.join("index.html").with_extension("json").to_str().unwrap(), "-o", dir.join("x.html").to_str().unwrap()]);
    assert!(!bad.status.success(), "a missing log is an error");
}

/// The element `<tag id="id">…</tag>` of a page, parsed as XML (maud
/// writes the charts and the crosstable well-formed; the page around them
/// is HTML).
fn element(page: &str, tag: &str, id: &str) -> roxmltree::Document<'static> {
    let at = page.find(&format!(" id=\"{id}\"")).unwrap_or_else(|| panic!("no #{id} in the page"));
    let start = page[..at].rfind(&format!("<{tag}")).unwrap();
    let end = start + page[start..].find(&format!("</{tag}>")).unwrap() + tag.len() + 3;
    let text: &'static str = Box::leak(page[start..end].to_string().into_boxed_str());
    roxmltree::Document::parse(text).unwrap_or_else(|e| panic!("#{id} is not well-formed: {e}\n{text}"))
}

fn with_class<'a>(doc: &'a roxmltree::Document<'a>, class: &'a str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants().filter(|n| n.attribute("class").is_some_and(|c| c.split(' ').any(|w| w == class))).collect()
}

fn number(n: &roxmltree::Node, attribute: &str) -> f64 {
    let v = n.attribute(attribute).unwrap_or_else(|| panic!("no {attribute} on {n:?}"));
    v.parse().unwrap_or_else(|_| panic!("{attribute}=\"{v}\" is not a number"))
}

/// A number as the summary prints it ("inf" for an infinity) against
/// the chart's data attribute ("+∞"), to the summary's precision.
fn same_number(printed: &str, datum: &str, what: &str) {
    match printed {
        "inf" => assert_eq!(datum, "+∞", "{what}"),
        "-inf" => assert_eq!(datum, "−∞", "{what}"),
        _ => {
            let (p, d): (f64, f64) = (printed.parse().unwrap(), datum.parse().unwrap_or_else(|_| panic!("{what}: {datum}")));
            assert!((p - d).abs() <= 0.051, "{what}: printed {printed}, charted {datum}");
        }
    }
}

/// The charts and crosstable of an index page: every coordinate a finite
/// number, no NaN or inf written anywhere in them, the W/D/L of each
/// variant, and the crosstable adding up. Returns the parsed elements.
fn check_charts(page: &str, names: &[&str], played: u64) -> [roxmltree::Document<'static>; 4] {
    let charts = [element(page, "svg", "elo-chart"), element(page, "svg", "score-chart"), element(page, "svg", "wdl-chart"), element(page, "table", "crosstable")];
    for doc in &charts {
        let text = doc.input_text();
        for bad in ["nan", "inf"] {
            assert!(!text.to_lowercase().contains(bad), "`{bad}` in\n{text}");
        }
        for n in doc.descendants() {
            for a in ["x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "width", "height"] {
                if let (Some(_), true) = (n.attribute(a), n.tag_name().name() != "svg") {
                    assert!(number(&n, a).is_finite(), "{a} of {n:?}");
                }
            }
            if let Some(points) = n.attribute("points") {
                assert!(points.split([' ', ',']).all(|p| p.parse::<f64>().is_ok_and(f64::is_finite)), "{points}");
            }
        }
    }
    let [_, _, wdl, cross] = &charts;
    let bars = with_class(wdl, "wdl-bar");
    assert_eq!(bars.iter().map(|b| b.attribute("data-variant").unwrap()).collect::<Vec<_>>(), names);
    let rows: Vec<_> = cross.descendants().filter(|n| n.tag_name().name() == "tr" && n.attribute("data-variant").is_some()).collect();
    assert_eq!(rows.len(), names.len());
    let games = |n: &roxmltree::Node| ["data-wins", "data-draws", "data-losses"].map(|a| number(n, a) as u64);
    let mut all = 0;
    for (row, bar) in rows.iter().zip(&bars) {
        let cells: Vec<_> = row.children().filter(|n| n.tag_name().name() == "td").collect();
        assert_eq!(cells.len(), names.len() + 1, "a cell per variant and the total");
        let total = games(cells.last().unwrap());
        let mut sum = [0; 3];
        for c in &cells[..names.len()] {
            if c.attribute("class") == Some("cell") {
                for (s, g) in sum.iter_mut().zip(games(c)) {
                    *s += g;
                }
            }
        }
        assert_eq!(sum, total, "the row's cells add up to its total");
        assert_eq!(total, games(bar), "the crosstable's total is the W/D/L bar");
        all += total.iter().sum::<u64>();
    }
    assert_eq!(all, 2 * played, "every game is in two rows");
    assert_eq!(with_class(cross, "self").len(), names.len(), "the diagonal is empty");
    charts
}

#[test]
fn the_index_of_a_match_charts_the_summarys_numbers() {
    let dir = scratch("charts");
    let log = dir.join("log");
    let out = ok(&["autoplay", "scripts/tictactoe/tictactoe.4th", "scripts/tictactoe/random.4th", "-n", "10", "--depth", "2", "--seed", "1", "--random-plies", "0", "--log", log.to_str().unwrap(), "--html", "-q"]);
    let page = std::fs::read_to_string(log.join("index.html")).unwrap();
    assert!(page.contains("<pre id=\"summary\">") && page.contains("<table id=\"games\">"), "{page}");
    assert!(!page.contains("NaN"), "{page}");
    let played: u64 = out.lines().find_map(|l| l.strip_suffix(" game(s) played")).unwrap().parse().unwrap();
    let [elo, score, _, cross] = check_charts(&page, &["tictactoe", "random"], played);

    // "Elo: 301.33 +/- inf, nElo: …"
    let elo_line = out.lines().find(|l| l.starts_with("Elo: ")).unwrap();
    let words: Vec<&str> = elo_line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let bars = with_class(&elo, "elo-bar");
    assert_eq!(bars.len(), 1, "a match has one bar: the first variant against the second");
    let bar = &bars[0];
    assert_eq!(bar.attribute("data-variant"), Some("tictactoe"));
    same_number(words[1], bar.attribute("data-elo").unwrap(), "Elo");
    same_number(words[3], bar.attribute("data-error").unwrap(), "Elo error");
    let (lo, hi) = (bar.attribute("data-lo").unwrap(), bar.attribute("data-hi").unwrap());
    if let (Ok(lo), Ok(hi)) = (lo.parse::<f64>(), hi.parse::<f64>()) {
        same_number(words[3], &format!("{}", (hi - lo) / 2.0), "the interval's half width is the printed error");
    } else {
        assert_eq!(words[3], "inf", "an interval open on a side is an infinite error");
        assert!(!with_class(&elo, "interval").is_empty() || !with_class(&elo, "clamped").is_empty(), "an open interval ends in an arrow");
    }

    let points = with_class(&score, "score-point");
    assert_eq!(points.len() as u64, played, "a point per game counted");
    let order: Vec<f64> = points.iter().map(|p| number(p, "data-game")).collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "in game order: {order:?}");
    for p in &points {
        let (s, lo, hi) = (number(p, "data-score"), number(p, "data-lo"), number(p, "data-hi"));
        assert!((0.0..=100.0).contains(&lo) && lo <= s && s <= hi && hi <= 100.0, "{p:?}");
    }
    // "Games: 10, Wins: 8, Losses: 1, Draws: 1, Points: 8.5 (85.00 %)"
    let games_line = out.lines().find(|l| l.starts_with("Games: ")).unwrap();
    let percent = games_line.rsplit('(').next().unwrap().trim_end_matches(" %)");
    same_number(percent, points.last().unwrap().attribute("data-score").unwrap(), "the last point is the final score");
    let widths: Vec<f64> = points.iter().map(|p| number(p, "data-hi") - number(p, "data-lo")).collect();
    let widest = widths.iter().copied().fold(0.0, f64::max);
    assert!(widths[widths.len() - 1] < widest, "the interval narrows once the results differ: {widths:?}");

    // The row of tictactoe: its wins are the original's line.
    let wins: u64 = out.lines().find_map(|l| l.strip_prefix("Player 1 \"tictactoe\", wins = ")).unwrap().trim_end_matches('.').parse().unwrap();
    let total = with_class(&cross, "total")[0];
    assert_eq!(number(&total, "data-wins") as u64, wins);
}

#[test]
fn the_index_of_a_round_robin_charts_each_variant_against_the_field() {
    let dir = scratch("charts3");
    let log = dir.join("log");
    let three = ["scripts/tictactoe/tictactoe.4th", "scripts/tictactoe/uct.4th", "scripts/tictactoe/random.4th"];
    let out = ok(&[&["autoplay"], &three[..], &["-n", "4", "--depth", "9", "--uct-playouts", "300", "--seed", "1", "--log", log.to_str().unwrap(), "--html", "-q"]].concat());
    let page = std::fs::read_to_string(log.join("index.html")).unwrap();
    let played: u64 = out.lines().find_map(|l| l.strip_suffix(" game(s) played")).unwrap().parse().unwrap();
    assert_eq!(played, 12, "{out}");
    let [elo, score, _, cross] = check_charts(&page, &["tictactoe", "uct", "random"], played);
    // The ranking: "1    tictactoe   35.2   120.3   8   62.5%   50.0%".
    let table: Vec<Vec<&str>> = out.lines().skip_while(|l| !l.starts_with("rank ")).skip(1).map(|l| l.split_whitespace().collect()).collect();
    let bars = with_class(&elo, "elo-bar");
    assert_eq!(bars.len(), 3, "a bar per variant");
    for (bar, row) in bars.iter().zip(&table) {
        assert_eq!(bar.attribute("data-variant"), Some(row[1]), "best first, as ranked");
        same_number(row[2], bar.attribute("data-elo").unwrap(), "Elo");
        same_number(row[3], bar.attribute("data-error").unwrap(), "Elo error");
    }
    // The first variant's games only: 8 of the 12.
    let first = table.iter().find(|r| r[1] == "tictactoe").unwrap();
    assert_eq!(with_class(&score, "score-point").len().to_string(), first[4]);
    same_number(first[5].trim_end_matches('%'), with_class(&score, "score-point").last().unwrap().attribute("data-score").unwrap(), "final score");
    assert_eq!(with_class(&cross, "cell").len(), 6, "three pairings, each twice");
}

#[test]
fn infinite_and_undefined_estimates_are_drawn_clamped_never_as_nan() {
    use axforth::tournament::stats::Wdl;
    use axforth::tournament::summary::{Charts, EloBar, ScorePoint};
    let inf = f64::INFINITY;
    let c = Charts {
        names: vec!["all <won>".into(), "none".into(), "never played".into()],
        elo: vec![
            EloBar { variant: 0, elo: inf, error: inf, low: inf, high: inf },
            EloBar { variant: 1, elo: -inf, error: inf, low: -inf, high: -inf },
            EloBar { variant: 2, elo: 0.0, error: inf, low: -inf, high: inf },
        ],
        score: vec![ScorePoint { game: 1, score: 1.0, low: 1.0, high: 1.0 }, ScorePoint { game: 3, score: 1.0, low: f64::NAN, high: 1.0 }],
        totals: vec![Wdl::new(2, 0, 0), Wdl::new(0, 0, 2), Wdl::default()],
        crosstable: vec![vec![None, Some(Wdl::new(2, 0, 0)), None], vec![Some(Wdl::new(0, 0, 2)), None, None], vec![None, None, None]],
    };
    let page = axforth::view::html::index("t", &[], &c, &[]);
    assert!(!page.contains("NaN") && !page.to_lowercase().contains("inf"), "{page}");
    assert!(page.contains("all &lt;won&gt;"), "names are escaped");
    let [elo, ..] = check_charts(&page, &["all <won>", "none", "never played"], 2);
    let bars = with_class(&elo, "elo-bar");
    assert_eq!(bars.iter().map(|b| b.attribute("data-elo").unwrap()).collect::<Vec<_>>(), ["+∞", "−∞", "0.00"]);
    let dots = with_class(&elo, "estimate").into_iter().filter(|n| n.tag_name().name() == "circle").count();
    assert_eq!(dots, 1, "only the finite estimate is a dot");
    assert_eq!(with_class(&elo, "clamped").len(), 2 + 2 + 2 + 2, "the two infinite estimates and every whisker end are arrows");
    let text: String = elo.descendants().filter_map(|n| n.text()).collect();
    assert!(text.contains("+∞ ± ∞") && text.contains("−∞ ± ∞") && text.contains("+0.0 ± ∞"), "{text}");
}

#[test]
fn view_without_o_names_the_page_after_its_input_and_says_so() {
    let dir = std::env::temp_dir().join(format!("axforth-view-default-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let game = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/othello/othello.4th");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_axforth")).args(["view", game.to_str().unwrap()]).current_dir(&dir).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "wrote othello.html");
    assert!(dir.join("othello.html").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
