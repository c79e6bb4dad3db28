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

use super::{JitCtx, JitMode, NativeFn, DEOPT, DONE, NATIVE_FRAMES, VERIFY};
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

    /// Runs a move word (the generator has set up its context) in its
    /// native code `f` (from `Vm::jit_move_word`; 0: it has none).
    /// `tolerant` is its frame's tolerance.
    pub(crate) fn run(&mut self, vm: &mut Vm, f: NativeFn) -> (MoveWordEnd, bool) {
        if self.caller.is_none() || f == 0 {
            return (MoveWordEnd::NotNative, false);
        }
        if let Some((left, reserve)) = self.refill {
            (vm.steps_left, vm.steps_reserve) = (left, reserve);
        }
        // As `enter_frame` leaves it, whatever a word before this one did.
        vm.tolerant = !vm.config.strict;
        let ctx: *mut JitCtx = vm.jit.ctx;
        // SAFETY: the context is the VM's own, filled when the batch
        // resumed and by every helper since: only these registers differ
        // from what `jit_fill` would write now.
        unsafe {
            (*ctx).steps = vm.steps_left;
            (*ctx).tos = self.tos;
            (*ctx).depth = 0;
            (*ctx).rdepth = self.rdepth;
            (*ctx).fp = self.base + 1;
        }
        vm.jit.entries += 1;
        // SAFETY: `f` was compiled for this VM; the context is filled.
        let status = unsafe { vm.jit_run(ctx, f) };
        // SAFETY: as above.
        vm.steps_left = unsafe { (*ctx).steps };
        let tolerant = vm.tolerant;
        let end = match status {
            DONE => MoveWordEnd::Done,
            VERIFY => MoveWordEnd::Verify,
            _ => {
                vm.jit_take(ctx);
                let result = if status == DEOPT {
                    vm.jit.deopts += 1;
                    // SAFETY: as above.
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
                // The interpreter ran: whatever it changed (memory grown,
                // code compiled) reaches the context.
                vm.fp = self.base + 1;
                vm.jit_fill(ctx);
                end
            }
        };
        (end, tolerant)
    }
}
