//! The names of a ZRF variant as the Forth words they become, and the
//! board they describe.
//!
//! Owns `Names`: players, pieces, positions (grids in the order of their
//! dimensions, killed positions left out, then explicit and dummy ones),
//! directions and their links (grid steps, `links`, `unlink`), their
//! opposites, zones, move types, flags and piece attributes. ZRF compares
//! names without case and Forth with it: each kind maps the lowercase name
//! to the declared spelling, renamed when it would hide a word the
//! generated code calls or a number.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::forth::err;
use super::model::*;
use super::sexpr::Node;

/// A name clash between a ZRF name and a word the generated code uses
/// (or a number, which a Forth name would hide) gets this mark appended.
const RENAME_MARK: &str = "'";

/// Words the generated code calls by name after the ZRF names are
/// defined: a ZRF name spelt like one of them is renamed.
const RESERVED: &[&str] = &[
    "verify", "here", "from", "to", "home", "IF", "ELSE", "THEN", "BEGIN", "WHILE", "REPEAT", "DUP", "DROP", "SWAP", "OVER", "NOT",
    "AND", "OR", "FALSE", "TRUE", "EXIT", "=", "empty?", "friend?", "enemy?", "neutral-piece?", "empty-at?", "friend-at?",
    "enemy-at?", "neutral-piece-at?", "piece-at", "piece-type-at", "player-at", "move", "capture-at", "change-type-at",
    "change-owner-at", "create-at", "add-move", "partial", "partial-move-type", "current-player", "stalemate?", "Pass", "I", "LOOP",
    "DO", "?DO", "UNLOOP", "0=", "0<", "'", "[']", "CREATE", "C,", "C@", ":", ";", "CONSTANT", "VARIABLE", "#WinScore",
    "#LossScore", "#DrawScore", "#UnknownScore", "LOAD", "ON", "OFF", "@", "!",
];

/// The names of a variant, each as the Forth word it becomes: ZRF
/// compares names without case, so each kind maps the lowercase name to
/// its declared spelling (renamed on a clash, see `RESERVED`).
pub(crate) struct Names {
    pub players: Vec<String>,
    pub player_of: HashMap<String, usize>,
    pub pieces: Vec<String>,
    pub piece_of: HashMap<String, usize>,
    pub positions: Vec<String>,
    pub position_of: HashMap<String, usize>,
    pub directions: Vec<String>,
    pub direction_of: HashMap<String, usize>,
    /// Per direction: from → to.
    pub links: Vec<BTreeMap<usize, usize>>,
    pub zones: Vec<String>,
    pub zone_of: HashMap<String, usize>,
    pub move_types: Vec<String>,
    pub move_type_of: HashMap<String, usize>,
    /// Per direction: the direction that undoes it (`opposite`), if any.
    pub opposite: Vec<Option<usize>>,
    /// `set-flag` names, and `set-position-flag` names (lowercase).
    pub flags: Vec<String>,
    pub position_flags: Vec<String>,
    /// `(attribute name default)` of the pieces: names (lowercase; the
    /// k-th is bit 16 + k of a square), and per piece type the bits that
    /// start set.
    pub attributes: Vec<String>,
    pub attribute_defaults: Vec<u32>,
}

fn word_name(text: &str) -> String {
    let clash = RESERVED.contains(&text) || text.parse::<i64>().is_ok() || text.starts_with("zrf-") || text.starts_with('$');
    if clash {
        format!("{text}{RENAME_MARK}")
    } else {
        text.to_string()
    }
}

impl Names {
    pub fn new(zrf: &Zrf, v: &Variant) -> Result<Names, ZrfError> {
        let mut n = Names {
            players: Vec::new(),
            player_of: HashMap::new(),
            pieces: Vec::new(),
            piece_of: HashMap::new(),
            positions: Vec::new(),
            position_of: HashMap::new(),
            directions: Vec::new(),
            direction_of: HashMap::new(),
            links: Vec::new(),
            zones: Vec::new(),
            zone_of: HashMap::new(),
            move_types: Vec::new(),
            move_type_of: HashMap::new(),
            opposite: Vec::new(),
            flags: Vec::new(),
            position_flags: Vec::new(),
            attributes: Vec::new(),
            attribute_defaults: Vec::new(),
        };
        if v.players.is_empty() {
            return Err(err(zrf, v.title.at, format!("variant `{}` declares no players", v.title.text)));
        }
        for p in &v.players {
            if !n.player_of.contains_key(&p.text.to_lowercase()) {
                n.player_of.insert(p.text.to_lowercase(), n.players.len());
                n.players.push(word_name(&p.text));
            }
        }
        for p in v.pieces.iter() {
            if !n.piece_of.contains_key(&p.name.text.to_lowercase()) {
                n.piece_of.insert(p.name.text.to_lowercase(), n.pieces.len());
                n.pieces.push(word_name(&p.name.text));
            }
        }
        let Some(board) = &v.board else {
            return Err(err(zrf, v.title.at, format!("variant `{}` declares no board", v.title.text)));
        };
        n.board(zrf, board)?;
        for z in &board.zones {
            if !n.zone_of.contains_key(&z.name.text.to_lowercase()) {
                n.zone_of.insert(z.name.text.to_lowercase(), n.zones.len());
                n.zones.push(word_name(&z.name.text));
            }
        }
        n.collect_move_types(v);
        n.opposites();
        n.collect_flags(v);
        n.collect_attributes(zrf, v)?;
        Ok(n)
    }

    fn add_direction(&mut self, name: &str) -> usize {
        let key = name.to_lowercase();
        if let Some(&d) = self.direction_of.get(&key) {
            return d;
        }
        self.direction_of.insert(key, self.directions.len());
        self.directions.push(word_name(name));
        self.links.push(BTreeMap::new());
        self.directions.len() - 1
    }

    /// Positions (grids' in the order of their dimensions, then the
    /// explicit ones), and the links of every direction.
    fn board(&mut self, zrf: &Zrf, b: &BoardDecl) -> Result<(), ZrfError> {
        let killed: HashSet<String> = b.kill_positions.iter().map(|k| k.text.to_lowercase()).collect();
        for grid in &b.grids {
            if grid.dimensions.is_empty() {
                continue;
            }
            // Every tuple of indices, first dimension outermost.
            let sizes: Vec<usize> = grid.dimensions.iter().map(|d| d.names.len()).collect();
            let total: usize = sizes.iter().product();
            let mut index_of: HashMap<Vec<usize>, usize> = HashMap::new();
            let mut tuples = Vec::with_capacity(total);
            for k in 0..total {
                let mut rest = k;
                let mut t = vec![0; sizes.len()];
                for (i, s) in sizes.iter().enumerate().rev() {
                    t[i] = rest % s;
                    rest /= s;
                }
                let name: String = t.iter().zip(&grid.dimensions).map(|(&i, d)| d.names[i].text.as_str()).collect();
                if killed.contains(&name.to_lowercase()) {
                    continue;
                }
                let key = name.to_lowercase();
                let pos = match self.position_of.get(&key) {
                    Some(&p) => p,
                    None => {
                        self.position_of.insert(key, self.positions.len());
                        self.positions.push(word_name(&name));
                        self.positions.len() - 1
                    }
                };
                index_of.insert(t.clone(), pos);
                tuples.push((t, pos));
            }
            for (dname, steps) in &grid.directions {
                let d = self.add_direction(&dname.text);
                for (t, from) in &tuples {
                    let mut to = Vec::with_capacity(t.len());
                    let mut inside = true;
                    for (i, &x) in t.iter().enumerate() {
                        let s = steps.get(i).copied().unwrap_or(0) as i64;
                        let y = x as i64 + s;
                        if y < 0 || y >= sizes[i] as i64 {
                            inside = false;
                            break;
                        }
                        to.push(y as usize);
                    }
                    if let Some(&target) = inside.then(|| index_of.get(&to)).flatten() {
                        self.links[d].insert(*from, target);
                    }
                }
            }
        }
        for (name, _) in &b.positions {
            let key = name.text.to_lowercase();
            if killed.contains(&key) || self.position_of.contains_key(&key) {
                continue;
            }
            self.position_of.insert(key, self.positions.len());
            self.positions.push(word_name(&name.text));
        }
        for d in &b.dummies {
            let key = d.text.to_lowercase();
            if !self.position_of.contains_key(&key) {
                self.position_of.insert(key, self.positions.len());
                self.positions.push(word_name(&d.text));
            }
        }
        if self.positions.is_empty() {
            let at = b.grids.first().and_then(|g| g.directions.first()).map(|d| d.0.at).unwrap_or_default();
            return Err(err(zrf, at, "the board has no positions"));
        }
        for (dname, pairs) in &b.links {
            let d = self.add_direction(&dname.text);
            for (p, q) in pairs {
                let (Some(&from), Some(&to)) = (self.position_of.get(&p.text.to_lowercase()), self.position_of.get(&q.text.to_lowercase())) else {
                    continue; // a link to a killed position
                };
                self.links[d].insert(from, to);
            }
        }
        for names in &b.unlinks {
            let pos: Vec<Option<usize>> = names.iter().map(|n| self.position_of.get(&n.text.to_lowercase()).copied()).collect();
            match (names.len(), pos.as_slice()) {
                (2, [Some(p), None]) => {
                    if let Some(&d) = self.direction_of.get(&names[1].text.to_lowercase()) {
                        self.links[d].remove(p);
                    }
                }
                (_, _) => {
                    let set: HashSet<usize> = pos.iter().flatten().copied().collect();
                    for l in &mut self.links {
                        if set.len() == 1 {
                            l.retain(|f, t| !set.contains(f) && !set.contains(t));
                        } else {
                            l.retain(|f, t| !(set.contains(f) && set.contains(t)));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The opposite of each direction: the one whose links are exactly
    /// its links reversed.
    fn opposites(&mut self) {
        let reversed: Vec<BTreeMap<usize, usize>> = self.links.iter().map(|l| l.iter().map(|(&a, &b)| (b, a)).collect()).collect();
        self.opposite = reversed.iter().map(|r| (!r.is_empty()).then(|| self.links.iter().position(|l| l == r)).flatten()).collect();
    }

    /// The names of `set-flag` and `set-position-flag` (and of the flags
    /// tested), in the order first seen.
    fn collect_flags(&mut self, v: &Variant) {
        fn walk(n: &Node, flags: &mut Vec<String>, pflags: &mut Vec<String>) {
            if let Some(head) = n.head() {
                let h = head.to_lowercase();
                let name = n.args().first().and_then(Node::sym).map(str::to_lowercase);
                if let Some(name) = name {
                    let list = match h.as_str() {
                        "set-flag" | "flag?" | "not-flag?" => Some(&mut *flags),
                        "set-position-flag" | "position-flag?" | "not-position-flag?" => Some(&mut *pflags),
                        _ => None,
                    };
                    if let Some(list) = list {
                        if !list.contains(&name) {
                            list.push(name);
                        }
                    }
                }
            }
            for i in n.list().unwrap_or(&[]) {
                walk(i, flags, pflags);
            }
        }
        for n in v.raw.iter().filter(|n| n.is_form("piece")) {
            walk(n, &mut self.flags, &mut self.position_flags);
        }
    }

    /// `(attribute name value)` in the pieces: at most 15 names (bits 16
    /// to 30 of a square).
    fn collect_attributes(&mut self, zrf: &Zrf, v: &Variant) -> Result<(), ZrfError> {
        self.attribute_defaults = vec![0; self.pieces.len()];
        for piece in v.raw.iter().filter(|n| n.is_form("piece")) {
            let name = piece.args().iter().find(|a| a.is_form("name")).and_then(|a| a.args().first()).and_then(Node::text).unwrap_or("");
            let ty = self.piece_of.get(&name.to_lowercase()).copied();
            for a in piece.args().iter().filter(|a| a.is_form("attribute")) {
                let Some(attr) = a.args().first().and_then(Node::sym) else { continue };
                let key = attr.to_lowercase();
                let k = match self.attributes.iter().position(|x| *x == key) {
                    Some(k) => k,
                    None => {
                        if self.attributes.len() >= 15 {
                            return Err(err(zrf, a.at, "more than 15 piece attributes: not supported"));
                        }
                        self.attributes.push(key);
                        self.attributes.len() - 1
                    }
                };
                let on = a.args().get(1).and_then(Node::sym).is_some_and(|v| v.eq_ignore_ascii_case("true"));
                if let (Some(t), true) = (ty, on) {
                    self.attribute_defaults[t] |= 1 << (16 + k);
                }
            }
        }
        Ok(())
    }

    /// The bit of an attribute in a square's content.
    pub fn attribute(&self, s: &str) -> Option<u32> {
        self.attributes.iter().position(|a| a.eq_ignore_ascii_case(s)).map(|k| 1 << (16 + k))
    }

    pub fn flag(&self, s: &str) -> Option<usize> {
        self.flags.iter().position(|f| f.eq_ignore_ascii_case(s))
    }
    pub fn position_flag(&self, s: &str) -> Option<usize> {
        self.position_flags.iter().position(|f| f.eq_ignore_ascii_case(s))
    }

    /// Every move type the variant names, in the order first seen.
    fn collect_move_types(&mut self, v: &Variant) {
        fn walk(n: &Node, out: &mut Vec<String>) {
            if n.is_form("move-type") || n.is_form("move-priorities") {
                out.extend(n.args().iter().filter_map(Node::sym).map(str::to_string));
                return;
            }
            if n.is_form("add-partial") || n.is_form("add-copy-partial") {
                // The last argument, when not a piece: checked later.
                out.extend(n.args().last().and_then(Node::sym).map(|s| format!("?{s}")));
            }
            if let Some(items) = n.list() {
                for i in items {
                    walk(i, out);
                }
            }
        }
        let mut found = Vec::new();
        for n in &v.raw {
            if n.is_form("move-priorities") || n.is_form("piece") {
                walk(n, &mut found);
            }
        }
        for t in &v.turn_order.turns {
            if let Some(m) = &t.move_type {
                found.push(m.text.clone());
            }
        }
        for name in found {
            let (maybe, name) = match name.strip_prefix('?') {
                Some(rest) => (true, rest.to_string()),
                None => (false, name),
            };
            let key = name.to_lowercase();
            if maybe && self.piece_of.contains_key(&key) {
                continue;
            }
            if !self.move_type_of.contains_key(&key) {
                self.move_type_of.insert(key, self.move_types.len());
                self.move_types.push(word_name(&name));
            }
        }
    }

    pub fn player(&self, s: &str) -> Option<&str> {
        self.player_of.get(&s.to_lowercase()).map(|&i| self.players[i].as_str())
    }
    pub fn piece(&self, s: &str) -> Option<&str> {
        self.piece_of.get(&s.to_lowercase()).map(|&i| self.pieces[i].as_str())
    }
    pub fn position(&self, s: &str) -> Option<&str> {
        self.position_of.get(&s.to_lowercase()).map(|&i| self.positions[i].as_str())
    }
    pub fn direction(&self, s: &str) -> Option<&str> {
        self.direction_of.get(&s.to_lowercase()).map(|&i| self.directions[i].as_str())
    }
    /// Whether `s`, where a position or a direction may stand, names the
    /// direction. A name that is both (ZRF compares names without case:
    /// a dummy position `S` beside a direction `s`) is the one spelled
    /// exactly as written, else the one the place looks for first.
    fn direction_first(&self, s: &str, by_default: bool) -> bool {
        let lower = s.to_lowercase();
        match (self.position_of.get(&lower), self.direction_of.get(&lower)) {
            (Some(&p), Some(&d)) => {
                let exact = |w: &str| w.trim_end_matches(RENAME_MARK) == s;
                match (exact(&self.positions[p]), exact(&self.directions[d])) {
                    (true, false) => false,
                    (false, true) => true,
                    _ => by_default,
                }
            }
            (None, Some(_)) => true,
            _ => false,
        }
    }
    /// The position `s` names where a direction may stand too (see
    /// `direction_first`; `direction_by_default`: which the place tries
    /// first when the spelling does not tell).
    pub fn as_position(&self, s: &str, direction_by_default: bool) -> Option<&str> {
        if self.direction_first(s, direction_by_default) { None } else { self.position(s) }
    }
    /// The direction `s` names where a position may stand too.
    pub fn as_direction(&self, s: &str, direction_by_default: bool) -> Option<&str> {
        if self.direction_first(s, direction_by_default) { self.direction(s) } else { None }
    }
    pub fn zone(&self, s: &str) -> Option<usize> {
        self.zone_of.get(&s.to_lowercase()).copied()
    }
    pub fn move_type(&self, s: &str) -> Option<&str> {
        self.move_type_of.get(&s.to_lowercase()).map(|&i| self.move_types[i].as_str())
    }
}

