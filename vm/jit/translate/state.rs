//! The machine registers (`tos`, depths, frame count, steps) between the
//! SSA variables and the context: loading and storing them, the depths of
//! a fixed function (`d0 + dk`), and its stack checks, all made at entry.
//! May touch the variables and the context's fields; the cells are
//! `cells.rs`'s.

use super::Translator;
use super::arith::add_imm;
use super::function::scalar_fields;
use super::regions::{ctx_field, ctx_fixed};
use crate::jit::JitCtx;
use crate::jit::shape::Shape;
use crate::ops::Addr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Type, Value};
use cranelift_frontend::Variable;
use std::mem::offset_of;

impl Translator<'_> {
    /// The state native code may change: the machine registers.
    pub(super) fn load_scalars(&mut self) {
        self.load_fields(&self.scalars());
        self.forget();
    }

    /// The machine registers and their places in the context.
    pub(super) fn scalars(&self) -> [(Variable, Type, usize); 5] {
        let vars = [self.v.tos, self.v.d, self.v.rp, self.v.fp, self.v.steps];
        let fields = scalar_fields();
        std::array::from_fn(|i| (vars[i], fields[i].0, fields[i].1))
    }

    /// The machine registers, as a call passes them.
    pub(super) fn scalar_values(&mut self) -> Vec<Value> {
        self.scalars().into_iter().map(|(var, _, _)| self.b.use_var(var)).collect()
    }

    /// Returns `status`, the registers not passed (the context has them).
    pub(super) fn return_status(&mut self, status: Value) {
        let zero = self.konst(0);
        let zero64 = self.b.ins().iconst(I64, 0);
        self.b.ins().return_(&[status, zero, zero, zero, zero, zero64]);
    }

    /// Where the stacks and the data space are: fixed while this function
    /// runs (a helper that opens a stack frame closes it before it returns;
    /// the data space never moves).
    pub(super) fn load_env(&mut self) {
        let ptr = self.ptr;
        let fields = [
            (self.v.ds, ptr, offset_of!(JitCtx, ds)),
            (self.v.rs, ptr, offset_of!(JitCtx, rs)),
            (self.v.frames, ptr, offset_of!(JitCtx, frames)),
            (self.v.mem, ptr, offset_of!(JitCtx, mem)),
            (self.v.mem_len, I64, offset_of!(JitCtx, mem_len)),
            (self.v.store_len, I64, offset_of!(JitCtx, store_len)),
            (self.v.walk, ptr, offset_of!(JitCtx, walk)),
        ];
        // Read-only while the function runs, so a field it never uses is
        // not loaded at all.
        for (var, ty, off) in fields {
            let x = self.b.ins().load(ty, ctx_fixed(), self.ctx, off as i32);
            self.set(var, x);
        }
    }

    pub(super) fn load_fields(&mut self, fields: &[(Variable, Type, usize)]) {
        for &(var, ty, off) in fields {
            let x = self.b.ins().load(ty, ctx_field(), self.ctx, off as i32);
            self.set(var, x);
        }
    }

    /// The stack checks of a fixed function, all at entry: when one fails
    /// the interpreter runs the definition (and reports what it finds).
    pub(super) fn entry_checks(&mut self, shape: &Shape, at: Addr) {
        use IntCC::*;
        let e = shape.effect;
        self.d0 = self.var(self.v.d);
        self.r0 = self.var(self.v.rp);
        let (d, r) = (self.d0, self.r0);
        // Depths never exceed their limits, so a stack the function does
        // not grow needs no test of its room (nor one it does not take
        // from, of its cells).
        let mut tests = Vec::new();
        for (depth, need, grow, max) in [(d, e.need, e.grow, self.max_d), (r, e.rneed, e.rgrow, self.max_r)] {
            if need > 0 {
                tests.push(self.b.ins().icmp_imm_s(UnsignedLessThan, depth, need as i64));
            }
            if grow > 0 {
                let top = add_imm(&mut self.b, depth, grow as i64);
                tests.push(self.b.ins().icmp(UnsignedGreaterThan, top, max));
            }
        }
        // With nothing to test, a guard that never leaves: what follows
        // is translated into the block a guard opens.
        let bad = match tests.into_iter().reduce(|a, b| self.b.ins().bor(a, b)) {
            Some(bad) => bad,
            None => self.b.ins().iconst(cranelift_codegen::ir::types::I8, 0),
        };
        self.guard(bad, at);
        // Past the checks, `d0 - need ..= d0 + grow` lies within the stack
        // (`max_d` < `STACK_CELLS`): no index there wraps.
        let frame = |s: &mut Self, base: Variable, depth: Value, need: i32, grow: i32| {
            let depth = s.b.ins().uextend(s.ptr, depth);
            let off = s.b.ins().ishl_imm_s(depth, 2);
            let base = s.var(base);
            (s.b.ins().iadd(base, off), -need.max(0), grow.max(0))
        };
        self.dframe = Some(frame(self, self.v.ds, d, e.need, e.grow));
        self.rframe = Some(frame(self, self.v.rs, r, e.rneed, e.rgrow));
    }

    pub(super) fn depth(&mut self) -> Value {
        if self.fixed {
            add_imm(&mut self.b, self.d0, self.dk as i64)
        } else {
            self.var(self.v.d)
        }
    }

    pub(super) fn rdepth(&mut self) -> Value {
        if self.fixed {
            add_imm(&mut self.b, self.r0, self.rk as i64)
        } else {
            self.var(self.v.rp)
        }
    }

    /// In a fixed function the depth variables are set only on the way
    /// out (a guard, a call, EXIT), where the exits store them.
    pub(super) fn materialize(&mut self) {
        if self.fixed {
            let d = self.depth();
            self.set(self.v.d, d);
            let r = self.rdepth();
            self.set(self.v.rp, r);
        }
    }

    pub(super) fn store_state(&mut self) {
        self.flush();
        self.store_frames();
        self.materialize();
        self.store_scalars();
    }

    pub(super) fn store_scalars(&mut self) {
        for (var, _, off) in self.scalars() {
            let x = self.b.use_var(var);
            self.b.ins().store(ctx_field(), x, self.ctx, off as i32);
        }
    }
}
