//! The data space: fetches and stores with their bounds checks (reads below
//! `mem_len`, writes below `store_len`), a cell at a known address read
//! without one, `HERE`, `ALLOT`, `,`, `FILL`, `MOVE`, and the fused
//! forms (`FetchAt`, `IFetchCell`, ...). Touches the data space and the
//! stack cells.

use super::Translator;
use super::arith::add_imm;
use super::regions::data;
use crate::jit::helpers;
use crate::ops::{Addr, Op};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::Variable;

impl Translator<'_> {
    /// The data space.
    pub(super) fn memory_op(&mut self, op: Op, at: Addr) {
        let tos_v = self.v.tos;
        match op {
            Op::Fetch => {
                self.need(1, at);
                let a = self.var(tos_v);
                let x = self.fetch(a, at);
                self.set(tos_v, x);
            }
            Op::CFetch => {
                self.need(1, at);
                let a = self.var(tos_v);
                let x = self.cfetch(a, at);
                self.set(tos_v, x);
            }
            Op::Store | Op::CStore => {
                self.need(2, at);
                let a = self.var(tos_v);
                let x = self.below(1);
                self.store_and_drop(a, x, 2, op == Op::CStore, at);
            }
            Op::PlusStore => {
                self.need(2, at);
                let a = self.var(tos_v);
                let n = self.below(1);
                self.add_at(a, n, at);
                self.drop_n(2);
            }
            Op::IncMem | Op::DecMem => {
                self.need(1, at);
                let a = self.var(tos_v);
                let delta = self.konst(if op == Op::IncMem { 1 } else { -1 });
                self.add_at(a, delta, at);
                self.drop_n(1);
            }
            Op::On | Op::Off => {
                self.need(1, at);
                let a = self.var(tos_v);
                let x = self.konst(if op == Op::On { -1 } else { 0 });
                self.store_and_drop(a, x, 1, false, at);
            }
            Op::Here => {
                self.room(1, at);
                let zero = self.konst(0);
                let h = self.call_helper(helpers::here, 0, zero);
                let h = self.b.ins().ireduce(I32, h);
                self.push(h);
            }
            Op::Allot | Op::Comma | Op::CComma => {
                self.need(1, at);
                let which = match op {
                    Op::Allot => 0,
                    Op::Comma => 1,
                    _ => 2,
                };
                let x = self.var(tos_v);
                self.value_helper(helpers::allot, which, x, at);
                self.drop_n(1);
            }
            Op::Cells => self.unary(at, |s, x| s.b.ins().ishl_imm_s(x, 2)),
            Op::Fill => self.synced(helpers::fill_or_move, 0, at),
            Op::Move => self.synced(helpers::fill_or_move, 1, at),
            Op::Count => {
                self.need(1, at);
                self.room(1, at);
                let a = self.var(tos_v);
                let len = self.cfetch(a, at);
                let a1 = add_imm(&mut self.b, a, 1);
                self.set(tos_v, a1);
                self.push(len);
            }

            // ---- superinstructions ----
            Op::AddAt(n, a) => {
                let addr = self.konst(a as i32);
                let delta = self.konst(n as i32);
                self.add_at(addr, delta, at);
            }
            Op::FetchAt(a) => {
                self.room(1, at);
                let addr = self.konst(a as i32);
                let x = self.fetch(addr, at);
                self.push(x);
            }
            Op::StoreAt(a) => {
                self.need(1, at);
                let addr = self.konst(a as i32);
                let x = self.var(tos_v);
                self.store_and_drop(addr, x, 1, false, at);
            }
            Op::IncAt(a) => {
                let addr = self.konst(a as i32);
                let one = self.konst(1);
                self.add_at(addr, one, at);
            }
            Op::FetchAdd => {
                self.need(2, at);
                let a = self.var(tos_v);
                let x = self.fetch(a, at);
                let below = self.below(1);
                let sum = self.b.ins().iadd(below, x);
                self.add_d(-1);
                self.set(tos_v, sum);
            }
            Op::FetchOff(n) | Op::CFetchOff(n) => {
                self.need(1, at);
                let a = self.var(tos_v);
                let a = add_imm(&mut self.b, a, n as i64);
                let x = if matches!(op, Op::FetchOff(_)) { self.fetch(a, at) } else { self.cfetch(a, at) };
                self.set(tos_v, x);
            }
            Op::StoreOff(n) | Op::CStoreOff(n) => {
                self.need(2, at);
                let a = self.var(tos_v);
                let a = add_imm(&mut self.b, a, n as i64);
                let x = self.below(1);
                self.store_and_drop(a, x, 2, matches!(op, Op::CStoreOff(_)), at);
            }
            Op::FetchCell(n) => {
                self.need(1, at);
                let x = self.var(tos_v);
                let a = self.b.ins().ishl_imm_s(x, 2);
                let a = add_imm(&mut self.b, a, n as i64);
                let y = self.fetch(a, at);
                self.set(tos_v, y);
            }
            Op::StoreCell(n) => {
                self.need(2, at);
                let x = self.var(tos_v);
                let a = self.b.ins().ishl_imm_s(x, 2);
                let a = add_imm(&mut self.b, a, n as i64);
                let value = self.below(1);
                self.store_and_drop(a, value, 2, false, at);
            }
            Op::IFetchCell(n) => {
                self.room(1, at);
                let i = self.index(at);
                let a = self.b.ins().ishl_imm_s(i, 2);
                let a = add_imm(&mut self.b, a, n as i64);
                let x = self.fetch(a, at);
                self.push(x);
            }
            Op::IStoreCell(n) => {
                self.need(1, at);
                let i = self.index(at);
                let a = self.b.ins().ishl_imm_s(i, 2);
                let a = add_imm(&mut self.b, a, n as i64);
                let x = self.var(tos_v);
                self.store_and_drop(a, x, 1, false, at);
            }
            Op::ICFetch(n) => {
                self.room(1, at);
                let i = self.index(at);
                let a = add_imm(&mut self.b, i, n as i64);
                let x = self.cfetch(a, at);
                self.push(x);
            }
            Op::ICStore(n) => {
                self.need(1, at);
                let i = self.index(at);
                let a = add_imm(&mut self.b, i, n as i64);
                let x = self.var(tos_v);
                self.store_and_drop(a, x, 1, true, at);
            }
            _ => unreachable!("not a memory instruction: {op:?}"),
        }
    }

    /// A checked pointer to `len` bytes of data space at `addr`, to read.
    fn data_at(&mut self, addr: Value, len: i64, at: Addr) -> Value {
        let limit = self.v.mem_len;
        self.data_within(addr, len, limit, at)
    }

    /// A checked pointer to `len` bytes of data space at `addr`, to write:
    /// below `Memory::written`, or the interpreter writes (and raises it).
    fn data_to_write(&mut self, addr: Value, len: i64, at: Addr) -> Value {
        let limit = self.v.store_len;
        self.data_within(addr, len, limit, at)
    }

    fn data_within(&mut self, addr: Value, len: i64, limit: Variable, at: Addr) -> Value {
        let a = self.b.ins().uextend(I64, addr);
        let end = add_imm(&mut self.b, a, len);
        let mem_len = self.var(limit);
        let bad = self.b.ins().icmp(IntCC::UnsignedGreaterThan, end, mem_len);
        self.guard(bad, at);
        let mem = self.var(self.v.mem);
        let a = if self.ptr == I64 { a } else { self.b.ins().ireduce(self.ptr, a) };
        self.b.ins().iadd(mem, a)
    }

    fn fetch(&mut self, addr: Value, at: Addr) -> Value {
        if let Some(a) = self.folded(addr).and_then(|a| usize::try_from(a).ok()) {
            if let Some([b0, b1, b2, b3]) = (self.data)(a) {
                // Within the data space, which never shrinks: no check.
                let mem = self.var(self.v.mem);
                let x = self.b.ins().load(I32, data(), mem, a as i32);
                let now = i32::from_le_bytes([b0, b1, b2, b3]);
                self.known.guessed_values.insert(x, now);
                return x;
            }
        }
        let p = self.data_at(addr, 4, at);
        self.b.ins().load(I32, data(), p, 0)
    }

    fn cfetch(&mut self, addr: Value, at: Addr) -> Value {
        let p = self.data_at(addr, 1, at);
        self.b.ins().uload8(I32, data(), p, 0)
    }

    /// `x @ ` then `x !` style: a store of `value` at `addr`, popping `n`.
    fn store_and_drop(&mut self, addr: Value, value: Value, n: i64, byte: bool, at: Addr) {
        let p = self.data_to_write(addr, if byte { 1 } else { 4 }, at);
        if byte {
            self.b.ins().istore8(data(), value, p, 0);
        } else {
            self.b.ins().store(data(), value, p, 0);
        }
        if n > 0 {
            self.drop_n(n);
        }
    }

    fn add_at(&mut self, addr: Value, delta: Value, at: Addr) {
        let p = self.data_to_write(addr, 4, at);
        let v = self.b.ins().load(I32, data(), p, 0);
        let v = self.b.ins().iadd(v, delta);
        self.b.ins().store(data(), v, p, 0);
    }
}
