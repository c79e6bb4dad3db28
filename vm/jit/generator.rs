//! How the move generator enters the native code of move words.
//!
//! A generation runs thousands of move words one after another, most of
//! them ending within a few instructions at a failed `verify`. Entering
//! each as `run` would (a stack frame opened, the context filled from the
//! VM, the state taken back) costs more than the word itself. A
//! `MoveWords` batch opens the frame and fills the context once; each move
//! word then only resets the registers it starts from. Between move words
//! the VM is left as it is inside the batch's frame (only native code and
//! the generator's loop run meanwhile); anything else, a move word
//! without native code or one that deoptimizes, is run with the batch
//! suspended or followed by a full refill, exactly as `execute` would.
//!
//! Owns `MoveWords`; touches the VM's stacks, frames and step budget,
//! never the game state (the generator sets `from`, `here`… itself).

use super::guard::{Guard, GUARD_CALLS, GUARD_CELLS, GUARD_LEN, GUARD_STEPS};
use super::translate::{self, Driver};
use super::{JitCtx, JitMode, NativeFn, DEOPT, NATIVE_FRAMES};
use std::cell::Cell;
use crate::error::{ErrorKind, VmError};
use crate::vm::{Frame, StackFrame, Vm, HOST_RETURN};

/// How an attempt the generator takes over ended.
pub(crate) enum MoveWordEnd {
    /// It has no native code (yet): the caller runs it with `execute`,
    /// the batch suspended.
    NotNative,
    Done,
    /// It ended leaving this many cells on its stack.
    Left(u32),
    /// A `verify` failed.
    Verify,
    Failed(VmError),
}

/// A move word as the generator plans it: what `driver` reads.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct MoveWordCode {
    /// Its native code (0: none yet).
    pub native: NativeFn,
    pub xt: u32,
    /// Where its code starts.
    pub entry: crate::ops::Addr,
    pub move_type: i32,
    /// The tests it makes first (`guard.rs`), which the driver makes
    /// before entering it, since most attempts end there.
    pub guard: Guard,
    /// What a drop sweep's scan checks for it when it is the sweep's one
    /// word (`Guard::drop_scan`; 0 without native code).
    pub drop_scan: u32,
}

/// A word's guard as the driver checks it: `n` squares, each `here`
/// stepped along `dirs[i]` from the last (from the attempt's square
/// first; `NO_STEP`: where it is), whose content must be of `classes[i]`.
/// Made once per plan (`guard_checks`), so that the driver's test of an
/// attempt, where most end, is a few loads and compares.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct GuardCheck {
    pub dirs: [u32; GUARD_LEN],
    pub classes: [u32; GUARD_LEN],
    pub n: u32,
}

/// The checks of a plan's `words` (`drops`: its drop spans), by word: when
/// each attempt starts with a budget and stacks a guard's prefix cannot
/// exhaust (index 1, as `MoveWords::prepare_guards` finds), every square of a guard; else the
/// free ones. A drop sweep's scan checks the first square of a drop word
/// alone in its sweep (`Guard::drop_scan`), which is left out.
pub(crate) fn guard_checks(words: &[MoveWordCode], drops: &[[u32; 2]]) -> [Vec<GuardCheck>; 2] {
    [false, true].map(|guarded| {
        let check = |(i, code): (usize, &MoveWordCode)| {
            let g = &code.guard;
            let n = if code.native == 0 { 0 } else if guarded { g.len } else { g.free } as usize;
            let alone = drops.iter().any(|&[start, end]| start as usize == i && end as usize == i + 1);
            let scanned = alone && code.drop_scan != 0;
            let mut check = GuardCheck::default();
            for sq in g.squares.get((scanned as usize).min(n)..n).unwrap_or_default() {
                let k = check.n as usize;
                let (Some(dir), Some(classes)) = (check.dirs.get_mut(k), check.classes.get_mut(k)) else { break };
                (*dir, *classes) = (sq.dir, sq.classes);
                check.n += 1;
            }
            check
        };
        words.iter().enumerate().map(check).collect()
    })
}

/// A plan's own generator loop (`translate::driver` with the plan's
/// shape), made once the plan has run `PLAN_LOOP_USES` times, so that a
/// plan made anew at every generation never costs a compilation.
#[derive(Default)]
pub(crate) struct PlanLoop {
    uses: Cell<u32>,
    /// Where `Jit::ask_plan_driver` keeps the answer, once asked.
    asked: Cell<Option<u32>>,
    /// The loop, and the number of positions it was made for.
    made: Cell<Option<(Driver, u64)>>,
}

const PLAN_LOOP_USES: u32 = 32;

impl PlanLoop {
    /// Counts a use of the plan of `words` (its move and drop spans,
    /// `checks` its guards as `guard_checks` made them), making its loop
    /// when due.
    pub(crate) fn note_use(&self, vm: &mut Vm, words: &[MoveWordCode], spans: [&[[u32; 2]]; 2], checks: &[Vec<GuardCheck>; 2]) {
        let uses = self.uses.get();
        if uses > PLAN_LOOP_USES {
            if let Some(index) = self.asked.get() {
                if let Some(made) = vm.jit.plan_driver(index) {
                    self.asked.set(None);
                    self.made.set(made.map(|f| (f, vm.game.board.positions as u64)));
                }
            }
            return;
        }
        self.uses.set(uses + 1);
        if uses < PLAN_LOOP_USES || vm.jit.mode == JitMode::Off {
            return;
        }
        let mut followed = vec![false; words.len()];
        for &[start, end] in spans.iter().flat_map(|s| s.iter()) {
            for w in start..end.saturating_sub(1) {
                if let Some(f) = followed.get_mut(w as usize) {
                    *f = true;
                }
            }
        }
        let positions = vm.game.board.positions as u64;
        let shape = translate::PlanShape { checks: &checks[1], followed: &followed, positions };
        if let Some(index) = vm.jit.ask_plan_driver(&shape) {
            match vm.jit.plan_driver(index) {
                Some(made) => self.made.set(made.map(|f| (f, positions))),
                None => self.asked.set(Some(index)),
            }
        }
    }
}

/// `Drive::drop_requires`.
pub(crate) const DROP_EMPTY: u32 = 1;
pub(crate) const DROP_TAKEN: u32 = 2;

/// The driver ran every attempt of its sweep.
pub(crate) const DRIVE_FINISHED: u32 = 0;
/// The attempt at the cursor has no native code.
pub(crate) const DRIVE_NOT_NATIVE: u32 = 4;
/// The attempt at the cursor ended leaving edits of a move it did not
/// add: they must be cleared before the next.
pub(crate) const DRIVE_PENDING: u32 = 5;
/// The next square cannot be read natively: the generator moves the
/// cursor on (and reports what there is to report).
pub(crate) const DRIVE_ADVANCE: u32 = 6;
/// The attempt at the cursor ended leaving cells on its stack
/// (`Drive::left` of them): the generator says so (`cells_left`).
pub(crate) const DRIVE_LEFT: u32 = 7;

/// A sweep of the generator, as `driver` runs it: for each position from
/// `pos` to `pos_end`, either (`scan`) the move words of the piece of
/// `for_player` found there, by its type (`spans`), or the drop words
/// `first..first_end`. Its cursor (`pos`, `word`, `word_end`, `piece`) is
/// the attempt of word `word` at `pos` while `word < word_end`, else the
/// end of the attempts at `pos`; the driver and the generator both move
/// it on. Also the registers each attempt starts from.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Drive {
    pub words: *const MoveWordCode,
    /// By piece type (index 0 unused), its move words in `words`.
    pub spans: *const [u32; 2],
    pub types: u32,
    pub for_player: i32,
    pub scan: u8,
    /// Each attempt starts with `steps` (and `reserve`), or (0) goes on
    /// with what the last left.
    pub refill: u8,
    pub tolerant: u8,
    pub first: u32,
    pub first_end: u32,
    /// What the drop word of a sweep of one drop word verifies first of
    /// its square (`DROP_EMPTY`, `DROP_TAKEN`: its guard's first square,
    /// free), so that the driver passes the squares where it would fail
    /// without entering it (and does not test them again); 0: no such
    /// sweep, or no such test.
    pub drop_requires: u32,
    /// The words' guards as this sweep checks them, by word (null: none
    /// is), over the board's cells and the directions as the player to
    /// move sees them (`Board::walk` from that player's block, a row of
    /// `walk_positions` per direction), both valid for every square and
    /// direction they ask (`MoveWords::prepare_guards`).
    pub guard_checks: *const GuardCheck,
    pub guard_cells: *const i32,
    pub guard_walk: *const i32,
    pub walk_positions: u64,
    pub player: i32,
    pub pos: i32,
    pub word: u32,
    pub word_end: u32,
    pub piece: i32,
    pub pos_end: i32,
    /// The cells the scans read, and where they stop: the end of the sweep
    /// or of the cells, whichever comes first (which one it was is sorted
    /// out after). Set for each run of the loop (`MoveWords::drive`).
    pub scan_cells: *const i32,
    pub scan_limit: u64,
    pub tos: i32,
    pub rdepth: u32,
    pub fp: u32,
    pub steps: u64,
    pub reserve: u64,
    /// Attempts entered.
    pub entries: u64,
    /// With `DRIVE_LEFT`: how many cells the attempt left.
    pub left: u32,
    /// The loop that runs it: its plan's own, or (`None`) the generic one.
    pub driver: Option<Driver>,
}

impl Drive {
    /// A sweep with its cursor before position `from`.
    pub(crate) fn new(words: &[MoveWordCode], spans: &[[u32; 2]], for_player: i32, from: i32, pos_end: i32) -> Drive {
        Drive {
            words: words.as_ptr(),
            spans: spans.as_ptr(),
            types: spans.len().saturating_sub(1) as u32,
            for_player,
            scan: 1,
            refill: 0,
            tolerant: 0,
            first: 0,
            first_end: 0,
            drop_requires: 0,
            guard_checks: std::ptr::null(),
            guard_cells: std::ptr::null(),
            guard_walk: std::ptr::null(),
            walk_positions: 0,
            player: 0,
            pos: from - 1,
            word: 0,
            word_end: 0,
            piece: 0,
            pos_end,
            scan_cells: std::ptr::null(),
            scan_limit: 0,
            tos: 0,
            rdepth: 0,
            fp: 0,
            steps: 0,
            reserve: 0,
            entries: 0,
            left: 0,
            driver: None,
        }
    }

    /// The sweep of the drop words `first..first_end` of `piece` at every
    /// position of `from..pos_end`.
    pub(crate) fn drops(mut self, words: &[MoveWordCode], [first, first_end]: [u32; 2], piece: i32) -> Drive {
        (self.scan, self.first, self.first_end, self.piece) = (0, first, first_end, piece);
        if let [code] = words[first as usize..first_end as usize] {
            self.drop_requires = code.drop_scan;
        }
        self
    }
}

/// How a `MoveWords::drive` stopped.
pub(crate) enum DriveEnd {
    /// Every attempt ran, natively, to its end.
    Finished,
    /// The cursor is to be moved on by the generator.
    Advance,
    /// There is no native loop (the JIT is off, or the batch is closed):
    /// the generator runs the sweep itself.
    Unavailable,
    /// The attempt at the cursor needs the generator: it has not run
    /// (`NotNative`), or it ended (`Done`, `Verify`, `Failed`) and the
    /// generator finishes it, then drives on from the next.
    Stopped { end: MoveWordEnd, tolerant: bool },
}

/// A run of move words entered natively, in one stack frame of their own.
pub(crate) struct MoveWords {
    /// The generator's stack, put back when the batch ends (`None`: the
    /// batch is closed, every move word goes the interpreter's way).
    caller: Option<StackFrame>,
    /// The generator's top cell: a move word starts with it as `tos`, as
    /// `execute` in a fresh frame would.
    tos: i32,
    /// The host frame's index; move words start at `base + 1`.
    base: u32,
    rdepth: u32,
    /// Each move word gets a fresh step budget (the host runs it):
    /// `(steps_left, steps_reserve)` as `refill_steps` sets them; or
    /// (`None`) they share their caller's.
    refill: Option<(u64, u64)>,
}

/// An interpreted attempt of a move word being timed (`payback::Timed`).
pub(crate) struct AttemptTimer {
    entry: crate::ops::Addr,
    start: std::time::Instant,
}

/// A move word's attempts between two timed, after its first ones.
const TIME_EVERY: u32 = 16;

/// How to run an attempt of a move word (`jit_move_word_tried`).
pub(crate) struct Attempt {
    pub timer: Option<AttemptTimer>,
    /// The JIT looked at the word: it may have native code now, and the
    /// call through `execute` takes it. Else the attempt is interpreted
    /// without a look (`Vm::run_interpreted`).
    pub asked: bool,
}

impl Vm {
    /// Counts a try of move word `xt` (code at `entry`), which has no
    /// native code in the generator's plan, as a call from native code, so
    /// that `auto` compiles a move word the generator tries often. Answers
    /// how to run this attempt.
    ///
    /// The JIT's slot for the word is read (a cache miss: slots lie a
    /// definition apart) only at its first attempts and one in
    /// `UNPAID_SKIP` after: each of those looks whether it is due (and
    /// whether an unpaid one is now paid for, `payback.rs`). Under `auto`,
    /// some attempts are timed (`payback::Timed`): the first ones but the
    /// very first (its code and data cold, it took up to a hundred times
    /// the others), then one in `TIME_EVERY`.
    pub(crate) fn jit_move_word_tried(&mut self, xt: u32, entry: crate::ops::Addr) -> Attempt {
        let mut attempt = Attempt { timer: None, asked: false };
        if self.jit.mode == JitMode::Off {
            return attempt;
        }
        let tries = &mut self.jit.move_tries;
        if tries.len() <= xt as usize {
            tries.resize(xt as usize + 1, 0);
        }
        let Some(count) = tries.get_mut(xt as usize) else { return attempt };
        let n = *count;
        *count = n.saturating_add(1);
        let early = n < 2 * super::AUTO_CALLS as u32;
        if early || n.is_multiple_of(super::UNPAID_SKIP) {
            attempt.asked = true;
            self.jit_cover_code();
            let Some(&slot) = self.jit.slots.get(entry as usize) else { return attempt };
            if slot == super::UNPAID {
                // The call that runs it looks (`jit_enter`).
                self.jit.unpaid_skip = 0;
            } else {
                if self.jit.mode == JitMode::Auto && slot == 0 {
                    // Known as a move word from its first attempt: a loop
                    // in it does not make it hot at once (`jit_count`),
                    // its timings do.
                    self.jit.timed.entry(entry).or_default();
                }
                self.jit_native(entry, true);
            }
        }
        if self.jit.mode == JitMode::Auto && ((early && n > 0) || n.is_multiple_of(TIME_EVERY)) {
            attempt.timer = Some(AttemptTimer { entry, start: std::time::Instant::now() });
        }
        attempt
    }

    /// An attempt `jit_move_word_tried` timed has ended.
    pub(crate) fn jit_move_word_ran(&mut self, timer: AttemptTimer) {
        let timed = self.jit.timed.entry(timer.entry).or_default();
        timed.spent += timer.start.elapsed();
        timed.calls += 1;
    }

    /// The native code the move word whose code starts at `entry` has
    /// now (0: none), its call not counted.
    pub(crate) fn jit_move_word_made(&self, entry: crate::ops::Addr) -> NativeFn {
        self.jit.slots.get(entry as usize).copied().filter(|&slot| slot >= super::COUNT_LIMIT).unwrap_or(0)
    }

}

impl MoveWords {
    /// Opens a batch (closed when the JIT is off or the stacks leave no
    /// room: every move word then runs as `execute` runs it, which
    /// reports what there is to report).
    pub(crate) fn begin(vm: &mut Vm) -> MoveWords {
        let refill = (vm.run_nesting == 0).then(|| {
            let saved = (vm.steps_left, vm.steps_reserve);
            vm.refill_steps();
            let fresh = (vm.steps_left, vm.steps_reserve);
            (vm.steps_left, vm.steps_reserve) = saved;
            fresh
        });
        let mut batch = MoveWords { caller: None, tos: 0, base: 0, rdepth: 0, refill };
        batch.resume(vm);
        batch
    }

    // Inline: a batch written field by field in a call, then moved whole
    // by its caller, would stall on the move (see `read_alone`).
    #[inline(always)]
    pub(crate) fn resume(&mut self, vm: &mut Vm) {
        if vm.jit.mode == JitMode::Off || vm.run_nesting >= crate::interp::MAX_RUN_NESTING {
            return;
        }
        // No generator loop to run yet (the compiler thread is making
        // it): every attempt is interpreted, as when off, without a
        // native frame opened and closed around each.
        if vm.jit.driver.is_none() && !vm.jit.has_plan_loops() {
            return;
        }
        let base = vm.fp;
        if base >= NATIVE_FRAMES || base >= vm.config.return_depth {
            return;
        }
        let tos = vm.tos;
        let Ok(caller) = vm.enter_frame() else { return };
        vm.jit_cover_code();
        self.caller = Some(caller);
        self.tos = tos;
        self.base = base;
        self.rdepth = vm.rdepth;
        vm.stacks.frames[base as u16 as usize] = Frame { ret: HOST_RETURN, rdepth: self.rdepth };
        vm.fp = base + 1;
        vm.run_nesting += 1;
        let ctx = vm.jit.ctx;
        vm.jit_fill(ctx);
    }

    /// Puts the generator's state back (the batch may resume later).
    pub(crate) fn suspend(&mut self, vm: &mut Vm) {
        if let Some(caller) = self.caller.take() {
            vm.run_nesting -= 1;
            vm.fp = self.base;
            vm.rdepth = self.rdepth;
            vm.leave_frame(caller);
        }
    }

    /// Whether move words run in the batch's native frame now (not
    /// closed, not suspended).
    pub(crate) fn is_open(&self) -> bool {
        self.caller.is_some()
    }

    /// Closes the batch.
    pub(crate) fn end(mut self, vm: &mut Vm) {
        self.suspend(vm);
    }

    /// Sets up the guards of sweep `d`, from a plan's `checks`
    /// (`guard_checks`), whose steps go along directions up to `max_dir`,
    /// and its own loop when it has one made for what the sweep checks.
    pub(crate) fn prepare_guards(&self, vm: &Vm, d: &mut Drive, checks: &[Vec<GuardCheck>; 2], max_dir: Option<u32>, own: &PlanLoop) {
        // A closed batch never enters the native loop, which alone reads them.
        if self.caller.is_none() {
            return;
        }
        let board = &vm.game.board;
        // The cells as native code reads them (null when it cannot), filled
        // when the batch resumed; every position is one.
        // SAFETY: the context is the VM's own.
        let (cells, len) = unsafe { ((*vm.jit.ctx).board, (*vm.jit.ctx).board_len) };
        let symmetry = crate::state::player_index(vm.game.gen.player).min(board.walk_last() as usize);
        let block = symmetry * board.walk_stride as usize;
        let needed = max_dir.map_or(0, |dir| (dir as usize + 1) * board.positions);
        let on_board = !cells.is_null() && d.pos_end as i64 <= len as i64 && len as usize == board.positions;
        let walk = board.walk.get(block..).filter(|w| needed <= w.len());
        let (true, Some(walk)) = (on_board, walk) else { return };
        let cfg = &vm.config;
        let fp = self.base + 1;
        let roomy = cfg.stack_depth > GUARD_CELLS + 1 && fp + GUARD_CALLS < cfg.return_depth;
        let guarded = self.refill.is_some_and(|(steps, _)| steps >= GUARD_STEPS) && roomy;
        d.guard_checks = checks[guarded as usize].as_ptr();
        d.guard_cells = cells;
        d.guard_walk = walk.as_ptr();
        d.walk_positions = board.positions as u64;
        d.player = vm.game.gen.player;
        d.driver = own.made.get().filter(|&(_, positions)| guarded && positions == d.walk_positions).map(|(f, _)| f);
    }

    /// Runs the sweep `d` natively from its cursor until an attempt needs
    /// the generator. The generation context is `active`;
    /// the driver sets `from`, `here`, the piece and the move type of
    /// each attempt.
    pub(crate) fn drive(&mut self, vm: &mut Vm, d: &mut Drive) -> DriveEnd {
        if d.driver.is_none() && vm.jit.driver.is_none() {
            // The generic loop comes from the compiler thread, asked for
            // by the first generation: look whether it has come.
            vm.jit.ask_driver();
            vm.jit.poll();
        }
        let Some(driver) = d.driver.or(vm.jit.driver) else { return DriveEnd::Unavailable };
        if self.caller.is_none() {
            return DriveEnd::Unavailable;
        }
        let (refill, (steps, reserve)) = match self.refill {
            Some(r) => (1, r),
            None => (0, (0, 0)),
        };
        d.tos = self.tos;
        d.rdepth = self.rdepth;
        d.fp = self.base + 1;
        (d.refill, d.steps, d.reserve) = (refill, steps, reserve);
        d.tolerant = !vm.config.strict as u8;
        d.entries = 0;
        let ctx: *mut JitCtx = vm.jit.ctx;
        // SAFETY: the context is the VM's own, filled when the batch
        // resumed and by every helper since (as in `run`); `d` and the
        // plan it points into (the generator's own buffers, which no move
        // word can reach) outlive the call.
        let status = unsafe {
            (*ctx).steps = vm.steps_left;
            d.scan_cells = (*ctx).board;
            d.scan_limit = (d.pos_end.max(0) as u64).min((*ctx).board_len);
            driver(ctx, d)
        };
        vm.jit.entries += d.entries;
        // SAFETY: as above.
        vm.steps_left = unsafe { (*ctx).steps };
        let tolerant = vm.tolerant;
        let end = match status {
            DRIVE_FINISHED => return DriveEnd::Finished,
            DRIVE_ADVANCE => return DriveEnd::Advance,
            DRIVE_NOT_NATIVE => MoveWordEnd::NotNative,
            DRIVE_PENDING => MoveWordEnd::Done,
            DRIVE_LEFT => MoveWordEnd::Left(d.left),
            _ => self.finish(vm, status),
        };
        DriveEnd::Stopped { end, tolerant }
    }

    /// A move word stopped in native code with `status` (`DEOPT` or
    /// `ERROR`): the interpreter finishes it, and the context is filled
    /// again for the next.
    fn finish(&mut self, vm: &mut Vm, status: u32) -> MoveWordEnd {
        let ctx: *mut JitCtx = vm.jit.ctx;
        vm.jit_take(ctx);
        let result = if status == DEOPT {
            // SAFETY: the context is the VM's own.
            let ip = unsafe { (*ctx).ip };
            vm.jit_deopted(ip);
            vm.dispatch(ip)
        } else {
            Err(vm.jit_error())
        };
        let end = match vm.end_frame(result, self.base, self.rdepth) {
            Ok(()) if vm.depth > 0 => MoveWordEnd::Left(vm.depth),
            Ok(()) => MoveWordEnd::Done,
            Err(e) if matches!(e.kind, ErrorKind::Verify) => MoveWordEnd::Verify,
            Err(e) => MoveWordEnd::Failed(e),
        };
        // The interpreter ran: whatever it changed (memory grown, code
        // compiled) reaches the context.
        vm.fp = self.base + 1;
        vm.jit_fill(ctx);
        end
    }
}
