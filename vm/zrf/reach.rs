//! Where each piece type's ZRF moves can reach, from each position: the
//! table (`state/reach.rs`) that lets the `checkmated` goal's probe —
//! can any enemy move capture the royal piece after this move? — run
//! only the enemy pieces that could, instead of every move of every
//! piece for every move offered.
//!
//! Owns `reach`: an abstract run of each move block over sets of
//! positions. The cursor (`here`), `from` and `mark` are sets; a
//! direction steps every position of the set (as every player sees the
//! direction: symmetries are joined), a test is taken as both true and
//! false (`if` joins both branches, `while` runs its body to a fixed
//! point), and every position the cursor or a place argument (`capture
//! a1`, `(create n)`) takes is a position the move may reach. A
//! construct this does not follow (`go last-to`, one not translated)
//! makes the piece type reach everywhere: the table may say too much,
//! never too little. Reads the names and the variant; knows nothing of
//! the VM.

use super::forth_names::Names;
use super::model::Variant;
use super::sexpr::{Kind, Node};
use crate::state::reach::{Reach, Sweep};

type Bits = Vec<u64>;

/// A construct the analysis does not follow.
struct Unknown;

/// Where the cursor, `from` and `mark` may be.
#[derive(Clone, PartialEq)]
struct Cursor {
    here: Bits,
    from: Bits,
    mark: Bits,
}

impl Cursor {
    fn join(&mut self, other: &Cursor) {
        union(&mut self.here, &other.here);
        union(&mut self.from, &other.from);
        union(&mut self.mark, &other.mark);
    }
}

fn union(a: &mut Bits, b: &Bits) {
    a.iter_mut().zip(b).for_each(|(x, y)| *x |= y);
}

struct Analysis<'a> {
    names: &'a Names,
    /// Steps of sets left before the analysis gives up (a huge board
    /// with many pieces): the game then has no table, and probes run
    /// every piece.
    budget: std::cell::Cell<u64>,
    positions: usize,
    words: usize,
    /// By direction and position, where the step leads (-1: off the
    /// board).
    links: Vec<Vec<i32>>,
    /// By direction, the directions it is for some player (symmetries).
    seen_as: Vec<Vec<usize>>,
}

/// Steps of sets (a set stepped in a direction) the analysis of one
/// variant may take: far more than a 19 by 19 board of many pieces needs,
/// a few hundred milliseconds at most.
const BUDGET: u64 = 20_000_000;

/// The table of `v`'s pieces, types numbered as `Names` numbers them;
/// none when working it out would take too long.
pub(crate) fn reach(names: &Names, v: &Variant) -> Option<Reach> {
    let positions = names.positions.len();
    let links = names
        .links
        .iter()
        .map(|l| {
            let mut row = vec![-1; positions];
            for (&a, &b) in l {
                if let Some(r) = row.get_mut(a) {
                    *r = b as i32;
                }
            }
            row
        })
        .collect();
    let mut seen_as: Vec<Vec<usize>> = (0..names.directions.len()).map(|d| vec![d]).collect();
    for (_, pairs) in v.board.iter().flat_map(|b| &b.symmetries) {
        for (a, b) in pairs {
            let (Some(&a), Some(&b)) = (names.direction_of.get(&a.text.to_lowercase()), names.direction_of.get(&b.text.to_lowercase())) else { continue };
            if !seen_as[a].contains(&b) {
                seen_as[a].push(b);
            }
        }
    }
    let words = positions.div_ceil(64).max(1);
    let a = Analysis { names, budget: std::cell::Cell::new(BUDGET), positions, words, links, seen_as };
    let mut table = Reach::new(positions, names.pieces.len());
    let mut seen = std::collections::HashSet::new();
    for p in &v.pieces {
        // A piece declared twice is one type (the first), as in `Names`.
        if !seen.insert(p.name.text.to_lowercase()) {
            continue;
        }
        let piece_type = seen.len();
        let decl = v.raw.iter().filter(|n| n.is_form("piece")).find(|r| r.args().iter().any(|a| a.is_form("name") && a.args().first().and_then(Node::text).is_some_and(|t| p.name.is(t))));
        for (sweep, keyword) in [(Sweep::Moves, "moves"), (Sweep::Drops, "drops")] {
            let blocks: Vec<&Node> = decl.and_then(|r| r.args().iter().find(|a| a.is_form(keyword))).map(|l| l.args().iter().filter(|b| !b.is_form("move-type")).collect()).unwrap_or_default();
            for from in 0..positions {
                let reached = a.from(from, &blocks).unwrap_or_else(|Unknown| vec![u64::MAX; words]);
                if a.budget.get() == 0 {
                    return None;
                }
                if let Some(row) = table.set_mut(sweep, piece_type, from) {
                    row.copy_from_slice(&reached);
                }
            }
        }
    }
    Some(table)
}

impl Analysis<'_> {
    fn single(&self, p: usize) -> Bits {
        let mut b = vec![0; self.words];
        b[p / 64] |= 1 << (p % 64);
        b
    }

    fn everywhere(&self) -> Bits {
        vec![u64::MAX; self.words]
    }

    /// Every position each block may reach from `from`.
    fn from(&self, from: usize, blocks: &[&Node]) -> Result<Bits, Unknown> {
        let mut reached = vec![0; self.words];
        for b in blocks {
            let start = self.single(from);
            let mut at = Cursor { here: start.clone(), from: start.clone(), mark: start };
            let items = b.list().ok_or(Unknown)?;
            self.block(items, &mut at, &mut reached)?;
        }
        Ok(reached)
    }

    fn step(&self, set: &Bits, d: usize) -> Bits {
        let mut out = vec![0; self.words];
        let left = self.budget.get();
        if left == 0 {
            return out;
        }
        self.budget.set(left.saturating_sub(self.words as u64 + set.iter().map(|w| w.count_ones() as u64).sum::<u64>()));
        for (w, &bits) in set.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let p = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for &d in &self.seen_as[d] {
                    if let Some(&q) = self.links[d].get(p) {
                        if q >= 0 && (q as usize) < self.positions {
                            out[q as usize / 64] |= 1 << (q % 64);
                        }
                    }
                }
            }
        }
        out
    }

    fn block(&self, items: &[Node], at: &mut Cursor, reached: &mut Bits) -> Result<(), Unknown> {
        for n in items {
            self.instr(n, at, reached)?;
        }
        Ok(())
    }

    /// A place argument: a position, a direction from the cursor, or
    /// `from`/`mark` (`to`, `last-from`, `last-to`: anywhere).
    fn place(&self, n: &Node, at: &Cursor) -> Result<Bits, Unknown> {
        let s = n.sym().ok_or(Unknown)?;
        if self.names.as_position(s, false).is_some() {
            return Ok(self.single(self.names.position_of[&s.to_lowercase()]));
        }
        if let Some(&d) = self.names.direction_of.get(&s.to_lowercase()) {
            return Ok(self.step(&at.here, d));
        }
        match s.to_lowercase().as_str() {
            "from" => Ok(at.from.clone()),
            "mark" => Ok(at.mark.clone()),
            "to" | "last-from" | "last-to" => Ok(self.everywhere()),
            _ => Err(Unknown),
        }
    }

    fn instr(&self, n: &Node, at: &mut Cursor, reached: &mut Bits) -> Result<(), Unknown> {
        match &n.kind {
            Kind::Str(_) => Err(Unknown),
            Kind::Sym(s) => {
                let lower = s.to_lowercase();
                if let Some(&d) = self.names.as_direction(s, true).and(self.names.direction_of.get(&lower)) {
                    at.here = self.step(&at.here, d);
                } else if let Some(&p) = self.names.position_of.get(&lower) {
                    at.here = self.single(p);
                } else {
                    match lower.as_str() {
                        "add" | "add-partial" | "add-copy" | "add-copy-partial" | "capture" | "to" | "flip" | "change-owner" => {}
                        "from" | "cascade" => at.from = at.here.clone(),
                        "mark" => at.mark = at.here.clone(),
                        "back" => at.here = at.mark.clone(),
                        _ => return Err(Unknown),
                    }
                }
                union(reached, &at.here);
                Ok(())
            }
            Kind::List(items) => {
                let Some(head) = n.head() else { return self.block(items, at, reached) };
                let args = n.args();
                match head.to_lowercase().as_str() {
                    // Tests move nothing (`adjacent-to-enemy?` comes back).
                    "verify" => {}
                    "if" => {
                        let rest = args.get(1..).ok_or(Unknown)?;
                        let split = rest.iter().position(|x| x.sym().is_some_and(|s| s.eq_ignore_ascii_case("else")));
                        let (then, otherwise) = match split {
                            Some(i) => (&rest[..i], &rest[i + 1..]),
                            None => (rest, &[][..]),
                        };
                        let mut other = at.clone();
                        self.block(then, at, reached)?;
                        self.block(otherwise, &mut other, reached)?;
                        at.join(&other);
                    }
                    "while" => {
                        let body = args.get(1..).ok_or(Unknown)?;
                        loop {
                            let mut next = at.clone();
                            self.block(body, &mut next, reached)?;
                            next.join(at);
                            if next == *at {
                                break;
                            }
                            *at = next;
                        }
                    }
                    "add" | "add-partial" | "add-copy" | "add-copy-partial" => {}
                    "capture" | "to" | "create" | "change-type" => {
                        for a in args.iter().filter(|a| !self.is_type_or_player(a)) {
                            let p = self.place(a, at)?;
                            union(reached, &p);
                        }
                    }
                    "flip" | "change-owner" | "set-attribute" | "set-flag" | "set-position-flag" => {}
                    "mark" => at.mark = self.one_place(args, at)?,
                    "from" => at.from = self.one_place(args, at)?,
                    "back" => at.here = at.mark.clone(),
                    "go" => at.here = self.one_place(args, at)?,
                    "opposite" => {
                        let d = args.first().and_then(Node::sym).and_then(|s| self.names.direction_of.get(&s.to_lowercase()).copied()).ok_or(Unknown)?;
                        let o = self.names.opposite.get(d).copied().flatten().ok_or(Unknown)?;
                        at.here = self.step(&at.here, o);
                    }
                    h if self.names.direction_of.contains_key(h) || super::forth_moves::BARE.contains(&h) => return self.block(items, at, reached),
                    _ => return Err(Unknown),
                }
                union(reached, &at.here);
                Ok(())
            }
        }
    }

    fn one_place(&self, args: &[Node], at: &Cursor) -> Result<Bits, Unknown> {
        match args {
            [] => Ok(at.here.clone()),
            [a] => self.place(a, at),
            _ => Err(Unknown),
        }
    }

    fn is_type_or_player(&self, n: &Node) -> bool {
        n.sym().is_some_and(|s| self.names.piece_of.contains_key(&s.to_lowercase()) || self.names.player_of.contains_key(&s.to_lowercase()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::zrf::Zrf;

    const GAME: &str = r#"
(define slide ($1 (while empty? add $1) (verify enemy?) add))
(game (title "Reach") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10)
     (dimensions ("a/b/c/d/e" (10 0)) ("5/4/3/2/1" (0 10)))
     (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1)))
     (symmetry Black (n s) (s n) (ne se) (se ne) (nw sw) (sw nw)))
  (piece (name Rook) (moves (slide n) (slide e)))
  (piece (name Pawn) (moves (ne (verify enemy?) add)))
  (piece (name Archer) (moves (n (verify empty?) (capture e) add)))
  (piece (name Ghost) (moves ((go last-to) add)))
  (piece (name Mason) (drops ((verify empty?) add))))
"#;

    /// The positions `piece_type` may reach from `from`, by name.
    fn reached(table: &Reach, names: &Names, sweep: Sweep, piece_type: usize, from: &str) -> Vec<String> {
        let from = names.position_of[from];
        let mut out: Vec<String> = (0..names.positions.len()).filter(|&t| table.may_reach(sweep, piece_type, from, t)).map(|t| names.positions[t].clone()).collect();
        out.sort();
        out
    }

    #[test]
    fn moves_reach_along_their_steps_both_ways_a_symmetry_turns_them() {
        let zrf = Zrf::parse(std::path::Path::new("reach.zrf"), GAME.as_bytes()).unwrap();
        let v = &zrf.variants[0];
        let names = Names::new(&zrf, v).unwrap();
        let table = reach(&names, v).unwrap();
        // A slide: every square of its lines (north is south for Black;
        // its start, as a loop may come back).
        assert_eq!(reached(&table, &names, Sweep::Moves, 1, "c3"), ["c1", "c2", "c3", "c4", "c5", "d3", "e3"]);
        // A pawn's step north-east is south-east for Black: both.
        assert_eq!(reached(&table, &names, Sweep::Moves, 2, "c3"), ["d2", "d4"]);
        // A capture beside its path (and Black's north is south).
        assert_eq!(reached(&table, &names, Sweep::Moves, 3, "c3"), ["c2", "c4", "d2", "d4"]);
        // `go last-to`: anywhere.
        assert_eq!(reached(&table, &names, Sweep::Moves, 4, "a1").len(), 25);
        // A drop lands where it is tried; a piece with no drops reaches nothing by one.
        assert_eq!(reached(&table, &names, Sweep::Drops, 5, "b2"), ["b2"]);
        assert_eq!(reached(&table, &names, Sweep::Drops, 1, "b2"), Vec::<String>::new());
    }
}
