//! The move generator's plans: for one generation's filters, the move
//! words of each piece type, flat, with their native code and guards, and
//! the plan's own generator loop once it has run often.
//!
//! Owns `Plan`, `PlanKey` and `Plans` (the plans kept for the next
//! generations, held by the `Jit`, since they are made from the code and
//! the native code). Plain data of the machine floor:
//! `game/generate.rs` makes and runs them.

use super::{GuardCheck, MoveWordCode, PlanLoop};

/// The plans generations keep for the next: emptied ones (`spare`), and
/// made ones to use again as they are (`kept`, each with its key beside
/// it: the search reads no plan). They depend on the code and the
/// declarations, which a game does not change (`PlanKey` says when they no
/// longer apply), so a VM put back for another game (`snapshot.rs`) keeps
/// them with the rest of the JIT's work.
#[derive(Default)]
pub(crate) struct Plans {
    pub(crate) spare: Vec<Plan>,
    pub(crate) kept: Vec<(PlanKey, std::rc::Rc<Plan>)>,
}

/// The move words a generation runs, by piece type: its own buffers (a
/// nested generation has others), which native code reads while move
/// words run.
#[derive(Default)]
pub(crate) struct Plan {
    pub(crate) words: Vec<MoveWordCode>,
    /// By piece type (index 0 unused), its move words and its drop words
    /// in `words`.
    pub(crate) moves: Vec<[u32; 2]>,
    pub(crate) drops: Vec<[u32; 2]>,
    /// What the plan was made from (`None`: a plan emptied for reuse).
    pub(crate) key: Option<PlanKey>,
    /// Some word has native code: only then is the generator's native
    /// loop asked for (and run).
    pub(crate) native: bool,
    /// Some word's guard is checked beyond what a drop sweep's scan
    /// checks (`MoveWords::prepare_guards`): as `checks` say, stepping
    /// along directions up to `max_dir`.
    pub(crate) guards: bool,
    pub(crate) checks: [Vec<GuardCheck>; 2],
    pub(crate) max_dir: Option<u32>,
    /// Its own generator loop, once it has run often.
    pub(crate) own_loop: PlanLoop,
    /// Its sweeps, in the order `run_plan` runs them: the scan of the
    /// board (`None`), if a piece type has move words, then the drops of
    /// each type that has drop words (their span in `words`, the type).
    /// Each run builds its `Drive` in place, field by field: a copy of a
    /// made one (a call of `memcpy`, for its size) would leave the fields
    /// set after it waiting for the copy's stores to retire.
    pub(crate) sweeps: Vec<Option<([u32; 2], i32)>>,
}

/// What a plan depends on: the pieces and move lists declared, the code
/// compiled (a word redefined moves both), the native code made, and the
/// generation's filters.
#[derive(Clone, Copy, PartialEq)]
pub(crate) struct PlanKey {
    pub(crate) words: usize,
    pub(crate) code: u32,
    /// `Jit::epoch`: native code thrown away since is not to be run.
    pub(crate) jit_epoch: u32,
    /// `Jit::compiled`: a word made native since is to be run so.
    pub(crate) natives: u32,
    pub(crate) pieces: usize,
    pub(crate) lists: usize,
    pub(crate) of_type: i32,
    pub(crate) types: usize,
}

/// Plans kept for the next generations (a search generates with
/// a few filters at most).
pub(crate) const KEPT_PLANS: usize = 8;
