//! The Rust that native code calls: native words, calls of words without
//! native code, deferred words, and the data-space words that allocate.
//!
//! One signature for all, `(ctx, a, b) -> i64`, so the code generator
//! imports one. Helpers that may run script or change the stacks are
//! *syncing*: native code has stored its state in the context before the
//! call and reloads it after; they answer a status (`DONE`, `DEOPT` with
//! `ctx.ip` set and the state untouched, `ERROR` with `Jit::error` set).
//! The others answer a value, or `REFUSE` when the instruction must be
//! left to the interpreter (which then raises the error or the warning).

use super::{JitCtx, DEOPT, DONE, ERROR, NATIVE_FRAMES};
use crate::ops::Addr;
use crate::state::{Action, Recorded};
use crate::vm::Vm;

pub type Helper = unsafe extern "C" fn(*mut JitCtx, i32, i32) -> i64;

/// "Let the interpreter run this instruction."
pub const REFUSE: i64 = i64::MIN;

/// The VM behind a context.
///
/// # Safety
/// `ctx` is the context `jit_fill` filled for a live VM that is running
/// native code (so no Rust reference to the VM is in use meanwhile).
unsafe fn vm<'a>(ctx: *mut JitCtx) -> &'a mut Vm {
    unsafe { &mut *(*ctx).vm }
}

/// Runs a syncing step on the VM: the context's state in, the VM's out.
unsafe fn synced(ctx: *mut JitCtx, step: impl FnOnce(&mut Vm) -> u32) -> u32 {
    let vm = unsafe { vm(ctx) };
    vm.jit_take(ctx);
    let status = step(vm);
    vm.jit_fill(ctx);
    status
}

fn deopt(vm: &mut Vm, at: Addr) -> u32 {
    // The state is as before the instruction at `at` (or as after the one
    // before it); `jit_fill` writes it back.
    vm.jit.resume = at;
    DEOPT
}

fn failed(vm: &mut Vm, e: crate::error::VmError) -> u32 {
    vm.jit.error = Some(e);
    ERROR
}

/// Enters the word at `entry` once its call frame is pushed: its native
/// code, or the interpreter (a deoptimization to the entry).
unsafe fn enter(ctx: *mut JitCtx, entry: Addr) -> u32 {
    let (fp, native) = {
        let vm = unsafe { vm(ctx) };
        (vm.fp, vm.jit_native(entry, true))
    };
    let native = native.filter(|_| fp < NATIVE_FRAMES);
    let vm = unsafe { vm(ctx) };
    vm.jit_fill(ctx);
    match native {
        // SAFETY: compiled for this VM; the context is filled.
        Some(f) => unsafe { vm.jit_run(ctx, f) },
        None => {
            unsafe { (*ctx).ip = entry };
            DEOPT
        }
    }
}

/// Finishes a syncing helper's status: `DEOPT` carries its address.
unsafe fn status(ctx: *mut JitCtx, s: u32) -> i64 {
    if s == DEOPT {
        let vm = unsafe { vm(ctx) };
        unsafe { (*ctx).ip = vm.jit.resume };
    }
    s as i64
}

/// `Call` to a word without native code yet (frame pushed).
pub unsafe extern "C" fn call(ctx: *mut JitCtx, target: i32, _at: i32) -> i64 {
    unsafe {
        let vm = vm(ctx);
        vm.jit_take(ctx);
        enter(ctx, target as Addr) as i64
    }
}

/// `AXFORTH_JIT_STATS`: one more call of native word `id` at `at`.
fn count_host(vm: &mut Vm, id: i32, at: i32) {
    if let Some(calls) = &mut vm.jit.host_calls {
        *calls.entry((id as u32, at as Addr)).or_default() += 1;
    }
}

pub unsafe extern "C" fn host(ctx: *mut JitCtx, id: i32, at: i32) -> i64 {
    unsafe {
        let s = synced(ctx, |vm| {
            count_host(vm, id, at);
            let layout = vm.game.board.layout;
            match vm.host_step(id as u32, at as Addr) {
                // The word changed the board's layout, which the code that
                // called it may have built in: the interpreter goes on.
                Ok(()) if vm.game.board.layout != layout => deopt(vm, at as Addr + 1),
                Ok(()) => DONE,
                Err(e) => failed(vm, e),
            }
        });
        status(ctx, s)
    }
}

/// A direct word (`HostRun::Direct`) on arguments `a`, `b`: its result,
/// or `REFUSE` when it failed (having changed nothing, it is run again by
/// the interpreter, which reports the error).
pub unsafe extern "C" fn direct(ctx: *mut JitCtx, id: i32, at: i32, a: i32, b: i32) -> i64 {
    let vm = unsafe { vm(ctx) };
    let Some(&crate::vm::HostRun::Direct { f, .. }) = vm.hosts.get(id as usize).map(|h| &h.run) else { return REFUSE };
    count_host(vm, id, at);
    vm.host_ip = at as Addr;
    match f(vm, a, b) {
        Ok(r) => r as i64,
        Err(_) => REFUSE,
    }
}

/// A direct word that only records an edit or adds the move while moves
/// are generated (`Recorded`, by its code `CODE`; with `THEN_ADD`, the
/// edit and the `add-move` after it): done (0), or `REFUSE` with nothing
/// done, for the interpreter to run the word. One function per code, so
/// that what the code says is decided when it is compiled: a generation
/// records at every move.
pub unsafe extern "C" fn record<const CODE: i32>(ctx: *mut JitCtx, _: i32, _: i32, a: i32, b: i32) -> i64 {
    use crate::state::Recorded;
    let vm = unsafe { vm(ctx) };
    match Recorded::from_code(CODE) {
        // The edit recorded, generation is on: adding the move cannot fail.
        Some((what, then_add)) if vm.record_fast(what, a, b, then_add) => 0,
        _ => REFUSE,
    }
}

/// `record` for this code.
pub fn recorder(code: i32) -> *const () {
    use crate::state::Recorded;
    const ADD: i32 = Recorded::THEN_ADD;
    macro_rules! by_code {
        ($($c:expr),*) => {
            match code {
                $(c if c == $c => record::<{ $c }> as *const (),)*
                // Not a code (`Recorded::from_code` refuses it).
                _ => record::<{ -1 }> as *const (),
            }
        };
    }
    by_code!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ADD, ADD | 1, ADD | 2, ADD | 3, ADD | 4, ADD | 5, ADD | 6, ADD | 7, ADD | 9, ADD | 10)
}

/// The entry of the word in DEFER slot `slot`, or `REFUSE` (an unset
/// slot: the interpreter's to report).
pub unsafe extern "C" fn deferred(ctx: *mut JitCtx, _: i32, slot: i32) -> i64 {
    let vm = unsafe { vm(ctx) };
    match vm.defers.get(slot as usize).copied().flatten() {
        Some(xt) => vm.dict.word(xt).entry as i64,
        None => REFUSE,
    }
}

/// `EXECUTE` of a move's token (`.moveCFA EXECUTE`, a script engine
/// playing a move): the move is made, as the interpreter makes it.
pub unsafe extern "C" fn execute_move(ctx: *mut JitCtx, _: i32, at: i32) -> i64 {
    unsafe {
        let s = synced(ctx, |vm| {
            let xt = vm.tos;
            if vm.depth < 1 || xt < crate::state::MOVE_XT_BASE || vm.dict.get(xt).is_some() {
                return deopt(vm, at as Addr);
            }
            let layout = vm.game.board.layout;
            let _ = vm.pop();
            match (vm.hooks.execute_move)(vm, xt) {
                Ok(()) if vm.game.board.layout != layout => deopt(vm, at as Addr + 1),
                Ok(()) => DONE,
                Err(e) => {
                    let e = vm.error_at(at as Addr, e);
                    failed(vm, e)
                }
            }
        });
        status(ctx, s)
    }
}

pub unsafe extern "C" fn set_defer(ctx: *mut JitCtx, slot: i32, at: i32) -> i64 {
    unsafe {
        let s = synced(ctx, |vm| {
            if vm.depth < 1 {
                return deopt(vm, at as Addr);
            }
            let Some(xt) = vm.dict.index_of(vm.tos) else {
                return deopt(vm, at as Addr);
            };
            if slot as usize >= vm.defers.len() {
                return deopt(vm, at as Addr);
            }
            let _ = vm.pop();
            vm.set_defer(slot as usize, xt);
            DONE
        });
        status(ctx, s)
    }
}

pub unsafe extern "C" fn does(ctx: *mut JitCtx, target: i32, at: i32) -> i64 {
    unsafe {
        let s = synced(ctx, |vm| {
            let Some(xt) = vm.last_created else {
                return deopt(vm, at as Addr);
            };
            let w = vm.dict.word_mut(xt);
            if let crate::dictionary::WordKind::Created { does, .. } = &mut w.kind {
                *does = Some(target as Addr);
                let entry = w.entry;
                vm.code.set(entry + 1, crate::ops::Op::Jump(target as Addr));
            }
            DONE
        });
        status(ctx, s)
    }
}

pub unsafe extern "C" fn compile_xt(ctx: *mut JitCtx, xt: i32, at: i32) -> i64 {
    unsafe {
        let s = synced(ctx, |vm| match vm.compile_dynamic(xt as u32) {
            Ok(()) => DONE,
            Err(e) => {
                let e = vm.error_at(at as Addr, e);
                failed(vm, e)
            }
        });
        s as i64
    }
}

pub unsafe extern "C" fn dot_quote(ctx: *mut JitCtx, a: i32, at: i32) -> i64 {
    unsafe {
        let s = synced(ctx, |vm| match vm.mem.counted(a) {
            Ok(text) => {
                let text = text.to_vec();
                vm.out.write(&text);
                DONE
            }
            Err(_) => deopt(vm, at as Addr),
        });
        status(ctx, s)
    }
}

pub unsafe extern "C" fn roll(ctx: *mut JitCtx, _: i32, at: i32) -> i64 {
    unsafe {
        let s = synced(ctx, |vm| {
            let d = vm.depth;
            let u = vm.tos;
            if d < 1 || u < 0 || (u as u32) + 2 > d {
                return deopt(vm, at as Addr);
            }
            // As the interpreter's `Roll`: pop u, then rotate the u+1
            // cells under it, the deepest coming to the top.
            let _ = vm.pop();
            if u > 0 {
                let d = vm.depth;
                let tos = vm.tos;
                *vm.ds_cell(d) = tos;
                let lo = d - u as u32;
                let bottom = *vm.ds_cell(lo);
                for i in lo..d {
                    let next = *vm.ds_cell(i + 1);
                    *vm.ds_cell(i) = next;
                }
                *vm.ds_cell(d) = bottom;
                vm.tos = *vm.ds_cell(d);
            }
            DONE
        });
        status(ctx, s)
    }
}

/// `FILL` and `MOVE` ( a b c -- ): `which` 0 fills, 1 moves.
pub unsafe extern "C" fn fill_or_move(ctx: *mut JitCtx, which: i32, at: i32) -> i64 {
    unsafe {
        let s = synced(ctx, |vm| {
            if vm.depth < 3 {
                return deopt(vm, at as Addr);
            }
            let d = vm.depth;
            let (a, b, c) = (*vm.ds_cell(d - 2), *vm.ds_cell(d - 1), vm.tos);
            let ok = if which == 0 {
                b <= 0 || vm.mem.slice_mut(a, b).map(|s| s.fill(c as u8)).is_ok()
            } else {
                vm.mem.copy(a, b, c).is_ok()
            };
            if !ok {
                return deopt(vm, at as Addr);
            }
            for _ in 0..3 {
                let _ = vm.pop();
            }
            DONE
        });
        status(ctx, s)
    }
}

/// `ALLOT` (0), `,` (1), `C,` (2) of `x`: `DONE`, or `REFUSE`.
pub unsafe extern "C" fn allot(ctx: *mut JitCtx, which: i32, x: i32) -> i64 {
    let vm = unsafe { vm(ctx) };
    let ok = match which {
        0 => vm.mem.allot(x).is_ok(),
        1 => vm.mem.comma(x).is_ok(),
        _ => vm.mem.ccomma(x).is_ok(),
    };
    if ok {
        0
    } else {
        REFUSE
    }
}

/// `HERE`.
pub unsafe extern "C" fn here(ctx: *mut JitCtx, _: i32, _: i32) -> i64 {
    unsafe { vm(ctx) }.mem.here as i64
}

impl Vm {
    /// What word `what` does while moves are generated, when that is all
    /// it has to do: its edit recorded (arguments `a`, `b` as the word
    /// takes them), or the move added. `false`, having done nothing,
    /// when no generation is running or a position is off the board: the
    /// word itself then does what there is to do.
    ///
    /// With `then_add`, the move is added after the edit, as `add-move`
    /// right after the word would (a move of this one edit goes into the
    /// list directly).
    #[inline(always)]
    pub fn record_fast(&mut self, what: Recorded, a: i32, b: i32, then_add: bool) -> bool {
        if !self.game.gen.active || self.store_room().is_err() {
            return false;
        }
        let g = &mut self.game.gen;
        let action = match what {
            Recorded::PlaceCurrent => Action::Place { pos: g.here, content: g.piece },
            Recorded::Move => Action::Move { from: a, to: b },
            Recorded::Capture => Action::Capture(g.here),
            Recorded::CaptureAt => Action::Capture(a),
            Recorded::ChangeType => Action::ChangeType { pos: g.here, piece_type: a },
            Recorded::ChangeTypeAt => Action::ChangeType { pos: b, piece_type: a },
            Recorded::ChangeOwner => Action::ChangeOwner { pos: g.here, player: a },
            Recorded::ChangeOwnerAt => Action::ChangeOwner { pos: b, player: a },
            Recorded::AddMove => {
                self.game.commit_move(false);
                return true;
            }
            Recorded::Lit => Action::Lit(a),
            Recorded::Call => Action::Call(a as u32),
        };
        if let Some([p, q]) = action.positions() {
            if !(self.game.board.valid(p) && self.game.board.valid(q)) {
                return false;
            }
        }
        self.game.record(action);
        if then_add {
            self.game.commit_move(false);
        }
        true
    }
}
