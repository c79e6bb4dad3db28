//! The replay pages in a real browser: headless Chromium, driven over
//! WebDriver by chromedriver. For every bundled game, a random game is
//! played with `autoplay --log --html`; its page is opened, stepped through
//! with the arrow keys, and after every step the pieces the page shows are
//! compared with what `axforth show --after` prints for the same moves.
//! End and Home must jump to the last and first positions.
//!
//! Needs Debian's `chromium` and `chromium-driver` (`bash .ci/install-browser`
//! installs them). Without them the test says so and passes, unless
//! AXFORTH_REQUIRE_BROWSER is set (CI sets it: there a missing browser fails).
//! Screenshots of each game's first, middle and last position land in
//! `target/browser-test/` to be looked at.
//!
//! A tournament's index page must draw its charts: each SVG and the
//! crosstable with a size on screen, an Elo bar per variant (one for a
//! match); its screenshot is printed to be looked at.
//!
//! A page drawn with pictures (`Scene::with_artwork`, from BMPs written
//! here) is checked in the screenshot itself: the board picture's colours,
//! each piece picture at its position's centre, its corner colour clear.

use axforth::view::{html, replay, Artwork, Scene};
use base64::Engine as _;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::io::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
mod common;
use common::cli::root;

mod bmp;

/// Where the browser and its driver are: Debian's places, unless
/// AXFORTH_CHROMIUM / AXFORTH_CHROMEDRIVER name others.
fn chromium() -> String {
    std::env::var("AXFORTH_CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into())
}

fn chromedriver() -> String {
    std::env::var("AXFORTH_CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into())
}

fn axforth(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_axforth")).args(args).current_dir(root()).output().expect("running axforth");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "axforth {args:?} failed:\n{out}{}", String::from_utf8_lossy(&o.stderr));
    out
}

/// What `axforth show` prints: the grid's pieces as (position, letter),
/// the off-grid ones as (position, "Player Piece"); and the legend,
/// "Player Piece" to its letter. (A letter alone may stand for pieces of
/// two neutral owners, Splut!'s rocks: the page is compared by letters.)
struct Shown {
    pieces: BTreeSet<(String, String)>,
    off_grid: BTreeSet<String>,
    legend: Vec<(String, String)>,
}

impl Shown {
    /// The page's pieces in the same terms.
    fn page(&self, pieces: &BTreeSet<(String, String)>) -> BTreeSet<(String, String)> {
        pieces
            .iter()
            .map(|(pos, name)| {
                let letter = self.legend.iter().find(|(_, v)| v == name).map(|(k, _)| k.clone());
                match letter {
                    Some(l) if !self.off_grid.contains(pos) => (pos.clone(), l),
                    _ => (pos.clone(), name.clone()),
                }
            })
            .collect()
    }
}

fn shown_by_cli(text: &str) -> Shown {
    let lines: Vec<&str> = text.lines().collect();
    // The legend, last line in parentheses: "(M = Black Man, m = White Man)".
    let legend: Vec<(String, String)> = lines
        .iter()
        .rev()
        .find(|l| l.starts_with('(') && l.ends_with(')'))
        .map(|l| {
            l[1..l.len() - 1]
                .split(", ")
                .filter_map(|e| e.split_once(" = ").map(|(k, v)| (k.to_string(), v.to_string())))
                .collect()
        })
        .unwrap_or_default();
    // The grid: rows "8  . m . m", then the files "   a b c"; then
    // off-grid positions, "store1: South Seed" or "store1: empty".
    let is_rank = |l: &str| l.split_whitespace().next().is_some_and(|w| w.parse::<u32>().is_ok());
    let ranks: Vec<&str> = lines.iter().copied().take_while(|l| is_rank(l)).collect();
    let files: Vec<&str> = lines.get(ranks.len()).map(|l| l.split_whitespace().collect()).unwrap_or_default();
    let mut pieces = BTreeSet::new();
    for line in &ranks {
        let mut words = line.split_whitespace();
        let rank = words.next().unwrap();
        for (file, cell) in files.iter().zip(words) {
            if cell != "." {
                assert!(legend.iter().any(|(k, _)| k == cell), "`{cell}` not in the legend of\n{text}");
                pieces.insert((format!("{file}{rank}"), cell.to_string()));
            }
        }
    }
    let mut off_grid = BTreeSet::new();
    for line in lines.iter().skip(ranks.len() + 1).take_while(|l| !l.starts_with('(')) {
        if let Some((name, what)) = line.split_once(": ") {
            if !name.contains(' ') {
                off_grid.insert(name.to_string());
                if what != "empty" {
                    pieces.insert((name.to_string(), what.to_string()));
                }
            }
        }
    }
    Shown { pieces, off_grid, legend }
}

struct Driver {
    base: String,
    session: String,
    process: Child,
}

impl Driver {
    fn start(profile: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let process = Command::new(chromedriver()).arg(format!("--port={port}")).stdout(Stdio::null()).stderr(Stdio::null()).spawn().expect("starting chromedriver");
        let base = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while ureq::get(&format!("{base}/status")).call().is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not answer on port {port}");
            std::thread::sleep(Duration::from_millis(100));
        }
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1100,800",
        ];
        let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {"binary": chromium(), "args": args}}}});
        let mut d = Driver { base, session: String::new(), process };
        let answer = d.post("/session", caps);
        d.session = answer["sessionId"].as_str().expect("a session id").to_string();
        d
    }

    fn post(&self, path: &str, body: Value) -> Value {
        let url = format!("{}{}", self.base, path);
        let mut r = ureq::post(&url).header("content-type", "application/json").send(body.to_string()).unwrap_or_else(|e| panic!("POST {path}: {e}"));
        let text = r.body_mut().read_to_string().unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["value"].clone()
    }

    fn get(&self, path: &str) -> Value {
        let url = format!("{}{}", self.base, path);
        let mut r = ureq::get(&url).call().unwrap_or_else(|e| panic!("GET {path}: {e}"));
        let text = r.body_mut().read_to_string().unwrap();
        serde_json::from_str::<Value>(&text).unwrap()["value"].clone()
    }

    fn open(&self, page: &Path) {
        self.post(&format!("/session/{}/url", self.session), json!({"url": format!("file://{}", page.display())}));
    }

    /// Presses a key (WebDriver key codes: \u{E014} right, \u{E010} End, \u{E011} Home).
    fn press(&self, key: char) {
        let k = key.to_string();
        let actions = json!({"actions": [{"type": "key", "id": "keyboard", "actions": [{"type": "keyDown", "value": k}, {"type": "keyUp", "value": k}]}]});
        self.post(&format!("/session/{}/actions", self.session), actions);
    }

    /// The ply the page is at and the pieces it shows.
    fn shown(&self) -> (u64, BTreeSet<(String, String)>) {
        let script = "const names = {};\
            document.querySelectorAll('#board [data-pos]').forEach(r => names[r.getAttribute('data-index')] = r.getAttribute('data-pos'));\
            return [Number(document.body.getAttribute('data-ply')),\
              Array.from(document.querySelectorAll('#pieces .piece')).map(g => [names[g.getAttribute('data-index')], g.getAttribute('data-piece')])];";
        let v = self.post(&format!("/session/{}/execute/sync", self.session), json!({"script": script, "args": []}));
        let ply = v[0].as_u64().expect("the page's ply");
        let pieces = v[1]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_str().unwrap_or("?").to_string(), p[1].as_str().unwrap_or("?").to_string()))
            .collect();
        (ply, pieces)
    }

    /// Runs `script` in the page and returns its value.
    fn run(&self, script: &str) -> Value {
        self.post(&format!("/session/{}/execute/sync", self.session), json!({"script": script, "args": []}))
    }

    fn screenshot(&self, file: &Path) {
        let png = self.get(&format!("/session/{}/screenshot", self.session));
        let bytes = base64::engine::general_purpose::STANDARD.decode(png.as_str().unwrap()).unwrap();
        std::fs::write(file, bytes).unwrap();
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = ureq::delete(&format!("{}/session/{}", self.base, self.session)).call();
        }
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// Every game folder under scripts/ with a `random.4th` and its top file.
fn bundled_games() -> Vec<(String, PathBuf, PathBuf)> {
    let mut games = Vec::new();
    for entry in std::fs::read_dir(root().join("scripts")).unwrap() {
        let dir = entry.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let top = dir.join(format!("{name}.4th"));
        let random = dir.join("random.4th");
        if top.is_file() && random.is_file() {
            games.push((name, top, random));
        }
    }
    games.sort();
    games
}

/// Whether the browser is there; without it the test is skipped, unless
/// AXFORTH_REQUIRE_BROWSER is set.
fn browser() -> bool {
    let (chromium, chromedriver) = (chromium(), chromedriver());
    if !Path::new(&chromium).exists() || !Path::new(&chromedriver).exists() {
        let msg = format!("browser test skipped: {chromium} and {chromedriver} are needed (`bash .ci/install-browser` installs them)");
        assert!(std::env::var_os("AXFORTH_REQUIRE_BROWSER").is_none(), "{msg}");
        // Straight to the process's stderr: cargo test captures eprintln!
        // and shows it only for a failing test, and a skip must be seen.
        let _ = writeln!(std::io::stderr(), "\n{msg}");
        return false;
    }
    true
}

#[test]
fn replay_pages_step_through_every_move_as_show_prints_it() {
    if !browser() {
        return;
    }
    let work = std::env::temp_dir().join(format!("axforth-browser-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let shots = root().join("target/browser-test");
    std::fs::create_dir_all(&shots).unwrap();
    let driver = Driver::start(&work.join("profile"));
    let games = bundled_games();
    assert!(games.len() >= 3, "{games:?}");
    for (name, top, random) in &games {
        // One random game, kept short: every move type still appears.
        let log = work.join(name);
        axforth(&["autoplay", top.to_str().unwrap(), random.to_str().unwrap(), "-n", "1", "--engine", "random", "--max-plies", "50", "--seed", "4", "--log", log.to_str().unwrap(), "--html", "-q"]);
        let record: Value = serde_json::from_str(&std::fs::read_to_string(log.join("game-000001.json")).unwrap()).unwrap();
        let moves: Vec<String> = record["game"]["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        assert!(!moves.is_empty(), "{name}: no moves recorded");
        let page = log.join("game-000001.html");
        driver.open(&page);
        for ply in 0..=moves.len() {
            if ply > 0 {
                driver.press('\u{E014}'); // ArrowRight
            }
            let (at, pieces) = driver.shown();
            assert_eq!(at as usize, ply, "{name}: the page is not at ply {ply}");
            let after = moves[..ply].join("; ");
            let cli = shown_by_cli(&axforth(&["show", top.to_str().unwrap(), "--after", &after]));
            assert_eq!(cli.page(&pieces), cli.pieces, "{name}, ply {ply} (after `{after}`): the page and `show` differ");
            if ply == 0 || ply == moves.len() / 2 {
                driver.screenshot(&shots.join(format!("{name}-{ply:03}.png")));
            }
        }
        driver.press('\u{E011}'); // Home
        assert_eq!(driver.shown().0, 0, "{name}: Home goes to the start");
        driver.press('\u{E010}'); // End
        assert_eq!(driver.shown().0 as usize, moves.len(), "{name}: End goes to the last move");
        driver.screenshot(&shots.join(format!("{name}-end.png")));
    }
    let _ = std::fs::remove_dir_all(&work);
}

const ART_GAME: &str = "{board 3 3 {grid} {position} store board}\n\
    {players {player} White {player} Black players}\n\
    : put ( -- ) empty? verify drop add-move ;\n\
    {moves drops {move} put moves}\n\
    {pieces {piece} Man {drops} drops {piece} King {drops} drops pieces}\n\
    {board-setup {setup} White Man a1 {setup} Black Man c3 {setup} Black King b2 board-setup}\n";

const LIGHT: [u8; 3] = [240, 217, 181];
const DARK: [u8; 3] = [181, 136, 99];
const GREEN: [u8; 3] = [0, 200, 0];

#[test]
fn pictures_are_drawn_where_their_positions_are() {
    if !browser() {
        return;
    }
    let work = std::env::temp_dir().join(format!("axforth-browser-art-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    // A 300x300 4-bit board of 100-pixel cells, light at the top left;
    // a 40x30 24-bit man, green on a magenta ground that must not show.
    let board = work.join("board.bmp");
    std::fs::write(&board, bmp::bmp(4, 300, 300, &[LIGHT, DARK], |x, y| (x / 100 + y / 100) % 2)).unwrap();
    let man = work.join("man.bmp");
    let [r, g, b] = GREEN;
    std::fs::write(&man, bmp::bmp(24, 40, 30, &[], |x, y| if (8..32).contains(&x) && (6..24).contains(&y) { bmp::rgb(r, g, b) } else { bmp::rgb(255, 0, 255) })).unwrap();
    let mut places = Vec::new();
    for (c, file) in ["a", "b", "c"].iter().enumerate() {
        for rank in 1..=3 {
            let (l, t) = (c as i32 * 100, (3 - rank) * 100);
            places.push((format!("{file}{rank}"), [l, t, l + 100, t + 100]));
        }
    }
    let art = Artwork { board: Some(board), places, pieces: vec![("White".into(), "Man".into(), man)] };
    let game = work.join("art.4th");
    std::fs::write(&game, ART_GAME).unwrap();
    let moves: Vec<String> = vec!["White Man b1".into(), "Black King a3".into()];
    let (vm, mut r) = replay::of_moves(&axforth::Config::default(), &axforth::open::GameFile::script(&game), &moves).unwrap();
    r.scene = Scene::with_artwork(&vm, &art);
    assert!(r.scene.warnings.is_empty(), "{:?}", r.scene.warnings);
    let page = work.join("art.html");
    std::fs::write(&page, html::page(&r, 0)).unwrap();

    let driver = Driver::start(&work.join("profile"));
    driver.open(&page);
    driver.press('\u{E010}'); // End: every piece is a copy of its template
    assert_eq!(driver.shown().0, 2);
    // Each piece: its position, its box's centre and that of its
    // position's rectangle (CSS pixels), and whether it is a picture.
    let script = "return Array.from(document.querySelectorAll('#pieces .piece')).map(g => {\
          const i = g.getAttribute('data-index');\
          const sq = document.querySelector('#board rect[data-index=\"' + i + '\"]');\
          const a = sq.getBoundingClientRect(), b = g.getBoundingClientRect();\
          return [sq.getAttribute('data-pos'), a.x + a.width / 2, a.y + a.height / 2, b.x + b.width / 2, b.y + b.height / 2, b.width / a.width, g.querySelector('use') !== null, a.x, a.y, a.width];\
        });";
    let pieces = driver.post(&format!("/session/{}/execute/sync", driver.session), json!({"script": script, "args": []}));
    let shot = root().join("target/browser-test");
    std::fs::create_dir_all(&shot).unwrap();
    let file = shot.join("artwork.png");
    driver.screenshot(&file);
    let png = image::open(&file).unwrap().into_rgb8();
    let near = |at: (f64, f64), want: [u8; 3], what: &str| {
        let p = png.get_pixel(at.0.round() as u32, at.1.round() as u32).0;
        assert!(p.iter().zip(want).all(|(a, b)| a.abs_diff(b) <= 8), "{what} at {at:?}: {p:?}, not {want:?} (see {})", file.display());
    };
    let pieces = pieces.as_array().unwrap();
    let mut names = Vec::new();
    for p in pieces {
        let name = p[0].as_str().unwrap().to_string();
        let f = |i: usize| p[i].as_f64().unwrap();
        assert!((f(1) - f(3)).abs() < 1.0 && (f(2) - f(4)).abs() < 1.0, "{name}: the piece is centred on its rectangle: {p}");
        if p[6].as_bool().unwrap() {
            assert!((f(5) - 0.4).abs() < 0.02, "{name}: at its natural size, 40 of the cell's 100 pixels: {p}");
            let cell = f(9) / 100.0;
            near((f(3), f(4)), GREEN, &format!("{name}'s picture"));
            // The man's corner is magenta in the file: the cell shows through.
            let under = if name == "a1" { LIGHT } else { DARK };
            near((f(3) - 18.0 * cell, f(4) - 13.0 * cell), under, &format!("the clear corner of {name}'s man"));
        }
        names.push((name, p[6].as_bool().unwrap()));
    }
    names.sort();
    let want = [("a1", true), ("a3", false), ("b1", true), ("b2", false), ("c3", false)];
    assert_eq!(names, want.map(|(n, p)| (n.to_string(), p)).to_vec(), "White's men are pictures, Black's pieces discs");
    // The empty cells show the board picture: c1 light, c2 dark.
    let a1 = pieces.iter().find(|p| p[0] == "a1").unwrap();
    let (x, y, side) = (a1[1].as_f64().unwrap(), a1[2].as_f64().unwrap(), a1[9].as_f64().unwrap());
    near((x + 2.0 * side, y), LIGHT, "c1");
    near((x + 2.0 * side, y - side), DARK, "c2");
    drop(driver);
    let _ = std::fs::remove_dir_all(&work);
}

/// A skipped browser test says so where cargo's capture cannot hide it:
/// this test binary runs one of its tests again with no browser to find.
#[test]
fn a_missing_browser_is_a_visible_skip_or_a_failure_under_ci() {
    let again = |require: bool| {
        let mut c = Command::new(std::env::current_exe().unwrap());
        c.args(["--exact", "pictures_are_drawn_where_their_positions_are"]).env("AXFORTH_CHROMIUM", "/nonexistent/chromium");
        match require {
            true => c.env("AXFORTH_REQUIRE_BROWSER", "1"),
            false => c.env_remove("AXFORTH_REQUIRE_BROWSER"),
        };
        c.output().unwrap()
    };
    let o = again(false);
    assert!(o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("browser test skipped: /nonexistent/chromium"), "{e}");
    let o = again(true);
    assert!(!o.status.success(), "CI requires the browser");
}

#[test]
fn a_tournaments_index_draws_its_charts() {
    if !browser() {
        return;
    }
    let work = std::env::temp_dir().join(format!("axforth-browser-charts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    let driver = Driver::start(&work.join("profile"));
    let ttt = |f: &str| root().join("scripts/tictactoe").join(f).to_string_lossy().into_owned();
    let tournaments = [(vec![ttt("tictactoe.4th"), ttt("random.4th")], 1), (vec![ttt("tictactoe.4th"), ttt("uct.4th"), ttt("random.4th")], 3)];
    for (files, bars) in tournaments {
        let log = work.join(format!("log{}", files.len()));
        let mut args: Vec<&str> = vec!["autoplay"];
        args.extend(files.iter().map(String::as_str));
        args.extend(["-n", "10", "--depth", "2", "--uct-playouts", "200", "--seed", "1", "--log", log.to_str().unwrap(), "--html", "-q"]);
        axforth(&args);
        let page = log.join("index.html");
        driver.open(&page);
        // Each chart's box on screen, the bars drawn, the crosstable's cells.
        let v = driver.run(
            "const box = s => { const e = document.querySelector(s); if (!e) return null; const r = e.getBoundingClientRect(); return [r.width, r.height]; };\
             return { boxes: ['svg#elo-chart', 'svg#score-chart', 'svg#wdl-chart', 'table#crosstable', 'pre#summary', 'table#games'].map(box),\
               bars: document.querySelectorAll('#elo-chart .elo-bar').length,\
               whiskers: Array.from(document.querySelectorAll('#elo-chart .whisker')).map(l => l.getBBox().width),\
               points: document.querySelectorAll('#score-chart .score-point').length,\
               band: document.getElementById('score-band').getBBox().height,\
               wdl: document.querySelectorAll('#wdl-chart .wdl-bar').length,\
               rows: document.querySelectorAll('#crosstable tbody tr').length };",
        );
        let boxes = v["boxes"].as_array().unwrap();
        for (what, b) in ["Elo chart", "score chart", "W/D/L chart", "crosstable", "summary", "games"].iter().zip(boxes) {
            let (w, h) = (b[0].as_f64().unwrap_or(0.0), b[1].as_f64().unwrap_or(0.0));
            assert!(w > 50.0 && h > 20.0, "{what} is drawn: {w}x{h} ({v})");
        }
        assert_eq!(v["bars"].as_u64(), Some(bars), "an Elo bar per variant, one for a match: {v}");
        assert!(v["whiskers"].as_array().unwrap().iter().all(|w| w.as_f64().unwrap() >= 0.0), "{v}");
        assert!(v["points"].as_u64().unwrap() >= 10, "a point per game of the first variant: {v}");
        assert!(v["band"].as_f64().unwrap() > 0.0, "the interval band has a height: {v}");
        assert_eq!(v["wdl"].as_u64(), Some(files.len() as u64), "{v}");
        assert_eq!(v["rows"].as_u64(), Some(files.len() as u64), "{v}");
        // A window as tall as the page (as far as the browser allows): the charts, then the summary.
        let size = driver.run("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight];");
        let height = size[1].as_u64().unwrap_or(800).clamp(600, 3000);
        driver.post(&format!("/session/{}/window/rect", driver.session), json!({"width": 1100, "height": height}));
        let shot = work.join(format!("index-{}-variants.png", files.len()));
        driver.screenshot(&shot);
        assert!(std::fs::metadata(&shot).unwrap().len() > 10_000, "{}", shot.display());
        println!("screenshot of the index page of {} variants: {}", files.len(), shot.display());
    }
    drop(driver);
    // The screenshots stay to be looked at; the browser's profile goes.
    let _ = std::fs::remove_dir_all(work.join("profile"));
}
