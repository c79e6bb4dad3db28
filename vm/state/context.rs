//! The generation context: what move words see while a generation runs
//! (`from`, `here`, the piece, the players, the move being built), and
//! the edits native code records into the move being built.
//!
//! Owns `Context`, the save and restore of a nested generation, and
//! `Recorded` (the direct words whose only work is to record an edit).
//! Plain data over `Game`'s move store: may touch the state floor and the
//! floor below; running move words is `game/generate.rs`'s.

use super::moves::{Action, NOT_PARTIAL};
use super::Game;

/// The state move words see.
#[derive(Clone, Default)]
pub struct Context {
    /// A move word is running: edits are recorded, not applied.
    pub active: bool,
    pub from: i32,
    pub here: i32,
    /// The piece being moved or dropped: type | owner.
    pub piece: i32,
    /// `current-player`: whose moves are generated (outside generation: the
    /// player to move).
    pub player: i32,
    /// The player whose pieces move (`{for-player}`), usually `player`.
    pub for_player: i32,
    /// Only moves of this type (0: all).
    pub of_type: i32,
    /// The move type of the move word running.
    pub move_type: i32,
    pub partial: i32,
    /// The move being built has edits (those from `MoveStore::build` on; read by the
    /// native generator loop, which leaves clearing them to the generator).
    pub pending: bool,
    pub pass_added: bool,
}

/// What a nested generation must put back.
pub struct Saved {
    active: bool,
    from: i32,
    here: i32,
    piece: i32,
    player: i32,
    for_player: i32,
    of_type: i32,
    move_type: i32,
    partial: i32,
    /// The edits of the move the outer generation was building, in the
    /// store's edits.
    building: std::ops::Range<usize>,
    pending: bool,
    pass_added: bool,
}

impl Game {
    /// An edit of the move being built.
    pub fn record(&mut self, a: Action) {
        self.store.record(a);
        self.gen.pending = true;
    }

    /// The move being built goes into the list; the next starts empty.
    #[inline]
    pub fn commit_move(&mut self, pass: bool) {
        let g = &mut self.gen;
        self.store.commit(g.move_type, g.partial, pass);
        g.pending = false;
        g.partial = NOT_PARTIAL;
    }

    /// Forgets the edits of a move not added.
    pub fn clear_actions(&mut self) {
        self.store.forget_building();
        self.gen.pending = false;
    }

    /// Saves what a generation nested in this one changes, and starts it.
    #[inline]
    pub fn save_generation(&mut self) -> Saved {
        let building = self.store.build.min(self.store.actions.len())..self.store.actions.len();
        self.store.build = self.store.actions.len();
        self.gen.save(building)
    }

    /// Puts back what `save_generation` saved. The nested generation's
    /// list stays (its caller frees it): the move the outer one was
    /// building goes on after it, its edits copied there.
    #[inline]
    pub fn restore_generation(&mut self, s: Saved) {
        let store = &mut self.store;
        let at = store.actions.len();
        if !s.building.is_empty() && s.building.end <= at {
            store.actions.extend_from_within(s.building.clone());
        }
        store.build = at;
        self.gen.restore(s);
    }
}

impl Context {
    fn save(&mut self, building: std::ops::Range<usize>) -> Saved {
        // The fields were stored one by one (the turn entered, the last
        // attempt set up).
        Saved {
            active: read_alone(&self.active),
            from: read_alone(&self.from),
            here: read_alone(&self.here),
            piece: read_alone(&self.piece),
            player: read_alone(&self.player),
            for_player: read_alone(&self.for_player),
            of_type: read_alone(&self.of_type),
            move_type: read_alone(&self.move_type),
            partial: read_alone(&self.partial),
            building,
            pending: std::mem::replace(&mut self.pending, false),
            pass_added: read_alone(&self.pass_added),
        }
    }

    fn restore(&mut self, s: Saved) {
        self.active = s.active;
        self.from = s.from;
        self.here = s.here;
        self.piece = s.piece;
        self.player = s.player;
        self.for_player = s.for_player;
        self.of_type = s.of_type;
        self.move_type = s.move_type;
        self.partial = s.partial;
        self.pending = s.pending;
        self.pass_added = s.pass_added;
    }
}

/// Reads `x` with a load of its own. For fields stored one by one just
/// before (native code's registers, the generation context): the compiler
/// would otherwise read neighbouring fields with one wide load, which
/// cannot take its value from the narrow stores still in flight and waits
/// for them to retire, a stall of a dozen cycles or more each time.
#[inline(always)]
pub fn read_alone<T: Copy>(x: &T) -> T {
    // SAFETY: a reference is valid for reads.
    unsafe { std::ptr::read_volatile(x) }
}

/// The direct words whose whole work during move generation is to record
/// an edit of the move being built (or to add the move): native code
/// runs them through one lean helper (`Vm::record_fast`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// `drop`, `create`: the current piece at `here`.
    PlaceCurrent,
    Move,
    Capture,
    CaptureAt,
    ChangeType,
    ChangeTypeAt,
    ChangeOwner,
    ChangeOwnerAt,
    AddMove,
    /// `COMPILE-LITERAL`: a literal for the words the move runs.
    Lit,
    /// `COMPILE name`: a word the move runs.
    Call,
}

impl Recorded {
    /// Added to an edit's code: the move is added right after the edit
    /// (an edit followed by `add-move`, in one call).
    pub const THEN_ADD: i32 = 0x100;

    /// As native code passes it.
    pub fn code(self) -> i32 {
        self as i32
    }

    /// The word a code names, and whether the move is added after it.
    #[inline(always)]
    pub fn from_code(code: i32) -> Option<(Recorded, bool)> {
        use Recorded::*;
        let then_add = code & Self::THEN_ADD != 0;
        // In declaration order: a code is its index.
        const ALL: [Recorded; 11] = [PlaceCurrent, Move, Capture, CaptureAt, ChangeType, ChangeTypeAt, ChangeOwner, ChangeOwnerAt, AddMove, Lit, Call];
        debug_assert!(ALL.iter().enumerate().all(|(i, r)| r.code() == i as i32));
        let what = *ALL.get(usize::try_from(code & !Self::THEN_ADD).ok()?)?;
        (!(then_add && what == AddMove)).then_some((what, then_add))
    }
}
