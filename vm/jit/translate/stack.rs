//! The data stack's words (`DUP` to `?DUP`, `DEPTH`) and literals, on the
//! cells of `cells.rs`.

use super::Translator;
use super::arith::add_imm;
use super::regions::stacks;
use crate::jit::helpers;
use crate::ops::{Addr, Op};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{InstBuilder, Value};

impl Translator<'_> {
    /// The data stack's words, and literals.
    pub(super) fn stack_op(&mut self, op: Op, at: Addr) {
        use IntCC::*;
        let tos_v = self.v.tos;
        match op {
            Op::Lit(n) => self.push_checked(at, |s| s.konst(n)),
            Op::Dup => {
                self.need(1, at);
                self.room(1, at);
                let x = self.var(tos_v);
                self.push(x);
            }
            Op::Drop => {
                self.need(1, at);
                self.drop_n(1);
            }
            Op::Swap => {
                self.need(2, at);
                let a = self.below(1);
                let b = self.var(tos_v);
                self.set_below(1, b);
                self.set(tos_v, a);
            }
            Op::Over => {
                self.need(2, at);
                self.room(1, at);
                let a = self.below(1);
                self.push(a);
            }
            Op::Rot => {
                self.need(3, at);
                let (a, b, c) = (self.below(2), self.below(1), self.var(tos_v));
                self.set_below(2, b);
                self.set_below(1, c);
                self.set(tos_v, a);
            }
            Op::MinusRot => {
                self.need(3, at);
                let (a, b, c) = (self.below(2), self.below(1), self.var(tos_v));
                self.set_below(2, c);
                self.set_below(1, a);
                self.set(tos_v, b);
            }
            Op::Nip => {
                self.need(2, at);
                self.add_d(-1);
            }
            Op::Tuck => {
                self.need(2, at);
                self.room(1, at);
                let a = self.below(1);
                let b = self.var(tos_v);
                self.set_below(1, b);
                self.set_below(0, a);
                self.add_d(1);
            }
            Op::Pick => {
                self.flush();
                self.need(1, at);
                let u = self.var(tos_v);
                let negative = self.cmp_imm(SignedLessThan, u, 0);
                let want = add_imm(&mut self.b, u, 2);
                let d = self.var(self.v.d);
                let short = self.b.ins().icmp(UnsignedGreaterThan, want, d);
                let bad = self.b.ins().bor(negative, short);
                self.guard(bad, at);
                let d = self.var(self.v.d);
                let i = self.b.ins().isub(d, u);
                let i = add_imm(&mut self.b, i, -1);
                let p = self.slot(self.v.ds, i);
                let x = self.b.ins().load(I32, stacks(), p, 0);
                self.set(tos_v, x);
            }
            Op::Roll => self.synced(helpers::roll, 0, at),
            Op::TwoDup => {
                self.need(2, at);
                self.room(2, at);
                let (a, b) = (self.below(1), self.var(tos_v));
                self.push(a);
                self.push(b);
            }
            Op::TwoDrop => {
                self.need(2, at);
                self.drop_n(2);
            }
            Op::TwoSwap => {
                self.need(4, at);
                let (a, b, c, x) = (self.below(3), self.below(2), self.below(1), self.var(tos_v));
                self.set_below(3, c);
                self.set_below(2, x);
                self.set_below(1, a);
                self.set(tos_v, b);
            }
            Op::TwoOver => {
                self.need(4, at);
                self.room(2, at);
                let (a, b) = (self.below(3), self.below(2));
                self.push(a);
                self.push(b);
            }
            Op::QDup if self.fixed => self.qdup_branch(at),
            Op::QDup => {
                self.need(1, at);
                let x = self.var(tos_v);
                let nonzero = self.cmp_imm(NotEqual, x, 0);
                // Room only matters when it duplicates.
                let d = self.var(self.v.d);
                let full = self.b.ins().icmp(UnsignedGreaterThanOrEqual, d, self.max_d);
                let bad = self.b.ins().band(full, nonzero);
                self.guard(bad, at);
                let dup = self.b.create_block();
                let next = self.b.create_block();
                self.flush();
                self.b.ins().brif(nonzero, dup, &[], next, &[]);
                self.b.switch_to_block(dup);
                self.seal_one_way(dup);
                self.push(x);
                self.flush();
                self.b.ins().jump(next, &[]);
                self.b.switch_to_block(next);
                self.b.seal_block(next);
                self.forget();
            }
            Op::Depth => self.push_checked(at, |s| s.depth()),
            _ => unreachable!("not a stack instruction: {op:?}"),
        }
    }

    /// Pushes a value computed after the room check.
    pub(super) fn push_checked(&mut self, at: Addr, f: impl FnOnce(&mut Self) -> Value) {
        self.room(1, at);
        let x = f(self);
        self.push(x);
    }

    /// `?DUP IF` and `?DUP 0= IF` in a fixed shape: one branch, the
    /// value kept on the path where it is not zero.
    fn qdup_branch(&mut self, at: Addr) {
        let next = self.ops.get((at + 1 - self.start) as usize).copied();
        let (t, jumps_when_zero) = match next {
            Some(Op::JumpIfZero(t)) => (t, true),
            Some(Op::JumpIfNonZero(t)) => (t, false),
            // The shape pairs ?DUP only with a branch.
            _ => return self.op_unfixed(at),
        };
        let x = self.var(self.v.tos);
        let nonzero = self.cmp_imm(IntCC::NotEqual, x, 0);
        let zero = self.b.create_block();
        let after = self.block_at(at + 2);
        if t <= at + 1 {
            // A backward jump is a step: when the budget is spent, the
            // interpreter runs the pair from the ?DUP and stops at the jump.
            let taken = if jumps_when_zero { self.b.ins().bxor_imm_s(nonzero, 1) } else { nonzero };
            let steps = self.var(self.v.steps);
            let spent = self.cmp_imm(IntCC::Equal, steps, 0);
            let bad = self.b.ins().band(spent, taken);
            self.guard(bad, at);
            let one = self.b.ins().uextend(I64, taken);
            let steps = self.b.ins().isub(steps, one);
            self.set(self.v.steps, steps);
        }
        let target = self.block_at(t);
        let (kept, dropped) = if jumps_when_zero { (after, target) } else { (target, after) };
        self.branch_to(nonzero, kept, zero);
        self.b.switch_to_block(zero);
        self.seal_one_way(zero);
        self.drop_n(1);
        self.goto(dropped);
        self.closed = true;
    }
}
