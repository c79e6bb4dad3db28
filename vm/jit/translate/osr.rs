//! Entering a fixed function at a loop head (on-stack replacement): the
//! interpreter, running a definition whose native code came while it ran,
//! goes on in that code at the next jump back (`Vm::jit_osr`) instead of
//! interpreting the rest of a long call.
//!
//! The way in is the function's own entry, with `JitCtx::osr_head` naming
//! the head and the depth registers set to what they were at the
//! definition's entry (the interpreter's less the head's `OsrHead::dd`,
//! `dr`), so that `d0` and `r0`, and every cell address built on them,
//! are the same on every way in. The entry block branches on
//! `osr_head` (one load and a compare for a call, in definitions that
//! loop); the dispatch made here clears it (nested calls enter normally),
//! picks the head's stub, makes the entry's stack checks (a failure hands
//! the interpreter the head, state untouched), loads the cells the head's
//! block holds from the stacks, where the interpreter left every one, and
//! jumps there. Nothing about the head is known on the way in, so the
//! code after it never restarts from the entry and assumes no constant.
//! May touch the translator's state between blocks only: the body is
//! translated already.

use super::Translator;
use super::cells::Held;
use super::calls::Prepaid;
use super::regions::ctx_field;
use crate::jit::JitCtx;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::InstBuilder;
use std::mem::offset_of;

impl Translator<'_> {
    /// Fills the dispatch block `new` opened with a stub per loop head the
    /// body translated as one.
    pub(super) fn osr_entries(&mut self) {
        let Some(dispatch) = self.osr_dispatch else { return };
        let Some(shape) = self.outer_shape.clone() else { return };
        self.b.switch_to_block(dispatch);
        let head = self.b.ins().load(I32, ctx_field(), self.ctx, offset_of!(JitCtx, osr_head) as i32);
        let zero = self.konst(0);
        self.b.ins().store(ctx_field(), zero, self.ctx, offset_of!(JitCtx, osr_head) as i32);
        let heads = self.osr_heads.clone();
        if heads.is_empty() {
            // No head survived translation (unrolled, or unreachable), so
            // `Vm::jit_osr` never names one: never reached.
            self.b.ins().trap(cranelift_codegen::ir::TrapCode::unwrap_user(1));
            return;
        }
        for (k, &(h, block)) in heads.iter().enumerate() {
            let stub = self.b.create_block();
            if k + 1 < heads.len() {
                let next = self.b.create_block();
                let this = self.b.ins().icmp_imm_s(IntCC::Equal, head, h.at as i64);
                self.b.ins().brif(this, stub, &[], next, &[]);
                self.b.seal_block(stub);
                self.enter_at(stub, h.dd, h.dr);
                self.entry_guard(&shape, h.at);
                self.goto(block);
                self.b.seal_block(next);
                self.b.switch_to_block(next);
            } else {
                // The interpreter names only heads listed here.
                self.b.ins().jump(stub, &[]);
                self.b.seal_block(stub);
                self.enter_at(stub, h.dd, h.dr);
                self.entry_guard(&shape, h.at);
                self.goto(block);
            }
        }
        self.closed = true;
    }

    /// Starts stub `stub` as the state at a head `dd` and `dr` above the
    /// entry's depths, every cell in memory and nothing known.
    fn enter_at(&mut self, stub: cranelift_codegen::ir::Block, dd: i32, dr: i32) {
        self.b.switch_to_block(stub);
        self.shape = self.outer_shape.clone();
        self.inlined = None;
        self.unrolled = None;
        self.pending_frames.clear();
        self.here_known = None;
        self.prepaid = Prepaid::default();
        self.pure = false;
        self.closed = false;
        self.cells = Held::default();
        self.rcells = Held::default();
        self.dbase = 0;
        self.rbase = 0;
        self.dk = dd;
        self.rk = dr;
    }
}
