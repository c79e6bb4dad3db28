//! Code that runs in Rust: the helpers (state out, call, failure passed
//! up, state back in), direct host words called on the cells where their
//! arguments are, the recorders of move generation, and the instructions
//! made of them (`Host`, `IS`, `DOES>`, `COMPILE`, `."`, `ABORT"`).

use super::{Direct, Translator};
use crate::state::Recorded;
use crate::jit::helpers::{self, Helper, REFUSE};
use crate::ops::{Addr, Op};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{BlockArg, InstBuilder, SigRef, Value};

impl Translator<'_> {
    /// Instructions run by the interpreter's helpers, and `ABORT"`.
    pub(super) fn host_op(&mut self, op: Op, at: Addr) {
        use IntCC::*;
        let tos_v = self.v.tos;
        match op {
            Op::SetDefer(slot) => self.synced(helpers::set_defer, slot as i32, at),
            Op::Host(id) => match (self.directs)(id) {
                Some(d) => self.direct(id, d, at),
                None => self.synced(helpers::host, id as i32, at),
            },
            Op::DoesSet(t) => self.synced(helpers::does, t as i32, at),
            Op::CompileXt(xt) => self.record_call(xt, at),
            Op::DotQuote(a) => self.synced(helpers::dot_quote, a as i32, at),
            Op::AbortQuote(_) => {
                self.need(1, at);
                let x = self.var(tos_v);
                let abort = self.cmp_imm(NotEqual, x, 0);
                self.guard(abort, at);
                self.drop_n(1);
            }
            _ => unreachable!("not a host instruction: {op:?}"),
        }
    }

    pub(super) fn call_helper(&mut self, h: Helper, a: i32, b: Value) -> Value {
        let f = self.b.ins().iconst(self.ptr, h as usize as i64);
        let a = self.konst(a);
        self.calls += 1;
        let call = self.b.ins().call_indirect(self.helper_sig, f, &[self.ctx, a, b]);
        self.b.inst_results(call)[0]
    }

    /// A syncing helper: state out, call, failure passed up, state back in.
    pub(super) fn synced(&mut self, h: Helper, a: i32, at: Addr) {
        self.store_state();
        let at_v = self.konst(at as i32);
        let s = self.call_helper(h, a, at_v);
        let s = self.b.ins().ireduce(I32, s);
        self.check_status(s);
        self.load_scalars();
        if self.fixed {
            let op = self.ops[(at - self.start) as usize];
            // The shape knew the effect; were it not so, the check of the
            // depths in `resync` hands over to the interpreter.
            let delta = self.shapes.delta(op).unwrap_or(0);
            self.resync(delta, at + 1);
        }
    }

    /// `COMPILE name` (`CompileXt`): while moves are generated, the word
    /// recorded in the move being built, through the lean helper (with
    /// the `add-move` right after it, if there is one); else the
    /// interpreter's.
    fn record_call(&mut self, xt: u32, at: Addr) {
        let Some(sig) = self.direct_sig else {
            return self.synced(helpers::compile_xt, xt as i32, at);
        };
        let (x, zero) = (self.konst(xt as i32), self.konst(0));
        self.record(sig, Recorded::Call, x, zero, at);
    }

    /// What `what` records during generation (arguments `a`, `b`), through
    /// a helper that does only that; an edit and the `add-move` right
    /// after it, through one call. Answers the helper's result.
    fn record(&mut self, sig: SigRef, what: Recorded, a: Value, b: Value, at: Addr) -> Value {
        let mut code = what.code();
        let then_add = what != Recorded::AddMove && self.adds_move_next(at);
        if then_add {
            self.skip_next = true;
            code |= Recorded::THEN_ADD;
        }
        match self.layout {
            Some(layout) => self.record_inline(layout, sig, what, then_add, code, [a, b], at),
            None => self.call_direct(sig, helpers::recorder(code), code, a, b, at),
        }
    }

    /// Calls `helper` with the direct words' signature (`id`, `at`, `a`,
    /// `b`); when it refuses, the interpreter runs the instruction.
    fn call_direct(&mut self, sig: SigRef, helper: *const (), id: i32, a: Value, b: Value, at: Addr) -> Value {
        let f = self.b.ins().iconst(self.ptr, helper as i64);
        let (id, at_v) = (self.konst(id), self.konst(at as i32));
        self.calls += 1;
        let call = self.b.ins().call_indirect(sig, f, &[self.ctx, id, at_v, a, b]);
        let r = self.b.inst_results(call)[0];
        let refused = self.b.ins().icmp_imm_s(IntCC::Equal, r, REFUSE);
        self.guard(refused, at);
        self.b.ins().ireduce(I32, r)
    }

    /// A direct word: its arguments from the stack cells where they are,
    /// its result into one; nothing is handed over. When it fails, the
    /// interpreter runs it again (and reports the error).
    fn direct(&mut self, id: u32, Direct { ins, outs, records }: Direct, at: Addr) {
        let Some(sig) = self.direct_sig else {
            return self.synced(helpers::host, id as i32, at);
        };
        self.need(ins, at);
        if outs > ins {
            self.room(outs - ins, at);
        }
        let zero = self.konst(0);
        let (a, b) = match ins {
            0 => (zero, zero),
            1 => (self.var(self.v.tos), zero),
            _ => (self.below(1), self.var(self.v.tos)),
        };
        let r = match records {
            Some(what) => self.record(sig, what, a, b, at),
            None => self.call_direct(sig, helpers::direct as *const (), id as i32, a, b, at),
        };
        if ins > 0 {
            self.drop_n(ins as i64);
        }
        if outs > 0 {
            self.push(r);
        }
    }

    /// The instruction after `at` is `add-move`, reached only from `at`.
    fn adds_move_next(&mut self, at: Addr) -> bool {
        let next = (at + 1 - self.start) as usize;
        let Some(&Op::Host(id)) = self.ops.get(next) else { return false };
        if self.leaders[next].is_some() {
            return false;
        }
        matches!((self.directs)(id), Some(Direct { records: Some(Recorded::AddMove), .. }))
    }

    /// Passes a failure status up; else code that ran elsewhere has
    /// changed the stacks.
    pub(super) fn check_status(&mut self, s: Value) {
        let ok = self.b.create_block();
        self.b.ins().brif(s, self.propagate, &[BlockArg::Value(s)], ok, &[]);
        self.b.switch_to_block(ok);
        self.seal_one_way(ok);
        self.forget();
    }

    /// A value helper that may answer `REFUSE`: deoptimize then.
    pub(super) fn value_helper(&mut self, h: Helper, a: i32, b: Value, at: Addr) -> Value {
        let r = self.call_helper(h, a, b);
        let bad = self.b.ins().icmp_imm_s(IntCC::Equal, r, REFUSE);
        self.guard(bad, at);
        self.b.ins().ireduce(I32, r)
    }
}
