//! Blocks and the edges between them: a block per instruction that starts
//! one (`leaders`), jumps and two-way branches that bring the held cells
//! to what the target expects (`conform`), what each edge carries in
//! (purity, the prepaid budget), and the start of a block. Owns
//! `held_at`, `pure_in`, `prepaid_in`.

use super::Translator;
use super::calls::Prepaid;
use crate::ops::{Addr, Op};
use cranelift_codegen::ir::{Block, InstBuilder, InstructionData, Opcode, Value};
use cranelift_frontend::FunctionBuilder;

/// `brif cond yes no`, where a condition made of truth values (`AND`,
/// `OR`, `0=` of flags: `enemy? AND`) is tested one part at a time, a
/// compare and a jump each, instead of being computed whole first. Its
/// parts are computed already, and have no effects.
pub(super) fn brif_parts(b: &mut FunctionBuilder, cond: Value, yes: Block, no: Block) {
    use cranelift_codegen::ir::types::I8;
    let dfg = &b.func.dfg;
    let def = |v: Value| dfg.value_def(v).inst().map(|inst| dfg.insts[inst]);
    let is_one = |v: Value| matches!(def(v), Some(InstructionData::UnaryImm { opcode: Opcode::Iconst, imm }) if imm.bits() == 1);
    let parts = def(cond).filter(|_| dfg.value_type(cond) == I8);
    match parts {
        Some(InstructionData::Binary { opcode: op @ (Opcode::Band | Opcode::Bor), args: [x, y] }) => {
            let second = b.create_block();
            if op == Opcode::Band {
                brif_parts(b, x, second, no);
            } else {
                brif_parts(b, x, yes, second);
            }
            b.seal_block(second);
            b.switch_to_block(second);
            brif_parts(b, y, yes, no);
        }
        Some(InstructionData::Binary { opcode: Opcode::Bxor, args: [x, one] }) if is_one(one) => {
            brif_parts(b, x, no, yes);
        }
        _ => {
            b.ins().brif(cond, yes, &[], no, &[]);
        }
    }
}

/// A block for each instruction of a body that starts one (jump targets
/// and what follows a branch or EXIT).
pub(super) fn leaders(b: &mut FunctionBuilder, start: Addr, ops: &[Op]) -> Vec<Option<Block>> {
    let mut leaders = vec![None; ops.len()];
    leaders[0] = Some(b.create_block());
    for (i, op) in ops.iter().enumerate() {
        if let Some(t) = op.target() {
            let t = (t - start) as usize;
            if leaders[t].is_none() {
                leaders[t] = Some(b.create_block());
            }
        }
        let ends = op.target().is_some() || matches!(op, Op::Exit);
        if ends && i + 1 < ops.len() && leaders[i + 1].is_none() {
            leaders[i + 1] = Some(b.create_block());
        }
    }
    leaders
}

impl Translator<'_> {
    /// Seals `block`, entered from one place only, as soon as that jump is
    /// made: the variables read in it are then the values defined before
    /// the jump, not block parameters resolved at the end, so what is
    /// known of them (a flag's truth value, a constant) still holds.
    pub(super) fn seal_one_way(&mut self, block: Block) {
        self.b.seal_block(block);
        self.inherit_prepaid(block);
    }

    /// Ends the block with a jump to `target`.
    pub(super) fn goto(&mut self, target: Block) {
        self.note_edge(target);
        self.conform(target);
        self.b.ins().jump(target, &[]);
    }

    /// An edge from the current block into `target`: what the budget check
    /// covering this point still covers reaches `target` (see `prepaid_in`).
    fn note_edge(&mut self, target: Block) {
        let pure = self.pure;
        self.pure_in.entry(target).and_modify(|p| *p &= pure).or_insert(pure);
        let p = &self.prepaid;
        let here = (p.block.is_some() && p.block == self.b.current_block()).then_some((p.steps, p.frames_base));
        let cover = match self.prepaid_in.get(&target) {
            None => here,
            Some(&before) => match (before, here) {
                (Some((a, f)), Some((b, g))) if f == g => Some((a.min(b), f)),
                _ => None,
            },
        };
        self.prepaid_in.insert(target, cover);
    }

    /// Starts `block` covered as every edge into it was, when all of them
    /// are translated already (no jump back reaches it).
    pub(super) fn inherit_prepaid(&mut self, block: Block) {
        if let Some(Some((steps, frames_base))) = self.prepaid_in.remove(&block) {
            self.prepaid = Prepaid { block: Some(block), steps, frames_base };
        }
    }

    /// Makes the held cells what `target` expects on entry (the first
    /// edge to reach it decides); an unfixed function stores them all.
    fn conform(&mut self, target: Block) {
        if !self.fixed {
            self.flush();
            return;
        }
        let Some((d, r)) = self.held_at.get(&target).cloned() else {
            self.held_at.insert(target, (self.cells.clone(), self.rcells.clone()));
            return;
        };
        for (rr, want) in [(false, d), (true, r)] {
            let have = self.held(rr).clone();
            for &key in have.dirty.difference(&want.dirty) {
                if key < 0 {
                    // The caller's cells change on this edge.
                    self.pure_in.insert(target, false);
                }
                self.store_cell(rr, key);
            }
            // A cell at or above the top is dead (the top's own slot is
            // read only right after a pop, within an instruction): it
            // needs no load on the way in.
            let top = if rr { self.rk } else { self.dk };
            for &key in want.live.difference(&have.live) {
                if key < top {
                    self.load_cell(rr, key);
                }
            }
            *self.held(rr) = have;
        }
    }

    /// Whether reaching `target` takes code (stores or loads).
    fn needs_code(&self, target: Block) -> bool {
        let Some((d, r)) = self.held_at.get(&target) else { return false };
        [(&self.cells, d), (&self.rcells, r)].iter().any(|(have, want)| !have.dirty.is_subset(&want.dirty) || !want.live.is_subset(&have.live))
    }

    /// `brif cond yes no`, conforming on each edge.
    pub(super) fn branch_to(&mut self, cond: Value, yes: Block, no: Block) {
        self.note_edge(yes);
        self.note_edge(no);
        if !self.fixed {
            self.flush();
            brif_parts(&mut self.b, cond, yes, no);
            return;
        }
        let edges = [yes, no].map(|t| (t, self.needs_code(t).then(|| self.b.create_block())));
        for (t, e) in edges {
            if e.is_none() {
                self.conform(t);
            }
        }
        let [y, n] = edges.map(|(t, e)| e.unwrap_or(t));
        brif_parts(&mut self.b, cond, y, n);
        for (t, e) in edges {
            if let Some(e) = e {
                // The edge is noted already, from the branch.
                self.b.switch_to_block(e);
                self.conform(t);
                self.b.ins().jump(t, &[]);
            }
        }
    }

    /// Starts translating `block`, which begins at instruction `i`.
    pub(super) fn start_block(&mut self, block: Block, i: usize) {
        self.b.switch_to_block(block);
        let at = self.start + i as u32;
        let edges_pure = self.pure_in.remove(&block).unwrap_or(false);
        // A jump back into a block comes from code not translated yet.
        let looped = self.ops[i..].iter().any(|op| op.target() == Some(at));
        if !looped {
            self.inherit_prepaid(block);
        }
        self.pure = edges_pure && !looped;
        if self.fixed {
            if let Some((d, r)) = self.shape_at(i) {
                self.dk = self.dbase + d;
                self.rk = self.rbase + r;
            }
            let (d, r) = self.held_at.entry(block).or_default().clone();
            self.cells = d;
            self.rcells = r;
        } else {
            self.forget();
        }
    }

    /// The depths at instruction `i` of the body, by the shape.
    pub(super) fn shape_at(&self, i: usize) -> Option<(i32, i32)> {
        self.shape.as_ref().and_then(|s| s.at[i])
    }

    /// The block of instruction `a`. `compile` admits only definitions
    /// whose jumps land inside and whose last instruction is EXIT, so every
    /// target, and the successor of every branch, is an instruction with a
    /// block made in `new`.
    pub(super) fn block_at(&self, a: Addr) -> Block {
        self.leaders[(a - self.start) as usize].expect("every jump target and successor of a branch has a block")
    }
}
