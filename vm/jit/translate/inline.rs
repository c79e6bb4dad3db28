//! Translating in place: short callees inlined (their frames pushed and
//! popped as by a real call, stored only by code that leaves), and short
//! counted loops unrolled, the index a constant in each copy. Swaps the
//! body being translated (`start`, `ops`, `leaders`, `shape`) and restores
//! it.

use super::arith::add_imm;
use super::calls::{PREPAID_STEPS, SavedDepth};
use super::edges::leaders;
use super::{self_contained, Translator};
use crate::ops::{Addr, Op};

/// Calls of definitions this short are translated in place.
const INLINE_OPS: usize = 48;

/// At most this many instructions inlined into one function.
pub(super) const INLINE_BUDGET: usize = 400;

/// Inlined calls nest at most this deep.
const INLINE_DEPTH: usize = 4;

/// Loops of known bounds are unrolled up to this many iterations, and as
/// long as the copies come to at most `UNROLL_OPS` instructions.
const UNROLL_COUNT: i32 = 8;
const UNROLL_OPS: usize = 160;

impl Translator<'_> {
    /// A `DO` at `i` to translate once per index: a fixed function, known
    /// bounds, a few iterations of a short body ending in its `LOOP` (at
    /// `j`) that only jumps forward within itself, touches the return
    /// stack only by reading the index, and is entered only from the `DO`.
    /// Answers `j`, the first index and the count.
    pub(super) fn unrollable(&mut self, i: usize) -> Option<(usize, i32, i32)> {
        if self.ops[i] != Op::Do || !self.fixed || self.unrolled.is_some() {
            return None;
        }
        let (first, limit) = (self.known_var(self.v.tos)?, self.known_cell(1)?);
        let count = limit.checked_sub(first).filter(|n| (1..=UNROLL_COUNT).contains(n))?;
        let at = |k: usize| self.start + k as u32;
        let j = (i + 1..self.ops.len()).find(|&k| self.ops[k] == Op::Loop(at(i + 1)))?;
        if (j - i) * count as usize > UNROLL_OPS {
            return None;
        }
        let body_ok = self.ops[i + 1..j].iter().enumerate().all(|(k, op)| {
            let here = at(i + 1 + k);
            let inside = op.target().is_none_or(|t| t > here && t <= at(j));
            let return_stack = matches!(op, Op::Do | Op::QDo(_) | Op::Loop(_) | Op::PlusLoop(_) | Op::Leave(_) | Op::Unloop | Op::ToR | Op::RFrom | Op::RFetch | Op::Exit);
            inside && !return_stack
        });
        // Nothing outside jumps in (the LOOP's own jump back aside).
        let entered = self.ops.iter().enumerate().any(|(k, op)| (k <= i || k >= j) && op.target().is_some_and(|t| t > at(i) && t <= at(j)) && k != j);
        (body_ok && !entered).then_some((j, first, count))
    }

    /// The constant in the data stack cell `k` below the top, when known.
    fn known_cell(&mut self, k: i32) -> Option<i32> {
        let key = self.dk - k;
        if !self.cells.live.contains(&key) {
            return None;
        }
        let var = self.cell_var(false, key);
        self.known_var(var)
    }

    /// `DO` at `i` and its body up to the `LOOP` at `j`, once for each of
    /// `count` indexes from `first`: the index is a constant in each copy
    /// (tables it indexes are read at known addresses). The return stack
    /// holds the loop parameters as the interpreter's would, and each copy
    /// takes the step of the jump back, so a deoptimization anywhere finds
    /// the very state of the loop.
    pub(super) fn unroll(&mut self, i: usize, j: usize, first: i32, count: i32) {
        // One budget check before the copies covers the calls and steps
        // of all of them, so that their branches join covered.
        if self.prepaid.block != self.b.current_block() || self.prepaid.steps < PREPAID_STEPS / 2 {
            self.prepay(self.start + i as u32);
        }
        self.op(Op::Do, self.start + i as u32);
        let leaders = self.leaders.clone();
        let at_loop = self.start + j as u32;
        let inner: Vec<usize> = (i + 2..=j).filter(|&k| leaders[k].is_some()).collect();
        for n in 0..count {
            for &k in &inner {
                self.leaders[k] = Some(self.b.create_block());
            }
            // Reached only from the copy before.
            self.leaders[i + 1] = None;
            self.unrolled = Some((self.inline_stack.len(), first + n));
            self.range(i + 1, j);
            self.unrolled = None;
            if !self.enter_op(j) {
                break;
            }
            self.rneed(2, at_loop);
            if n + 1 < count {
                self.step(None, at_loop);
                let next = self.konst(first + n + 1);
                self.rput(1, next);
            } else {
                self.add_rp(-2);
            }
        }
        self.leaders = leaders;
    }

    /// The instructions of the callee at `target` when its call is worth
    /// translating in place: a short definition, not one being translated.
    pub(super) fn inlinable(&mut self, target: Addr) -> Option<Vec<Op>> {
        if self.inline_stack.len() > INLINE_DEPTH || self.inline_stack.contains(&target) {
            return None;
        }
        let ops = (self.shapes.definitions())(target)?;
        if !short_and_straight(target, &ops, self.inline_budget) || !self_contained(target, &ops) {
            return None;
        }
        if self.fixed && self.shapes.of(target, &ops).is_none() {
            return None;
        }
        self.inline_budget -= ops.len();
        Some(ops)
    }

    /// A call from `at` translated in place (checks made): the frame is
    /// pushed and popped as by a real call, so a deoptimization inside
    /// leaves the interpreter the very state it would have made.
    pub(super) fn inline(&mut self, target: Addr, ops: Vec<Op>, at: Addr) {
        // The call's step and frame count, as `open_frame`, but its frame
        // is stored only by code that leaves.
        let steps = self.var(self.v.steps);
        let steps = add_imm(&mut self.b, steps, -1);
        self.set(self.v.steps, steps);
        let fp = self.var(self.v.fp);
        // A fixed function's return depth is a constant offset from its
        // entry's, which is kept anyway: nothing more stays live.
        let rdepth = if self.fixed { SavedDepth::Fixed(self.rk) } else { SavedDepth::Value(self.rdepth()) };
        self.pending_frames.push((at, rdepth));
        let fp1 = add_imm(&mut self.b, fp, 1);
        self.set(self.v.fp, fp1);
        let after = self.b.create_block();
        let shape = if self.fixed { self.shapes.of(target, &ops) } else { None };
        let delta = shape.as_ref().map_or(0, |s| s.effect.delta);
        let leaders = leaders(&mut self.b, target, &ops);
        // With one EXIT, the code after the call is reached from it alone.
        let one_exit = ops.iter().filter(|&&op| op == Op::Exit).count() == 1;
        let outer = (
            std::mem::replace(&mut self.start, target),
            std::mem::replace(&mut self.ops, ops),
            std::mem::replace(&mut self.leaders, leaders),
            self.inlined.replace(after),
            std::mem::replace(&mut self.shape, shape),
            std::mem::replace(&mut self.dbase, self.dk),
            std::mem::replace(&mut self.rbase, self.rk),
        );
        self.inline_stack.push(target);
        self.body();
        self.inline_stack.pop();
        self.pending_frames.pop();
        let (dk, rk) = (self.dbase + delta, self.rbase);
        (self.start, self.ops, self.leaders, self.inlined, self.shape, self.dbase, self.rbase) = outer;
        self.closed = false;
        self.b.switch_to_block(after);
        self.inherit_prepaid(after);
        self.pure = self.pure_in.remove(&after).unwrap_or(false);
        if let Some(mark) = self.inline_exit.take().filter(|_| one_exit) {
            self.known_carries(mark);
        }
        if self.fixed {
            (self.dk, self.rk) = (dk, rk);
            let (d, r) = self.held_at.entry(after).or_default().clone();
            (self.cells, self.rcells) = (d, r);
        } else {
            self.forget();
        }
    }
}

/// About how many instructions translating the definition at `entry`
/// (`ops`) makes, callees translated in place included (as `inlinable`
/// chooses them, in the same order and budget): what compiling it costs
/// grows with this, and `Jit` asks it before deciding to wait.
pub(crate) fn translated_size<'a>(entry: Addr, ops: &[Op], ops_of: &dyn Fn(Addr) -> Option<&'a [Op]>) -> usize {
    fn walk<'a>(ops: &[Op], ops_of: &dyn Fn(Addr) -> Option<&'a [Op]>, stack: &mut Vec<Addr>, budget: &mut usize) -> usize {
        let mut size = ops.len();
        for op in ops {
            let Op::Call(target) = *op else { continue };
            if stack.len() > INLINE_DEPTH || stack.contains(&target) {
                continue;
            }
            let Some(callee) = ops_of(target) else { continue };
            if !short_and_straight(target, callee, *budget) {
                continue;
            }
            *budget -= callee.len();
            stack.push(target);
            size += walk(callee, ops_of, stack, budget);
            stack.pop();
        }
        size
    }
    walk(ops, ops_of, &mut vec![entry], &mut INLINE_BUDGET.clone())
}

/// Whether the callee at `target` (`ops`) is short enough to translate in
/// place within `budget` instructions, and does not loop: a callee that
/// loops pays its call once for many iterations, and its loop runs faster
/// alone than with its callers' values live around it (measured: sieve.4th
/// is slower with its loops inlined).
fn short_and_straight(target: Addr, ops: &[Op], budget: usize) -> bool {
    let loops = ops.iter().enumerate().any(|(i, op)| op.target().is_some_and(|t| t <= target.wrapping_add(i as u32)));
    !loops && ops.len() <= INLINE_OPS && ops.len() <= budget
}
