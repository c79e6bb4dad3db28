//! Stack cells in variables (`Held`): which cells of the data and return
//! stacks a variable holds and which are not stored yet, reading and
//! writing them (`below`, `set_below`, `rget`, `rput`), moving the depths
//! (`push`, `pop`, `add_d`, `add_rp`), the interpreter's stack checks
//! (`need`, `room`, `rneed`, `rroom`), made once per straight-line stretch
//! or not at all in a fixed function, and flushing the cells to memory
//! before anything reads the stacks there. Owns `cells`, `rcells`, `dk`,
//! `rk` and the `known_*` counts.

use super::Translator;
use super::arith::add_imm;
use super::regions::stacks;
use crate::ops::Addr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{InstBuilder, Value};
use cranelift_frontend::Variable;

/// Which stack cells a variable holds (`live`), and which of those are not
/// stored yet (`dirty`): stored before anything reads the stack in memory
/// (a call, a helper, a deoptimization, a block boundary in an unfixed
/// function).
#[derive(Clone, Default, PartialEq)]
pub(super) struct Held {
    pub(super) live: std::collections::BTreeSet<i32>,
    pub(super) dirty: std::collections::BTreeSet<i32>,
}

impl Held {
    /// Cells at or above `top` are gone.
    pub(super) fn cut(&mut self, top: i32) {
        let _ = self.live.split_off(&top);
        let _ = self.dirty.split_off(&top);
    }
}

impl Translator<'_> {
    /// Nothing is known about the stack any more (a block boundary, or
    /// code that ran elsewhere); a fixed function still knows its depths.
    pub(super) fn forget(&mut self) {
        debug_assert!(self.cells.dirty.is_empty() && self.rcells.dirty.is_empty());
        self.cells.live.clear();
        self.rcells.live.clear();
        if !self.fixed {
            self.known_r = 0;
            self.known_d = 0;
            self.known_room = 0;
            self.dk = 0;
        }
    }

    /// Stores the dirty cells (they stay dirty on this path).
    pub(super) fn emit_flush(&mut self) {
        for r in [false, true] {
            let dirty: Vec<i32> = self.held(r).dirty.iter().copied().collect();
            for key in dirty {
                self.store_cell(r, key);
            }
        }
    }

    pub(super) fn store_cell(&mut self, r: bool, key: i32) {
        let var = self.cell_var(r, key);
        let x = self.b.use_var(var);
        let p = self.key_slot(r, key);
        self.b.ins().store(stacks(), x, p, 0);
    }

    /// Stores the dirty cells: memory is the truth again.
    pub(super) fn flush(&mut self) {
        if self.cells.dirty.first().is_some_and(|&k| k < 0) || self.rcells.dirty.first().is_some_and(|&k| k < 0) {
            // The caller's cells change.
            self.pure = false;
        }
        self.emit_flush();
        self.cells.dirty.clear();
        self.rcells.dirty.clear();
    }

    pub(super) fn held(&mut self, r: bool) -> &mut Held {
        if r {
            &mut self.rcells
        } else {
            &mut self.cells
        }
    }

    pub(super) fn cell_var(&mut self, r: bool, key: i32) -> Variable {
        let vars = if r { &self.rvars } else { &self.dvars };
        if let Some(&v) = vars.get(&key) {
            return v;
        }
        let v = self.b.declare_var(I32);
        if r { &mut self.rvars } else { &mut self.dvars }.insert(key, v);
        v
    }

    /// Where the cell `key` is: relative to the entry depths in a fixed
    /// function, else to the depth where the block began.
    fn key_slot(&mut self, r: bool, key: i32) -> Value {
        if let Some((at, lo, hi)) = if r { self.rframe } else { self.dframe } {
            if (lo..hi).contains(&key) {
                return add_imm(&mut self.b, at, 4 * key as i64);
            }
        }
        let (base, i) = if r {
            (self.v.rs, add_imm(&mut self.b, self.r0, key as i64))
        } else if self.fixed {
            (self.v.ds, add_imm(&mut self.b, self.d0, key as i64))
        } else {
            let d = self.var(self.v.d);
            (self.v.ds, add_imm(&mut self.b, d, (key - self.dk) as i64))
        };
        self.slot(base, i)
    }

    fn read_cell(&mut self, r: bool, key: i32) -> Value {
        let var = self.cell_var(r, key);
        if self.held(r).live.contains(&key) {
            return self.var(var);
        }
        self.load_cell(r, key)
    }

    pub(super) fn load_cell(&mut self, r: bool, key: i32) -> Value {
        let var = self.cell_var(r, key);
        let p = self.key_slot(r, key);
        let x = self.b.ins().load(I32, stacks(), p, 0);
        self.set(var, x);
        self.held(r).live.insert(key);
        x
    }

    pub(super) fn write_cell(&mut self, r: bool, key: i32, x: Value) {
        let var = self.cell_var(r, key);
        self.set(var, x);
        let held = self.held(r);
        held.live.insert(key);
        held.dirty.insert(key);
    }

    /// The interpreter's `need!`: at least `n` cells.
    pub(super) fn need(&mut self, n: u32, at: Addr) {
        if n > self.known_d && !self.fixed {
            self.known_d = n;
            let d = self.var(self.v.d);
            let bad = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, d, n as i64);
            self.guard(bad, at);
        }
    }

    /// Room for `n` more cells.
    pub(super) fn room(&mut self, n: u32, at: Addr) {
        if n <= self.known_room || self.fixed {
            return;
        }
        self.known_room = n;
        let d = self.var(self.v.d);
        let after = add_imm(&mut self.b, d, n as i64);
        let bad = self.b.ins().icmp(IntCC::UnsignedGreaterThan, after, self.max_d);
        self.guard(bad, at);
    }

    pub(super) fn rneed(&mut self, n: u32, at: Addr) {
        if n <= self.known_r || self.fixed {
            return;
        }
        self.known_r = n;
        let rp = self.var(self.v.rp);
        let bad = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, rp, n as i64);
        self.guard(bad, at);
    }

    pub(super) fn rroom(&mut self, n: u32, at: Addr) {
        if self.fixed {
            return;
        }
        let rp = self.var(self.v.rp);
        let after = add_imm(&mut self.b, rp, n as i64);
        let bad = self.b.ins().icmp(IntCC::UnsignedGreaterThan, after, self.max_r);
        self.guard(bad, at);
    }

    /// The address of cell `i` (masked to 16 bits, as `at!` does) of the
    /// stack at `base`.
    pub(super) fn slot(&mut self, base: Variable, i: Value) -> Value {
        let i = self.b.ins().band_imm_s(i, 0xffff);
        let i = self.b.ins().uextend(self.ptr, i);
        let off = self.b.ins().ishl_imm_s(i, 2);
        let base = self.var(base);
        self.b.ins().iadd(base, off)
    }

    /// Data stack cell `d - k`.
    pub(super) fn below(&mut self, k: i64) -> Value {
        self.read_cell(false, self.dk - k as i32)
    }

    pub(super) fn set_below(&mut self, k: i64, x: Value) {
        self.write_cell(false, self.dk - k as i32, x);
    }

    pub(super) fn add_d(&mut self, n: i64) {
        if !self.fixed {
            let d = self.var(self.v.d);
            let d = add_imm(&mut self.b, d, n);
            self.set(self.v.d, d);
        }
        self.dk += n as i32;
        if n < 0 {
            // Cells above the top are dead: never stored. The top's own
            // cell is read once more, into `tos`.
            let _ = self.cells.live.split_off(&(self.dk + 1));
            let _ = self.cells.dirty.split_off(&self.dk);
        }
        self.known_d = (self.known_d as i64 + n).max(0) as u32;
        self.known_room = (self.known_room as i64 - n).max(0) as u32;
    }

    /// Push, room already checked.
    pub(super) fn push(&mut self, x: Value) {
        let tos = self.var(self.v.tos);
        self.set_below(0, tos);
        self.add_d(1);
        self.set(self.v.tos, x);
    }

    /// Pop, depth already checked.
    pub(super) fn pop(&mut self) -> Value {
        let x = self.var(self.v.tos);
        self.add_d(-1);
        let t = self.below(0);
        self.set(self.v.tos, t);
        x
    }

    /// Drops `n` cells, depth already checked.
    pub(super) fn drop_n(&mut self, n: i64) {
        self.add_d(-n);
        let t = self.below(0);
        self.set(self.v.tos, t);
    }

    fn rslot(&mut self, k: i64) -> Value {
        let rp = self.var(self.v.rp);
        let i = add_imm(&mut self.b, rp, -k);
        self.slot(self.v.rs, i)
    }

    pub(super) fn rget(&mut self, k: i64) -> Value {
        if self.fixed {
            return self.read_cell(true, self.rk - k as i32);
        }
        let p = self.rslot(k);
        self.b.ins().load(I32, stacks(), p, 0)
    }

    pub(super) fn rput(&mut self, k: i64, x: Value) {
        if self.fixed {
            return self.write_cell(true, self.rk - k as i32, x);
        }
        let p = self.rslot(k);
        self.b.ins().store(stacks(), x, p, 0);
    }

    pub(super) fn add_rp(&mut self, n: i64) {
        self.known_r = (self.known_r as i64 + n).max(0) as u32;
        if self.fixed {
            self.rk += n as i32;
            if n < 0 {
                self.rcells.cut(self.rk);
            }
            return;
        }
        let rp = self.var(self.v.rp);
        let rp = add_imm(&mut self.b, rp, n);
        self.set(self.v.rp, rp);
    }
}
