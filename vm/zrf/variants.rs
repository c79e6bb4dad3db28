//! From expanded top-level forms to `Variant`s: the game block as the
//! base, each `(variant …)` replacing what it repeats, and the reading of
//! each declaration's shape (players, turn order, board, setup, pieces,
//! options).
//!
//! Shapes are read leniently: a form this reader does not know, or an item
//! in a shape it does not expect, is passed over, since Zillions itself
//! ignored much and real files carry oddities. The errors are numbers
//! that are not numbers where geometry needs them, and grids too big.

use std::collections::HashSet;

use super::model::*;
use super::sexpr::{self, Kind, Node};

/// Positions a board's grids may make together. The largest real board
/// has a few thousand; a hostile `(dimensions …)` could ask for billions.
pub const MAX_GRID_POSITIONS: usize = 100_000;

/// The playable variants of the top-level `forms`, in menu order.
///
/// Each `(variant …)` inherits from the nearest `(game …)` before it, or
/// from the first game block when it stands before every game block (as
/// in `Axiomatic.Margo.zrf`): Zillions read the game block first
/// whatever its place. `(default)` is never inherited: it marks the one
/// block that has it.
pub fn build(forms: &[Node], files: &[SourceFile]) -> Result<Vec<Variant>, ZrfError> {
    let first_game = forms.iter().position(|f| f.is_form("game"));
    let mut base: Option<&[Node]> = first_game.and_then(|i| forms.get(i)).map(Node::args);
    let mut out = Vec::new();
    for form in forms {
        let items: Vec<Node> = if form.is_form("game") {
            base = Some(form.args());
            form.args().to_vec()
        } else if form.is_form("variant") {
            merge(base.unwrap_or(&[]), form.args())
        } else {
            continue;
        };
        let v = variant(items, form.args(), files)?;
        if v.title.text.trim() != "-" {
            out.push(v);
        }
    }
    Ok(out)
}

/// What a declaration is replaced by: `piece` by the piece's name,
/// `option` by the option's name, everything else by its keyword (a
/// variant's `board` replaces the game's, its `win-condition`s replace
/// all of the game's).
fn key(n: &Node) -> String {
    let head = match &n.kind {
        Kind::List(_) => n.head().unwrap_or("").to_lowercase(),
        Kind::Sym(s) | Kind::Str(s) => return s.to_lowercase(),
    };
    let name = match head.as_str() {
        "piece" => n.args().iter().find(|a| a.is_form("name")).and_then(|a| a.args().first()).and_then(Node::text),
        "option" => n.args().first().and_then(Node::text),
        _ => return head,
    };
    format!("{head} {}", name.unwrap_or("").to_lowercase())
}

/// The base's declarations with those the variant repeats replaced, in
/// the base's order (the variant's take the place of the first one
/// replaced); the variant's new ones follow in its order.
fn merge(base: &[Node], own: &[Node]) -> Vec<Node> {
    let own_keys: Vec<String> = own.iter().map(key).collect();
    let own_set: HashSet<&str> = own_keys.iter().map(String::as_str).collect();
    let mut placed: HashSet<&str> = HashSet::new();
    let mut out = Vec::with_capacity(base.len() + own.len());
    for b in base {
        let k = key(b);
        if k == "default" {
            continue;
        }
        let Some(&k) = own_set.get(k.as_str()) else {
            out.push(b.clone());
            continue;
        };
        if placed.insert(k) {
            out.extend(own.iter().zip(&own_keys).filter(|(_, ok)| ok.as_str() == k).map(|(n, _)| n.clone()));
        }
    }
    for (n, k) in own.iter().zip(&own_keys) {
        if !placed.contains(k.as_str()) {
            out.push(n.clone());
        }
    }
    out
}

fn name(n: &Node) -> Option<Name> {
    n.text().map(|t| Name { text: t.to_owned(), at: n.at })
}

fn names(nodes: &[Node]) -> Vec<Name> {
    nodes.iter().filter_map(name).collect()
}

fn error(files: &[SourceFile], message: String, at: Span) -> ZrfError {
    let place = usize::try_from(at.file)
        .ok()
        .and_then(|i| files.get(i))
        .map(|f| sexpr::place(&f.path, &f.text, at.offset as usize));
    ZrfError { message, place }
}

fn int(files: &[SourceFile], n: Option<&Node>, at: Span, what: &str) -> Result<i32, ZrfError> {
    let Some(n) = n else {
        return Err(error(files, format!("{what}: a number is missing"), at));
    };
    n.int()
        .and_then(|v| i32::try_from(v).ok())
        .ok_or_else(|| error(files, format!("{what}: expected a number, found {}", n.text().unwrap_or("a list")), n.at))
}

fn rect(files: &[SourceFile], nodes: &[Node], at: Span, what: &str) -> Result<Rect, ZrfError> {
    let mut r = [0; 4];
    for (k, slot) in r.iter_mut().enumerate() {
        *slot = int(files, nodes.get(k), at, what)?;
    }
    Ok(r)
}

fn variant(items: Vec<Node>, own: &[Node], files: &[SourceFile]) -> Result<Variant, ZrfError> {
    let mut v = Variant { default: own.iter().any(|n| n.is_form("default")), ..Variant::default() };
    // Players first: the turn order needs them to tell a player from a
    // move type.
    for n in items.iter().filter(|n| n.is_form("players")) {
        v.players = names(n.args());
    }
    for n in &items {
        let args = n.args();
        match n.head().map(str::to_lowercase).as_deref() {
            Some("title") => v.title = args.first().and_then(name).unwrap_or_default(),
            Some("engine") => v.engine = args.first().and_then(name),
            Some("description") => {
                v.description = Some(args.iter().filter_map(Node::text).collect::<Vec<_>>().join(" "));
            }
            Some("turn-order") => v.turn_order = turn_order(args, &v.players),
            Some("board") if v.board.is_none() => v.board = Some(board(args, files)?),
            Some("board-setup") => v.board_setup.extend(setup(args)),
            Some("piece") => v.pieces.push(piece(args)),
            Some("option") => {
                if let Some(o) = args.first().and_then(name) {
                    v.options.push((o, args.get(1).and_then(Node::text).unwrap_or("").to_owned()));
                }
            }
            _ => {}
        }
    }
    v.raw = items;
    Ok(v)
}

fn turn_order(args: &[Node], players: &[Name]) -> TurnOrder {
    let is_player = |n: &Node| n.text().is_some_and(|t| players.iter().any(|p| p.is(t)));
    let mut t = TurnOrder::default();
    for a in args {
        let repeat = a.is_form("repeat") || a.sym().is_some_and(|s| s.eq_ignore_ascii_case("repeat"));
        if repeat {
            t.repeat_from = Some(t.turns.len());
            continue;
        }
        let entry = match &a.kind {
            Kind::Sym(_) | Kind::Str(_) => name(a).map(|player| TurnEntry { player, ..TurnEntry::default() }),
            Kind::List(v) => v.first().and_then(name).map(|player| {
                let mut e = TurnEntry { player, ..TurnEntry::default() };
                match v.get(1..).unwrap_or(&[]) {
                    [x] if is_player(x) => e.for_player = name(x),
                    [x] => e.move_type = name(x),
                    [w, m, ..] => {
                        e.for_player = name(w);
                        e.move_type = name(m);
                    }
                    [] => {}
                }
                e
            }),
        };
        t.turns.extend(entry);
    }
    t
}

fn setup(args: &[Node]) -> Vec<SetupEntry> {
    let mut out = Vec::new();
    for per_player in args {
        let Some(player) = per_player.list().and_then(|v| v.first()).and_then(name) else {
            continue;
        };
        for p in per_player.args() {
            let Some(piece) = p.list().and_then(|v| v.first()).and_then(name) else {
                continue;
            };
            let mut e = SetupEntry { player: player.clone(), piece, ..SetupEntry::default() };
            let mut it = p.args().iter();
            while let Some(a) = it.next() {
                if a.sym().is_some_and(|s| s.eq_ignore_ascii_case("off")) {
                    e.off = it.next().and_then(name);
                } else if let Some(n) = name(a) {
                    e.positions.push(n);
                }
            }
            out.push(e);
        }
    }
    out
}

fn piece(args: &[Node]) -> PieceDecl {
    let mut p = PieceDecl::default();
    for a in args {
        if a.is_form("name") {
            p.name = a.args().first().and_then(name).unwrap_or_default();
        } else if a.is_form("dummy") {
            p.dummy = true;
        } else if a.is_form("image") {
            // `(image White "w.bmp" Black "b.bmp")`; a player may list
            // several pictures, each kept.
            let mut player: Option<Name> = None;
            for i in a.args() {
                match &i.kind {
                    Kind::Sym(_) => player = name(i),
                    Kind::Str(s) => {
                        if let Some(pl) = &player {
                            p.images.push((pl.clone(), s.to_string()));
                        }
                    }
                    Kind::List(_) => {}
                }
            }
        }
    }
    p
}

/// Pairs `(p q)` of the lists among `nodes`.
fn pairs(nodes: &[Node]) -> Vec<(Name, Name)> {
    nodes
        .iter()
        .filter_map(|n| match n.list()? {
            [a, b, ..] => Some((name(a)?, name(b)?)),
            _ => None,
        })
        .collect()
}

fn board(args: &[Node], files: &[SourceFile]) -> Result<BoardDecl, ZrfError> {
    let mut b = BoardDecl::default();
    let mut total = 0usize;
    for a in args {
        let rest = a.args();
        match a.head().map(str::to_lowercase).as_deref() {
            Some("image") => b.images.extend(rest.iter().filter_map(Node::text).map(str::to_owned)),
            Some("grid") => {
                let g = grid(rest, files)?;
                let size = g.dimensions.iter().fold(1usize, |acc, d| acc.saturating_mul(d.names.len()));
                total = total.saturating_add(if g.dimensions.is_empty() { 0 } else { size });
                if total > MAX_GRID_POSITIONS {
                    let msg = format!("the board's grids make more than {MAX_GRID_POSITIONS} positions");
                    return Err(error(files, msg, a.at));
                }
                b.grids.push(g);
            }
            Some("positions") => {
                for p in rest {
                    if let Some(v) = p.list() {
                        if let Some(n) = v.first().and_then(name) {
                            let r = rect(files, v.get(1..).unwrap_or(&[]), p.at, "a position's rectangle")?;
                            b.positions.push((n, r));
                        }
                    }
                }
            }
            Some("links") => {
                if let Some(dir) = rest.first().and_then(name) {
                    b.links.push((dir, pairs(rest)));
                }
            }
            Some("unlink") => {
                // Each item is one unlink: a position (all its links) or
                // a list such as `(a1 b2)` or `(a1 n)`.
                for u in rest {
                    match u.list() {
                        Some(v) => b.unlinks.push(names(v)),
                        None => b.unlinks.extend(name(u).map(|n| vec![n])),
                    }
                }
            }
            Some("kill-positions") => b.kill_positions.extend(names(rest)),
            Some("dummy") => b.dummies.extend(names(rest)),
            Some("symmetry") => {
                if let Some(player) = rest.first().and_then(name) {
                    b.symmetries.push((player, pairs(rest)));
                }
            }
            Some("zone") => b.zones.push(zone(rest)),
            _ => {}
        }
    }
    Ok(b)
}

fn grid(args: &[Node], files: &[SourceFile]) -> Result<Grid, ZrfError> {
    let mut g = Grid::default();
    for a in args {
        let rest = a.args();
        match a.head().map(str::to_lowercase).as_deref() {
            Some("start-rectangle") => g.start_rectangle = rect(files, rest, a.at, "start-rectangle")?,
            Some("dimensions") => {
                for d in rest {
                    let Some(v) = d.list() else { continue };
                    let Some(spec) = v.first() else { continue };
                    let Some(text) = spec.text() else { continue };
                    let names = text.split('/').map(|t| Name { text: t.to_owned(), at: spec.at }).collect();
                    let step_nodes = v.get(1).and_then(Node::list).unwrap_or(&[]);
                    let step = [
                        int(files, step_nodes.first(), d.at, "a dimension's step")?,
                        int(files, step_nodes.get(1), d.at, "a dimension's step")?,
                    ];
                    g.dimensions.push(Dimension { names, step });
                }
            }
            Some("directions") => {
                for d in rest {
                    let Some(v) = d.list() else { continue };
                    let Some(n) = v.first().and_then(name) else { continue };
                    let mut steps = Vec::new();
                    for s in v.get(1..).unwrap_or(&[]) {
                        steps.push(int(files, Some(s), d.at, "a direction's step")?);
                    }
                    g.directions.push((n, steps));
                }
            }
            _ => {}
        }
    }
    Ok(g)
}

fn zone(args: &[Node]) -> Zone {
    let mut z = Zone::default();
    for a in args {
        if a.is_form("name") {
            z.name = a.args().first().and_then(name).unwrap_or_default();
        } else if a.is_form("players") {
            z.players = names(a.args());
        } else if a.is_form("positions") {
            z.positions = names(a.args());
        }
    }
    z
}

#[cfg(test)]
mod corpus {
    use super::*;

    /// Reads every `.zrf` under the folders in `ZRF_CORPUS` (separated by
    /// `:`) and prints what it found; run by hand:
    /// `ZRF_CORPUS=/path/Rules cargo test --lib zrf::variants::corpus -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn read_the_corpus() {
        let dirs = std::env::var("ZRF_CORPUS").unwrap_or_default();
        let mut failed = 0;
        for dir in dirs.split(':').filter(|d| !d.is_empty()) {
            let mut paths: Vec<_> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("zrf")))
                .collect();
            paths.sort();
            for p in paths {
                let start = std::time::Instant::now();
                match Zrf::read(&p) {
                    Ok(z) => {
                        let v = z.variants.first();
                        println!(
                            "{}\tvariants={}\tfirst={:?}\tplaces={}\tsetup={}\tpieces={}\tengine={}\t{:?}\ttitles={:?}",
                            p.file_name().unwrap().to_string_lossy(),
                            z.variants.len(),
                            v.map(|v| v.title.text.as_str()).unwrap_or(""),
                            v.and_then(|v| v.board.as_ref()).map_or(0, |b| b.places().len()),
                            v.map_or(0, |v| v.board_setup.len()),
                            v.map_or(0, |v| v.pieces.len()),
                            v.is_some_and(|v| v.engine.is_some()),
                            start.elapsed(),
                            z.variants.iter().map(|v| v.title.text.as_str()).collect::<Vec<_>>(),
                        );
                    }
                    Err(e) => {
                        failed += 1;
                        println!("{}\tFAILED {e}", p.display());
                    }
                }
            }
        }
        assert_eq!(failed, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn zrf(text: &str) -> Zrf {
        Zrf::parse(Path::new("t.zrf"), text.as_bytes()).unwrap()
    }

    fn titles(z: &Zrf) -> Vec<&str> {
        z.variants.iter().map(|v| v.title.text.as_str()).collect()
    }

    const GAME: &str = r#"
(version "2.0")
(define pieces-of (piece (name $1) (image White "w$1.bmp" Black "b$1.bmp")))
(variant (title "Small") (board (image "small.bmp")))
(game
   (title "Base") (default)
   (description "line one\\
   line two")
   (engine "../Axiom/Base/axiom.dll")
   (option "pass turn" false)
   (option "recycle captures" true)
   (players White Black ?Dice)
   (turn-order (White normal) (?Dice White roll) Black (repeat) (White Black) (Black White))
   (board (image "base.bmp" "alt.bmp")
      (grid (start-rectangle 10 20 60 70)
            (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
            (directions (n 0 -1) (e 1 0)))
      (positions (z9 0 0 5 5))
      (kill-positions b2)
      (links n (a1 a2) (a2 a3))
      (unlink a1 (b3 c3))
      (dummy x0)
      (symmetry Black (n s) (s n))
      (zone (name promotion) (players White) (positions a3 b3 c3)))
   (board-setup (White (Pawn a1 b1) (Queen off 3 c1)) (Black (Pawn a3)))
   (pieces-of Pawn)
   (pieces-of Queen)
   (piece (name Ghost) (dummy) (moves (from)))
   (win-condition (White) (absolute-config Pawn (a3)))
   (loss-condition (White) stalemated)
)
(variant (title "-"))
(define pieces-of (piece (name $1) (image White "new-$1.bmp")))
(variant (title "Other")
   (option "pass turn" forced)
   (option "maximal captures" true)
   (pieces-of PAWN)
   (pieces-of King)
   (win-condition (Black) stalemated))
"#;

    #[test]
    fn menu_order_separators_and_default() {
        let z = zrf(GAME);
        assert_eq!(titles(&z), ["Small", "Base", "Other"]);
        assert_eq!(z.variants.iter().map(|v| v.default).collect::<Vec<_>>(), [false, true, false]);
        assert_eq!(z.default_variant().unwrap().title.text, "Base");
        assert!(z.variant("other").is_some());
        assert_eq!(z.place(z.variants[1].title.at), "t.zrf:6:11");
    }

    #[test]
    fn game_block_read_in_full() {
        let z = zrf(GAME);
        let v = &z.variants[1];
        assert_eq!(v.engine.as_ref().unwrap().text, "../Axiom/Base/axiom.dll");
        assert_eq!(v.description.as_deref(), Some("line one\\\\\n   line two"));
        assert_eq!(names(&v.players), ["White", "Black", "?Dice"]);
        let t: Vec<(String, Option<String>, Option<String>)> = v
            .turn_order
            .turns
            .iter()
            .map(|e| (e.player.text.clone(), e.for_player.as_ref().map(|n| n.text.clone()), e.move_type.as_ref().map(|n| n.text.clone())))
            .collect();
        let s = |x: &str| Some(x.to_string());
        assert_eq!(
            t,
            [
                ("White".into(), None, s("normal")),
                ("?Dice".into(), s("White"), s("roll")),
                ("Black".into(), None, None),
                ("White".into(), s("Black"), None),
                ("Black".into(), s("White"), None),
            ]
        );
        assert_eq!(v.turn_order.repeat_from, Some(3));
        let setup: Vec<String> = v
            .board_setup
            .iter()
            .map(|e| format!("{} {} {:?} {:?}", e.player.text, e.piece.text, names(&e.positions), e.off.as_ref().map(|o| o.text.as_str())))
            .collect();
        assert_eq!(
            setup,
            [
                r#"White Pawn ["a1", "b1"] None"#,
                r#"White Queen ["c1"] Some("3")"#,
                r#"Black Pawn ["a3"] None"#,
            ]
        );
        let pieces: Vec<(&str, bool, usize)> = v.pieces.iter().map(|p| (p.name.text.as_str(), p.dummy, p.images.len())).collect();
        assert_eq!(pieces, [("Pawn", false, 2), ("Queen", false, 2), ("Ghost", true, 0)]);
        assert_eq!(v.pieces[1].images[1], (v.pieces[1].images[1].0.clone(), "bQueen.bmp".to_string()));
        assert!(v.pieces[1].images[1].0.is("black"));
        assert!(v.raw.iter().any(|n| n.is_form("win-condition")));
    }

    fn names(v: &[Name]) -> Vec<&str> {
        v.iter().map(|n| n.text.as_str()).collect()
    }

    #[test]
    fn board_geometry() {
        let z = zrf(GAME);
        let b = z.variants[1].board.as_ref().unwrap();
        assert_eq!(b.images, ["base.bmp", "alt.bmp"]);
        let places = b.places();
        let got: Vec<String> = places.iter().map(|(n, r)| format!("{n} {r:?}")).collect();
        assert_eq!(
            got,
            [
                "a3 [10, 20, 60, 70]",
                "a2 [10, 70, 60, 120]",
                "a1 [10, 120, 60, 170]",
                "b3 [60, 20, 110, 70]",
                "b1 [60, 120, 110, 170]",
                "c3 [110, 20, 160, 70]",
                "c2 [110, 70, 160, 120]",
                "c1 [110, 120, 160, 170]",
                "z9 [0, 0, 5, 5]",
            ]
        );
        let g = &b.grids[0];
        assert_eq!(g.directions.iter().map(|(n, s)| (n.text.as_str(), s.clone())).collect::<Vec<_>>(), [("n", vec![0, -1]), ("e", vec![1, 0])]);
        assert_eq!(b.links.len(), 1);
        assert_eq!(b.links[0].1.iter().map(|(p, q)| format!("{}-{}", p.text, q.text)).collect::<Vec<_>>(), ["a1-a2", "a2-a3"]);
        assert_eq!(b.unlinks.iter().map(|u| names(u)).collect::<Vec<_>>(), [vec!["a1"], vec!["b3", "c3"]]);
        assert_eq!(names(&b.dummies), ["x0"]);
        assert_eq!(b.symmetries[0].1.len(), 2);
        assert_eq!(b.zones[0].name.text, "promotion");
        assert_eq!(names(&b.zones[0].positions), ["a3", "b3", "c3"]);
    }

    #[test]
    fn variants_inherit_and_override() {
        let z = zrf(GAME);
        let (small, base, other) = (&z.variants[0], &z.variants[1], &z.variants[2]);
        // Before the game block, and still inheriting from it; the board
        // replaced whole.
        assert_eq!(small.players.len(), 3);
        let b = small.board.as_ref().unwrap();
        assert_eq!(b.images, ["small.bmp"]);
        assert!(b.grids.is_empty() && b.places().is_empty());
        assert_eq!(small.pieces.len(), 3);
        assert_eq!(small.engine, base.engine);
        // Options by name: one replaced in place, one kept, one added.
        let opts: Vec<(&str, &str)> = other.options.iter().map(|(n, v)| (n.text.as_str(), v.as_str())).collect();
        assert_eq!(opts, [("pass turn", "forced"), ("recycle captures", "true"), ("maximal captures", "true")]);
        // Pieces by name (without case), with the macro redefined after
        // the game block.
        let pieces: Vec<(&str, Vec<&str>)> =
            other.pieces.iter().map(|p| (p.name.text.as_str(), p.images.iter().map(|i| i.1.as_str()).collect())).collect();
        assert_eq!(
            pieces,
            [("PAWN", vec!["new-PAWN.bmp"]), ("Queen", vec!["wQueen.bmp", "bQueen.bmp"]), ("Ghost", vec![]), ("King", vec!["new-King.bmp"])]
        );
        // Goals by keyword: the variant's win-condition replaces the
        // game's; the loss-condition is inherited.
        let wins: Vec<&Node> = other.raw.iter().filter(|n| n.is_form("win-condition")).collect();
        assert_eq!(wins.len(), 1);
        assert_eq!(wins[0].args()[1].sym(), Some("stalemated"));
        assert!(other.raw.iter().any(|n| n.is_form("loss-condition")));
    }

    #[test]
    fn errors_and_limits() {
        let e = Zrf::parse(Path::new("t.zrf"), b"(game (board (grid (start-rectangle 0 0 x 1))))").unwrap_err();
        assert!(e.message.contains("expected a number"), "{e}");
        assert_eq!(e.place.as_deref(), Some("t.zrf:1:41"));
        let names = vec!["a"; 400].join("/");
        let big = format!("(game (board (grid (dimensions (\"{names}\" (1 0)) (\"{names}\" (0 1))))))");
        let e = Zrf::parse(Path::new("t.zrf"), big.as_bytes()).unwrap_err();
        assert!(e.message.contains("positions"), "{e}");
        let e = Zrf::read(Path::new("/nonexistent/x.zrf")).unwrap_err();
        assert!(e.message.contains("cannot read"), "{e}");
    }

    #[test]
    fn damaged_input_never_panics() {
        // Every prefix of a real-shaped file, and bytes flipped through it:
        // each reads or fails with an error, never a panic.
        let bytes = GAME.as_bytes();
        let mut errors = 0;
        for end in 0..bytes.len() {
            errors += usize::from(Zrf::parse(Path::new("t.zrf"), &bytes[..end]).is_err());
        }
        assert!(errors > 0);
        let mut seed = 12345u32;
        for _ in 0..300 {
            let mut b = bytes.to_vec();
            for _ in 0..4 {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
                let i = (seed >> 8) as usize % b.len();
                b[i] = [b'(', b')', b'"', b'$', 0xC8, b'1', b' '][(seed >> 4) as usize % 7];
            }
            let _ = Zrf::parse(Path::new("t.zrf"), &b);
        }
    }

    #[test]
    fn cp1251_file_reads() {
        // (game (title "Волки")) in CP1251.
        let z = Zrf::parse(Path::new("t.zrf"), b"(game (title \"\xc2\xee\xeb\xea\xe8\"))").unwrap();
        assert_eq!(titles(&z), ["Волки"]);
    }

    #[test]
    fn no_game_block_and_keywords_without_case() {
        let z = zrf("(VARIANT (TITLE a) (Players X Y)) (Variant (title \"b\"))");
        assert_eq!(titles(&z), ["a", "b"]);
        assert_eq!(z.variants[0].players.len(), 2);
        assert!(z.variants[1].players.is_empty());
    }
}
