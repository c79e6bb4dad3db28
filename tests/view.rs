//! Pictures: `show --svg` for every bundled variant (well-formed XML, one
//! piece drawn per piece on the board, every square named), names that
//! need escaping, `view` of a game file and of a game log, and
//! `autoplay --log --html`. The browser test (`browser.rs`) steps through
//! the pages themselves.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn axforth(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_axforth")).args(args).current_dir(root()).output().expect("running axforth")
}

fn ok(args: &[&str]) -> String {
    let o = axforth(args);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "axforth {args:?}:\n{out}{}", String::from_utf8_lossy(&o.stderr));
    out
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("axforth-view-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
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
