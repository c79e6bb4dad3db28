//! Jumps and conditional branches, fused compares included
//! (`JumpUnlessLt`, `DupJumpUnlessLitEq`, ...), and the step budget that a
//! backward jump spends. Ends the current block; the edges are `edges.rs`'s.

use super::Translator;
use super::arith::add_imm;
use crate::ops::{Addr, Op};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{InstBuilder, Value};

impl Translator<'_> {
    /// Jumps and conditional branches.
    pub(super) fn branch_op(&mut self, op: Op, at: Addr) {
        use IntCC::*;
        let tos_v = self.v.tos;
        match op {
            Op::Jump(t) => self.jump(t, at),
            Op::JumpIfZero(t) => {
                self.need(1, at);
                let x = self.var(tos_v);
                let taken = self.cmp_imm(Equal, x, 0);
                self.branch(taken, t, at, |s| s.drop_n(1));
            }
            Op::JumpIfNonZero(t) => {
                self.need(1, at);
                let x = self.var(tos_v);
                let taken = self.cmp_imm(NotEqual, x, 0);
                self.branch(taken, t, at, |s| s.drop_n(1));
            }
            Op::DupJumpIfZero(t) => {
                self.need(1, at);
                let x = self.var(tos_v);
                let taken = self.cmp_imm(Equal, x, 0);
                self.branch(taken, t, at, |_| {});
            }

            // ---- superinstructions ----
            Op::JumpUnlessAnd(t) => {
                self.need(2, at);
                let b = self.var(tos_v);
                let a = self.below(1);
                let taken = match (self.flag_source(a), self.flag_source(b)) {
                    (Some(x), Some(y)) => {
                        let (x, y) = (self.invert(x), self.invert(y));
                        self.b.ins().bor(x, y)
                    }
                    _ => {
                        let both = self.b.ins().band(a, b);
                        self.cmp_imm(Equal, both, 0)
                    }
                };
                self.branch(taken, t, at, |s| s.drop_n(2));
            }
            Op::JumpUnlessEq(t) => self.compare_jump(Equal, t, at),
            Op::JumpUnlessNe(t) => self.compare_jump(NotEqual, t, at),
            Op::JumpUnlessLt(t) => self.compare_jump(SignedLessThan, t, at),
            Op::JumpUnlessGt(t) => self.compare_jump(SignedGreaterThan, t, at),
            Op::JumpUnlessLe(t) => self.compare_jump(SignedLessThanOrEqual, t, at),
            Op::JumpUnlessGe(t) => self.compare_jump(SignedGreaterThanOrEqual, t, at),
            Op::JumpUnlessLitEq(n, t) => self.literal_jump(Equal, n, t, at, false),
            Op::JumpUnlessLitNe(n, t) => self.literal_jump(NotEqual, n, t, at, false),
            Op::JumpUnlessLitLt(n, t) => self.literal_jump(SignedLessThan, n, t, at, false),
            Op::JumpUnlessLitGt(n, t) => self.literal_jump(SignedGreaterThan, n, t, at, false),
            Op::JumpUnlessLitLe(n, t) => self.literal_jump(SignedLessThanOrEqual, n, t, at, false),
            Op::JumpUnlessLitGe(n, t) => self.literal_jump(SignedGreaterThanOrEqual, n, t, at, false),
            Op::DupJumpUnlessLitEq(n, t) => self.literal_jump(Equal, n, t, at, true),
            Op::DupJumpUnlessLitNe(n, t) => self.literal_jump(NotEqual, n, t, at, true),
            Op::DupJumpUnlessLitLt(n, t) => self.literal_jump(SignedLessThan, n, t, at, true),
            Op::DupJumpUnlessLitGt(n, t) => self.literal_jump(SignedGreaterThan, n, t, at, true),
            Op::DupJumpUnlessLitLe(n, t) => self.literal_jump(SignedLessThanOrEqual, n, t, at, true),
            Op::DupJumpUnlessLitGe(n, t) => self.literal_jump(SignedGreaterThanOrEqual, n, t, at, true),
            _ => unreachable!("not a branch instruction: {op:?}"),
        }
    }

    /// The step budget: deoptimize when it is spent (`when`, if given,
    /// says whether the step is taken at all).
    pub(super) fn step(&mut self, when: Option<Value>, at: Addr) {
        if when.is_none() && self.prepaid.block == self.b.current_block() && self.prepaid.steps > 0 {
            self.prepaid.steps -= 1;
            let steps = self.var(self.v.steps);
            let steps = add_imm(&mut self.b, steps, -1);
            return self.set(self.v.steps, steps);
        }
        let steps = self.var(self.v.steps);
        let spent = self.b.ins().icmp_imm_s(IntCC::Equal, steps, 0);
        let bad = match when {
            Some(w) => self.b.ins().band(spent, w),
            None => spent,
        };
        self.guard(bad, at);
        let one = match when {
            Some(w) => self.b.ins().uextend(I64, w),
            None => self.b.ins().iconst(I64, 1),
        };
        let steps = self.b.ins().isub(steps, one);
        self.set(self.v.steps, steps);
    }

    /// Jump to `t` from `at` (a backward jump is a step).
    pub(super) fn jump(&mut self, t: Addr, at: Addr) {
        if t <= at {
            self.step(None, at);
        }
        let target = self.block_at(t);
        self.goto(target);
        self.closed = true;
    }

    /// A conditional jump to `t` when `taken`; `commit` pops its operands
    /// (after the checks, before the branch).
    pub(super) fn branch(&mut self, taken: Value, t: Addr, at: Addr, commit: impl FnOnce(&mut Self)) {
        let backward = t <= at;
        if backward {
            let steps = self.var(self.v.steps);
            let spent = self.b.ins().icmp_imm_s(IntCC::Equal, steps, 0);
            let bad = self.b.ins().band(spent, taken);
            self.guard(bad, at);
        }
        commit(self);
        if backward {
            let steps = self.var(self.v.steps);
            let one = self.b.ins().uextend(I64, taken);
            let steps = self.b.ins().isub(steps, one);
            self.set(self.v.steps, steps);
        }
        let target = self.block_at(t);
        let next = self.block_at(at + 1);
        self.branch_to(taken, target, next);
        self.closed = true;
    }

    /// `( a b -- )` jump unless `cond(a, b)`.
    fn compare_jump(&mut self, cc: IntCC, t: Addr, at: Addr) {
        self.need(2, at);
        let b = self.var(self.v.tos);
        let a = self.below(1);
        let holds = self.b.ins().icmp(cc, a, b);
        let taken = self.b.ins().bxor_imm_s(holds, 1);
        self.branch(taken, t, at, |s| s.drop_n(2));
    }

    fn literal_jump(&mut self, cc: IntCC, n: i16, t: Addr, at: Addr, keep: bool) {
        self.need(1, at);
        let a = self.var(self.v.tos);
        let holds = self.cmp_imm(cc, a, n as i64);
        let taken = self.b.ins().bxor_imm_s(holds, 1);
        self.branch(taken, t, at, |s| {
            if !keep {
                s.drop_n(1)
            }
        });
    }
}
