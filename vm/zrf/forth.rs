//! A plain Zillions variant (no Axiom engine line) translated into
//! ForthScript in the Axiom vocabulary, so that the engines, perft,
//! autoplay and check run it as any `.4th` game.
//!
//! Owns: `translate` (the entry point), the text and its source map
//! (`Translation`: every generated line that comes from a ZRF construct
//! knows that construct's place) and the declarations:
//! players, board (positions, links, kill-positions, unlinks), directions,
//! symmetries, zones, turn order, pieces, move priorities, board setup and
//! options. The names are `forth_names`, the move language
//! `forth_moves`, the goals `forth_goals`; the runtime the generated words
//! share is `forth_prelude.4th`.
//!
//! The board is always written as `{position}`s and `{link}`s (not a
//! `{grid}`): ZRF grids have any number of dimensions, names of any shape,
//! killed positions and extra links, all of which this keeps exact.

use std::collections::HashSet;

pub(crate) use super::forth_names::Names;
use super::model::*;
use super::sexpr::{self, Kind, Node};

/// The runtime every translated game loads (see its own comments).
use std::fmt::Write as _;

const PRELUDE: &str = include_str!("forth_prelude.4th");

/// A translated variant: ForthScript text, and for each generated line
/// its byte offset in `text` and, when it comes from a construct of the
/// `.zrf`, the construct's place: (file of the `.zrf`'s, line, column).
/// With it, what the text does not say: where each piece type's moves
/// can reach (`reach.rs`), which the game layer takes to make the
/// `checkmated` goal's probes short (`port` writes it after the text, as
/// `{reach}`).
#[derive(Clone, Debug, Default)]
pub struct Translation {
    pub text: String,
    pub origins: Vec<(u32, Option<[u32; 3]>)>,
    pub reach: Option<std::sync::Arc<crate::state::reach::Reach>>,
}

/// The ForthScript of one variant of `zrf`.
pub fn translate(zrf: &Zrf, variant: &Variant) -> Result<Translation, ZrfError> {
    let names = Names::new(zrf, variant)?;
    let moves_for_others = variant.turn_order.turns.iter().any(|t| t.for_player.as_ref().is_some_and(|f| !f.is(&t.player.text)));
    let lines = zrf.files.iter().map(|f| sexpr::LineIndex::new(&f.text)).collect();
    let file_names = zrf.files.iter().map(|f| f.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()).collect();
    let mut t = Writer { zrf, names, out: Translation::default(), moves_for_others, lines, file_names, bodies: Default::default(), probes: Default::default() };
    t.game(variant)?;
    // Only probes read it, and working it out takes up to a tenth of a
    // second on the largest games.
    if t.probes.get() {
        t.out.reach = super::reach::reach(&t.names, variant).map(std::sync::Arc::new);
    }
    Ok(t.out)
}

pub(crate) fn err(zrf: &Zrf, at: Span, message: impl Into<String>) -> ZrfError {
    ZrfError { message: message.into(), place: Some(zrf.place(at)) }
}

/// Writes the text of one variant.
pub(crate) struct Writer<'a> {
    pub zrf: &'a Zrf,
    pub names: Names,
    pub out: Translation,
    /// The turn order has a player move another's pieces (`(?N North
    /// support)`): `friend?`, `enemy?` and `in-zone?` then ask about the
    /// player whose pieces move, as Zillions did, not the one moving them.
    pub moves_for_others: bool,
    /// Each file's lines, and its name without its folders (the
    /// generated text travels; the `.zrf` is found beside it), for the
    /// place comments of the lines written.
    pub lines: Vec<sexpr::LineIndex>,
    pub file_names: Vec<String>,
    /// The move words written, by their code (their text after the first
    /// line, without comments).
    pub bodies: std::collections::HashMap<String, String>,
    /// A move or goal asks whether a square is attacked (`attacked?`,
    /// `defended?`, `checkmated`): the reach table is worth making.
    pub probes: std::cell::Cell<bool>,
}

impl Writer<'_> {
    /// A line of code, with a `\ file:line` comment and a source-map
    /// entry when it comes from a construct of the `.zrf`.
    pub fn line(&mut self, indent: usize, code: &str, at: Option<Span>) {
        let start = self.out.text.len() as u32;
        for _ in 0..indent {
            self.out.text.push('\t');
        }
        self.out.text.push_str(code);
        let place = at.and_then(|at| self.place(at));
        self.out.origins.push((start, place));
        if let Some([file, line, col]) = place {
            let name = self.file_names.get(file as usize).map_or("?", String::as_str);
            // Writing into a String cannot fail.
            let _ = write!(self.out.text, "\t\\ {name}:{line}:{col}");
        }
        self.out.text.push('\n');
    }

    /// (file, line, column) of a place in the `.zrf`'s files.
    fn place(&self, at: Span) -> Option<[u32; 3]> {
        let f = self.zrf.files.get(at.file as usize)?;
        let (line, col) = match self.lines.get(at.file as usize) {
            Some(index) => index.line_col(&f.text, at.offset as usize),
            None => sexpr::line_col(&f.text, at.offset as usize),
        };
        Some([at.file, line as u32, col as u32])
    }

    pub fn err(&self, at: Span, message: impl Into<String>) -> ZrfError {
        err(self.zrf, at, message)
    }

    fn raw<'v>(&self, v: &'v Variant, keyword: &str) -> impl Iterator<Item = &'v Node> + 'v {
        let keyword = keyword.to_string();
        v.raw.iter().filter(move |n| n.is_form(&keyword))
    }

    fn game(&mut self, v: &Variant) -> Result<(), ZrfError> {
        let file = self.zrf.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        self.line(0, &format!("\\ {} [{}]: translated from Zillions rules by axforth", file, v.title.text), None);
        self.line(0, "\\ (the `\\ file:line:col` comments point at the ZRF each line comes from)", None);
        self.out.text.push('\n');
        self.unsupported_top(v)?;
        self.players(v)?;
        self.board(v)?;
        self.directions(v)?;
        self.runtime(v)?;
        self.zones(v)?;
        self.move_types(v)?;
        self.pieces(v)?;
        self.turn_order(v)?;
        self.setup(v)?;
        self.options(v)?;
        super::forth_goals::goals(self, v)?;
        Ok(())
    }

    /// Declarations that change the rules and are not translated yet.
    fn unsupported_top(&self, v: &Variant) -> Result<(), ZrfError> {
        for n in &v.raw {
            let Some(head) = n.head() else { continue };
            if matches!(head.to_lowercase().as_str(), "set-attribute") {
                return Err(self.err(n.at, format!("`({head} …)` is not supported yet")));
            }
        }
        Ok(())
    }

    fn players(&mut self, v: &Variant) -> Result<(), ZrfError> {
        self.line(0, "{players", None);
        for p in &v.players {
            let w = self.names.player(&p.text).unwrap_or(&p.text).to_string();
            // `?Name`: a player Zillions moved at random.
            let engine = if p.text.starts_with('?') { " {random}" } else { "" };
            self.line(1, &format!("{{player}} {w}{engine}"), Some(p.at));
        }
        self.line(0, "players}", None);
        self.out.text.push('\n');
        Ok(())
    }

    fn board(&mut self, v: &Variant) -> Result<(), ZrfError> {
        let at = v.board.as_ref().and_then(|b| b.grids.first()).and_then(|g| g.dimensions.first()).and_then(|d| d.names.first()).map(|n| n.at);
        self.line(0, "{board", at);
        let names = self.names.positions.clone();
        for chunk in names.chunks(8) {
            let row: Vec<String> = chunk.iter().map(|n| format!("{{position}} {n}")).collect();
            self.line(1, &row.join(" "), None);
        }
        self.line(1, "{variable} zrf-chain\t\\ a chain of partial moves: where its piece stands (-1: none)", None);
        self.line(1, "{clock} zrf-last-from\t\\ the last move's from and to (clocks: not part of the position, as Zillions compared positions)", None);
        self.line(1, "{clock} zrf-last-to", None);
        self.line(1, "{clock} zrf-mover\t\\ the player who moved last", None);
        let slots = self.names.players.len() * self.names.pieces.len().max(1);
        self.line(1, &format!("{slots} {{array}} zrf-reserve\t\\ pieces off the board, per player and piece type"), None);
        self.line(0, "board}", None);
        self.out.text.push('\n');
        Ok(())
    }

    fn directions(&mut self, v: &Variant) -> Result<(), ZrfError> {
        self.line(0, "{directions", None);
        let first = self.names.positions[0].clone();
        for d in 0..self.names.directions.len() {
            let name = self.names.directions[d].clone();
            let links: Vec<(usize, usize)> = self.names.links[d].iter().map(|(&a, &b)| (a, b)).collect();
            if links.is_empty() {
                // A direction that leads nowhere still names a word.
                self.line(1, &format!("{{link}} {name} {first} {first} {{unlink}} {name} {first}"), None);
                continue;
            }
            for chunk in links.chunks(6) {
                let row: Vec<String> = chunk.iter().map(|&(a, b)| format!("{{link}} {name} {} {}", self.names.positions[a], self.names.positions[b])).collect();
                self.line(1, &row.join("  "), None);
            }
        }
        self.line(0, "directions}", None);
        if let Some(b) = &v.board {
            if !b.symmetries.is_empty() {
                self.out.text.push('\n');
                self.line(0, "{symmetries", None);
                for (player, pairs) in &b.symmetries {
                    let p = self.names.player(&player.text).ok_or_else(|| self.err(player.at, format!("symmetry for `{}`, which is not a player", player.text)))?.to_string();
                    let mut row = vec![p];
                    for (a, b) in pairs {
                        let da = self.names.direction(&a.text).ok_or_else(|| self.err(a.at, format!("symmetry names `{}`, which is not a direction", a.text)))?;
                        let db = self.names.direction(&b.text).ok_or_else(|| self.err(b.at, format!("symmetry names `{}`, which is not a direction", b.text)))?;
                        row.push(format!("{{asymmetry}} {da} {db}"));
                    }
                    self.line(1, &row.join(" "), Some(player.at));
                }
                self.line(0, "symmetries}", None);
            }
        }
        self.out.text.push('\n');
        Ok(())
    }

    /// The game's constants the runtime needs, then the runtime.
    fn runtime(&mut self, v: &Variant) -> Result<(), ZrfError> {
        let n_pos = self.names.positions.len();
        let n_types = self.names.pieces.len().max(1);
        let reserved = v.board_setup.iter().any(|e| e.off.is_some());
        self.line(0, &format!("{n_pos} CONSTANT zrf-#positions"), None);
        self.line(0, &format!("{} CONSTANT zrf-reserved?\t\\ the setup counts pieces off the board: drops take from them", if reserved { "TRUE" } else { "FALSE" }), None);
        self.line(0, &format!(": zrf-slot ( player type -- i )  1- SWAP player-index {n_types} * + ;"), None);
        self.line(0, ": zrf-take ( i -- )  zrf-reserve -1 SWAP +! ;", None);
        // "recycle captures": a captured piece goes back to its owner's
        // reserve (as Dagaz reads Zillions' option).
        let recycle = v.options.iter().rev().find(|(n, _)| n.is("recycle captures")).map(|(_, val)| val.eq_ignore_ascii_case("true"))
            .or_else(|| v.raw.iter().rev().find(|n| n.is_form("recycle-captures")).map(|n| n.args().first().and_then(Node::text).is_some_and(|t| t.eq_ignore_ascii_case("true"))))
            .unwrap_or(false);
        self.line(0, &format!("{} CONSTANT zrf-recycle?\t\\ \"recycle captures\": a captured piece goes back to its owner's reserve", if recycle && reserved { "TRUE" } else { "FALSE" }), None);
        self.line(0, ": zrf-give ( i -- )  zrf-reserve 1 SWAP +! ;", None);
        let (nf, npf) = (self.names.flags.len(), self.names.position_flags.len());
        self.line(0, &format!("CREATE zrf-flags {} CELLS ALLOT\t\\ `set-flag`: {}", nf.max(1), self.names.flags.join(" ")), None);
        self.line(0, &format!("CREATE zrf-pflags {} ALLOT\t\\ `set-position-flag`, a byte per position: {}", (npf * n_pos).max(1), self.names.position_flags.join(" ")), None);
        self.line(0, "\\ zrf-flag ( k -- addr )  zrf-pflag ( pos k -- addr )", None);
        self.line(0, ": zrf-flag ( k -- addr )  CELLS zrf-flags + ;", None);
        self.line(0, &format!(": zrf-pflag ( pos k -- addr )  {n_pos} * + zrf-pflags + ;"), None);
        self.line(0, &format!("CREATE zrf-flags-saved {} CELLS ALLOT  CREATE zrf-pflags-saved {} ALLOT", nf.max(1), (npf * n_pos).max(1)), None);
        // A probe runs move words inside one: the flags they share are
        // kept aside (nothing to keep when the game has none).
        let keep = |what: &str, from: &str, to: &str, n: usize| if n == 0 { String::new() } else { format!("  {from} {to} {n}{what} MOVE") };
        let save = keep(" CELLS", "zrf-flags", "zrf-flags-saved", nf) + &keep("", "zrf-pflags", "zrf-pflags-saved", npf * n_pos);
        let restore = keep(" CELLS", "zrf-flags-saved", "zrf-flags", nf) + &keep("", "zrf-pflags-saved", "zrf-pflags", npf * n_pos);
        self.line(0, &format!(": zrf-save-flags ( -- ){save} ;"), None);
        self.line(0, &format!(": zrf-restore-flags ( -- ){restore} ;"), None);
        self.line(0, "\\ zrf-clear-flags ( -- )  flags live while one move block runs", None);
        let mut clear = String::from(": zrf-clear-flags ( -- )");
        if nf > 0 {
            clear.push_str(&format!("  zrf-flags {} CELLS ERASE", nf));
        }
        if npf > 0 {
            clear.push_str(&format!("  zrf-pflags {} ERASE", npf * n_pos));
        }
        clear.push_str(" ;");
        self.line(0, &clear, None);
        let n_players = self.names.players.len();
        self.line(0, &format!(": zrf-other ( player -- player' )  player-index 1+ {n_players} MOD 1+ #PlayerBase * ;\t\\ `flip`: the next player"), None);
        self.out.text.push('\n');
        self.out.origins.push((self.out.text.len() as u32, None));
        self.out.text.push_str(PRELUDE);
        self.out.text.push('\n');
        Ok(())
    }

    /// The piece types of the `(checkmated T …)` goals.
    fn royal_types(&self, v: &Variant) -> Result<Vec<(usize, String)>, ZrfError> {
        fn walk(n: &Node, out: &mut Vec<Node>) {
            if n.is_form("checkmated") {
                out.extend(n.args().iter().cloned());
                return;
            }
            for i in n.list().unwrap_or(&[]) {
                walk(i, out);
            }
        }
        let mut found = Vec::new();
        for n in v.raw.iter().filter(|n| n.is_form("win-condition") || n.is_form("loss-condition") || n.is_form("draw-condition")) {
            walk(n, &mut found);
        }
        let mut out: Vec<(usize, String)> = Vec::new();
        for t in found {
            let s = t.sym().unwrap_or("");
            let Some(&i) = self.names.piece_of.get(&s.to_lowercase()) else {
                return Err(self.err(t.at, format!("`{s}` is not a piece type of this game")));
            };
            if !out.iter().any(|(k, _)| *k == i + 1) {
                out.push((i + 1, self.names.pieces[i].clone()));
            }
        }
        Ok(out)
    }

    /// A zone: `zone-NAME-of? ( pos player -- ? )`, and `zone-NAME? ( pos
    /// -- ? )` for the player to move.
    fn zones(&mut self, v: &Variant) -> Result<(), ZrfError> {
        let Some(b) = &v.board else { return Ok(()) };
        let n_pos = self.names.positions.len();
        let n_players = self.names.players.len();
        let mut tables = vec![vec![false; n_pos * n_players]; self.names.zones.len()];
        let mut first_at: Vec<Option<Span>> = vec![None; self.names.zones.len()];
        for z in &b.zones {
            let Some(zi) = self.names.zone(&z.name.text) else { continue };
            first_at[zi].get_or_insert(z.name.at);
            let players: Vec<usize> = if z.players.is_empty() {
                (0..n_players).collect()
            } else {
                let mut out = Vec::new();
                for p in &z.players {
                    out.push(*self.names.player_of.get(&p.text.to_lowercase()).ok_or_else(|| self.err(p.at, format!("zone `{}` names `{}`, which is not a player", z.name.text, p.text)))?);
                }
                out
            };
            for pos in &z.positions {
                let Some(&pi) = self.names.position_of.get(&pos.text.to_lowercase()) else {
                    if b.kill_positions.iter().any(|k| k.is(&pos.text)) {
                        continue;
                    }
                    return Err(self.err(pos.at, format!("zone `{}` names `{}`, which is not a position", z.name.text, pos.text)));
                };
                for &p in &players {
                    tables[zi][p * n_pos + pi] = true;
                }
            }
        }
        for (zi, table) in tables.iter().enumerate() {
            let name = self.names.zones[zi].clone();
            self.line(0, &format!("\\ zone {name}: a byte per player and position"), first_at[zi]);
            self.line(0, &format!("CREATE zone-{name}-table"), None);
            for chunk in table.chunks(32) {
                let row: Vec<&str> = chunk.iter().map(|&b| if b { "1 C," } else { "0 C," }).collect();
                self.line(1, &row.join(" "), None);
            }
            self.line(0, &format!(": zone-{name}-of? ( pos player -- ? )  OVER 0< IF 2DROP FALSE EXIT THEN  player-index {n_pos} * + zone-{name}-table + C@ 0<> ;"), None);
            let mover = if self.moves_for_others { "for-player" } else { "current-player" };
            self.line(0, &format!(": zone-{name}? ( pos -- ? )  {mover} zone-{name}-of? ;"), None);
        }
        if !tables.is_empty() {
            self.out.text.push('\n');
        }
        Ok(())
    }

    fn move_types(&mut self, v: &Variant) -> Result<(), ZrfError> {
        let priorities: Vec<&Node> = self.raw(v, "move-priorities").collect();
        let mut declared = HashSet::new();
        if let Some(p) = priorities.last() {
            self.line(0, "{move-priorities", Some(p.at));
            for t in p.args() {
                let Some(name) = t.sym().and_then(|s| self.names.move_type(s)) else {
                    return Err(self.err(t.at, "move-priorities lists move types, by name"));
                };
                let name = name.to_string();
                declared.insert(name.clone());
                self.line(1, &format!("{{move-priority}} {name}"), None);
            }
            self.line(0, "move-priorities}", None);
        }
        let others: Vec<String> = self.names.move_types.iter().filter(|t| !declared.contains(*t)).cloned().collect();
        for t in others {
            self.line(0, &format!("$DefineMoveType {t} DROP"), None);
        }
        self.out.text.push('\n');
        Ok(())
    }

    fn pieces(&mut self, v: &Variant) -> Result<(), ZrfError> {
        // The constants first: move words name pieces (promotions).
        self.line(0, "{pieces", None);
        let maximal = maximal_captures(v);
        let promoted = if maximal == 2 { promotion_targets(&self.raw(v, "piece").collect::<Vec<_>>()) } else { HashSet::new() };
        let mut lists = Vec::new();
        let mut seen = HashSet::new();
        for p in &v.pieces {
            // A piece declared twice is one type (the first), as in `Names`.
            if !seen.insert(p.name.text.to_lowercase()) {
                continue;
            }
            let name = self.names.piece(&p.name.text).unwrap_or(&p.name.text).to_string();
            let raw = self.raw(v, "piece").find(|r| r.args().iter().any(|a| a.is_form("name") && a.args().first().and_then(Node::text).is_some_and(|t| p.name.is(t))));
            let moves = raw.and_then(|r| r.args().iter().find(|a| a.is_form("moves"))).cloned();
            let drops = raw.and_then(|r| r.args().iter().find(|a| a.is_form("drops"))).cloned();
            let mut decl = format!("{{piece}} {name}");
            if moves.is_some() {
                decl.push_str(&format!(" {{moves}} {name}-moves"));
            }
            if drops.is_some() {
                decl.push_str(&format!(" {{drops}} {name}-drops"));
            }
            if p.dummy {
                decl.push_str(" {dummy-pieces}");
            }
            if maximal == 2 && promoted.contains(&p.name.text.to_lowercase()) {
                // "maximal captures" 2: taking these counts more.
                decl.push_str(" 2 {value}");
            }
            self.line(1, &decl, Some(p.name.at));
            lists.push((name, moves, drops));
        }
        self.line(0, "pieces}", None);
        // `(checkmated T)`: the game layer drops the moves that would
        // leave T attacked.
        for (_, name) in self.royal_types(v)? {
            self.probes.set(true);
            self.line(0, &format!("{name} {{royal}}\t\\ (checkmated {name}): no move may leave it attacked"), None);
        }
        self.out.text.push('\n');
        let pass_partial = v.options.iter().any(|(n, val)| n.is("pass partial") && !val.eq_ignore_ascii_case("false"));
        if pass_partial {
            self.line(0, "\\ (option \"pass partial\"): a chain of partial moves may stop", None);
            self.line(0, ": zrf-pass-partial ( -- )  zrf-chain @ 0< NOT verify  Pass ;", None);
            self.out.text.push('\n');
        }
        for (name, moves, drops) in lists {
            if let Some(m) = moves {
                self.move_list(&name, &m, false, pass_partial)?;
            }
            if let Some(d) = drops {
                self.move_list(&name, &d, true, false)?;
            }
        }
        Ok(())
    }

    /// `(moves …)` or `(drops …)`: a word per block, then the list.
    fn move_list(&mut self, piece: &str, list: &Node, drop: bool, pass_partial: bool) -> Result<(), ZrfError> {
        let kind = if drop { "drop" } else { "move" };
        let mut entries: Vec<(String, Option<String>)> = Vec::new();
        let mut move_type: Option<String> = None;
        for block in list.args() {
            if block.is_form("move-type") {
                let t = block.args().first().and_then(Node::sym).ok_or_else(|| self.err(block.at, "(move-type NAME)"))?;
                move_type = Some(self.names.move_type(t).unwrap_or(t).to_string());
                continue;
            }
            let Some(items) = block.list() else {
                return Err(self.err(block.at, format!("a {kind} is a list of instructions, not `{}`", block.text().unwrap_or(""))));
            };
            let word = format!("{piece}-{kind}-{}", entries.len() + 1);
            let (start, lines) = (self.out.text.len(), self.out.origins.len());
            self.line(0, &format!(": {word} ( -- )"), Some(block.at));
            let body = self.out.text.len();
            // A move's first steps and square tests go before its start:
            // they read and change nothing else, and so the generator
            // finds them and tries the word only where they hold (its
            // guard, `jit/guard.rs`).
            let lead = if drop { 0 } else { items.iter().take_while(|n| self.pure_lead(n)).count() };
            super::forth_moves::block(self, &items[..lead], 1, drop)?;
            self.line(1, if drop { "zrf-begin-drop" } else { "zrf-begin-move" }, None);
            super::forth_moves::block(self, &items[lead..], 1, drop)?;
            self.line(0, ";", None);
            // A block written the same as one before (a macro used by
            // several pieces, or under two move types) is that word: one
            // definition to load and compile (Ragnarok.zrf's variants: a
            // seventh of their move words, a sixth of their text).
            // The same code, that is: the places in the comments (where a
            // macro's argument was written) may differ.
            let code: String = self.out.text[body..].lines().map(|l| l.split("\t\\ ").next().unwrap_or(l)).collect::<Vec<_>>().join("\n");
            let word = match self.bodies.get(&code) {
                Some(same) => {
                    let same = same.clone();
                    self.out.text.truncate(start);
                    self.out.origins.truncate(lines);
                    same
                }
                None => {
                    self.bodies.insert(code, word.clone());
                    word
                }
            };
            entries.push((word, move_type.clone()));
        }
        self.line(0, &format!("{{moves {piece}-{kind}s"), None);
        for (word, t) in entries {
            match t {
                Some(t) => self.line(1, &format!("{{move}} {word} {{move-type}} {t}"), None),
                None => self.line(1, &format!("{{move}} {word}"), None),
            }
        }
        if pass_partial {
            self.line(1, "{move} zrf-pass-partial", None);
        }
        self.line(0, "moves}", None);
        self.out.text.push('\n');
        Ok(())
    }

    /// A direction step, or `(verify T)` of a plain square test T.
    fn pure_lead(&self, n: &Node) -> bool {
        if let Some(s) = n.sym() {
            return self.names.direction(s).is_some();
        }
        n.is_form("verify")
            && matches!(n.args(), [c] if c.sym().is_some_and(|c| matches!(c.to_lowercase().as_str(), "empty?" | "not-empty?" | "enemy?" | "not-enemy?" | "friend?" | "not-friend?")))
    }

    fn turn_order(&mut self, v: &Variant) -> Result<(), ZrfError> {
        let order = &v.turn_order;
        self.line(0, "{turn-order", None);
        if order.turns.is_empty() {
            for p in self.names.players.clone() {
                self.line(1, &format!("{{turn}} {p}"), None);
            }
        }
        for (i, t) in order.turns.iter().enumerate() {
            if order.repeat_from == Some(i) {
                self.line(1, "{repeat}", None);
            }
            let p = self.names.player(&t.player.text).ok_or_else(|| self.err(t.player.at, format!("turn-order names `{}`, which is not a player", t.player.text)))?;
            let mut s = format!("{{turn}} {p}");
            if let Some(m) = &t.move_type {
                let m = self.names.move_type(&m.text).ok_or_else(|| self.err(m.at, format!("turn-order names `{}`, which is not a move type", m.text)))?;
                s.push_str(&format!(" {{of-type}} {m}"));
            }
            if let Some(f) = &t.for_player {
                let f = self.names.player(&f.text).ok_or_else(|| self.err(f.at, format!("turn-order names `{}`, which is not a player", f.text)))?;
                s.push_str(&format!(" {{for-player}} {f}"));
            }
            self.line(1, &s, Some(t.player.at));
        }
        self.line(0, "turn-order}", None);
        self.out.text.push('\n');
        Ok(())
    }

    fn setup(&mut self, v: &Variant) -> Result<(), ZrfError> {
        let mut reserves = Vec::new();
        if self.names.attribute_defaults.iter().any(|&d| d != 0) {
            let table: Vec<String> = self.names.attribute_defaults.iter().map(|d| format!("{d} ,")).collect();
            self.line(0, &format!("CREATE zrf-attribute-defaults {}\t\\ per piece type: the attributes that start true", table.join(" ")), None);
            self.line(0, "\\ zrf-attributes-at-start ( -- )  every piece on the board gets its type's attributes", None);
            self.line(0, ": zrf-attributes-at-start ( -- )", None);
            self.line(1, "zrf-#positions 0 ?DO I piece-at ?DUP IF", None);
            self.line(2, "DUP #PieceType AND 1- CELLS zrf-attribute-defaults + @ OR", None);
            self.line(2, "DUP #Player AND SWAP #Player INVERT AND I create-player-piece-type-at", None);
            self.line(1, "THEN LOOP ;", None);
        }
        self.line(0, "{board-setup", None);
        for e in &v.board_setup {
            let player = self.names.player(&e.player.text).ok_or_else(|| self.err(e.player.at, format!("board-setup names `{}`, which is not a player", e.player.text)))?.to_string();
            let piece = self.names.piece(&e.piece.text).ok_or_else(|| self.err(e.piece.at, format!("board-setup names `{}`, which is not a piece", e.piece.text)))?.to_string();
            let mut at = Vec::new();
            for p in &e.positions {
                let name = self.names.position(&p.text).ok_or_else(|| self.err(p.at, format!("board-setup names `{}`, which is not a position", p.text)))?;
                at.push(name.to_string());
            }
            if !at.is_empty() {
                self.line(1, &format!("{{setup}} {player} {piece} {}", at.join(" ")), Some(e.player.at));
            }
            if let Some(off) = &e.off {
                let n: i64 = off.text.parse().map_err(|_| self.err(off.at, format!("`off {}`: a number of pieces", off.text)))?;
                reserves.push((player, piece, n, off.at));
            }
        }
        self.line(0, "board-setup}", None);
        self.out.text.push('\n');
        self.line(0, ": OnNewGame ( -- )", None);
        self.line(1, "-1 zrf-chain !  -1 zrf-last-from !  -1 zrf-last-to !", None);
        if self.names.attribute_defaults.iter().any(|&d| d != 0) {
            self.line(1, "zrf-attributes-at-start", None);
        }
        for (player, piece, n, at) in reserves {
            self.line(1, &format!("{n} {player} {piece} zrf-slot zrf-reserve +!"), Some(at));
        }
        self.line(0, ";", None);
        self.line(0, ": OnNextTurn ( -- )  -1 zrf-chain ! ;", None);
        self.out.text.push('\n');
        Ok(())
    }

    fn options(&mut self, v: &Variant) -> Result<(), ZrfError> {
        for (name, value) in &v.options {
            if name.is("pass turn") && (value.eq_ignore_ascii_case("true") || value.eq_ignore_ascii_case("forced")) {
                self.line(0, "$passTurnForced ON", Some(name.at));
            }
        }
        let level = maximal_captures(v);
        if level > 0 {
            let at = v.options.iter().find(|(n, _)| n.is("maximal captures")).map(|(n, _)| n.at);
            self.line(0, &format!("{level} {{maximal-captures}}"), at);
        }
        Ok(())
    }
}

/// `(option "maximal captures" …)`: 0 off, 1 true, 2.
fn maximal_captures(v: &Variant) -> u8 {
    match v.options.iter().rev().find(|(n, _)| n.is("maximal captures")).map(|(_, val)| val.to_lowercase()) {
        Some(val) if val == "2" => 2,
        Some(val) if val == "false" || val == "0" => 0,
        Some(_) => 1,
        None => 0,
    }
}

/// The piece types (lower case) some move turns a piece into: the types
/// `add` and `add-partial` name, and `change-type`'s.
fn promotion_targets(pieces: &[&Node]) -> HashSet<String> {
    fn walk(n: &Node, out: &mut HashSet<String>) {
        let Kind::List(items) = &n.kind else { return };
        if let Some(head) = n.head().map(str::to_lowercase) {
            if matches!(head.as_str(), "add" | "add-partial" | "change-type") {
                out.extend(n.args().iter().filter_map(Node::sym).map(str::to_lowercase));
            }
        }
        for it in items.iter() {
            walk(it, out);
        }
    }
    let mut out = HashSet::new();
    for p in pieces {
        walk(p, &mut out);
    }
    out
}
