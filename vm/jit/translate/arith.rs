//! Arithmetic, comparisons and logic, and their superinstructions (`LitAdd`,
//! `CellsLit`, `IAdd`, ...): truth values kept as compares where a branch
//! or `AND` reads them (`flag_source`), wrapping division. Touches only the
//! stack cells.

use super::Translator;
use crate::ops::{Addr, Op};
use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{InstBuilder, InstructionData, Opcode, Value};
use cranelift_frontend::FunctionBuilder;

/// `x + n`, without an instruction when `n` is 0 (depths and offsets
/// often are): what Cranelift is not given it need not fold away.
pub(super) fn add_imm(b: &mut FunctionBuilder, x: Value, n: i64) -> Value {
    if n == 0 {
        x
    } else {
        b.ins().iadd_imm_s(x, n)
    }
}

impl Translator<'_> {
    /// Arithmetic, comparisons and logic.
    pub(super) fn arith_op(&mut self, op: Op, at: Addr) {
        use IntCC::*;
        let tos_v = self.v.tos;
        match op {
            Op::Add => self.binary(at, |s, a, b| s.b.ins().iadd(a, b)),
            Op::Sub => self.binary(at, |s, a, b| s.b.ins().isub(a, b)),
            Op::Mul => self.binary(at, |s, a, b| s.b.ins().imul(a, b)),
            Op::Div | Op::Mod => {
                self.need(2, at);
                self.nonzero_divisor(at);
                let rem = op == Op::Mod;
                self.binary(at, |s, a, b| s.divide(a, b, rem));
            }
            Op::DivMod => {
                self.need(2, at);
                self.nonzero_divisor(at);
                let (a, b) = (self.below(1), self.var(tos_v));
                let r = self.divide(a, b, true);
                let q = self.divide(a, b, false);
                self.set_below(1, r);
                self.set(tos_v, q);
            }
            Op::MulDiv => {
                self.need(3, at);
                self.nonzero_divisor(at);
                let (a, b, c) = (self.below(2), self.below(1), self.var(tos_v));
                let a = self.b.ins().sextend(I64, a);
                let b = self.b.ins().sextend(I64, b);
                let c = self.b.ins().sextend(I64, c);
                let p = self.b.ins().imul(a, b);
                let q = self.b.ins().sdiv(p, c);
                let q = self.b.ins().ireduce(I32, q);
                self.add_d(-2);
                self.set(tos_v, q);
            }
            Op::Inc => self.unary(at, |s, x| add_imm(&mut s.b, x, 1)),
            Op::Dec => self.unary(at, |s, x| add_imm(&mut s.b, x, -1)),
            Op::Add2 => self.unary(at, |s, x| add_imm(&mut s.b, x, 2)),
            Op::Sub2 => self.unary(at, |s, x| add_imm(&mut s.b, x, -2)),
            Op::Mul2 => self.unary(at, |s, x| s.b.ins().ishl_imm_s(x, 1)),
            Op::Div2 => self.unary(at, |s, x| s.b.ins().sshr_imm_s(x, 1)),
            Op::Abs => self.unary(at, |s, x| s.b.ins().iabs(x)),
            Op::Negate => self.unary(at, |s, x| s.b.ins().ineg(x)),
            Op::Min => self.binary(at, |s, a, b| s.b.ins().smin(a, b)),
            Op::Max => self.binary(at, |s, a, b| s.b.ins().smax(a, b)),
            Op::Eq => self.compare(at, Equal),
            Op::Ne => self.compare(at, NotEqual),
            Op::Lt => self.compare(at, SignedLessThan),
            Op::Gt => self.compare(at, SignedGreaterThan),
            Op::Le => self.compare(at, SignedLessThanOrEqual),
            Op::Ge => self.compare(at, SignedGreaterThanOrEqual),
            Op::ULt => self.compare(at, UnsignedLessThan),
            Op::ZeroEq => self.compare_lit(at, Equal, 0),
            Op::ZeroNe => self.compare_lit(at, NotEqual, 0),
            Op::ZeroLt => self.compare_lit(at, SignedLessThan, 0),
            Op::ZeroGt => self.compare_lit(at, SignedGreaterThan, 0),
            Op::And => self.binary(at, |s, a, b| s.and(a, b)),
            Op::Or => self.binary(at, |s, a, b| s.b.ins().bor(a, b)),
            Op::Xor => self.binary(at, |s, a, b| s.b.ins().bxor(a, b)),
            Op::Invert => self.unary(at, |s, x| s.b.ins().bnot(x)),
            Op::LShift | Op::RShift => {
                let left = op == Op::LShift;
                self.binary(at, |s, a, b| {
                    let shifted = if left { s.b.ins().ishl(a, b) } else { s.b.ins().ushr(a, b) };
                    let small = s.cmp_imm(UnsignedLessThan, b, 32);
                    let zero = s.konst(0);
                    s.b.ins().select(small, shifted, zero)
                });
            }

            // ---- superinstructions ----
            Op::LitAdd(n) => self.unary(at, |s, x| add_imm(&mut s.b, x, n as i64)),
            Op::LitMul(n) => self.unary(at, |s, x| s.b.ins().imul_imm_s(x, n as i64)),
            Op::LitMulAdd(n) => self.binary(at, |s, a, b| {
                let m = s.b.ins().imul_imm_s(b, n as i64);
                s.b.ins().iadd(a, m)
            }),
            Op::LitDiv(n) | Op::LitMod(n) => {
                let rem = matches!(op, Op::LitMod(_));
                self.unary(at, |s, x| {
                    let k = s.konst(n);
                    s.divide(x, k, rem)
                });
            }
            Op::LitEq(n) => self.compare_lit(at, Equal, n),
            Op::LitNe(n) => self.compare_lit(at, NotEqual, n),
            Op::LitLt(n) => self.compare_lit(at, SignedLessThan, n),
            Op::LitGt(n) => self.compare_lit(at, SignedGreaterThan, n),
            Op::CellsAdd => self.binary(at, |s, a, b| {
                let m = s.b.ins().ishl_imm_s(b, 2);
                s.b.ins().iadd(a, m)
            }),
            Op::IAdd => {
                self.need(1, at);
                let i = self.index(at);
                let x = self.var(tos_v);
                let y = self.b.ins().iadd(x, i);
                self.set(tos_v, y);
            }
            Op::OverAdd => {
                self.need(2, at);
                let a = self.below(1);
                let x = self.var(tos_v);
                let y = self.b.ins().iadd(x, a);
                self.set(tos_v, y);
            }
            Op::CellsLit(n) => self.unary(at, |s, x| {
                let m = s.b.ins().ishl_imm_s(x, 2);
                add_imm(&mut s.b, m, n as i64)
            }),
            Op::ILit(n) => {
                self.room(1, at);
                let i = self.index(at);
                let x = add_imm(&mut self.b, i, n as i64);
                self.push(x);
            }
            Op::ICell(n) => {
                self.room(1, at);
                let i = self.index(at);
                let x = self.b.ins().ishl_imm_s(i, 2);
                let x = add_imm(&mut self.b, x, n as i64);
                self.push(x);
            }
            _ => unreachable!("not an arithmetic instruction: {op:?}"),
        }
    }

    pub(super) fn flag(&mut self, c: Value) -> Value {
        self.b.ins().bmask(I32, c)
    }

    /// The truth value flag `x` was made from, when it is one `flag` made
    /// (a value defined in this function dominates its uses, and so do its
    /// operands).
    pub(super) fn flag_source(&self, x: Value) -> Option<Value> {
        let dfg = &self.b.func.dfg;
        match dfg.insts[dfg.value_def(x).inst()?] {
            InstructionData::Unary { opcode: Opcode::Bmask, arg } => Some(arg),
            _ => None,
        }
    }

    /// `c` false: a comparison turned around where `c` is one, so a branch
    /// on it stays a compare and a jump.
    pub(super) fn invert(&mut self, c: Value) -> Value {
        if let Some(inst) = self.b.func.dfg.value_def(c).inst() {
            if let InstructionData::IntCompare { cond, args, .. } = self.b.func.dfg.insts[inst] {
                return self.b.ins().icmp(cond.complement(), args[0], args[1]);
            }
        }
        self.b.ins().bxor_imm_s(c, 1)
    }

    /// A comparison of `x` with `n`; a flag tested against zero is its own
    /// truth value (no mask made and tested again).
    pub(super) fn cmp_imm(&mut self, cc: IntCC, x: Value, n: i64) -> Value {
        if n == 0 && matches!(cc, IntCC::Equal | IntCC::NotEqual) {
            if let Some(c) = self.flag_source(x) {
                return if cc == IntCC::NotEqual { c } else { self.invert(c) };
            }
        }
        self.b.ins().icmp_imm_s(cc, x, n)
    }

    /// `AND`; of two flags, the flag of both truth values.
    pub(super) fn and(&mut self, a: Value, b: Value) -> Value {
        match (self.flag_source(a), self.flag_source(b)) {
            (Some(x), Some(y)) => {
                let both = self.b.ins().band(x, y);
                self.flag(both)
            }
            _ => self.b.ins().band(a, b),
        }
    }

    pub(super) fn unary(&mut self, at: Addr, f: impl FnOnce(&mut Self, Value) -> Value) {
        self.need(1, at);
        let x = self.var(self.v.tos);
        let y = f(self, x);
        self.set(self.v.tos, y);
    }

    fn binary(&mut self, at: Addr, f: impl FnOnce(&mut Self, Value, Value) -> Value) {
        self.need(2, at);
        let b = self.var(self.v.tos);
        let a = self.below(1);
        let y = f(self, a, b);
        self.add_d(-1);
        self.set(self.v.tos, y);
    }

    fn compare(&mut self, at: Addr, cc: IntCC) {
        self.binary(at, |s, a, b| {
            let c = s.b.ins().icmp(cc, a, b);
            s.flag(c)
        });
    }

    fn compare_lit(&mut self, at: Addr, cc: IntCC, n: i32) {
        self.unary(at, |s, x| {
            let c = s.cmp_imm(cc, x, n as i64);
            s.flag(c)
        });
    }

    /// ( a b -- q ) or r: wrapping division by a non-zero divisor
    /// (`MIN / -1` wraps instead of trapping).
    fn divide(&mut self, a: Value, b: Value, rem: bool) -> Value {
        let minus_one = self.cmp_imm(IntCC::Equal, b, -1);
        let one = self.konst(1);
        let safe = self.b.ins().select(minus_one, one, b);
        if rem {
            let r = self.b.ins().srem(a, safe);
            let zero = self.konst(0);
            self.b.ins().select(minus_one, zero, r)
        } else {
            let q = self.b.ins().sdiv(a, safe);
            let neg = self.b.ins().ineg(a);
            self.b.ins().select(minus_one, neg, q)
        }
    }

    fn nonzero_divisor(&mut self, at: Addr) {
        let tos = self.var(self.v.tos);
        let zero = self.cmp_imm(IntCC::Equal, tos, 0);
        self.guard(zero, at);
    }
}
