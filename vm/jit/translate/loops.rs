//! `DO` loops and the return stack words (`DO` `?DO` `LOOP` `+LOOP`
//! `LEAVE` `UNLOOP` `I` `J` `K` `>R` `R>` `R@`): the loop parameters live on
//! the return stack as the interpreter keeps them, so a deoptimization
//! inside a loop finds its very state.

use super::Translator;
use super::arith::add_imm;
use crate::ops::{Addr, Op};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{InstBuilder, Value};

impl Translator<'_> {
    /// `DO` loops and the return stack.
    pub(super) fn loop_op(&mut self, op: Op, at: Addr) {
        use IntCC::*;
        let tos_v = self.v.tos;
        match op {
            Op::Do => {
                self.need(2, at);
                self.rroom(2, at);
                let start = self.var(tos_v);
                let limit = self.below(1);
                self.drop_n(2);
                self.rput(0, limit);
                self.rput(-1, start);
                self.add_rp(2);
            }
            Op::QDo(t) => {
                self.need(2, at);
                self.rroom(2, at);
                let start = self.var(tos_v);
                let limit = self.below(1);
                self.drop_n(2);
                let same = self.b.ins().icmp(Equal, start, limit);
                let enter = self.b.create_block();
                let target = self.block_at(t);
                self.branch_to(same, target, enter);
                self.b.switch_to_block(enter);
                self.rput(0, limit);
                self.rput(-1, start);
                self.add_rp(2);
            }
            Op::Loop(t) => {
                self.rneed(2, at);
                let i = self.rget(1);
                let i = add_imm(&mut self.b, i, 1);
                let limit = self.rget(2);
                let again = self.b.ins().icmp(NotEqual, i, limit);
                self.loop_back(again, i, t, at);
            }
            Op::PlusLoop(t) => {
                self.need(1, at);
                self.rneed(2, at);
                let n = self.var(tos_v);
                let index = self.rget(1);
                let limit = self.rget(2);
                let old = self.b.ins().isub(index, limit);
                let new = self.b.ins().iadd(old, n);
                let x1 = self.b.ins().bxor(old, new);
                let x2 = self.b.ins().bxor(old, n);
                let both = self.b.ins().band(x1, x2);
                let again = self.cmp_imm(SignedGreaterThanOrEqual, both, 0);
                // The step check comes before the pop, so a deopt finds
                // the instruction's operands in place.
                let steps = self.var(self.v.steps);
                let spent = self.cmp_imm(Equal, steps, 0);
                let bad = self.b.ins().band(spent, again);
                self.guard(bad, at);
                self.drop_n(1);
                let i = self.b.ins().iadd(index, n);
                self.loop_back_checked(again, i, t, at);
            }
            Op::Leave(t) => {
                self.rneed(2, at);
                self.add_rp(-2);
                self.jump(t, at);
            }
            Op::Unloop => {
                self.rneed(2, at);
                self.add_rp(-2);
            }
            Op::I => {
                self.room(1, at);
                let i = match self.unrolled {
                    Some((depth, i)) if depth == self.inline_stack.len() => self.konst(i),
                    _ => self.index(at),
                };
                self.push(i);
            }
            Op::J => {
                self.room(1, at);
                self.rneed(4, at);
                let j = self.rget(3);
                self.push(j);
            }
            Op::K => {
                self.room(1, at);
                self.rneed(6, at);
                let k = self.rget(5);
                self.push(k);
            }
            Op::ToR => {
                self.need(1, at);
                self.rroom(1, at);
                let x = self.pop();
                self.rput(0, x);
                self.add_rp(1);
            }
            Op::RFrom => {
                self.rneed(1, at);
                self.room(1, at);
                let x = self.rget(1);
                self.add_rp(-1);
                self.push(x);
            }
            Op::RFetch => {
                self.rneed(1, at);
                self.room(1, at);
                let x = self.rget(1);
                self.push(x);
            }
            _ => unreachable!("not a loop or return stack instruction: {op:?}"),
        }
    }

    /// The loop index (`I`), with the return-stack check.
    pub(super) fn index(&mut self, at: Addr) -> Value {
        self.rneed(2, at);
        self.rget(1)
    }

    /// `LOOP`: the step check, then back to `t` with the new index or out.
    fn loop_back(&mut self, again: Value, i: Value, t: Addr, at: Addr) {
        let steps = self.var(self.v.steps);
        let spent = self.cmp_imm(IntCC::Equal, steps, 0);
        let bad = self.b.ins().band(spent, again);
        self.guard(bad, at);
        self.loop_back_checked(again, i, t, at);
    }

    fn loop_back_checked(&mut self, again: Value, i: Value, t: Addr, at: Addr) {
        let back = self.b.create_block();
        let out = self.b.create_block();
        self.b.ins().brif(again, back, &[], out, &[]);
        self.b.switch_to_block(back);
        let held = (self.cells.clone(), self.rcells.clone());
        let target = self.block_at(t);
        let steps = self.var(self.v.steps);
        let steps = add_imm(&mut self.b, steps, -1);
        self.set(self.v.steps, steps);
        if self.fixed {
            self.rput(1, i);
            self.goto(target);
        } else {
            // The cells stay dirty on the way out.
            self.emit_flush();
            self.rput(1, i);
            self.b.ins().jump(target, &[]);
        }
        (self.cells, self.rcells) = held;
        self.b.switch_to_block(out);
        self.add_rp(-2);
        let _ = at;
    }
}
