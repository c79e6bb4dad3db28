//! Calls and returns: `Call` (native code directly, else the `call`
//! helper), `RECURSE` as a direct call, the frames (stored now, or pending
//! while a callee is inlined), the prepaid check of the step budget and
//! the call depth that covers a stretch of calls, and `EXIT`. Owns
//! `pending_frames` and `prepaid`.

use super::Translator;
use super::arith::add_imm;
use super::regions::{ctx_field, in_region, Region, stacks};
use crate::jit::helpers::{self, Helper};
use crate::jit::shape::Effect;
use crate::jit::{COUNT_LIMIT, DONE, JitCtx, NATIVE_FRAMES};
use crate::ops::Addr;
use crate::vm::Frame;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use std::mem::offset_of;

/// A check of the budget and the call depth covers this many steps, and
/// calls nested this deep, on the path after it.
pub(super) const PREPAID_STEPS: u32 = 64;
const PREPAID_FRAMES: usize = 8;

/// The return depth a frame not stored yet saves.
#[derive(Clone, Copy)]
pub(super) enum SavedDepth {
    Value(Value),
    /// `r0` plus this, in a fixed function.
    Fixed(i32),
}

/// What the last check of the step budget and the call depth covers, on
/// the path through `block` (and the blocks only it leads to).
#[derive(Default)]
pub(super) struct Prepaid {
    pub(super) block: Option<Block>,
    /// Calls (steps) still covered.
    pub(super) steps: u32,
    /// The calls translated in place around the check (`pending_frames`).
    pub(super) frames_base: usize,
}

impl Translator<'_> {
    /// `Call`: the interpreter's checks, the frame, then the callee's
    /// native code directly when it has some, else the `call` helper.
    pub(super) fn call(&mut self, target: Addr, at: Addr) {
        self.call_checks(at);
        if let Some(ops) = self.inlinable(target) {
            self.inline(target, ops, at);
            return;
        }
        self.pure = false;
        let effect = if self.fixed { self.shapes.callee(target) } else { None };
        let kept = effect.map(|e| self.untouched_by(e));
        if target == self.inline_stack[0] {
            self.recurse(at);
        } else {
            let entry = self.konst(target as i32);
            self.enter(entry, at);
        }
        if self.fixed {
            self.resync(effect.map_or(0, |e| e.delta), at + 1);
        }
        if let Some(kept) = kept {
            self.hold_again(kept);
        }
        // The callee took steps of its own: a check here, on the path
        // that called, keeps the code after the paths join covered.
        if self.fixed {
            self.prepay(at + 1);
        }
    }

    /// The cells held now that a callee with effect `e` cannot touch:
    /// those below the ones it needs.
    fn untouched_by(&self, e: Effect) -> [Vec<i32>; 2] {
        let (dk, rk) = (self.dk - e.need, self.rk - e.rneed);
        [self.cells.live.range(..dk).copied().collect(), self.rcells.live.range(..rk).copied().collect()]
    }

    /// Holds again, after a call, the cells it left as they were. They
    /// count as changed, so a block this path reaches first expects them
    /// in variables: the paths that join it later, which did not call
    /// (the common ones, a call being the rare branch), then keep theirs
    /// there instead of storing them and reading them back.
    fn hold_again(&mut self, [d, r]: [Vec<i32>; 2]) {
        for (rr, keys) in [(false, d), (true, r)] {
            for key in keys {
                let x = self.load_cell(rr, key);
                self.write_cell(rr, key, x);
            }
        }
    }

    /// A call of the function being built (checks made): as `enter`, but
    /// a direct call, its code being this very function.
    fn recurse(&mut self, at: Addr) {
        let fp1 = self.push_frame(at);
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, I32);
        let shallow = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, fp1, NATIVE_FRAMES as i64);
        self.b.ins().brif(shallow, fast, &[], slow, &[]);
        self.b.seal_block(slow);

        self.b.switch_to_block(fast);
        self.seal_one_way(fast);
        let itself = self.itself.expect("set by `compile`");
        let mut args = vec![self.ctx];
        args.extend(self.scalar_values());
        self.calls += 1;
        let call = self.b.ins().call(itself, &args);
        let s = self.take_results(call);
        self.b.ins().jump(join, &[BlockArg::Value(s)]);

        self.b.switch_to_block(slow);
        let target = self.konst(self.inline_stack[0] as i32);
        self.interpret_and_join(target, at, join);
    }

    /// The checks the interpreter's `call!` makes, before anything changes.
    /// One check covers the calls of a stretch of code: it deoptimizes
    /// unless `PREPAID_STEPS` steps and `PREPAID_FRAMES` frames are left
    /// (the interpreter then takes the rest of the budget exactly), and
    /// the calls after it on the same path need none.
    pub(super) fn call_checks(&mut self, at: Addr) {
        if !self.prepaid_call() {
            self.prepay(at);
            self.prepaid.steps -= 1;
        }
    }

    /// The check of `call_checks`, made at `at` for the calls and steps
    /// that follow, before anything changes there.
    pub(super) fn prepay(&mut self, at: Addr) {
        let steps = self.var(self.v.steps);
        let short = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, steps, PREPAID_STEPS as i64);
        let fp = self.var(self.v.fp);
        let fp_after = add_imm(&mut self.b, fp, PREPAID_FRAMES as i64);
        let deep = self.b.ins().icmp(IntCC::UnsignedGreaterThan, fp_after, self.max_r);
        let bad = self.b.ins().bor(short, deep);
        self.guard(bad, at);
        self.prepaid = Prepaid { block: self.b.current_block(), steps: PREPAID_STEPS, frames_base: self.pending_frames.len() };
    }

    /// Whether a check made on this path covers one more call (a step,
    /// and a frame at the current depth of calls translated in place).
    fn prepaid_call(&mut self) -> bool {
        let p = &mut self.prepaid;
        let depth = self.pending_frames.len().checked_sub(p.frames_base);
        if p.block != self.b.current_block() || p.steps == 0 || depth.is_none_or(|d| d >= PREPAID_FRAMES) {
            return false;
        }
        p.steps -= 1;
        true
    }

    /// The step a call costs, and the frame it pushes, with the stacks in
    /// memory for the callee. Answers the new frame count.
    fn push_frame(&mut self, at: Addr) -> Value {
        self.store_frames();
        let fp1 = self.open_frame(at);
        // The callee reads the stacks in memory; the registers go along.
        self.flush();
        self.materialize();
        fp1
    }

    /// The step a call from `at` costs, and its frame; answers the new
    /// frame count.
    fn open_frame(&mut self, at: Addr) -> Value {
        let steps = self.var(self.v.steps);
        let steps = add_imm(&mut self.b, steps, -1);
        self.set(self.v.steps, steps);
        let fp = self.var(self.v.fp);
        let rp = self.rdepth();
        self.store_frame(fp, at, rp);
        let fp1 = add_imm(&mut self.b, fp, 1);
        self.set(self.v.fp, fp1);
        fp1
    }

    /// The registers a native callee returned (meaningless unless its
    /// status, answered, is `DONE`).
    fn take_results(&mut self, call: cranelift_codegen::ir::Inst) -> Value {
        let results = self.b.inst_results(call).to_vec();
        for ((var, _, _), &x) in self.scalars().into_iter().zip(&results[1..]) {
            self.set(var, x);
        }
        results[0]
    }

    /// Runs the word at `target` through the `call` helper (the
    /// interpreter), the registers passing through the context.
    fn call_interpreter(&mut self, target: Value, at: Addr) -> Value {
        self.store_scalars();
        let fh = self.b.ins().iconst(self.ptr, (helpers::call as Helper) as usize as i64);
        let at_v = self.konst(at as i32);
        self.calls += 1;
        let call = self.b.ins().call_indirect(self.helper_sig, fh, &[self.ctx, target, at_v]);
        let s = self.b.inst_results(call)[0];
        let s = self.b.ins().ireduce(I32, s);
        let fields: Vec<_> = self.scalars().to_vec();
        self.load_fields(&fields);
        s
    }

    /// Pushes the frame of a call from `at` and runs the word at `target`
    /// (checks made): its native code directly when it has some, else
    /// through the `call` helper.
    pub(super) fn enter(&mut self, target: Value, at: Addr) {
        let fp1 = self.push_frame(at);

        let lookup = self.b.create_block();
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, I32);
        let table_len = self.b.ins().load(I64, ctx_field(), self.ctx, offset_of!(JitCtx, table_len) as i32);
        let index = self.b.ins().uextend(I64, target);
        let in_table = self.b.ins().icmp(IntCC::UnsignedGreaterThan, table_len, index);
        let shallow = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, fp1, NATIVE_FRAMES as i64);
        let ok = self.b.ins().band(in_table, shallow);
        self.b.ins().brif(ok, lookup, &[], slow, &[]);

        self.b.switch_to_block(lookup);
        self.seal_one_way(lookup);
        let table = self.b.ins().load(self.ptr, ctx_field(), self.ctx, offset_of!(JitCtx, table) as i32);
        let off = self.b.ins().imul_imm_s(index, self.ptr.bytes() as i64);
        let p = self.b.ins().iadd(table, off);
        let f = self.b.ins().load(self.ptr, in_region(Region::Tables), p, 0);
        let compiled = self.b.ins().icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, f, COUNT_LIMIT as i64);
        self.b.ins().brif(compiled, fast, &[], slow, &[]);

        self.b.switch_to_block(fast);
        self.seal_one_way(fast);
        self.b.seal_block(slow);
        let mut args = vec![self.ctx];
        args.extend(self.scalar_values());
        self.calls += 1;
        let call = self.b.ins().call_indirect(self.native_sig, f, &args);
        let s = self.take_results(call);
        self.b.ins().jump(join, &[BlockArg::Value(s)]);

        self.b.switch_to_block(slow);
        self.interpret_and_join(target, at, join);
    }

    /// The slow way of a call (the current block): the interpreter runs
    /// `target`; both ways meet at `join`, whose status is then checked.
    fn interpret_and_join(&mut self, target: Value, at: Addr, join: Block) {
        let s = self.call_interpreter(target, at);
        self.b.ins().jump(join, &[BlockArg::Value(s)]);

        self.b.switch_to_block(join);
        self.b.seal_block(join);
        let s = self.b.block_params(join)[0];
        self.check_status(s);
    }

    /// Stores the frames of the calls translated in place around here, as
    /// the interpreter would have pushed them (the code that leaves reads
    /// them: a deoptimization returns through them, an error's backtrace
    /// names their call sites).
    pub(super) fn store_frames(&mut self) {
        let pending = self.pending_frames.clone();
        let fp = self.var(self.v.fp);
        for (i, (at, rdepth)) in pending.iter().enumerate() {
            let fp = add_imm(&mut self.b, fp, -((pending.len() - i) as i64));
            let rdepth = match *rdepth {
                SavedDepth::Value(x) => x,
                SavedDepth::Fixed(rk) => add_imm(&mut self.b, self.r0, rk as i64),
            };
            self.store_frame(fp, *at, rdepth);
        }
    }

    /// The frame record a call from `at` pushes at frame count `fp`.
    fn store_frame(&mut self, fp: Value, at: Addr, rdepth: Value) {
        let frame = self.frame_slot(fp);
        let ret = self.konst((at + 1) as i32);
        self.b.ins().store(stacks(), ret, frame, offset_of!(Frame, ret) as i32);
        self.b.ins().store(stacks(), rdepth, frame, offset_of!(Frame, rdepth) as i32);
    }

    fn frame_slot(&mut self, fp: Value) -> Value {
        let i = self.b.ins().band_imm_s(fp, 0xffff);
        let i = self.b.ins().uextend(self.ptr, i);
        let off = self.b.ins().imul_imm_s(i, std::mem::size_of::<Frame>() as i64);
        let frames = self.var(self.v.frames);
        self.b.ins().iadd(frames, off)
    }

    /// `EXIT`: pop the frame and return. Where to is the caller's to
    /// know: native code returns only to code that stays as it is (see
    /// `Vm::jit_enter`), so nothing is checked here.
    pub(super) fn exit(&mut self) {
        if let Some(after) = self.inlined {
            // Back into the caller, whose next instruction is `after`'s,
            // with the return depth its frame saved (read back rather
            // than kept in a register through the whole callee).
            let fp = self.var(self.v.fp);
            let fp1 = add_imm(&mut self.b, fp, -1);
            self.set(self.v.fp, fp1);
            if self.fixed {
                self.rk = self.rbase;
                self.rcells.cut(self.rk);
            } else if let Some(&(_, SavedDepth::Value(rdepth))) = self.pending_frames.last() {
                self.set(self.v.rp, rdepth);
            }
            self.goto(after);
            self.closed = true;
            self.inline_exit = Some(self.known_mark());
            return;
        }
        let fp = self.var(self.v.fp);
        let fp1 = add_imm(&mut self.b, fp, -1);
        self.set(self.v.fp, fp1);
        if self.fixed {
            // The frame's return depth is the entry's.
            self.rk = 0;
            self.rcells.cut(0);
        } else {
            let frame = self.frame_slot(fp1);
            let rdepth = self.b.ins().load(I32, stacks(), frame, offset_of!(Frame, rdepth) as i32);
            self.set(self.v.rp, rdepth);
        }
        self.flush();
        self.materialize();
        let mut results = vec![self.konst(DONE as i32)];
        results.extend(self.scalar_values());
        self.b.ins().return_(&results);
        self.closed = true;
    }
}
