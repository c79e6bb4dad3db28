//! The move generator's inner loop in native code: `driver(ctx, drive)`
//! runs the move words of a `Drive` (every word at every position of a
//! range) one after another, setting up each as `MoveWords::run` would,
//! and comes back to Rust only when the range is done or an attempt needs
//! Rust: a word without native code, a deoptimization, an error, or a
//! move left half built (its edits must be cleared).
//!
//! Built once per VM, like the trampoline; it knows the layout of `Drive`,
//! `MoveWordCode`, the generation context and the two `Vm` fields a move
//! word starts from, nothing of any game.

use super::{ctx_field, ctx_fixed, data, in_region, scalar_fields, Region};
use crate::game::generate::Context;
use crate::game::moves::NOT_PARTIAL;
use crate::game::Game;
use crate::jit::generator::{Drive, MoveWordCode, DRIVE_FINISHED, DRIVE_NOT_NATIVE, DRIVE_PENDING, EMPTY_SQUARE};
use crate::jit::{JitCtx, DONE, VERIFY};
use crate::vm::Vm;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64, I8};
use cranelift_codegen::ir::{BlockArg, InstBuilder, MemFlagsData};
use cranelift_frontend::FunctionBuilder;
use cranelift_jit::JITModule;
use cranelift_module::Module;
use std::mem::offset_of;

/// `status = driver(ctx, drive)`: one of `DRIVE_*`, `DEOPT` or `ERROR`.
pub(in crate::jit) type Driver = unsafe extern "C" fn(*mut JitCtx, *mut Drive) -> u32;

fn gen(field: usize) -> i32 {
    (offset_of!(Game, gen) + field) as i32
}

pub(in crate::jit) fn driver(module: &mut JITModule) -> Option<Driver> {
    let ptr = module.target_config().pointer_type();
    let code = super::entry_function(module, "the generator's loop", |b, native, c, d| {
        // The drive and the VM's fields are Rust's, touched by no move word
        // (`drive` is on the generator's stack; the two `Vm` fields are
        // rewritten before every attempt anyway).
        let own = MemFlagsData::trusted();
        let game_mem = in_region(Region::Game);
        let here_mem = in_region(Region::Here);

        let field = |b: &mut FunctionBuilder, ty, off: usize| b.ins().load(ty, own, d, off as i32);
        let words = field(b, ptr, offset_of!(Drive, words));
        let nwords = field(b, I32, offset_of!(Drive, nwords));
        let pos_end = field(b, I32, offset_of!(Drive, pos_end));
        let piece = field(b, I32, offset_of!(Drive, piece));
        let tos = field(b, I32, offset_of!(Drive, tos));
        let rdepth = field(b, I32, offset_of!(Drive, rdepth));
        let fp = field(b, I32, offset_of!(Drive, fp));
        let refill = field(b, I8, offset_of!(Drive, refill));
        let fresh = field(b, I64, offset_of!(Drive, steps));
        let reserve = field(b, I64, offset_of!(Drive, reserve));
        let tolerant = field(b, I8, offset_of!(Drive, tolerant));
        let pos0 = field(b, I32, offset_of!(Drive, pos));
        let w0 = field(b, I32, offset_of!(Drive, word));
        let game = b.ins().load(ptr, ctx_fixed(), c, offset_of!(JitCtx, game) as i32);
        let vm = b.ins().load(ptr, ctx_fixed(), c, offset_of!(JitCtx, vm) as i32);
        let steps0 = b.ins().load(I64, ctx_field(), c, offset_of!(JitCtx, steps) as i32);

        let head = b.create_block();
        for ty in [I32, I32, I64] {
            b.append_block_param(head, ty);
        }
        let body = b.create_block();
        let run = b.create_block();
        let ok = b.create_block();
        b.append_block_param(ok, I64);
        let after = b.create_block();
        let exit = b.create_block();
        for ty in [I32, I32, I32, I64] {
            b.append_block_param(exit, ty);
        }
        let args = |xs: &[cranelift_codegen::ir::Value]| xs.iter().map(|&x| BlockArg::Value(x)).collect::<Vec<_>>();
        b.ins().jump(head, &args(&[pos0, w0, steps0]));

        // head(pos, w, steps): the attempt of word w at pos, if any is left.
        b.switch_to_block(head);
        let (pos, w, steps) = (b.block_params(head)[0], b.block_params(head)[1], b.block_params(head)[2]);
        let finished = b.ins().icmp(IntCC::SignedGreaterThanOrEqual, pos, pos_end);
        let last = b.create_block();
        b.ins().brif(finished, last, &[], body, &[]);

        b.switch_to_block(last);
        b.ins().store(ctx_field(), steps, c, offset_of!(JitCtx, steps) as i32);
        let s = b.ins().iconst(I32, DRIVE_FINISHED as i64);
        b.ins().return_(&[s]);

        b.switch_to_block(body);
        let wrapped = b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, w, nwords);
        let next_pos = b.ins().iadd_imm_s(pos, 1);
        let zero = b.ins().iconst(I32, 0);
        b.ins().brif(wrapped, head, &args(&[next_pos, zero, steps]), run, &[]);

        b.switch_to_block(run);
        let size = std::mem::size_of::<MoveWordCode>() as i64;
        let index = b.ins().uextend(I64, w);
        let index = b.ins().imul_imm_s(index, size);
        let word = b.ins().iadd(words, index);
        let f = b.ins().load(ptr, own, word, offset_of!(MoveWordCode, native) as i32);
        let none = b.ins().icmp_imm_s(IntCC::Equal, f, 0);
        let call = b.create_block();
        let not_native = b.ins().iconst(I32, DRIVE_NOT_NATIVE as i64);
        b.ins().brif(none, exit, &args(&[not_native, pos, w, steps]), call, &[]);

        b.switch_to_block(call);
        let move_type = b.ins().load(I32, own, word, offset_of!(MoveWordCode, move_type) as i32);
        b.ins().store(game_mem, pos, game, gen(offset_of!(Context, from)));
        b.ins().store(here_mem, pos, game, gen(offset_of!(Context, here)));
        b.ins().store(game_mem, piece, game, gen(offset_of!(Context, piece)));
        b.ins().store(game_mem, move_type, game, gen(offset_of!(Context, move_type)));
        let whole = b.ins().iconst(I32, NOT_PARTIAL as i64);
        b.ins().store(game_mem, whole, game, gen(offset_of!(Context, partial)));
        b.ins().store(own, tolerant, vm, offset_of!(Vm, tolerant) as i32);
        let kept = b.ins().load(I64, own, vm, offset_of!(Vm, steps_reserve) as i32);
        let reserve_now = b.ins().select(refill, reserve, kept);
        b.ins().store(own, reserve_now, vm, offset_of!(Vm, steps_reserve) as i32);
        let steps_now = b.ins().select(refill, fresh, steps);
        // A first instruction that verifies the square: checked here, and
        // an attempt that would fail it at once is not entered (it would
        // change nothing and take no step).
        let requires = b.ins().load(I32, own, word, offset_of!(MoveWordCode, requires) as i32);
        let enter = b.create_block();
        let check = b.create_block();
        let read = b.create_block();
        b.ins().brif(requires, check, &[], enter, &[]);
        b.switch_to_block(check);
        let cells = b.ins().load(I32, game_mem, game, offset_of!(Game, board.cells) as i32);
        let positions = b.ins().load(I64, game_mem, game, offset_of!(Game, board.positions) as i32);
        let mem = b.ins().load(ptr, ctx_field(), c, offset_of!(JitCtx, mem) as i32);
        let mem_len = b.ins().load(I64, ctx_field(), c, offset_of!(JitCtx, mem_len) as i32);
        let wide_pos = b.ins().uextend(I64, pos);
        let on_board = b.ins().icmp(IntCC::UnsignedLessThan, wide_pos, positions);
        let at = b.ins().uextend(I64, cells);
        let offset = b.ins().ishl_imm_s(wide_pos, 2);
        let at = b.ins().iadd(at, offset);
        let end = b.ins().iadd_imm_s(at, 4);
        let in_memory = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, mem_len);
        let readable = b.ins().band(on_board, in_memory);
        b.ins().brif(readable, read, &[], enter, &[]);
        b.switch_to_block(read);
        let p = b.ins().iadd(mem, at);
        let content = b.ins().load(I32, data(), p, 0);
        let empty = b.ins().icmp_imm_s(IntCC::Equal, content, 0);
        let wants_empty = b.ins().icmp_imm_s(IntCC::Equal, requires, EMPTY_SQUARE as i64);
        let fails = b.ins().icmp(IntCC::NotEqual, empty, wants_empty);
        b.ins().brif(fails, ok, &[BlockArg::Value(steps_now)], enter, &[]);

        b.switch_to_block(enter);
        let entries = b.ins().load(I64, own, d, offset_of!(Drive, entries) as i32);
        let entries = b.ins().iadd_imm_s(entries, 1);
        b.ins().store(own, entries, d, offset_of!(Drive, entries) as i32);
        let call_args = [c, tos, zero, rdepth, fp, steps_now];
        let inst = b.ins().call_indirect(native, f, &call_args);
        let results = b.inst_results(inst).to_vec();
        let status = results[0];
        let done = b.ins().icmp_imm_s(IntCC::Equal, status, DONE as i64);
        let not_done = b.create_block();
        b.ins().brif(done, ok, &[BlockArg::Value(results[5])], not_done, &[]);

        // Any other ending has stored the registers in the context.
        b.switch_to_block(not_done);
        let left = b.ins().load(I64, ctx_field(), c, scalar_fields()[4].1 as i32);
        let verified = b.ins().icmp_imm_s(IntCC::Equal, status, VERIFY as i64);
        b.ins().brif(verified, ok, &[BlockArg::Value(left)], exit, &args(&[status, pos, w, left]));

        // ok(steps): the word ended (added its moves, or failed a verify).
        b.switch_to_block(ok);
        let steps = b.block_params(ok)[0];
        let pending = b.ins().load(I8, game_mem, game, gen(offset_of!(Context, pending)));
        let next_w = b.ins().iadd_imm_s(w, 1);
        let pending_s = b.ins().iconst(I32, DRIVE_PENDING as i64);
        b.ins().brif(pending, exit, &args(&[pending_s, pos, w, steps]), after, &[]);
        b.switch_to_block(after);
        b.ins().jump(head, &args(&[pos, next_w, steps]));

        // exit(status, pos, w, steps): Rust takes attempt (pos, w) over.
        b.switch_to_block(exit);
        let p = b.block_params(exit).to_vec();
        b.ins().store(own, p[1], d, offset_of!(Drive, pos) as i32);
        b.ins().store(own, p[2], d, offset_of!(Drive, word) as i32);
        b.ins().store(ctx_field(), p[3], c, offset_of!(JitCtx, steps) as i32);
        b.ins().return_(&[p[0]]);
    })?;
    // SAFETY: built with the signature of `Driver`.
    Some(unsafe { std::mem::transmute::<*const u8, Driver>(code) })
}
