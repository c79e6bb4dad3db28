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

use super::{JitCtx, JitMode, NativeFn, DEOPT, NATIVE_FRAMES};
use crate::error::{ErrorKind, VmError};
use crate::vm::{Frame, StackFrame, Vm, HOST_RETURN};

/// How a move word run by `MoveWords::run` ended.
pub(crate) enum MoveWordEnd {
    /// It has no native code (yet): the caller runs it with `execute`,
    /// the batch suspended.
    NotNative,
    Done,
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
    pub move_type: i32,
    /// What its first instruction requires of the square it starts on:
    /// `ANY_SQUARE`, or (`EMPTY_SQUARE`, `TAKEN_SQUARE`) a verify that the
    /// driver checks before entering it, since most attempts end there.
    pub requires: u32,
}

pub(crate) const ANY_SQUARE: u32 = 0;
pub(crate) const EMPTY_SQUARE: u32 = 1;
pub(crate) const TAKEN_SQUARE: u32 = 2;

/// The driver ran every attempt of its range.
pub(crate) const DRIVE_FINISHED: u32 = 0;
/// The attempt at (`pos`, `word`) has no native code.
pub(crate) const DRIVE_NOT_NATIVE: u32 = 4;
/// The attempt at (`pos`, `word`) ended leaving edits of a move it did not
/// add: they must be cleared before the next.
pub(crate) const DRIVE_PENDING: u32 = 5;

/// What `driver` runs and where it stopped: every word of `words` at every
/// position from `pos` to `pos_end` (starting at word `word`), with piece
/// `piece`; and the registers each attempt starts from.
#[repr(C)]
pub(crate) struct Drive {
    pub words: *const MoveWordCode,
    pub nwords: u32,
    pub pos: i32,
    pub pos_end: i32,
    pub word: u32,
    pub piece: i32,
    pub tos: i32,
    pub rdepth: u32,
    pub fp: u32,
    /// Each attempt starts with `steps` (and `reserve`), or (0) goes on
    /// with what the last left.
    pub refill: u8,
    pub tolerant: u8,
    pub steps: u64,
    pub reserve: u64,
    /// Attempts entered.
    pub entries: u64,
}

/// How a `MoveWords::drive` stopped.
pub(crate) enum DriveEnd {
    /// Every attempt ran, natively, to its end.
    Finished,
    /// The attempt of `word` at `pos` needs the generator: it has not
    /// run (`NotNative`), or it ended (`Done`, `Verify`, `Failed`) and
    /// the generator finishes it, then drives on from the next.
    Stopped { pos: i32, word: u32, end: MoveWordEnd, tolerant: bool },
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

impl Vm {
    /// The native code of the move word whose code starts at `entry` (0:
    /// none yet), for a generation to run it with `MoveWords::run`: a
    /// call counted as from native code, so `auto` compiles a move word
    /// the generator runs often.
    pub(crate) fn jit_move_word(&mut self, entry: crate::ops::Addr) -> NativeFn {
        if self.jit.mode == JitMode::Off {
            return 0;
        }
        self.jit_cover_code();
        self.jit_native(entry, true).unwrap_or(0)
    }

    /// What the move word whose code starts at `entry` requires first of
    /// the square it starts on (see `MoveWordCode::requires`).
    pub(crate) fn move_word_requires(&self, entry: crate::ops::Addr) -> u32 {
        match self.code.op(entry) {
            crate::ops::Op::GEmptyVerify => EMPTY_SQUARE,
            crate::ops::Op::GNotEmptyVerify => TAKEN_SQUARE,
            _ => ANY_SQUARE,
        }
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

    pub(crate) fn resume(&mut self, vm: &mut Vm) {
        if vm.jit.mode == JitMode::Off || vm.run_nesting >= crate::interp::MAX_RUN_NESTING {
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

    /// Closes the batch.
    pub(crate) fn end(mut self, vm: &mut Vm) {
        self.suspend(vm);
    }

    /// Runs the attempts of `words` at positions `pos..pos_end` (from word
    /// `word` at `pos`) natively for piece `piece`, until one needs the
    /// generator. The generation context is `active`; the driver sets
    /// `from`, `here`, the piece and the move type of each attempt.
    pub(crate) fn drive(&mut self, vm: &mut Vm, words: &[MoveWordCode], pos: i32, word: u32, pos_end: i32, piece: i32) -> DriveEnd {
        let Some(driver) = vm.jit.driver else {
            return DriveEnd::Stopped { pos, word, end: MoveWordEnd::NotNative, tolerant: false };
        };
        if self.caller.is_none() {
            return DriveEnd::Stopped { pos, word, end: MoveWordEnd::NotNative, tolerant: false };
        }
        let (refill, (steps, reserve)) = match self.refill {
            Some(r) => (1, r),
            None => (0, (0, 0)),
        };
        let mut d = Drive {
            words: words.as_ptr(),
            nwords: words.len() as u32,
            pos,
            pos_end,
            word,
            piece,
            tos: self.tos,
            rdepth: self.rdepth,
            fp: self.base + 1,
            refill,
            tolerant: !vm.config.strict as u8,
            steps,
            reserve,
            entries: 0,
        };
        let ctx: *mut JitCtx = vm.jit.ctx;
        // SAFETY: the context is the VM's own, filled when the batch
        // resumed and by every helper since (as in `run`); `d` outlives
        // the call, and `words` is the generator's own buffer, which no
        // move word can reach.
        let status = unsafe {
            (*ctx).steps = vm.steps_left;
            driver(ctx, &mut d)
        };
        vm.jit.entries += d.entries;
        // SAFETY: as above.
        vm.steps_left = unsafe { (*ctx).steps };
        let (pos, word, tolerant) = (d.pos, d.word, vm.tolerant);
        let end = match status {
            DRIVE_FINISHED => return DriveEnd::Finished,
            DRIVE_NOT_NATIVE => MoveWordEnd::NotNative,
            DRIVE_PENDING => MoveWordEnd::Done,
            _ => self.finish(vm, status),
        };
        DriveEnd::Stopped { pos, word, end, tolerant }
    }

    /// A move word stopped in native code with `status` (`DEOPT` or
    /// `ERROR`): the interpreter finishes it, and the context is filled
    /// again for the next.
    fn finish(&mut self, vm: &mut Vm, status: u32) -> MoveWordEnd {
        let ctx: *mut JitCtx = vm.jit.ctx;
        vm.jit_take(ctx);
        let result = if status == DEOPT {
            vm.jit.deopts += 1;
            // SAFETY: the context is the VM's own.
            let ip = unsafe { (*ctx).ip };
            vm.dispatch(ip)
        } else {
            Err(vm.jit_error())
        };
        let end = match vm.end_frame(result, self.base, self.rdepth) {
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
