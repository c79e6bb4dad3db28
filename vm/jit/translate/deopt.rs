//! Deoptimization: the checks that hand over to the interpreter (`guard`,
//! `verify`, `resync`), the cold stubs that store what the interpreter
//! needs on the way out (the dirty cells, the pending frames), and the
//! shared exits (deoptimize at an address, restart the definition, pass a
//! failure up, end a move word). An instruction makes its checks before it
//! changes anything, so the state a stub stores is the state before it.

use super::Translator;
use super::edges::brif_parts;
use super::game::{gen_offset, GenField};
use super::regions::{ctx_field, ctx_fixed, in_region, Region};
use crate::jit::{DEOPT, JitCtx, VERIFY};
use crate::ops::Addr;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, Value};
use std::mem::offset_of;

impl Translator<'_> {
    /// Whether move generation is running (I8).
    fn generating(&mut self) -> Value {
        let g = self.b.ins().load(self.ptr, ctx_fixed(), self.ctx, offset_of!(JitCtx, game) as i32);
        self.b.ins().load(cranelift_codegen::ir::types::I8, in_region(Region::Game), g, gen_offset(GenField::Active) as i32)
    }

    /// After a call or a host word in a fixed function: the depths must be
    /// what the shape says, else the interpreter goes on from `next`.
    pub(super) fn resync(&mut self, delta: i32, next: Addr) {
        if !self.fixed {
            return;
        }
        self.dk += delta;
        let (d, r) = (self.var(self.v.d), self.var(self.v.rp));
        let want_d = self.depth();
        let want_r = self.rdepth();
        let bad_d = self.b.ins().icmp(IntCC::NotEqual, d, want_d);
        let bad_r = self.b.ins().icmp(IntCC::NotEqual, r, want_r);
        let bad = self.b.ins().bor(bad_d, bad_r);
        self.leave_if(self.deopt, bad, next);
    }

    /// The two shared exits: deoptimize at an address, and pass a callee's
    /// failure status up.
    pub(super) fn exits(&mut self) {
        self.b.switch_to_block(self.deopt);
        let at = self.b.block_params(self.deopt)[0];
        self.store_scalars();
        self.b.ins().store(ctx_field(), at, self.ctx, offset_of!(JitCtx, ip) as i32);
        let s = self.b.ins().iconst(I32, DEOPT as i64);
        self.return_status(s);

        // As the interpreter's `verify!`: outside move generation the
        // failure is an error, which the interpreter reports.
        self.b.switch_to_block(self.verify_failed);
        let at = self.b.block_params(self.verify_failed)[0];
        let active = self.generating();
        self.b.ins().brif(active, self.verify_ends, &[], self.deopt, &[BlockArg::Value(at)]);
        self.b.switch_to_block(self.verify_ends);
        self.store_scalars();
        let s = self.b.ins().iconst(I32, VERIFY as i64);
        self.return_status(s);

        self.b.switch_to_block(self.propagate);
        let s = self.b.block_params(self.propagate)[0];
        self.return_status(s);

        // The interpreter runs the definition from its entry, with the
        // registers it was entered with: nothing else changed since.
        if let Some(restart) = self.restart {
            self.b.switch_to_block(restart);
            for ((_, _, off), x) in self.scalars().into_iter().zip(self.entry_state.clone()) {
                self.b.ins().store(ctx_field(), x, self.ctx, off as i32);
            }
            let at = self.konst(self.inline_stack[0] as i32);
            self.b.ins().store(ctx_field(), at, self.ctx, offset_of!(JitCtx, ip) as i32);
            let s = self.b.ins().iconst(I32, DEOPT as i64);
            self.return_status(s);
        }
    }

    /// Deoptimizes to `at` when `bad` (an I8 truth value) holds.
    pub(super) fn guard(&mut self, bad: Value, at: Addr) {
        self.guard_to(self.deopt, bad, at);
    }

    /// `verify` at `at` fails when `fails` holds.
    pub(super) fn verify(&mut self, fails: Value, at: Addr) {
        if self.cells.dirty.is_empty() && self.rcells.dirty.is_empty() && self.pending_frames.is_empty() {
            return self.guard_to(self.verify_failed, fails, at);
        }
        // A move word that fails ends there: what it holds is dropped, so
        // only outside generation (the interpreter reports the failure)
        // are its cells and frames stored.
        self.materialize();
        let mark = self.known_mark();
        let (ok, stub, store) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(store);
        self.b.ins().brif(fails, stub, &[], ok, &[]);
        self.b.switch_to_block(stub);
        let active = self.generating();
        self.b.ins().brif(active, self.verify_ends, &[], store, &[]);
        self.b.switch_to_block(store);
        self.emit_flush();
        self.store_frames();
        let at = self.konst(at as i32);
        self.b.ins().jump(self.deopt, &[BlockArg::Value(at)]);
        self.b.seal_block(stub);
        self.b.seal_block(store);
        self.b.switch_to_block(ok);
        self.seal_one_way(ok);
        self.known_carries(mark);
    }

    /// Leaves for `exit` (a block whose param is an address) when `bad`.
    fn guard_to(&mut self, exit: Block, bad: Value, at: Addr) {
        self.materialize();
        self.leave_if(exit, bad, at);
    }

    /// `guard_to` with the depth variables as they are.
    pub(super) fn leave_if(&mut self, exit: Block, bad: Value, at: Addr) {
        let mark = self.known_mark();
        let ok = self.b.create_block();
        if exit == self.deopt && self.pure {
            let restart = *self.restart.get_or_insert_with(|| {
                let b = self.b.create_block();
                self.b.set_cold_block(b);
                b
            });
            brif_parts(&mut self.b, bad, restart, ok);
            self.b.switch_to_block(ok);
            self.seal_one_way(ok);
            self.known_carries(mark);
            return;
        }
        // The way out is a block of its own, so that what only it needs
        // (the address, the cells and frames not stored yet) is made
        // there, not on the path that stays.
        let stub = self.b.create_block();
        self.b.set_cold_block(stub);
        brif_parts(&mut self.b, bad, stub, ok);
        self.b.switch_to_block(stub);
        self.emit_flush();
        self.store_frames();
        let at = self.b.ins().iconst(I32, at as i64);
        self.b.ins().jump(exit, &[BlockArg::Value(at)]);
        self.b.seal_block(stub);
        self.b.switch_to_block(ok);
        self.seal_one_way(ok);
        self.known_carries(mark);
    }

    /// An instruction a fixed shape cannot have: the interpreter's.
    pub(super) fn op_unfixed(&mut self, at: Addr) {
        let always = self.b.ins().iconst(cranelift_codegen::ir::types::I8, 1);
        self.guard(always, at);
    }
}
