//! `EXECUTE` and deferred words: a token known or guessed at translation
//! time becomes a step or a direct call behind one check; any other goes
//! through `Dictionary::targets`, read inline. Calls go through
//! `calls.rs`, steps through `game.rs`.

use super::Translator;
use super::arith::add_imm;
use super::game::Dir;
use super::regions::{ctx_field, in_region, Region};
use crate::jit::JitCtx;
use crate::jit::helpers::{self, REFUSE};
use crate::ops::Addr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use std::mem::offset_of;

impl Translator<'_> {
    /// `EXECUTE`: a direction word steps `here`; a word with code is
    /// called; anything else (a move's token, a bad token) is the
    /// interpreter's.
    pub(super) fn execute(&mut self, at: Addr) {
        self.need(1, at);
        if let Some(target) = self.known_var(self.v.tos).and_then(|xt| self.target_of(xt)) {
            return self.execute_known(target, at);
        }
        let merge = self.b.create_block();
        // A direction token read from a table (`I compass EXECUTE`): when
        // it is still the one the table held, a step in a known direction.
        let guess = self.guessed_var(self.v.tos).and_then(|xt| Some((xt, self.target_of(xt)?)));
        if let Some((xt, target)) = guess.filter(|&(_, target)| target < 0) {
            let x = self.var(self.v.tos);
            let hit = self.cmp_imm(IntCC::Equal, x, xt as i64);
            // Trusted, the guess leaves one path on: what is known of the
            // step (its truth value, `here`) carries on past it, and a
            // miss is the interpreter's. One that misses often is
            // translated again with the other tokens' path beside it.
            if let Some(trusted) = self.trusted.filter(|_| !(self.unguessed)(at)) {
                trusted.borrow_mut().push(at);
                let miss = self.invert(hit);
                self.guard(miss, at);
                let moved = self.walk(Dir::Known((-1 - target) as u32), at);
                let moved = self.flag(moved);
                self.set(self.v.tos, moved);
                return;
            }
            let (step, other) = (self.b.create_block(), self.b.create_block());
            self.branch_to(hit, step, other);
            self.b.switch_to_block(step);
            self.seal_one_way(step);
            self.b.seal_block(other);
            let moved = self.walk(Dir::Known((-1 - target) as u32), at);
            let moved = self.flag(moved);
            self.set(self.v.tos, moved);
            self.goto(merge);
            self.b.switch_to_block(other);
        }
        self.execute_any(at, merge);
        self.b.switch_to_block(merge);
        if self.fixed {
            (self.cells, self.rcells) = self.held_at.get(&merge).cloned().unwrap_or_default();
        } else {
            self.forget();
        }
    }

    /// EXECUTE of any token: a step or a call, by the table of targets;
    /// then on to `merge`.
    fn execute_any(&mut self, at: Addr, merge: Block) {
        if !self.fixed {
            // A move's token (`.moveCFA EXECUTE`): the move is made by
            // the helper, and native code goes on.
            let xt = self.var(self.v.tos);
            let is_move = self.cmp_imm(IntCC::SignedGreaterThanOrEqual, xt, crate::state::MOVE_XT_BASE as i64);
            let (made, other) = (self.b.create_block(), self.b.create_block());
            self.branch_to(is_move, made, other);
            self.b.switch_to_block(made);
            self.seal_one_way(made);
            self.b.seal_block(other);
            self.synced(helpers::execute_move, 0, at);
            self.goto(merge);
            self.b.switch_to_block(other);
        }
        let xt = self.var(self.v.tos);
        // `Dictionary::targets[xt - XT_BASE]`, read inline.
        let index = add_imm(&mut self.b, xt, -(crate::dictionary::XT_BASE as i64));
        let index = self.b.ins().uextend(I64, index);
        let len = self.b.ins().load(I64, ctx_field(), self.ctx, offset_of!(JitCtx, targets_len) as i32);
        let unknown = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, index, len);
        self.guard(unknown, at);
        let targets = self.b.ins().load(self.ptr, ctx_field(), self.ctx, offset_of!(JitCtx, targets) as i32);
        let off = self.b.ins().ishl_imm_s(index, 2);
        let p = self.b.ins().iadd(targets, off);
        let r = self.b.ins().load(I32, in_region(Region::Tables), p, 0);
        let is_step = self.cmp_imm(IntCC::SignedLessThan, r, 0);
        let step = self.b.create_block();
        let word = self.b.create_block();
        self.branch_to(is_step, step, word);

        self.b.switch_to_block(step);
        self.seal_one_way(step);
        self.b.seal_block(word);
        let dir = add_imm(&mut self.b, r, 1);
        let dir = self.b.ins().ineg(dir);
        let moved = self.walk(Dir::Run(dir), at);
        let moved = self.flag(moved);
        self.set(self.v.tos, moved);
        self.goto(merge);

        // A fixed shape takes EXECUTE for `( xt -- x )`, as a step is: a
        // word that does otherwise hands over to the interpreter after it.
        self.b.switch_to_block(word);
        self.call_checks(at);
        self.drop_n(1);
        self.enter(r, at);
        self.resync(1, at + 1);
        self.goto(merge);
    }

    /// What EXECUTE does with token `xt`, when it names a word: `-1 - dir`
    /// for a direction, else the word's entry.
    fn target_of(&self, xt: i32) -> Option<i32> {
        let index = xt.checked_sub(crate::dictionary::XT_BASE).filter(|&i| i >= 0)?;
        (self.targets)(index as u32)
    }

    /// `EXECUTE` of a token known here (`['] nw step`): a direction is a
    /// step; a word is called without looking it up.
    fn execute_known(&mut self, target: i32, at: Addr) {
        if target < 0 {
            let moved = self.walk(Dir::Known((-1 - target) as u32), at);
            let moved = self.flag(moved);
            self.set(self.v.tos, moved);
            return;
        }
        self.call_checks(at);
        self.drop_n(1);
        let entry = self.konst(target);
        self.enter(entry, at);
        self.resync(1, at + 1);
    }

    /// A deferred word: the word in its slot, called.
    pub(super) fn deferred(&mut self, slot_number: u32, at: Addr) {
        // Trusted, the target it has now is called as any word is (a
        // short one translated in place: `DEFER SSTONE  ' sstone IS
        // SSTONE` becomes a literal), behind one check that no deferred
        // word was pointed elsewhere since; a miss is the interpreter's,
        // and a site that misses often is translated again as below.
        let now = self.shapes.deferred_entry(slot_number);
        if let (Some(now), Some(trusted)) = (now, self.trusted.filter(|_| !(self.unguessed)(at))) {
            trusted.borrow_mut().push(at);
            let epoch = self.b.ins().load(I32, ctx_field(), self.ctx, offset_of!(JitCtx, defer_epoch) as i32);
            let moved = self.cmp_imm(IntCC::NotEqual, epoch, self.defer_epoch as i64);
            self.guard(moved, at);
            return self.call(now, at);
        }
        let entry = match now {
            // The target it has now, as long as no deferred word was
            // pointed elsewhere since; else the helper looks it up.
            Some(now) => {
                let epoch = self.b.ins().load(I32, ctx_field(), self.ctx, offset_of!(JitCtx, defer_epoch) as i32);
                let same = self.cmp_imm(IntCC::Equal, epoch, self.defer_epoch as i64);
                let (known, ask, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
                self.b.append_block_param(join, I32);
                self.b.ins().brif(same, known, &[], ask, &[]);
                self.b.switch_to_block(known);
                self.b.seal_block(known);
                let e = self.konst(now as i32);
                self.b.ins().jump(join, &[BlockArg::Value(e)]);
                self.b.switch_to_block(ask);
                self.b.seal_block(ask);
                let e = self.deferred_lookup(slot_number, at);
                self.b.ins().jump(join, &[BlockArg::Value(e)]);
                self.b.switch_to_block(join);
                self.b.seal_block(join);
                self.b.block_params(join)[0]
            }
            None => self.deferred_lookup(slot_number, at),
        };
        self.call_checks(at);
        self.enter(entry, at);
        if self.fixed {
            let delta = self.shapes.deferred(slot_number).map_or(0, |e| e.delta);
            self.resync(delta, at + 1);
        }
    }

    /// The entry of deferred word `slot_number`'s target, asked of the
    /// helper (the interpreter reports an unset one).
    fn deferred_lookup(&mut self, slot_number: u32, at: Addr) -> Value {
        let slot = self.konst(slot_number as i32);
        let r = self.call_helper(helpers::deferred, 0, slot);
        let refused = self.cmp_imm(IntCC::Equal, r, REFUSE);
        self.guard(refused, at);
        self.b.ins().ireduce(I32, r)
    }
}
