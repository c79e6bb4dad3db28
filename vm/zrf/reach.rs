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
//! point). A move may reach where the cursor stands at `add` (the piece
//! lands there), `cascade` and `to`, and a place argument (`capture a1`,
//! `(create n)`); not the squares the cursor only passes over (a block
//! that walks the whole board to find its own king before it moves a
//! step, as Zillions' Chess with mandatory captures does, reaches one
//! step away, not the board: before, every probe of that game ran every
//! enemy piece). A
//! construct this does not follow (`go last-to`, one not translated)
//! makes the piece type reach everywhere: the table may say too much,
//! never too little. Reads the names and the variant; knows nothing of
//! the VM.
//!
//! Measured (chess.zrf perft 5, 4,865,609 leaves): every move probed by
//! generating all enemy moves, 18.7 s; enemy pieces the table rules out
//! not run, 3.8 s; no probe at all for a plain move while no enemy piece
//! stands where it could reach the royal piece, 1.6 s; that answer kept
//! for the whole generation, 1.09 s; the test made by the game layer
//! over each list's moves (`game/royal.rs`, `{royal}`) instead of by
//! ForthScript at every `add`, 0.84 s; `zrf-add` without its log walks
//! when nothing was logged, 0.74 s (hand-written `scripts/chess`:
//! 0.37 s). Tried and
//! dropped: a generalised pin test (a move that changes no square of any
//! attacker's row, nor the attackers' squares, keeps the royal piece as
//! attacked as it was, asked once per generation): no gain (1.15 s
//! against 1.12 s in the same run), as a slider's row covers most of the
//! board and nearly every move touches one; it would need the squares
//! between an attacker and the royal piece, which a reach table does not
//! keep.

use super::forth_names::Names;
use super::model::Variant;
use super::sexpr::{Kind, Node};
use crate::state::reach::{Reach, Sweep};

type Bits = Vec<u64>;

/// A construct the analysis does not follow.
struct Unknown;

/// A move block with its names resolved, for the abstract run.
enum Op {
    /// A direction step of the cursor.
    Step(usize),
    /// `go`, or a position's name: the cursor goes there.
    Go(Place),
    /// `from` (and `cascade`), `mark`: set from the place.
    SetFrom(Place),
    SetMark(Place),
    /// `back`.
    Back,
    /// A place the move may end on or capture at: the cursor at `add`
    /// (the piece lands there) and at `cascade` and `to`; a place
    /// argument (`capture a1`, `(create n)`).
    Touch(Place),
    If(Vec<Op>, Vec<Op>),
    /// A loop; whether its body reads and sets only the cursor (its
    /// run depends on nothing else: see `Analysis::loops`).
    While(Vec<Op>, bool),
    /// An instruction that moves nothing.
    Nothing,
}

/// A place argument.
#[derive(Clone, Copy)]
enum Place {
    Here,
    Pos(usize),
    Dir(usize),
    From,
    Mark,
    Anywhere,
}

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

/// Steps of the abstract run (an instruction run over a set of
/// positions, a set stepped) a variant's analysis may take, at about
/// 4 ns a step: 0.16 s at most. Gwangsanghui (15 by 14, 26 pieces whose
/// every move walks the board three times) takes 11.6 M; Ragnarok 28 M.
/// A game whose moves would take more gets no table (its probes run
/// every piece).
const BUDGET: u64 = 40_000_000;


/// Rounds of a `while` before its sets are taken as every position.
const WIDEN_AFTER: usize = 32;

struct Analysis {
    /// Work left (`BUDGET`).
    budget: std::cell::Cell<u64>,
    positions: usize,
    words: usize,
    /// By direction and position, where the step leads (-1: off the
    /// board).
    links: Vec<Vec<i32>>,
    /// By direction, the directions it is for some player (symmetries).
    seen_as: Vec<Vec<usize>>,
    /// The runs of loops that read and set only the cursor, by loop and
    /// the cursor they start from: where it ends, and what they reach.
    loops: std::cell::RefCell<std::collections::HashMap<(usize, Bits), (Bits, Bits)>>,
}

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
    // A board so big the table would be huge: none (a probe runs every
    // piece).
    if Reach::bytes(positions, names.pieces.len()) > Reach::MAX_BYTES {
        return None;
    }
    let a = Analysis { budget: std::cell::Cell::new(BUDGET), positions, words, links, seen_as, loops: Default::default() };
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
            let blocks = decl.and_then(|r| r.args().iter().find(|a| a.is_form(keyword))).map(|l| l.args().iter().filter(|b| !b.is_form("move-type")).collect::<Vec<_>>()).unwrap_or_default();
            let program: Result<Vec<Vec<Op>>, Unknown> = blocks.iter().map(|b| compile(names, b.list().ok_or(Unknown)?)).collect();
            // Loops are known by their place in this program.
            a.loops.borrow_mut().clear();
            for from in 0..positions {
                let reached = match &program {
                    Ok(blocks) => a.from(from, blocks),
                    Err(Unknown) => vec![u64::MAX; words],
                };
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

/// A block's instructions as `Op`s.
fn compile(names: &Names, items: &[Node]) -> Result<Vec<Op>, Unknown> {
    let mut out = Vec::with_capacity(items.len());
    for n in items {
        compile_one(names, n, &mut out)?;
    }
    Ok(out)
}

/// A place argument: a position, a direction from the cursor, or
/// `from`/`mark` (`to`, `last-from`, `last-to`: anywhere).
fn place(names: &Names, n: &Node) -> Result<Place, Unknown> {
    let s = n.sym().ok_or(Unknown)?;
    let lower = s.to_lowercase();
    if names.as_position(s, false).is_some() {
        return names.position_of.get(&lower).map(|&p| Place::Pos(p)).ok_or(Unknown);
    }
    if let Some(&d) = names.direction_of.get(&lower) {
        return Ok(Place::Dir(d));
    }
    match lower.as_str() {
        "from" => Ok(Place::From),
        "mark" => Ok(Place::Mark),
        "to" | "last-from" | "last-to" => Ok(Place::Anywhere),
        _ => Err(Unknown),
    }
}

fn one_place(names: &Names, args: &[Node]) -> Result<Place, Unknown> {
    match args {
        [] => Ok(Place::Here),
        [a] => place(names, a),
        _ => Err(Unknown),
    }
}

fn compile_one(names: &Names, n: &Node, out: &mut Vec<Op>) -> Result<(), Unknown> {
    let op = match &n.kind {
        Kind::Str(_) => return Err(Unknown),
        Kind::Sym(s) => {
            let lower = s.to_lowercase();
            if let Some(&d) = names.as_direction(s, true).and(names.direction_of.get(&lower)) {
                Op::Step(d)
            } else if let Some(&p) = names.position_of.get(&lower) {
                Op::Go(Place::Pos(p))
            } else {
                match lower.as_str() {
                    "add" | "add-partial" | "add-copy" | "add-copy-partial" | "capture" | "to" => Op::Touch(Place::Here),
                    "flip" | "change-owner" => Op::Nothing,
                    // The piece moved so far lands here; the next part
                    // moves from here.
                    "cascade" => {
                        out.push(Op::Touch(Place::Here));
                        Op::SetFrom(Place::Here)
                    }
                    "from" => Op::SetFrom(Place::Here),
                    "mark" => Op::SetMark(Place::Here),
                    "back" => Op::Back,
                    _ => return Err(Unknown),
                }
            }
        }
        Kind::List(items) => {
            let Some(head) = n.head() else {
                for i in items.iter() {
                    compile_one(names, i, out)?;
                }
                return Ok(());
            };
            let args = n.args();
            let lower = head.to_lowercase();
            match lower.as_str() {
                // Tests move nothing (`adjacent-to-enemy?` comes back).
                "verify" => Op::Nothing,
                "if" => {
                    let rest = args.get(1..).ok_or(Unknown)?;
                    let split = rest.iter().position(|x| x.sym().is_some_and(|s| s.eq_ignore_ascii_case("else")));
                    let (then, otherwise) = match split {
                        Some(i) => (&rest[..i], &rest[i + 1..]),
                        None => (rest, &[][..]),
                    };
                    Op::If(compile(names, then)?, compile(names, otherwise)?)
                }
                "while" => {
                    let body = compile(names, args.get(1..).ok_or(Unknown)?)?;
                    let cursor_only = cursor_only(&body);
                    Op::While(body, cursor_only)
                }
                "add" | "add-partial" | "add-copy" | "add-copy-partial" => Op::Touch(Place::Here),
                "capture" | "to" | "create" | "change-type" => {
                    let is_type_or_player = |a: &Node| a.sym().is_some_and(|s| names.piece_of.contains_key(&s.to_lowercase()) || names.player_of.contains_key(&s.to_lowercase()));
                    let mut places = args.iter().filter(|a| !is_type_or_player(a)).peekable();
                    if places.peek().is_none() && lower != "change-type" {
                        // At the cursor.
                        out.push(Op::Touch(Place::Here));
                    }
                    for a in places {
                        out.push(Op::Touch(place(names, a)?));
                    }
                    Op::Nothing
                }
                "flip" | "change-owner" | "set-attribute" | "set-flag" | "set-position-flag" => Op::Nothing,
                "mark" => Op::SetMark(one_place(names, args)?),
                "from" => Op::SetFrom(one_place(names, args)?),
                "back" => Op::Back,
                "go" => Op::Go(one_place(names, args)?),
                "opposite" => {
                    let d = args.first().and_then(Node::sym).and_then(|s| names.direction_of.get(&s.to_lowercase()).copied()).ok_or(Unknown)?;
                    Op::Step(names.opposite.get(d).copied().flatten().ok_or(Unknown)?)
                }
                h if names.direction_of.contains_key(h) || super::forth_moves::BARE.contains(&h) => {
                    for i in items.iter() {
                        compile_one(names, i, out)?;
                    }
                    return Ok(());
                }
                _ => return Err(Unknown),
            }
        }
    };
    out.push(op);
    Ok(())
}

/// Whether `ops` read and set the cursor alone: no `from`, `mark` or
/// `back`.
fn cursor_only(ops: &[Op]) -> bool {
    let own = |p: &Place| !matches!(p, Place::From | Place::Mark);
    ops.iter().all(|op| match op {
        Op::Step(_) | Op::Nothing => true,
        Op::Go(p) | Op::Touch(p) => own(p),
        Op::SetFrom(_) | Op::SetMark(_) | Op::Back => false,
        Op::If(a, b) => cursor_only(a) && cursor_only(b),
        Op::While(_, own) => *own,
    })
}

impl Analysis {
    fn single(&self, p: usize) -> Bits {
        let mut b = vec![0; self.words];
        if let Some(w) = b.get_mut(p / 64) {
            *w |= 1 << (p % 64);
        }
        b
    }

    /// Every position the blocks may reach from `from`.
    fn from(&self, from: usize, blocks: &[Vec<Op>]) -> Bits {
        let mut reached = vec![0; self.words];
        for b in blocks {
            let start = self.single(from);
            let mut at = Cursor { here: start.clone(), from: start.clone(), mark: start };
            self.run(b, &mut at, &mut reached);
        }
        reached
    }

    fn step(&self, set: &Bits, d: usize) -> Bits {
        let mut out = vec![0; self.words];
        for (w, &bits) in set.iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                let p = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                for &d in &self.seen_as[d] {
                    if let Some(&q) = self.links[d].get(p) {
                        if q >= 0 && (q as usize) < self.positions {
                            if let Some(w) = out.get_mut(q as usize / 64) {
                                *w |= 1 << (q % 64);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn place(&self, p: Place, at: &Cursor) -> Bits {
        match p {
            Place::Here => at.here.clone(),
            Place::Pos(p) => self.single(p),
            Place::Dir(d) => self.step(&at.here, d),
            Place::From => at.from.clone(),
            Place::Mark => at.mark.clone(),
            Place::Anywhere => vec![u64::MAX; self.words],
        }
    }

    /// Every position is reached: nothing more to learn.
    fn full(&self, reached: &Bits) -> bool {
        reached.iter().enumerate().all(|(w, &bits)| {
            let n = self.positions.saturating_sub(w * 64).min(64);
            let want = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            bits & want == want
        })
    }

    /// A `while`: its body run to a fixed point.
    fn run_loop(&self, body: &[Op], at: &mut Cursor, reached: &mut Bits) {
        for round in 0.. {
            let mut next = at.clone();
            self.run(body, &mut next, reached);
            next.join(at);
            if next == *at || self.budget.get() == 0 || self.full(reached) {
                break;
            }
            // A loop still growing after as many rounds as the longest
            // line of a big board (a walk of the whole board by `next`
            // links) may be anywhere: what still grows (the cursor;
            // `from` and `mark` too if they do) is taken as every
            // position, and the body is run once more from there.
            if round == WIDEN_AFTER {
                let all = vec![u64::MAX; self.words];
                for (grown, was) in [(&mut next.here, &at.here), (&mut next.from, &at.from), (&mut next.mark, &at.mark)] {
                    if grown != was {
                        *grown = all.clone();
                    }
                }
            }
            *at = next;
        }
    }

    /// The abstract run of `ops`; stops early (with too little) once the
    /// budget is spent, which the caller checks, or once every position
    /// is reached.
    fn run(&self, ops: &[Op], at: &mut Cursor, reached: &mut Bits) {
        for op in ops {
            let left = self.budget.get();
            if left == 0 || self.full(reached) {
                return;
            }
            self.budget.set(left.saturating_sub(self.words as u64));
            match op {
                Op::Step(d) => at.here = self.step(&at.here, *d),
                Op::Go(p) => at.here = self.place(*p, at),
                Op::SetFrom(p) => at.from = self.place(*p, at),
                Op::SetMark(p) => at.mark = self.place(*p, at),
                Op::Back => at.here = at.mark.clone(),
                Op::Touch(p) => union(reached, &self.place(*p, at)),
                Op::If(then, otherwise) => {
                    let mut other = at.clone();
                    self.run(then, at, reached);
                    self.run(otherwise, &mut other, reached);
                    at.join(&other);
                }
                Op::While(body, true) => {
                    // Its run depends only on where the cursor enters: a
                    // walk of the whole board (`mark a0 (while (on-board?
                    // next) next …) back`), which a block runs from each
                    // of its piece's positions, is worked out once.
                    let key = (body.as_ptr() as usize, at.here.clone());
                    let known = self.loops.borrow().get(&key).cloned();
                    let (here, touched) = match known {
                        Some(known) => known,
                        None => {
                            let mut alone = Cursor { here: at.here.clone(), from: vec![0; self.words], mark: vec![0; self.words] };
                            let mut touched = vec![0; self.words];
                            self.run_loop(body, &mut alone, &mut touched);
                            if self.budget.get() > 0 {
                                self.loops.borrow_mut().insert(key, (alone.here.clone(), touched.clone()));
                            }
                            (alone.here, touched)
                        }
                    };
                    at.here = here;
                    union(reached, &touched);
                }
                Op::While(body, false) => self.run_loop(body, at, reached),
                Op::Nothing => {}
            }
        }
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
  (piece (name Mason) (drops ((verify empty?) add)))
  (piece (name Scout) (moves (mark a1 (while (on-board? e) e) back n (verify empty?) add))))
"#;

    /// The positions `piece_type` may reach from `from`, by name.
    fn reached(table: &Reach, names: &Names, sweep: Sweep, piece_type: usize, from: &str) -> Vec<String> {
        let from = names.position_of[from];
        let mut out: Vec<String> = (0..names.positions.len()).filter(|&t| table.may_reach(sweep, piece_type, from, t)).map(|t| names.positions[t].clone()).collect();
        out.sort();
        out
    }

    /// A walk longer than `WIDEN_AFTER` rounds, back to the start, then
    /// one step: the widened walk stays in the cursor, and only the step
    /// lands.
    #[test]
    fn a_long_walk_and_back_reaches_only_where_the_piece_lands() {
        let files: Vec<String> = (0..40).map(|i| format!("{}{}", (b'a' + i / 26) as char, (b'a' + i % 26) as char)).collect();
        let game = format!(
            r#"(game (title "Walk") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("{}" (10 0)) ("1" (0 10))) (directions (e 1 0) (w -1 0))))
  (piece (name Walker) (moves (mark (while (on-board? e) e) back e (verify empty?) add))))"#,
            files.join("/")
        );
        let zrf = Zrf::parse(std::path::Path::new("walk.zrf"), game.as_bytes()).unwrap();
        let v = &zrf.variants[0];
        let names = Names::new(&zrf, v).unwrap();
        let table = reach(&names, v).unwrap();
        assert_eq!(reached(&table, &names, Sweep::Moves, 1, "aa1"), ["ab1"]);
        assert_eq!(reached(&table, &names, Sweep::Moves, 1, "bm1"), ["bn1"]);
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
        // A walk of a row and back before the step: only the step lands.
        assert_eq!(reached(&table, &names, Sweep::Moves, 6, "c3"), ["c2", "c4"]);
    }
}
