//! `axforth autoplay`, `merge` and `replay` of its records, end to end:
//! the built-in engines against `{random}`, reproducibility under
//! `--seed`, shards merged into the whole, a killed tournament resumed,
//! and recorded games played back (and a tampered one caught).

use axforth::tournament::record::{self, GameRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
mod common;
use common::cli::{axforth, both, scratch};

const TTT: &str = "scripts/tictactoe/tictactoe.4th";
const TTT_RANDOM: &str = "scripts/tictactoe/random.4th";
const OTHELLO: &str = "scripts/othello/othello.4th";
const OTHELLO_RANDOM: &str = "scripts/othello/random.4th";

/// A fresh folder for one test's files.
/// The games of a record, by index, without their timings.
fn games(path: &Path) -> Vec<GameRecord> {
    let mut g = record::read(path).expect("reading the record").games;
    g.sort_by_key(|g| g.index);
    for g in &mut g {
        g.time = 0.0;
        g.engines = Default::default();
    }
    g
}

/// The summary up to the engines' timings (which vary from run to run).
fn results(o: &Output) -> String {
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    out.lines().take_while(|l| !l.starts_with("engine ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_default_engine_never_loses_tictactoe_to_random() {
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "-n", "20", "--depth", "9", "--seed", "11", "-q", "--random-plies", "0"]);
    assert!(o.status.success(), "{}", both(&o));
    let out = both(&o);
    assert!(out.contains("Player 2 \"random\", wins = 0."), "{out}");
    assert!(out.contains("20 game(s) played"), "{out}");
}

#[test]
fn the_default_engine_beats_random_at_draughts_whose_captures_end_partial_chains() {
    // Every jump is a partial move; when no second jump follows, the turn
    // passes only as the next node is generated. A search that fixed the
    // score's sign before that lost 0-10 to random at 0.1 s a move.
    let o = axforth(&["autoplay", "scripts/draughts/draughts.4th", "scripts/draughts/random.4th", "-n", "6", "--depth", "4", "--seed", "5", "-q"]);
    assert!(o.status.success(), "{}", both(&o));
    let out = both(&o);
    let wins: u32 = out.lines().find(|l| l.starts_with("Player 1 \"draughts\", wins = ")).and_then(|l| l.rsplit(' ').next()?.trim_end_matches('.').parse().ok()).unwrap_or(0);
    assert!(wins >= 5, "depth 4 against random should win nearly every game:\n{out}");
}

#[test]
fn uct_never_loses_tictactoe_to_random() {
    let o = axforth(&["autoplay", "scripts/tictactoe/uct.4th", TTT_RANDOM, "-n", "10", "--uct-playouts", "3000", "--seed", "3", "-q"]);
    assert!(o.status.success(), "{}", both(&o));
    let out = both(&o);
    assert!(out.contains("Player 2 \"random\", wins = 0."), "{out}");
    assert!(out.contains("10 game(s) played"), "{out}");
}

#[test]
fn engine_forces_every_seat() {
    // A rules smoke test: the variants' own engines (alpha-beta and
    // random) are replaced by UCT on both sides.
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "-n", "2", "--engine", "uct", "--uct-playouts", "200", "--seed", "3", "-q"]);
    assert!(o.status.success(), "{}", both(&o));
    let out = both(&o);
    assert!(out.contains("2 game(s) played"), "{out}");
    // Both seats searched: each engine line counts nodes.
    let nodes: Vec<&str> = out.lines().filter(|l| l.starts_with("tictactoe ") || l.starts_with("random ")).collect();
    assert_eq!(nodes.len(), 2, "{out}");
    assert!(nodes.iter().all(|l| l.split_whitespace().nth(3).is_some_and(|n| n != "0")), "{out}");
}

#[test]
fn engine_per_variant_lets_a_file_play_itself_with_a_chance_player_between_turns() {
    // One file, two seats: A searches, B plays at random; the cleaner in
    // the turn order keeps its own engine. A never loses.
    let cleaner = "tests/chance/tictactoe-cleaner.4th";
    let o = axforth(&["autoplay", cleaner, cleaner, "--engine", "A=search,B=random", "-n", "10", "--depth", "9", "--seed", "4", "-q", "--random-plies", "0"]);
    assert!(o.status.success(), "{}", both(&o));
    let out = both(&o);
    assert!(out.contains("Player 1 \"tictactoe-cleaner [search]\", wins = "), "{out}");
    assert!(out.contains("Player 2 \"tictactoe-cleaner [random]\", wins = 0."), "{out}");
    // By number and by name too; a wrong seat or engine says what exists.
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "--engine", "2=uct,tictactoe=search", "-n", "2", "--depth", "1", "--uct-playouts", "50", "-q"]);
    assert!(o.status.success(), "{}", both(&o));
    assert!(both(&o).contains("\"random [uct]\""), "{}", both(&o));
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "--engine", "C=search", "-n", "2"]);
    assert!(!o.status.success());
    assert!(both(&o).contains("no seat `C` (seats: A or 1 = tictactoe, B or 2 = random)"), "{}", both(&o));
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "--engine", "A=minimax", "-n", "2"]);
    assert!(!o.status.success());
    assert!(both(&o).contains("no built-in engine `minimax`: the engines are random, first, search or uct"), "{}", both(&o));
}

#[test]
fn three_contestants_and_a_puzzle_against_the_dice_are_scored_by_who_gained() {
    // Tic-tac-toe for three: a row is the win of whoever completed it,
    // though the verdict is given to the next player as a loss. The
    // third player is outside the seats: its rows are draws for them.
    let three = "tests/chance/tictactoe-three.4th";
    let json = scratch("three").join("t.jsonl");
    let o = axforth(&["autoplay", three, three, "--engine", "random", "-n", "40", "--seed", "2", "-q", "--json", &json.to_string_lossy()]);
    assert!(o.status.success(), "{}", both(&o));
    let mut seen = std::collections::HashSet::new();
    for g in games(&json) {
        let last = g.moves.last().map(|m| m.split_whitespace().next().unwrap_or("")).unwrap_or("");
        // X and O are seats 1 and 2 in every game (the same file sits in both).
        let expected = match last {
            "X" => ["1-0", "1/2-1/2"],
            "O" => ["0-1", "1/2-1/2"],
            _ => ["1/2-1/2", "1/2-1/2"],
        };
        assert!(expected.contains(&g.result.as_str()), "game {}: last move by {last}, result {}: {:?}", g.index + 1, g.result, g.moves);
        seen.insert((last.to_string(), g.result.clone()));
    }
    assert!(seen.contains(&("O".to_string(), "0-1".to_string())) && seen.contains(&("X".to_string(), "1-0".to_string())), "{seen:?}");
    // A puzzle for one contestant against the dice: `You` and the dice
    // are the seats, and the game still plays.
    let dir = scratch("puzzle");
    let puzzle = dir.join("puzzle.4th");
    let gamble = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/chance/gamble.4th");
    let rules = [
        format!("LOAD {}", gamble.display()),
        "{players {player} Me {player} ?Dice {random} players}".into(),
        "{turn-order {turn} Me {of-type} choose-type {turn} ?Dice {of-type} throw-type turn-order}".into(),
        ": thrown? ( -- ? ) c1 not-empty-at? c2 not-empty-at? OR c3 not-empty-at? OR ;".into(),
        ": OnIsGameOver ( -- score ) thrown? 0= IF #UnknownScore EXIT THEN".into(),
        "  a1 not-empty-at? IF #DrawScore EXIT THEN face winning-faces @ < IF #WinScore ELSE #LossScore THEN ;".into(),
    ];
    std::fs::write(&puzzle, rules.join("\n")).unwrap();
    let o = axforth(&["autoplay", puzzle.to_str().unwrap(), puzzle.to_str().unwrap(), "--engine", "A=search,B=random", "-n", "4", "--depth", "2", "-q"]);
    assert!(o.status.success(), "{}", both(&o));
    assert!(both(&o).contains("4 game(s) played"), "{}", both(&o));
}

#[test]
fn the_original_wording_then_the_statistics() {
    let o = axforth(&["autoplay", OTHELLO_RANDOM, OTHELLO_RANDOM, "-n", "4", "--seed", "1", "-q"]);
    assert!(o.status.success(), "{}", both(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Final results:");
    assert!(lines[1].starts_with("Player 1 \"random\", wins = "), "{out}");
    // The same file twice: told apart by number.
    assert!(lines[2].starts_with("Player 2 \"random #2\", wins = "), "{out}");
    assert!(lines[3].starts_with("Draws = "), "{out}");
    assert_eq!(lines[4], "4 game(s) played");
    assert!(out.contains("Elo"), "{out}");
    assert!(out.contains("Ptnml"), "{out}");
}

#[test]
fn a_seed_repeats_the_tournament_and_another_seed_changes_it() {
    let dir = scratch("seed");
    let run = |seed: &str, file: &str, jobs: &str| {
        let path = dir.join(file);
        let o = axforth(&["autoplay", OTHELLO_RANDOM, OTHELLO_RANDOM, "-n", "6", "--seed", seed, "--jobs", jobs, "-q", "--json", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}", both(&o));
        games(&path)
    };
    let a = run("5", "a.jsonl", "2");
    let b = run("5", "b.jsonl", "1");
    let c = run("6", "c.jsonl", "2");
    assert_eq!(a.len(), 6);
    assert_eq!(a, b, "the same seed, the same games, whatever the jobs");
    assert_ne!(a.iter().map(|g| &g.moves).collect::<Vec<_>>(), c.iter().map(|g| &g.moves).collect::<Vec<_>>());
    // No two games of a tournament are the same game.
    let mut moves: Vec<&Vec<String>> = a.iter().map(|g| &g.moves).collect();
    moves.dedup();
    assert_eq!(moves.len(), 6);
}

#[test]
fn shards_merge_into_the_whole_tournament() {
    let dir = scratch("shards");
    let whole = dir.join("whole.jsonl");
    let common = ["autoplay", TTT, TTT_RANDOM, "-n", "8", "--depth", "2", "--seed", "9", "-q"];
    let w = axforth(&[&common[..], &["--json", whole.to_str().unwrap()]].concat());
    assert!(w.status.success(), "{}", both(&w));
    let mut shard_files = Vec::new();
    for k in ["1/3", "2/3", "3/3"] {
        let path = dir.join(format!("shard{}.jsonl", &k[..1]));
        let o = axforth(&[&common[..], &["--shard", k, "--json", path.to_str().unwrap()]].concat());
        assert!(o.status.success(), "{}", both(&o));
        shard_files.push(path);
    }
    let merged_path = dir.join("merged.jsonl");
    let mut args = vec!["merge", "--out", merged_path.to_str().unwrap()];
    args.extend(shard_files.iter().map(|p| p.to_str().unwrap()));
    let m = axforth(&args);
    assert!(m.status.success(), "{}", both(&m));
    assert_eq!(results(&m), results(&w));
    assert_eq!(games(&merged_path), games(&whole));
    assert!(!both(&m).contains("warning"), "{}", both(&m));
    // A shard alone says what it lacks.
    let one = axforth(&["merge", shard_files[1].to_str().unwrap()]);
    assert!(one.status.success(), "{}", both(&one));
    assert!(both(&one).contains("warning: shard(s) 1/3, 3/3 missing: the summary is of 3 of the tournament's 8 games"), "{}", both(&one));
    // Shards of other tournaments do not merge.
    let other = dir.join("other.jsonl");
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "-n", "8", "--depth", "2", "--seed", "10", "-q", "--json", other.to_str().unwrap()]);
    assert!(o.status.success());
    let bad = axforth(&["merge", shard_files[0].to_str().unwrap(), other.to_str().unwrap()]);
    assert!(!bad.status.success(), "{}", both(&bad));
}

#[test]
fn a_killed_tournament_resumes_to_the_same_result() {
    let dir = scratch("resume");
    let whole = dir.join("whole.jsonl");
    let args = |json: &Path| -> Vec<String> {
        ["autoplay", OTHELLO, OTHELLO_RANDOM, "-n", "12", "--depth", "2", "--seed", "4", "-q", "--jobs", "1", "--json", json.to_str().unwrap()]
            .iter()
            .map(|s| s.to_string())
            .collect()
    };
    let w = Command::new(env!("CARGO_BIN_EXE_axforth")).args(args(&whole)).current_dir(env!("CARGO_MANIFEST_DIR")).output().unwrap();
    assert!(w.status.success(), "{}", both(&w));

    let killed = dir.join("killed.jsonl");
    let mut child = Command::new(env!("CARGO_BIN_EXE_axforth"))
        .args(args(&killed))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Kill it (SIGKILL: no chance to clean up) once a few games are in.
    let t0 = std::time::Instant::now();
    loop {
        let lines = std::fs::read_to_string(&killed).map(|t| t.lines().count()).unwrap_or(0);
        if lines >= 4 || t0.elapsed().as_secs() > 120 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap();
    let status = child.wait().unwrap();
    let before = games(&killed).len();
    assert!(!status.success() || before == 12);
    // A torn last line, as a kill in mid-write leaves it.
    let mut torn = std::fs::OpenOptions::new().append(true).open(&killed).unwrap();
    std::io::Write::write_all(&mut torn, b"{\"kind\":\"game\",\"index\":11,\"se").unwrap();
    drop(torn);

    // Other variants or another -n on the command line are refused, not ignored.
    let other = axforth(&["autoplay", TTT, TTT_RANDOM, "--resume", killed.to_str().unwrap(), "-q"]);
    assert!(!other.status.success() && both(&other).contains("continues its own tournament"), "{}", both(&other));
    let other = axforth(&["autoplay", OTHELLO, OTHELLO_RANDOM, "-n", "20", "--resume", killed.to_str().unwrap(), "-q"]);
    assert!(!other.status.success() && both(&other).contains("-n 20"), "{}", both(&other));
    let r = axforth(&["autoplay", "--resume", killed.to_str().unwrap(), "-q"]);
    assert!(r.status.success(), "{}", both(&r));
    assert_eq!(games(&killed), games(&whole), "{before} game(s) were in before the kill");
    assert_eq!(results(&r), results(&w));
}

#[test]
fn logged_games_replay_and_a_tampered_one_is_caught() {
    let dir = scratch("replay");
    let logs = dir.join("logs");
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "-n", "4", "--depth", "3", "--seed", "2", "-q", "--log", logs.to_str().unwrap()]);
    assert!(o.status.success(), "{}", both(&o));
    let mut files: Vec<PathBuf> = std::fs::read_dir(&logs).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 4);
    for f in &files {
        let r = axforth(&["replay", f.to_str().unwrap()]);
        assert!(r.status.success(), "{}: {}", f.display(), both(&r));
        assert!(both(&r).contains("games replayed: 1, ok: 1"), "{}", both(&r));
    }
    // Swap the first two moves of X: still legal, but the game then ends
    // differently or the record's moves stop fitting.
    let mut log: serde_json::Value = serde_json::from_slice(&std::fs::read(&files[0]).unwrap()).unwrap();
    let moves = log["game"]["moves"].as_array_mut().unwrap();
    let last = moves.pop().unwrap();
    moves.insert(0, last);
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, serde_json::to_vec(&log).unwrap()).unwrap();
    let r = axforth(&["replay", tampered.to_str().unwrap()]);
    assert!(!r.status.success(), "{}", both(&r));
}

#[test]
fn a_game_that_errs_is_recorded_with_its_seed_and_the_tournament_goes_on() {
    let dir = scratch("error");
    // A variant whose evaluation breaks (division by zero) once searched.
    let broken = dir.join("broken.4th");
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join(TTT);
    std::fs::write(&broken, format!("LOAD {}\n: OnEvaluate ( -- score ) 1 0 / ;\n", game.display())).unwrap();
    let json = dir.join("games.jsonl");
    let o = axforth(&["autoplay", broken.to_str().unwrap(), TTT_RANDOM, "-n", "3", "--depth", "2", "--seed", "1", "-q", "--json", json.to_str().unwrap()]);
    assert!(!o.status.success(), "errored games make the exit status non-zero");
    let out = both(&o);
    assert!(out.contains("3 game(s) ended in an error"), "{out}");
    let g = games(&json);
    assert_eq!(g.len(), 3);
    assert!(g.iter().all(|g| g.result == "*" && g.error.is_some() && g.rerun.is_some()), "{g:?}");
    // The rerun command plays that game alone, and it fails the same way.
    let again = g[1].rerun.clone().unwrap();
    let args: Vec<&str> = again.split_whitespace().skip(1).collect();
    assert!(again.contains("--only 2"), "{again}");
    let r = axforth(&args);
    assert!(!r.status.success());
    let out = both(&r);
    assert!(out.contains("1 game(s) ended in an error") && out.contains(g[1].error.as_deref().unwrap()), "{again}\n{out}");
}

#[test]
fn a_decided_sprt_stops_the_match() {
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "-n", "400", "--depth", "9", "--sprt", "0,100", "--seed", "1", "-q"]);
    assert!(o.status.success(), "{}", both(&o));
    let out = both(&o);
    assert!(out.contains("SPRT: H1 accepted"), "{out}");
    let played: u64 = out.lines().find_map(|l| l.strip_suffix(" game(s) played")).and_then(|n| n.parse().ok()).expect("games played");
    assert!((2..400).contains(&played), "{out}");
    assert!(out.lines().any(|l| l.starts_with("LLR: ") && l.contains("(-2.94, 2.94) [0.00, 100.00]")), "{out}");
}

#[test]
fn each_opening_is_played_twice_with_the_seats_swapped() {
    let dir = scratch("openings");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# corners and centre\na1\nb2\n").unwrap();
    let json = dir.join("games.jsonl");
    let o = axforth(&[
        "autoplay", TTT, TTT_RANDOM, "-n", "8", "--depth", "2", "--seed", "1", "-q",
        "--openings", openings.to_str().unwrap(), "--json", json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", both(&o));
    let g = games(&json);
    assert_eq!(g.len(), 8);
    for pair in g.chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!(pair[0].seats, [pair[1].seats[1], pair[1].seats[0]]);
        assert_eq!(pair[0].moves[0], pair[1].moves[0]);
    }
    let first: Vec<&str> = g.iter().map(|g| g.moves[0].as_str()).collect();
    assert_eq!(first, ["X Mark a1", "X Mark a1", "X Mark b2", "X Mark b2", "X Mark a1", "X Mark a1", "X Mark b2", "X Mark b2"]);
    // A bad line is found before the first game, with its line number,
    // whichever game would play it.
    std::fs::write(&openings, "# two good lines, then a bad one\na1\n\nb2\nc3; c3\n").unwrap();
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "-n", "2", "--depth", "2", "--seed", "1", "--openings", openings.to_str().unwrap()]);
    assert!(!o.status.success());
    let out = both(&o);
    assert!(out.contains(&format!("{}:5: the opening move `c3` is not legal here", openings.display())), "{out}");
    assert!(!out.contains("Finished game"), "no game is played: {out}");
}

#[test]
fn a_failed_game_with_openings_is_played_again_from_its_file() {
    let dir = scratch("openings-again");
    let broken = dir.join("broken.4th");
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join(TTT);
    std::fs::write(&broken, format!("LOAD {}\n: OnEvaluate ( -- score ) 1 0 / ;\n", game.display())).unwrap();
    let openings = dir.join("book.txt");
    std::fs::write(&openings, "a1\nb2\n").unwrap();
    let json = dir.join("games.jsonl");
    let o = axforth(&["autoplay", broken.to_str().unwrap(), TTT_RANDOM, "-n", "4", "--depth", "2", "--seed", "1", "-q", "--openings", openings.to_str().unwrap(), "--json", json.to_str().unwrap()]);
    assert!(!o.status.success());
    let g = games(&json);
    let again = g[2].rerun.clone().unwrap();
    assert!(again.contains(&format!("--openings {}", openings.display())), "{again}");
    let args: Vec<&str> = again.split_whitespace().skip(1).collect();
    let out = both(&axforth(&args));
    assert!(out.contains("1 game(s) ended in an error") && out.contains(g[2].error.as_deref().unwrap()), "{again}\n{out}");
}

#[test]
fn deterministic_engines_are_varied_by_random_plies_and_repeats_get_no_error_bars() {
    let dir = scratch("variety");
    // Fixed depth, no clock: both engines play the same game again and
    // again without an opening of some sort.
    let json = dir.join("fixed.jsonl");
    let summary = dir.join("fixed.json");
    let fixed = ["autoplay", TTT, "scripts/tictactoe/alphabeta.4th", "-n", "12", "--depth", "2", "--seed", "1", "-q", "--random-plies", "0"];
    let o = axforth(&[&fixed[..], &["--json", json.to_str().unwrap(), "--summary-json", summary.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", both(&o));
    let out = both(&o);
    let distinct: std::collections::HashSet<Vec<String>> = games(&json).into_iter().map(|g| g.moves).collect();
    assert!(distinct.len() < 12);
    assert!(out.contains(&format!("Distinct games: {} of 12", distinct.len())), "{out}");
    assert!(!out.contains("+/- 0.00") && out.contains("Elo: ") && out.contains("+/- n/a"), "{out}");
    let j: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let stats = &j["matches"][0]["stats"];
    assert_eq!(stats["distinct_games"], distinct.len() as u64, "{j}");
    assert!(stats["elo_error"].is_null(), "{j}");
    // By default each pair starts with two random plies from its own
    // seed: the same two in both games of a pair, other ones elsewhere.
    let json = dir.join("varied.jsonl");
    let o = axforth(&["autoplay", TTT, "scripts/tictactoe/alphabeta.4th", "-n", "12", "--depth", "2", "--seed", "1", "-q", "--json", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", both(&o));
    let g = games(&json);
    assert!(g.iter().all(|g| g.opening_plies == 2), "{g:?}");
    for pair in g.chunks(2) {
        assert_eq!(pair[0].moves[..2], pair[1].moves[..2]);
    }
    let starts: std::collections::HashSet<&[String]> = g.iter().map(|g| &g.moves[..2]).collect();
    assert!(starts.len() > 2, "{starts:?}");
    assert_eq!(record::read(&json).unwrap().header.unwrap().random_plies, 2);
    // And the seed repeats them.
    let again = dir.join("again.jsonl");
    let o = axforth(&["autoplay", TTT, "scripts/tictactoe/alphabeta.4th", "-n", "12", "--depth", "2", "--seed", "1", "-q", "--json", again.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(games(&again), g);
}

#[test]
fn variants_are_named_apart_and_must_be_one_game() {
    let dir = scratch("names");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/tictactoe");
    for side in ["north", "south"] {
        let d = dir.join(side).join("tictactoe");
        std::fs::create_dir_all(&d).unwrap();
        for f in ["tictactoe.4th", "board.4th", "pieces.4th", "random.4th"] {
            std::fs::copy(root.join(f), d.join(f)).unwrap();
        }
    }
    let a = dir.join("north/tictactoe/random.4th");
    let b = dir.join("south/tictactoe/random.4th");
    let o = axforth(&["autoplay", a.to_str().unwrap(), b.to_str().unwrap(), "-n", "2", "--seed", "1", "-q"]);
    assert!(o.status.success(), "{}", both(&o));
    let out = both(&o);
    assert!(out.contains("Player 1 \"north/tictactoe/random\"") && out.contains("Player 2 \"south/tictactoe/random\""), "{out}");
    // Two files of different games are refused before any game.
    let o = axforth(&["autoplay", TTT_RANDOM, OTHELLO_RANDOM, "-n", "2", "--seed", "1"]);
    assert!(!o.status.success());
    let out = both(&o);
    assert!(out.contains("are not the same game (players") && !out.contains("Finished game"), "{out}");
}

#[test]
fn variants_that_disagree_say_how_without_an_internal_score() {
    // Twins of one game whose rules differ: a mark on a1 ends the game.
    let dir = scratch("disagree");
    let game = Path::new(env!("CARGO_MANIFEST_DIR")).join(TTT);
    let odd = dir.join("odd.4th");
    std::fs::write(&odd, format!("LOAD {}\n: OnIsGameOver ( -- score ) a1 empty-at? IF #UnknownScore ELSE #LossScore THEN ;\n", game.display())).unwrap();
    let openings = dir.join("a1.txt");
    std::fs::write(&openings, "a1\n").unwrap();
    let o = axforth(&["autoplay", TTT_RANDOM, odd.to_str().unwrap(), "-n", "2", "--seed", "1", "-q", "--openings", openings.to_str().unwrap()]);
    let out = both(&o);
    assert!(out.contains("the variants disagree on the rules after 1 plies"), "{out}");
    assert!(!out.contains("-2140000000") && !out.contains("score "), "{out}");
}

#[test]
fn depth_says_once_that_it_does_not_limit_a_script_engine() {
    let o = axforth(&["autoplay", TTT, "scripts/tictactoe/alphabeta.4th", "-n", "2", "--depth", "2", "--seed", "1", "-q"]);
    assert!(o.status.success(), "{}", both(&o));
    let out = both(&o);
    assert_eq!(out.matches("--depth limits the built-in search only; alphabeta plays with the file's own {search-engine} word").count(), 1, "{out}");
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "-n", "2", "--depth", "2", "--seed", "1", "-q"]);
    assert!(!both(&o).contains("--depth limits"), "{}", both(&o));
}

#[test]
fn a_round_robin_ends_with_a_table_ranked_by_elo() {
    let three = [TTT, "scripts/tictactoe/uct.4th", TTT_RANDOM];
    let o = axforth(&[&["autoplay"], &three[..], &["-n", "4", "--depth", "9", "--uct-playouts", "1000", "--seed", "1", "-q"]].concat());
    assert!(o.status.success(), "{}", both(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(out.contains("12 game(s) played"), "{out}");
    assert_eq!(out.matches("Results of ").count(), 3, "{out}");
    let table: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("rank ")).skip(1).collect();
    assert_eq!(table.len(), 3, "{out}");
    // Random is last: both engines beat it.
    assert!(table[2].contains(" random "), "{out}");
    let g = axforth(&[&["autoplay", "--gauntlet"], &three[..], &["-n", "2", "--depth", "2", "--uct-playouts", "100", "--seed", "1", "-q"]].concat());
    assert!(g.status.success(), "{}", both(&g));
    let out = String::from_utf8_lossy(&g.stdout);
    assert!(out.contains("4 game(s) played") && out.contains("Results of tictactoe vs uct") && out.contains("Results of tictactoe vs random"), "{out}");
    assert!(!out.contains("Results of uct vs random"), "{out}");
}

#[test]
fn a_malformed_record_is_an_error_not_a_crash() {
    let dir = scratch("malformed");
    let cases = [
        ("empty.jsonl", String::new()),
        ("garbage.jsonl", "not json\n{\"kind\":\n".to_string()),
        (
            "one-file.jsonl",
            r#"{"kind":"header","axforth":"0","files":["a.4th"],"names":["a"],"seed":1,"games":2,"gauntlet":false,"openings":[],"max_plies":10,"time_per_move":null,"depth":1,"engine":null,"sprt":null,"shard":null}"#.to_string() + "\n",
        ),
        (
            "bad-shard.jsonl",
            format!(
                r#"{{"kind":"header","axforth":"0","files":["{TTT}","{TTT_RANDOM}"],"names":["a","b"],"seed":1,"games":2,"gauntlet":false,"openings":[],"max_plies":10,"time_per_move":null,"depth":1,"engine":null,"sprt":null,"shard":[5,2]}}"#
            ) + "\n" + r#"{"kind":"game","index":99,"seed":1,"seats":[7,9],"result":"1-0","reason":"game over","plies":0,"opening":null,"moves":[],"time":0,"error":null,"rerun":null,"engines":[{"moves":0,"time":0,"depth":0,"nodes":0},{"moves":0,"time":0,"depth":0,"nodes":0}]}"#,
        ),
    ];
    for (name, contents) in cases {
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        for args in [vec!["autoplay", "--resume", path.to_str().unwrap(), "-q"], vec!["merge", path.to_str().unwrap()], vec!["replay", path.to_str().unwrap()]] {
            let o = axforth(&args);
            let out = both(&o);
            assert!(!o.status.success(), "{name} {args:?}: {out}");
            assert!(out.contains("error") && !out.contains("panicked"), "{name} {args:?}: {out}");
        }
    }
}

#[test]
fn a_solitaire_seats_its_player_against_no_one() {
    // One player, one move: a stone on b2 wins, anywhere else loses. The
    // seat opposite never moves; whichever variant plays the puzzle is
    // scored by how it did, from the set position (the default random
    // plies would make the solver's one move for it).
    let dir = scratch("solitaire");
    let solitaire = dir.join("solitaire.4th");
    let rules = [
        "{board 3 3 {grid} board}",
        "{players {player} Me players}",
        ": place ( -- ) empty? verify drop add-move ;",
        "{moves places {move} place moves}",
        "{pieces {piece} Stone {drops} places pieces}",
        "{turn-order {turn} Me turn-order}",
        ": OnIsGameOver ( -- score ) b2 not-empty-at? IF #WinScore EXIT THEN",
        "  a1 not-empty-at? a2 not-empty-at? OR a3 not-empty-at? OR b1 not-empty-at? OR b3 not-empty-at? OR",
        "  c1 not-empty-at? OR c2 not-empty-at? OR c3 not-empty-at? OR IF #LossScore ELSE #UnknownScore THEN ;",
    ];
    std::fs::write(&solitaire, rules.join("\n")).unwrap();
    let json = dir.join("s.jsonl");
    let s = solitaire.to_str().unwrap();
    let o = axforth(&["autoplay", s, s, "--engine", "A=search,B=random", "-n", "20", "--depth", "1", "--seed", "3", "-q", "--json", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", both(&o));
    assert!(both(&o).contains("20 game(s) played"), "{}", both(&o));
    let records = games(&json);
    let (searched, random): (Vec<_>, Vec<_>) = records.iter().partition(|g| g.seats[0] == 0);
    assert!(records.iter().all(|g| g.opening_plies == 0), "{records:?}");
    assert!(searched.iter().all(|g| g.result == "1-0" && g.plies == 1), "{searched:?}");
    // At random the stone lands on b2 one time in nine.
    assert!(random.iter().filter(|g| g.result == "1-0").count() <= 4, "{random:?}");
}

#[test]
fn an_error_the_search_meets_names_the_position_it_met_it_in() {
    // The move word recurses without end once a1 and c3 both hold stones
    // (an error the original did not tolerate in a move word, unlike a
    // division by zero): a
    // position a search looking ahead reaches before the game does. The
    // report gives the command that reaches it again.
    let dir = scratch("search-line");
    let file = dir.join("trap.4th");
    let rules = [
        "{board 3 3 {grid} board}",
        "{players {player} Me {player} You players}",
        ": place ( -- ) empty? verify drop add-move ;",
        ": deep ( -- ) 1 RECURSE ;",
        ": trap ( -- ) a1 not-empty-at? c3 not-empty-at? AND IF deep THEN place ;",
        "{moves traps {move} trap moves}",
        "{pieces {piece} Stone {drops} traps pieces}",
        "{turn-order {turn} Me {turn} You turn-order}",
    ];
    let rules = rules.join("\n");
    std::fs::write(&file, rules).unwrap();
    let f = file.to_str().unwrap();
    for engine in [&["--engine", "search", "--depth", "3"][..], &["--engine", "uct", "--uct-playouts", "300"][..]] {
        let mut args = vec!["autoplay", f, f, "-n", "1", "--seed", "5", "-q"];
        args.extend_from_slice(engine);
        let o = axforth(&args);
        let out = both(&o);
        assert!(out.contains("return stack overflow"), "{engine:?}: {out}");
        let (_, command) = out.split_once("in a position the search reached: axforth moves ").unwrap_or_else(|| panic!("{engine:?}: {out}"));
        let after = command.split_once(" --after '").and_then(|(_, a)| a.split_once('\'')).map(|(a, _)| a).unwrap_or_else(|| panic!("{out}"));
        let line: Vec<&str> = after.split("; ").collect();
        // The position: a1 and c3 taken, You to move.
        let o = axforth(&["moves", f, "--after", after]);
        assert!(!o.status.success() && both(&o).contains("return stack overflow"), "{engine:?} {line:?}: {}", both(&o));
        let o = axforth(&["moves", f, "--after", &line[..line.len() - 1].join("; ")]);
        assert!(o.status.success(), "{engine:?} {line:?}: the position before it is sound: {}", both(&o));
    }
}

#[test]
fn the_engine_table_gives_each_engines_slowest_move() {
    // A mean time per move hides an engine that overruns its time on
    // some moves: the records and the table keep the slowest.
    let dir = scratch("longest");
    let json = dir.join("t.jsonl");
    let o = axforth(&["autoplay", TTT, TTT_RANDOM, "-n", "2", "--depth", "4", "--seed", "1", "-q", "--json", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", both(&o));
    assert!(both(&o).contains("longest s"), "{}", both(&o));
    for g in record::read(&json).unwrap().games {
        let searched = g.engines[g.seats.iter().position(|&v| v == 0).unwrap()];
        assert!(searched.moves > 0 && searched.longest > 0.0, "{searched:?}");
        assert!(searched.longest >= searched.time / searched.moves as f64 && searched.longest <= searched.time, "{searched:?}");
    }
}

/// A record holds one tournament: `--json` refuses a file that holds one
/// already (appending a second tournament mixed their games in `merge`
/// and `--resume`), and leaves it as it was.
#[test]
fn json_refuses_a_file_that_holds_a_record() {
    let dir = scratch("json-twice");
    let path = dir.join("r.jsonl");
    let p = path.to_str().unwrap();
    let o = axforth(&["autoplay", TTT_RANDOM, TTT_RANDOM, "-n", "2", "--seed", "1", "-q", "--json", p]);
    assert!(o.status.success(), "{}", both(&o));
    let before = std::fs::read(&path).unwrap();
    let o = axforth(&["autoplay", OTHELLO_RANDOM, OTHELLO_RANDOM, "-n", "2", "--seed", "1", "-q", "--json", p]);
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    assert!(both(&o).contains("already holds a tournament's record: continue it with --resume"), "{}", both(&o));
    assert_eq!(std::fs::read(&path).unwrap(), before, "the record is untouched");
}

/// A run whose output is not a terminal (no progress bar) still says its
/// seed, on stderr, so that it can be repeated; the record has it too.
#[test]
fn a_redirected_run_prints_its_seed() {
    let dir = scratch("seed-line");
    let path = dir.join("r.jsonl");
    let o = axforth(&["autoplay", TTT_RANDOM, TTT_RANDOM, "-n", "2", "--json", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", both(&o));
    let stderr = String::from_utf8_lossy(&o.stderr);
    let seed: u64 = stderr.split(", seed ").nth(1).and_then(|s| s.split(',').next()).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("no seed line: {stderr}"));
    assert_eq!(record::read(&path).unwrap().header.unwrap().seed, seed);
}

#[test]
fn an_interrupted_round_robin_agrees_with_itself_and_says_how_to_resume() {
    let dir = scratch("interrupted");
    let json = dir.join("r.jsonl");
    let child = Command::new(env!("CARGO_BIN_EXE_axforth"))
        .args(["autoplay", TTT_RANDOM, TTT_RANDOM, TTT_RANDOM, "-n", "100000", "--seed", "5", "-q", "--jobs", "1", "--json", json.to_str().unwrap()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while std::fs::read_to_string(&json).map(|t| t.lines().count()).unwrap_or(0) < 50 && t0.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    // Ctrl-C, as a terminal sends it.
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let o = child.wait_with_output().unwrap();
    let out = both(&o);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains(&format!("play the rest with: axforth autoplay --resume {}", json.display())), "{out}");
    // Points and Score are over the same games.
    let points: Vec<&str> = out.lines().filter_map(|l| l.split_once("Points: ")).map(|(_, p)| p.split_once("(").unwrap().1.trim_end_matches(" %)")).collect();
    let scores: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("Score: ")).map(|s| s.split(" %").next().unwrap()).collect();
    assert!(!points.is_empty());
    assert_eq!(points, scores, "{out}");
    // The third variant never played: last, with no Elo.
    let table: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("rank ")).skip(1).collect();
    assert_eq!(table.len(), 3, "{out}");
    assert!(table[2].contains("random #3") && table[2].contains("n/a"), "{out}");
    assert!(!table[1].contains("random #3"), "{out}");
}
