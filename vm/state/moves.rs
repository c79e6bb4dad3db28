//! Moves and move lists.
//!
//! A move is an ordered list of actions (board edits, literals, calls of
//! script words), run in order when the move is played. All moves of all
//! live move lists sit in two arenas; the lists nest like a stack
//! (`$GenerateMoves` pushes, `$DeallocateMoves` pops), so after warm-up
//! generating moves allocates nothing.
//!
//! A move handle, as scripts see it (`$FirstMove`), is the move's index in
//! the arena plus one; 0 ends a walk.
//!
//! Part of the game's plain state (`state/`): may touch the state floor
//! and the floor below, nothing above.

use super::buf::Buf;
use super::Game;

/// `repr(C, u32)`: native code writes edits (`jit/translate`), a tag in
/// declaration order and the fields after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, u32)]
pub enum Action {
    /// Move the content of `from` to `to` (replacing what was there).
    Move { from: i32, to: i32 },
    Capture(i32),
    /// Put this content (type | player) on the position: drops and creates.
    Place { pos: i32, content: i32 },
    ChangeType { pos: i32, piece_type: i32 },
    ChangeOwner { pos: i32, player: i32 },
    /// Push a number when the move is played (`COMPILE-LITERAL`).
    Lit(i32),
    /// Run a word when the move is played (`COMPILE`).
    Call(u32),
    /// Move what `from` held when the move began to `to` (`$Cascade`):
    /// `from` is emptied only if nothing of this move put a piece there,
    /// so a ring of pieces each moving one place on moves as one.
    Cascade { from: i32, to: i32 },
}

impl Default for Action {
    fn default() -> Self {
        Action::Lit(0)
    }
}

impl Action {
    /// The tags native code writes.
    pub const MOVE: u32 = 0;
    pub const CAPTURE: u32 = 1;
    pub const PLACE: u32 = 2;
    pub const CHANGE_TYPE: u32 = 3;
    pub const CHANGE_OWNER: u32 = 4;
    pub const LIT: u32 = 5;
    pub const CALL: u32 = 6;
    pub const CASCADE: u32 = 7;

    /// The positions an edit touches (twice the same for one); none for
    /// the others.
    pub fn positions(self) -> Option<[i32; 2]> {
        match self {
            Action::Move { from, to } | Action::Cascade { from, to } => Some([from, to]),
            Action::Capture(pos) | Action::Place { pos, .. } | Action::ChangeType { pos, .. } | Action::ChangeOwner { pos, .. } => Some([pos, pos]),
            Action::Lit(_) | Action::Call(_) => None,
        }
    }
}

/// No partial continuation.
pub const NOT_PARTIAL: i32 = -1;

/// `repr(C)`: native code writes moves of one edit (`jit/translate`).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct MoveRec {
    pub actions: u32,
    pub len: u32,
    pub move_type: i32,
    /// After this move the same player moves again, restricted to this move
    /// type (0: any); `NOT_PARTIAL` for an ordinary move.
    pub partial: i32,
    pub pass: bool,
}

impl MoveRec {
    pub fn is_partial(&self) -> bool {
        self.partial != NOT_PARTIAL
    }
}

/// The move lists, back to back: their moves, and the moves' edits. The
/// move being built (during generation) is the edits from `build` to the
/// end of `actions`, so adding it is writing its record, not copying it.
#[derive(Clone)]
pub struct MoveStore {
    pub moves: Buf<MoveRec>,
    pub actions: Buf<Action>,
    /// Start of each live list in `moves` and `actions`.
    pub lists: Vec<(usize, usize)>,
    /// Where the move being built starts in `actions` (its end: no edit).
    pub build: usize,
    /// Where the current list starts in `moves` (`NO_LIST`: there is
    /// none), as `lists` says: native code's `stalemate?` reads it.
    pub first: usize,
}

/// `MoveStore::first` when no list is live.
pub const NO_LIST: usize = usize::MAX;

impl Default for MoveStore {
    fn default() -> Self {
        MoveStore { moves: Buf::default(), actions: Buf::default(), lists: Vec::new(), build: 0, first: NO_LIST }
    }
}

impl MoveStore {
    pub fn push_list(&mut self) {
        self.first = self.moves.len();
        self.lists.push((self.first, self.actions.len()));
    }

    pub fn pop_list(&mut self) -> bool {
        match self.lists.pop() {
            Some((m, a)) => {
                self.first = self.lists.last().map_or(NO_LIST, |&(first, _)| first);
                self.moves.truncate(m);
                // A move being built above the list keeps its edits.
                let (start, end) = (self.build.min(self.actions.len()), self.actions.len());
                if a <= start && start < end {
                    self.actions.copy_within(start..end, a);
                    self.actions.truncate(a + (end - start));
                    self.build = a;
                } else {
                    self.actions.truncate(a);
                    self.build = start.min(a);
                }
                true
            }
            None => false,
        }
    }

    pub fn clear(&mut self) {
        self.moves.clear();
        self.actions.clear();
        self.lists.clear();
        self.build = 0;
        self.first = NO_LIST;
    }

    /// The bytes its buffers hold room for.
    pub fn reserved_bytes(&self) -> usize {
        self.moves.capacity() * std::mem::size_of::<MoveRec>() + self.actions.capacity() * std::mem::size_of::<Action>()
    }

    /// An edit and a move fit without growing a buffer.
    #[inline]
    pub fn has_room(&self) -> bool {
        self.actions.len() < self.actions.capacity() && self.moves.len() < self.moves.capacity()
    }

    /// The bytes the buffers that are full would add as they grow.
    pub fn growth_bytes(&self) -> usize {
        let full = |len: usize, cap: usize, grow: usize| if len < cap { 0 } else { grow };
        full(self.actions.len(), self.actions.capacity(), self.actions.growth_bytes()) + full(self.moves.len(), self.moves.capacity(), self.moves.growth_bytes())
    }

    /// An edit of the move being built.
    pub fn record(&mut self, a: Action) {
        self.actions.push(a);
    }

    /// Forgets the edits of the move being built.
    pub fn forget_building(&mut self) {
        self.actions.truncate(self.build);
        self.build = self.actions.len();
    }

    /// The move being built goes into the current list; the next starts
    /// empty.
    pub fn commit(&mut self, move_type: i32, partial: i32, pass: bool) {
        let (start, end) = (self.build.min(self.actions.len()), self.actions.len());
        self.moves.push(MoveRec { actions: start as u32, len: (end - start) as u32, move_type, partial, pass });
        self.build = end;
    }

    /// A move of no edit (a forced pass), whatever is being built.
    pub fn add_empty(&mut self, pass: bool) {
        let at = self.actions.len() as u32;
        self.moves.push(MoveRec { actions: at, len: 0, move_type: 0, partial: NOT_PARTIAL, pass });
    }

    /// Indices of the current (innermost) list's moves.
    pub fn current(&self) -> std::ops::Range<usize> {
        debug_assert_eq!(self.first, self.lists.last().map_or(NO_LIST, |&(first, _)| first));
        match self.first {
            NO_LIST => 0..0,
            first => first..self.moves.len(),
        }
    }

    pub fn count(&self) -> usize {
        self.current().len()
    }

    /// Move `m` puts a piece on `pos` or captures there.
    pub fn move_reaches(&self, m: usize, pos: i32) -> bool {
        let Some(r) = self.moves.get(m) else { return false };
        let actions = self.actions.get(r.actions as usize..(r.actions + r.len) as usize).unwrap_or(&[]);
        actions.iter().any(|a| match *a {
            Action::Move { to, .. } | Action::Cascade { to, .. } => to == pos,
            Action::Capture(p) => p == pos,
            Action::Place { pos: p, .. } => p == pos,
            _ => false,
        })
    }

    pub fn actions_of(&self, m: usize) -> &[Action] {
        let r = self.moves[m];
        &self.actions[r.actions as usize..(r.actions + r.len) as usize]
    }

    /// The handle after `handle` in the same list, or 0.
    pub fn next_handle(&self, handle: i32) -> i32 {
        let i = handle as usize; // index of the next move
        if handle <= 0 || i >= self.moves.len() {
            return 0;
        }
        // The list holding move `handle - 1` ends where the next list starts.
        let end = self.lists.iter().map(|&(m, _)| m).find(|&m| m > i - 1).unwrap_or(self.moves.len());
        if i < end {
            handle + 1
        } else {
            0
        }
    }

    /// Only the moves of the best priority class present survive; types not
    /// listed in `{move-priorities` rank below every listed one.
    pub fn apply_priorities(&mut self, priorities: &Priorities) {
        if priorities.listed.is_empty() {
            return;
        }
        let range = self.current();
        let (mut best, mut worst) = (u32::MAX, 0);
        for m in &self.moves[range.clone()] {
            let r = priorities.rank(m.move_type);
            best = best.min(r);
            worst = worst.max(r);
        }
        // Most lists hold moves of one class (a position without
        // captures): nothing to drop.
        if best >= worst {
            return;
        }
        let mut keep = range.start;
        for i in range {
            let m = self.moves[i];
            if priorities.rank(m.move_type) == best {
                self.moves[keep] = m;
                keep += 1;
            }
        }
        self.moves.truncate(keep);
    }
}

/// `{move-priorities`: the listed move types, highest priority first,
/// and their ranks by type where a table can hold them (move types are
/// small numbers unless a game gives a type a constant of its own), so
/// that ranking a move is a load, not a search with a branch per type.
#[derive(Clone, Debug, Default)]
pub struct Priorities {
    listed: Vec<i32>,
    /// By move type, its rank (`listed.len()`: not listed); empty when
    /// a listed type does not fit.
    by_type: Vec<u32>,
}

/// Move types below this are ranked by table.
const TABLED_TYPES: i32 = 1024;

impl Priorities {
    /// No move type is listed: moves are not ranked.
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty()
    }

    /// The move types ranked above `rank`, best first.
    pub fn above(&self, rank: u32) -> &[i32] {
        &self.listed[..(rank as usize).min(self.listed.len())]
    }

    pub fn new(listed: Vec<i32>) -> Priorities {
        let unlisted = listed.len() as u32;
        let mut by_type = Vec::new();
        if listed.iter().all(|&t| (0..TABLED_TYPES).contains(&t)) {
            by_type = vec![unlisted; listed.iter().max().map_or(0, |&t| t as usize + 1)];
            // The first listing of a type is its rank.
            for (rank, &t) in listed.iter().enumerate().rev() {
                if let Some(r) = by_type.get_mut(t as usize) {
                    *r = rank as u32;
                }
            }
        }
        Priorities { listed, by_type }
    }

    /// The rank of move type `t`: 0 for the first listed.
    #[inline]
    pub fn rank(&self, t: i32) -> u32 {
        let unlisted = self.listed.len() as u32;
        if self.by_type.is_empty() {
            return self.listed.iter().position(|&p| p == t).map_or(unlisted, |r| r as u32);
        }
        self.by_type.get(t as u32 as usize).copied().unwrap_or(unlisted)
    }
}

/// A move's text as the original Axiom wrote it, which is Zillions'
/// notation (the original handed these texts to Zillions, and its AutoPlay
/// logs and saved games show them). The parts follow the move's edits in
/// the order they were recorded, joined with spaces:
///
/// - a piece moved: `Man f3 - f4`, the name of the piece on the source
///   square, with ` x ` instead of ` - ` when the target square is
///   occupied on the board the move was generated on (`Man f5 x f4`; in
///   `Man e3 - e4 Man e2 x e3` the second target is occupied before the
///   move, though the first part empties it);
/// - a capture (`capture`, `capture-at`): `x d5`;
/// - a drop or create: its owner and type, `White Man e4`;
/// - a change of type on the square the previous part ended on (a
///   promotion): `= King` after it; elsewhere the piece as it becomes,
///   `White King e8`;
/// - a change of owner: nothing when the move has other parts (Othello's
///   flips follow from its drop), else the piece as it becomes;
/// - a move with none of these (an empty move, as `Pass` adds, or one that
///   only runs script words): `Pass`.
///
/// A part of a partial chain is a move of its own and reads like any
/// other. Call it while the board the move was generated on is current,
/// as `$MoveString`, `moves` and the engines do.
pub fn move_text(game: &Game, mem: &crate::memory::Memory, m: usize) -> String {
    let mut text = String::new();
    write_move_text(game, mem, m, &mut text, &mut Vec::new());
    text
}

/// `move_text` into `out`, with `placed` as scratch: both keep their
/// buffers, so an engine asking for texts all search long (`$MoveString`)
/// allocates nothing once they have grown.
pub fn write_move_text(game: &Game, mem: &crate::memory::Memory, m: usize, out: &mut String, placed: &mut Vec<(i32, i32)>) {
    out.clear();
    // The changes of owner are the text only when nothing else is.
    if !write_parts(game, mem, m, out, placed, false) && !write_parts(game, mem, m, out, placed, true) {
        out.push_str("Pass");
    }
}

/// Writes the parts of move m (`owners`: only its changes of owner);
/// answers whether it wrote any.
fn write_parts(game: &Game, mem: &crate::memory::Memory, m: usize, out: &mut String, placed: &mut Vec<(i32, i32)>, owners: bool) -> bool {
    use super::{PIECE_TYPE_MASK, PLAYER_MASK};
    use std::fmt::Write;
    let on_board = |pos: i32| game.board.get(mem, pos).unwrap_or(0);
    // What earlier parts of this move put where: a piece moved twice in
    // one move keeps its name.
    placed.clear();
    let now = |placed: &Vec<(i32, i32)>, pos: i32| placed.iter().rev().find(|&&(p, _)| p == pos).map_or_else(|| on_board(pos), |&(_, c)| c);
    let player = |v: i32| Name::player(game, v);
    let piece = |t: i32| Name::piece(game, t);
    let square = |pos: i32| Name::square(game, pos);
    let mut wrote = false;
    let mut part = |out: &mut String| {
        if wrote {
            out.push(' ');
        }
        wrote = true;
    };
    // The square the last part ended on, for `= Type`.
    let mut last: Option<i32> = None;
    for a in game.store.actions_of(m) {
        match *a {
            Action::Move { from, to } | Action::Cascade { from, to } => {
                // A cascade's piece is what stood there before the move,
                // and its square keeps what an earlier part put there.
                let cascade = matches!(*a, Action::Cascade { .. });
                let content = if cascade { on_board(from) } else { now(placed, from) };
                if !owners {
                    part(out);
                    if content != 0 {
                        let _ = write!(out, "{} ", piece(content & PIECE_TYPE_MASK));
                    }
                    let sep = if on_board(to) != 0 { "x" } else { "-" };
                    let _ = write!(out, "{} {sep} {}", square(from), square(to));
                }
                if !cascade || !placed.iter().any(|&(p, _)| p == from) {
                    placed.push((from, 0));
                }
                placed.push((to, content));
                last = Some(to);
            }
            Action::Capture(pos) => {
                if !owners {
                    part(out);
                    let _ = write!(out, "x {}", square(pos));
                }
                placed.push((pos, 0));
                last = None;
            }
            Action::Place { pos, content } => {
                if !owners {
                    part(out);
                    let _ = write!(out, "{} {} {}", player(content & PLAYER_MASK), piece(content & PIECE_TYPE_MASK), square(pos));
                }
                placed.push((pos, content));
                last = Some(pos);
            }
            Action::ChangeType { pos, piece_type } => {
                let before = now(placed, pos);
                if before == 0 {
                    continue; // changes nothing when played
                }
                let after = (before & !PIECE_TYPE_MASK) | (piece_type & PIECE_TYPE_MASK);
                if last == Some(pos) {
                    if !owners {
                        part(out);
                        let _ = write!(out, "= {}", piece(piece_type & PIECE_TYPE_MASK));
                    }
                } else {
                    if !owners {
                        part(out);
                        let _ = write!(out, "{} {} {}", player(after & PLAYER_MASK), piece(after & PIECE_TYPE_MASK), square(pos));
                    }
                    last = Some(pos);
                }
                placed.push((pos, after));
            }
            Action::ChangeOwner { pos, player: p } => {
                let before = now(placed, pos);
                if before == 0 {
                    continue;
                }
                let after = (before & !PLAYER_MASK) | (p & PLAYER_MASK);
                if owners {
                    part(out);
                    let _ = write!(out, "{} {} {}", player(after & PLAYER_MASK), piece(after & PIECE_TYPE_MASK), square(pos));
                }
                placed.push((pos, after));
            }
            Action::Lit(_) | Action::Call(_) => {}
        }
    }
    wrote
}

/// A player's, piece type's or square's name, written without building
/// a String.
enum Name<'a> {
    Text(&'a str),
    Numbered(&'static str, i32),
}

impl<'a> Name<'a> {
    fn player(game: &'a Game, value: i32) -> Name<'a> {
        match game.player(value & super::PLAYER_MASK) {
            Some(p) => Name::Text(&p.name),
            None => Name::Numbered("player ", value),
        }
    }

    fn piece(game: &'a Game, piece_type: i32) -> Name<'a> {
        match game.pieces.get((piece_type - 1) as usize) {
            Some(p) => Name::Text(&p.name),
            None => Name::Numbered("piece ", piece_type),
        }
    }

    fn square(game: &'a Game, pos: i32) -> Name<'a> {
        match game.board.names.get(pos as usize) {
            Some(n) => Name::Text(n),
            None => Name::Numbered("#", pos),
        }
    }
}

impl std::fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Name::Text(t) => f.write_str(t),
            Name::Numbered(prefix, n) => write!(f, "{prefix}{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Action, Priorities};

    /// Ranked by table or, for types a table cannot hold, by search: the
    /// same ranks, the first listing of a type counting.
    #[test]
    fn priorities_rank_listed_types_first_and_others_last() {
        for listed in [vec![3, 1, 3, 7], vec![3, 1, 3, 5000], vec![3, 1, 3, -2]] {
            let p = Priorities::new(listed.clone());
            let last = *listed.last().unwrap_or(&0);
            assert_eq!(p.by_type.is_empty(), !(0..super::TABLED_TYPES).contains(&last), "{listed:?}");
            for (t, rank) in [(3, 0), (1, 1), (last, 3), (0, 4), (2, 4), (8, 4), (1 << 20, 4), (-1, 4)] {
                assert_eq!(p.rank(t), rank, "type {t} of {listed:?}");
            }
        }
    }

    /// Native code writes edits as a tag and fields at fixed offsets.
    #[test]
    fn edits_are_laid_out_as_native_code_writes_them() {
        let cases = [
            (Action::Move { from: 3, to: 4 }, Action::MOVE, Some(4)),
            (Action::Capture(3), Action::CAPTURE, None),
            (Action::Place { pos: 3, content: 4 }, Action::PLACE, Some(4)),
            (Action::ChangeType { pos: 3, piece_type: 4 }, Action::CHANGE_TYPE, Some(4)),
            (Action::ChangeOwner { pos: 3, player: 4 }, Action::CHANGE_OWNER, Some(4)),
            (Action::Lit(3), Action::LIT, None),
            (Action::Call(3), Action::CALL, None),
            (Action::Cascade { from: 3, to: 4 }, Action::CASCADE, Some(4)),
        ];
        for (a, tag, y) in cases {
            let p = &a as *const Action as *const u32;
            // SAFETY: `repr(C, u32)`: the tag, then the variant's fields,
            // each in bounds of the 12 bytes of an `Action`.
            let (t, x) = unsafe { (p.read(), p.add(1).read()) };
            assert_eq!((t, x), (tag, 3), "{a:?}");
            if let Some(y) = y {
                assert_eq!(unsafe { p.add(2).read() }, y, "{a:?}");
            }
        }
    }
}
