//! The move generator's inner loop in native code: `driver(ctx, drive)`
//! runs a sweep (`Drive`): it scans the board for the pieces of the side
//! to move and runs each one's move words, or runs drop words at every
//! position, setting up each attempt itself, and comes back to Rust only
//! when the sweep is done or an attempt needs Rust: a word without native
//! code, a deoptimization, an error, a move left half built (its edits
//! must be cleared), or a square it cannot read.
//!
//! Built once per VM, like the trampoline; it knows the layout of `Drive`,
//! `MoveWordCode`, the generation context, the board's cells and the two
//! `Vm` fields a move word starts from, nothing of any game.

use super::function::{entry_function, scalar_fields};
use super::regions::{ctx_field, ctx_fixed, data, in_region, Region};
use crate::state::Context;
use crate::state::moves::NOT_PARTIAL;
use crate::state::{Game, PIECE_TYPE_MASK, PLAYER_MASK};
use crate::jit::generator::{Drive, GuardCheck, MoveWordCode, DRIVE_ADVANCE, DRIVE_FINISHED, DRIVE_LEFT, DRIVE_NOT_NATIVE, DRIVE_PENDING, DROP_EMPTY};
use crate::jit::guard::{ANY_CLASS, EMPTY_CLASS, FOREIGN_CLASS, FRIEND_CLASS, GUARD_LEN, NO_STEP};
use crate::jit::{JitCtx, DONE, VERIFY};
use crate::vm::Vm;
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4, I64, I8};
use cranelift_codegen::ir::{Block, BlockArg, InstBuilder, JumpTableData, MemFlagsData, Type, Value};
use cranelift_frontend::FunctionBuilder;
use cranelift_jit::JITModule;
use cranelift_module::Module;
use std::mem::offset_of;

/// `status = driver(ctx, drive)`: one of `DRIVE_*`, `DEOPT` or `ERROR`.
pub(in crate::jit) type Driver = unsafe extern "C" fn(*mut JitCtx, *mut Drive) -> u32;

fn gen(field: usize) -> i32 {
    (offset_of!(Game, gen) + field) as i32
}

/// What a plan's own loop is made for (`driver`): its words' guards as
/// checked when the drive is `guarded` (`GuardCheck`), by word; which
/// words have another word of their span after them; the board's number
/// of positions, a row of `Board::walk` per direction.
pub(in crate::jit) struct PlanShape<'a> {
    pub checks: &'a [GuardCheck],
    pub followed: &'a [bool],
    pub positions: u64,
}

/// The generator's loop: the generic one (`shape` None), which reads the
/// guards from the drive, or one made for a plan, its guards compiled in:
/// each word's, with its directions and classes as constants, then the
/// next word's, so that an attempt that fails its guard costs a few
/// instructions.
pub(in crate::jit) fn driver(module: &mut JITModule, shape: Option<&PlanShape>) -> Option<Driver> {
    let ptr = module.target_config().pointer_type();
    let what = if shape.is_some() { "a plan's generator loop" } else { "the generator's loop" };
    let code = entry_function(module, what, |b, native, c, d| {
        // The drive and the VM's fields are Rust's, touched by no move word
        // (`drive` is on the generator's stack; the two `Vm` fields are
        // rewritten before every attempt anyway).
        let own = MemFlagsData::trusted();
        let game_mem = in_region(Region::Game);
        let here_mem = in_region(Region::Here);

        // The drive's fields are read where they are used, not kept live
        // through the loop: across the call they would only be spilled.
        let field = |b: &mut FunctionBuilder, ty, off: usize| b.ins().load(ty, own, d, off as i32);
        let cursor = [
            field(b, I32, offset_of!(Drive, pos)),
            field(b, I32, offset_of!(Drive, word)),
            field(b, I32, offset_of!(Drive, word_end)),
            field(b, I32, offset_of!(Drive, piece)),
        ];
        let game = b.ins().load(ptr, ctx_fixed(), c, offset_of!(JitCtx, game) as i32);
        let steps0 = b.ins().load(I64, ctx_field(), c, offset_of!(JitCtx, steps) as i32);
        // Each attempt runs in the frame the batch opened, with its
        // tolerance; a word that runs script in frames of its own puts the
        // tolerance back as it leaves them.
        let vm = b.ins().load(ptr, ctx_fixed(), c, offset_of!(JitCtx, vm) as i32);
        let tolerant = field(b, I8, offset_of!(Drive, tolerant));
        b.ins().store(own, tolerant, vm, offset_of!(Vm, tolerant) as i32);
        let args = |xs: &[Value]| xs.iter().map(|&x| BlockArg::Value(x)).collect::<Vec<_>>();
        let block = |b: &mut FunctionBuilder, params: &[Type]| {
            let block = b.create_block();
            for &ty in params {
                b.append_block_param(block, ty);
            }
            block
        };
        // The board's cells as the scans read them, and one bound for a
        // scan's loop (`Drive::scan_limit`): nothing a move word does while
        // the loop runs changes them (a change of the board's layout
        // deoptimizes, and so ends the loop).
        let scan_bounds = |b: &mut FunctionBuilder| {
            (field(b, ptr, offset_of!(Drive, scan_cells)), field(b, I64, offset_of!(Drive, scan_limit)))
        };
        let square = |b: &mut FunctionBuilder, board: Value, pos: Value| {
            let off = b.ins().ishl_imm_s(pos, 2);
            let p = b.ins().iadd(board, off);
            b.ins().load(I32, data(), p, 0)
        };
        // head(pos, w, w_end, piece, steps): the cursor.
        let head = block(b, &[I32, I32, I32, I32, I64]);
        let exit = block(b, &[I32, I32, I32, I32, I32, I64]);
        let ok = block(b, &[I64]);
        let [scan_loop, scan_end, drop_end] = [(); 3].map(|_| block(b, &[I32]));
        let [attempt, next, last, drops, scan, scan_next, unreadable, typed, found, drop_scan] = [(); 10].map(|_| b.create_block());
        b.ins().jump(head, &args(&[cursor[0], cursor[1], cursor[2], cursor[3], steps0]));

        b.switch_to_block(head);
        let [pos, w, w_end, piece, steps] = [0, 1, 2, 3, 4].map(|i| b.block_params(head)[i]);
        let more = b.ins().icmp(IntCC::UnsignedLessThan, w, w_end);
        b.ins().brif(more, attempt, &[], next, &[]);

        // next: the attempts at `pos` are done; on to the next square.
        b.switch_to_block(next);
        let pos_end = field(b, I32, offset_of!(Drive, pos_end));
        let scanning = field(b, I8, offset_of!(Drive, scan));
        b.ins().brif(scanning, scan, &[], drops, &[]);

        b.switch_to_block(last);
        b.ins().store(ctx_field(), steps, c, offset_of!(JitCtx, steps) as i32);
        let s = b.ins().iconst(I32, DRIVE_FINISHED as i64);
        b.ins().return_(&[s]);

        b.switch_to_block(drops);
        let pos1 = b.ins().iadd_imm_s(pos, 1);
        let finished = b.ins().icmp(IntCC::SignedGreaterThanOrEqual, pos1, pos_end);
        let first = field(b, I32, offset_of!(Drive, first));
        let first_end = field(b, I32, offset_of!(Drive, first_end));
        let requires = field(b, I32, offset_of!(Drive, drop_requires));
        let go_on = b.create_block();
        b.ins().brif(finished, last, &[], go_on, &[]);
        b.switch_to_block(go_on);
        b.ins().brif(requires, drop_scan, &[], head, &args(&[pos1, first, first_end, piece, steps]));

        // drop_scan: the sweep's one drop word first verifies its square:
        // the squares where that fails are passed in a tight loop (one for
        // each requirement, tested at its foot), as the attempt would pass
        // them, without entering the word.
        b.switch_to_block(drop_scan);
        let (board, limit) = scan_bounds(b);
        let wide = b.ins().uextend(I64, pos1);
        let within = b.ins().icmp(IntCC::UnsignedLessThan, wide, limit);
        let pick = b.create_block();
        b.ins().brif(within, pick, &[], drop_end, &args(&[pos1]));
        b.switch_to_block(pick);
        let wants_empty = b.ins().icmp_imm_s(IntCC::Equal, requires, DROP_EMPTY as i64);
        let [empty_loop, taken_loop] = [(); 2].map(|_| block(b, &[I32]));
        b.ins().brif(wants_empty, empty_loop, &args(&[pos1]), taken_loop, &args(&[pos1]));
        for (lp, cc) in [(empty_loop, IntCC::Equal), (taken_loop, IntCC::NotEqual)] {
            b.switch_to_block(lp);
            let p = b.block_params(lp)[0];
            let wide = b.ins().uextend(I64, p);
            let content = square(b, board, wide);
            let holds = b.ins().icmp_imm_s(cc, content, 0);
            let step = b.create_block();
            b.ins().brif(holds, head, &args(&[p, first, first_end, piece, steps]), step, &[]);
            b.switch_to_block(step);
            let p1 = b.ins().iadd_imm_s(p, 1);
            let wide = b.ins().uextend(I64, p1);
            let within = b.ins().icmp(IntCC::UnsignedLessThan, wide, limit);
            b.ins().brif(within, lp, &args(&[p1]), drop_end, &args(&[p1]));
        }

        // drop_end(p): past the sweep's end (done), or at a square the
        // loop cannot read (the attempt there sorts it out).
        b.switch_to_block(drop_end);
        let p = b.block_params(drop_end)[0];
        let finished = b.ins().icmp(IntCC::SignedGreaterThanOrEqual, p, pos_end);
        b.ins().brif(finished, last, &[], head, &args(&[p, first, first_end, piece, steps]));

        // scan: on to the next square holding a piece of the side to move,
        // each read as the scan reaches it, as the generator reads it. What
        // the loop needs is loaded once: nothing runs in it; it tests its
        // bound at its foot. Four squares are looked at together while
        // four are left (`wide_loop`): most squares are empty or the other
        // side's, and one test passes four of them; a square that may be
        // one of ours is read on its own (`scan_loop`), as the rest are.
        let wide_loop = block(b, &[I32]);
        b.switch_to_block(scan);
        let (board, limit) = scan_bounds(b);
        let for_player = field(b, I32, offset_of!(Drive, for_player));
        let types = field(b, I32, offset_of!(Drive, types));
        let zero = b.ins().iconst(I32, 0);
        let owners = b.ins().iconst(I32, PLAYER_MASK as i64);
        let owners = b.ins().splat(I32X4, owners);
        let ours4 = b.ins().splat(I32X4, for_player);
        let pos1 = b.ins().iadd_imm_s(pos, 1);
        let wide = b.ins().uextend(I64, pos1);
        let within = b.ins().icmp(IntCC::UnsignedLessThan, wide, limit);
        b.ins().brif(within, wide_loop, &args(&[pos1]), scan_end, &args(&[pos1]));

        b.switch_to_block(wide_loop);
        let p = b.block_params(wide_loop)[0];
        let wide = b.ins().uextend(I64, p);
        let p4 = b.ins().iadd_imm_s(wide, 4);
        let four_left = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, p4, limit);
        let [four, some_ours, none_ours] = [(); 3].map(|_| b.create_block());
        b.ins().brif(four_left, four, &[], scan_loop, &args(&[p]));
        b.switch_to_block(four);
        let off = b.ins().ishl_imm_s(wide, 2);
        let at = b.ins().iadd(board, off);
        let cells = b.ins().load(I32X4, data(), at, 0);
        let owner = b.ins().band(cells, owners);
        let ours = b.ins().icmp(IntCC::Equal, owner, ours4);
        let mask = b.ins().vhigh_bits(I32, ours);
        b.ins().brif(mask, some_ours, &[], none_ours, &[]);
        b.switch_to_block(some_ours);
        let first = b.ins().ctz(mask);
        let q = b.ins().iadd(p, first);
        b.ins().jump(scan_loop, &args(&[q]));
        b.switch_to_block(none_ours);
        let q = b.ins().iadd_imm_s(p, 4);
        let q64 = b.ins().uextend(I64, q);
        let within = b.ins().icmp(IntCC::UnsignedLessThan, q64, limit);
        b.ins().brif(within, wide_loop, &args(&[q]), scan_end, &args(&[q]));

        b.switch_to_block(scan_loop);
        let p = b.block_params(scan_loop)[0];
        let wide = b.ins().uextend(I64, p);
        let content = square(b, board, wide);
        // Most squares are empty or the other side's: one test passes them.
        let owner = b.ins().band_imm_s(content, PLAYER_MASK as i64);
        let ours = b.ins().icmp(IntCC::Equal, owner, for_player);
        b.ins().brif(ours, typed, &[], scan_next, &[]);

        b.switch_to_block(typed);
        let t = b.ins().band_imm_s(content, PIECE_TYPE_MASK as i64);
        let some = b.ins().icmp_imm_s(IntCC::NotEqual, t, 0);
        let known = b.ins().icmp(IntCC::UnsignedLessThanOrEqual, t, types);
        let mine = b.ins().band(some, known);
        super::edges::brif_parts(b, mine, found, scan_next);

        b.switch_to_block(scan_next);
        let p1 = b.ins().iadd_imm_s(p, 1);
        let wide = b.ins().uextend(I64, p1);
        let within = b.ins().icmp(IntCC::UnsignedLessThan, wide, limit);
        b.ins().brif(within, wide_loop, &args(&[p1]), scan_end, &args(&[p1]));

        // scan_end(q): the loop left at `q`: the sweep is done, or the
        // square is not one the loop can read (Rust's `advance` reads it,
        // from the cursor before it).
        b.switch_to_block(scan_end);
        let q = b.block_params(scan_end)[0];
        let finished = b.ins().icmp(IntCC::SignedGreaterThanOrEqual, q, pos_end);
        b.ins().brif(finished, last, &[], unreadable, &[]);
        b.switch_to_block(unreadable);
        let advance = b.ins().iconst(I32, DRIVE_ADVANCE as i64);
        let before = b.ins().iadd_imm_s(q, -1);
        b.ins().jump(exit, &args(&[advance, before, zero, zero, piece, steps]));

        b.switch_to_block(found);
        let spans = field(b, ptr, offset_of!(Drive, spans));
        let t = b.ins().uextend(I64, t);
        let off = b.ins().ishl_imm_s(t, 3);
        let span = b.ins().iadd(spans, off);
        let start = b.ins().load(I32, own, span, 0);
        let end = b.ins().load(I32, own, span, 4);
        b.ins().jump(head, &args(&[p, start, end, content, steps]));

        // attempt: word `w` at `pos`. Its guard (`guard.rs`) is checked
        // first, before anything is set up: an attempt that would fail it
        // is not entered (it would change nothing, and take no step the
        // budget could miss). Each square is `here` stepped along a
        // direction as the player to move sees it (`Board::step`; no link,
        // and the word would fail), whose content's class (empty, the
        // player's, another's) must be one of the square's.
        // native_block(w): word `w` is entered, natively when it can be.
        let native_block = block(b, &[I32]);
        b.switch_to_block(attempt);
        let step = |b: &mut FunctionBuilder, row: Value, here: Value| {
            let walk = field(b, ptr, offset_of!(Drive, guard_walk));
            let here64 = b.ins().uextend(I64, here);
            let index = b.ins().iadd(row, here64);
            let off = b.ins().ishl_imm_s(index, 2);
            let p = b.ins().iadd(walk, off);
            b.ins().load(I32, in_region(Region::Tables), p, 0)
        };
        let content_of = |b: &mut FunctionBuilder, here: Value| {
            let cells = field(b, ptr, offset_of!(Drive, guard_cells));
            let here64 = b.ins().uextend(I64, here);
            let off = b.ins().ishl_imm_s(here64, 2);
            let p = b.ins().iadd(cells, off);
            let content = b.ins().load(I32, data(), p, 0);
            let player = field(b, I32, offset_of!(Drive, player));
            let owner = b.ins().band_imm_s(content, PLAYER_MASK as i64);
            (content, owner, player)
        };
        match shape {
            None => generic_guards(b, &GuardBlocks { attempt_w: w, pos, w_end, piece, steps, head, native_block, own, ptr }, &step, &content_of, &field),
            Some(shape) => {
                let words: Vec<_> = shape.checks.iter().map(|_| b.create_block()).collect();
                let table: Vec<_> = words.iter().map(|&w| b.func.dfg.block_call(w, &[])).collect();
                let default = b.func.dfg.block_call(native_block, &[BlockArg::Value(w)]);
                let jt = b.create_jump_table(JumpTableData::new(default, &table));
                b.ins().br_table(w, jt);
                for (i, (check, &word)) in shape.checks.iter().zip(&words).enumerate() {
                    b.switch_to_block(word);
                    let failed = block(b, &[]);
                    let mut here = pos;
                    for (&dir, &classes) in check.dirs.iter().zip(&check.classes).take(check.n as usize) {
                        if dir != NO_STEP {
                            let row = b.ins().iconst(I64, (dir as u64 * shape.positions) as i64);
                            let to = step(b, row, here);
                            let linked = b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, to, 0);
                            let on = b.create_block();
                            b.ins().brif(linked, on, &[], failed, &[]);
                            b.switch_to_block(on);
                            here = to;
                        }
                        let (content, owner, player) = content_of(b, here);
                        if let Some(pass) = class_test(b, classes, content, owner, player) {
                            let on = b.create_block();
                            super::edges::brif_parts(b, pass, on, failed);
                            b.switch_to_block(on);
                        }
                    }
                    let w_const = b.ins().iconst(I32, i as i64);
                    b.ins().jump(native_block, &[BlockArg::Value(w_const)]);
                    b.switch_to_block(failed);
                    match (shape.followed.get(i), words.get(i + 1)) {
                        (Some(true), Some(&next)) => {
                            b.ins().jump(next, &[]);
                        }
                        _ => {
                            let after = b.ins().iconst(I32, i as i64 + 1);
                            b.ins().jump(head, &args(&[pos, after, w_end, piece, steps]));
                        }
                    }
                }
            }
        }

        b.switch_to_block(native_block);
        let w = b.block_params(native_block)[0];
        let next_w = b.ins().iadd_imm_s(w, 1);
        let words = field(b, ptr, offset_of!(Drive, words));
        let size = std::mem::size_of::<MoveWordCode>() as i64;
        let index = b.ins().uextend(I64, w);
        let index = b.ins().imul_imm_s(index, size);
        let word = b.ins().iadd(words, index);
        let f = b.ins().load(ptr, own, word, offset_of!(MoveWordCode, native) as i32);
        let none = b.ins().icmp_imm_s(IntCC::Equal, f, 0);
        let enter = b.create_block();
        // No native code: the generator takes over, the status made on
        // the way out only.
        let not_native = b.create_block();
        b.set_cold_block(not_native);
        b.ins().brif(none, not_native, &[], enter, &[]);
        b.switch_to_block(not_native);
        b.seal_block(not_native);
        let status = b.ins().iconst(I32, DRIVE_NOT_NATIVE as i64);
        b.ins().jump(exit, &args(&[status, pos, w, w_end, piece, steps]));

        b.switch_to_block(enter);
        let move_type = b.ins().load(I32, own, word, offset_of!(MoveWordCode, move_type) as i32);
        b.ins().store(game_mem, pos, game, gen(offset_of!(Context, from)));
        b.ins().store(here_mem, pos, game, gen(offset_of!(Context, here)));
        b.ins().store(game_mem, piece, game, gen(offset_of!(Context, piece)));
        b.ins().store(game_mem, move_type, game, gen(offset_of!(Context, move_type)));
        let whole = b.ins().iconst(I32, NOT_PARTIAL as i64);
        b.ins().store(game_mem, whole, game, gen(offset_of!(Context, partial)));
        let refill = field(b, I8, offset_of!(Drive, refill));
        let reserve = field(b, I64, offset_of!(Drive, reserve));
        let kept = b.ins().load(I64, own, vm, offset_of!(Vm, steps_reserve) as i32);
        let reserve_now = b.ins().select(refill, reserve, kept);
        b.ins().store(own, reserve_now, vm, offset_of!(Vm, steps_reserve) as i32);
        let fresh = field(b, I64, offset_of!(Drive, steps));
        let steps_now = b.ins().select(refill, fresh, steps);
        let entries = field(b, I64, offset_of!(Drive, entries));
        let entries = b.ins().iadd_imm_s(entries, 1);
        b.ins().store(own, entries, d, offset_of!(Drive, entries) as i32);
        let tos = field(b, I32, offset_of!(Drive, tos));
        let rdepth = field(b, I32, offset_of!(Drive, rdepth));
        let fp = field(b, I32, offset_of!(Drive, fp));
        let zero = b.ins().iconst(I32, 0);
        let call_args = [c, tos, zero, rdepth, fp, steps_now];
        let inst = b.ins().call_indirect(native, f, &call_args);
        let results = b.inst_results(inst).to_vec();
        let status = results[0];
        let done = b.ins().icmp_imm_s(IntCC::Equal, status, DONE as i64);
        let not_done = b.create_block();
        let returned = b.create_block();
        b.ins().brif(done, returned, &[], not_done, &[]);

        // It returned: with its stack as it found it (empty), or leaving
        // cells, which the generator reports (`DRIVE_LEFT`).
        b.switch_to_block(returned);
        let depth = results[2];
        let left = b.ins().icmp_imm_s(IntCC::NotEqual, depth, 0);
        let leaving = b.create_block();
        b.ins().brif(left, leaving, &[], ok, &[BlockArg::Value(results[5])]);
        b.switch_to_block(leaving);
        b.ins().store(own, depth, d, offset_of!(Drive, left) as i32);
        let left_s = b.ins().iconst(I32, DRIVE_LEFT as i64);
        b.ins().jump(exit, &args(&[left_s, pos, w, w_end, piece, results[5]]));

        // Any other ending has stored the registers in the context.
        b.switch_to_block(not_done);
        let left = b.ins().load(I64, ctx_field(), c, scalar_fields()[4].1 as i32);
        let verified = b.ins().icmp_imm_s(IntCC::Equal, status, VERIFY as i64);
        b.ins().brif(verified, ok, &[BlockArg::Value(left)], exit, &args(&[status, pos, w, w_end, piece, left]));

        // ok(steps): the word ended (added its moves, or failed a verify).
        b.switch_to_block(ok);
        let steps = b.block_params(ok)[0];
        let pending = b.ins().load(I8, game_mem, game, gen(offset_of!(Context, pending)));
        let pending_s = b.ins().iconst(I32, DRIVE_PENDING as i64);
        let after = b.create_block();
        b.ins().brif(pending, exit, &args(&[pending_s, pos, w, w_end, piece, steps]), after, &[]);
        b.switch_to_block(after);
        b.ins().jump(head, &args(&[pos, next_w, w_end, piece, steps]));

        // exit(status, pos, w, w_end, piece, steps): the generator takes
        // over at the cursor.
        b.switch_to_block(exit);
        let p = b.block_params(exit).to_vec();
        b.ins().store(own, p[1], d, offset_of!(Drive, pos) as i32);
        b.ins().store(own, p[2], d, offset_of!(Drive, word) as i32);
        b.ins().store(own, p[3], d, offset_of!(Drive, word_end) as i32);
        b.ins().store(own, p[4], d, offset_of!(Drive, piece) as i32);
        b.ins().store(ctx_field(), p[5], c, offset_of!(JitCtx, steps) as i32);
        b.ins().return_(&[p[0]]);
    })?;
    // SAFETY: built with the signature of `Driver`.
    Some(unsafe { std::mem::transmute::<*const u8, Driver>(code) })
}

/// What the generic guard check jumps between.
struct GuardBlocks {
    attempt_w: Value,
    pos: Value,
    w_end: Value,
    piece: Value,
    steps: Value,
    head: Block,
    native_block: Block,
    own: MemFlagsData,
    ptr: Type,
}

/// The guard of word `attempt_w`, read from the drive's checks (null: none
/// is checked).
fn generic_guards(
    b: &mut FunctionBuilder,
    g: &GuardBlocks,
    step: &dyn Fn(&mut FunctionBuilder, Value, Value) -> Value,
    content_of: &dyn Fn(&mut FunctionBuilder, Value) -> (Value, Value, Value),
    field: &dyn Fn(&mut FunctionBuilder, Type, usize) -> Value,
) {
    let ptr = g.ptr;
    let w = g.attempt_w;
    let args = |xs: &[Value]| xs.iter().map(|&x| BlockArg::Value(x)).collect::<Vec<_>>();
    let next_w = b.ins().iadd_imm_s(w, 1);
    let failed = args(&[g.pos, next_w, g.w_end, g.piece, g.steps]);
    let enter = args(&[w]);
    let checks = field(b, ptr, offset_of!(Drive, guard_checks));
    let guards = b.create_block();
    b.ins().brif(checks, guards, &[], g.native_block, &enter);

    b.switch_to_block(guards);
    let index = b.ins().uextend(I64, w);
    let index = b.ins().imul_imm_s(index, std::mem::size_of::<GuardCheck>() as i64);
    let check = b.ins().iadd(checks, index);
    let n = b.ins().load(I32, g.own, check, offset_of!(GuardCheck, n) as i32);
    // squares[i](here): the guard's square i, from `here`.
    let squares: Vec<_> = (0..GUARD_LEN).map(|_| {
        let s = b.create_block();
        b.append_block_param(s, I32);
        s
    }).collect();
    b.ins().brif(n, squares[0], &args(&[g.pos]), g.native_block, &enter);
    for (i, &square) in squares.iter().enumerate() {
        let [stepping, more] = [(); 2].map(|_| b.create_block());
        let test = b.create_block();
        b.append_block_param(test, I32);
        b.switch_to_block(square);
        let here = b.block_params(square)[0];
        let at = offset_of!(GuardCheck, dirs) + i * std::mem::size_of::<u32>();
        let dir = b.ins().load(I32, g.own, check, at as i32);
        let stays = b.ins().icmp_imm_s(IntCC::Equal, dir, NO_STEP as i64);
        b.ins().brif(stays, test, &args(&[here]), stepping, &[]);

        b.switch_to_block(stepping);
        let positions = field(b, I64, offset_of!(Drive, walk_positions));
        let dir = b.ins().uextend(I64, dir);
        let row = b.ins().imul(dir, positions);
        let to = step(b, row, here);
        let linked = b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, to, 0);
        b.ins().brif(linked, test, &args(&[to]), g.head, &failed);

        b.switch_to_block(test);
        let here = b.block_params(test)[0];
        let (content, owner, player) = content_of(b, here);
        let taken = b.ins().icmp_imm_s(IntCC::NotEqual, content, 0);
        let foreign = b.ins().icmp(IntCC::NotEqual, owner, player);
        let foreign = b.ins().band(foreign, taken);
        let (taken, foreign) = (b.ins().uextend(I32, taken), b.ins().uextend(I32, foreign));
        let class = b.ins().iadd(taken, foreign);
        let at = offset_of!(GuardCheck, classes) + i * std::mem::size_of::<u32>();
        let classes = b.ins().load(I32, g.own, check, at as i32);
        let bit = b.ins().ushr(classes, class);
        let pass = b.ins().band_imm_s(bit, 1);
        b.ins().brif(pass, more, &[], g.head, &failed);
        b.switch_to_block(more);
        match squares.get(i + 1) {
            Some(&next) => {
                let left = b.ins().icmp_imm_s(IntCC::UnsignedGreaterThan, n, i as i64 + 1);
                b.ins().brif(left, next, &args(&[here]), g.native_block, &enter);
            }
            None => {
                b.ins().jump(g.native_block, &enter);
            }
        }
    }
}

/// Whether `content` (its `owner`) is of one of `classes` for `player`,
/// as the generic check's class bit says; `None` when every content is.
fn class_test(b: &mut FunctionBuilder, classes: u32, content: Value, owner: Value, player: Value) -> Option<Value> {
    use IntCC::{Equal, NotEqual};
    let empty = |b: &mut FunctionBuilder| b.ins().icmp_imm_s(Equal, content, 0);
    let taken = |b: &mut FunctionBuilder| b.ins().icmp_imm_s(NotEqual, content, 0);
    let mine = |b: &mut FunctionBuilder| b.ins().icmp(Equal, owner, player);
    let other = |b: &mut FunctionBuilder| b.ins().icmp(NotEqual, owner, player);
    Some(match classes & ANY_CLASS {
        ANY_CLASS => return None,
        EMPTY_CLASS => empty(b),
        c if c == FRIEND_CLASS | FOREIGN_CLASS => taken(b),
        FRIEND_CLASS => {
            let (t, m) = (taken(b), mine(b));
            b.ins().band(t, m)
        }
        FOREIGN_CLASS => {
            let (t, o) = (taken(b), other(b));
            b.ins().band(t, o)
        }
        c if c == EMPTY_CLASS | FRIEND_CLASS => {
            let (e, m) = (empty(b), mine(b));
            b.ins().bor(e, m)
        }
        c if c == EMPTY_CLASS | FOREIGN_CLASS => {
            let (e, o) = (empty(b), other(b));
            b.ins().bor(e, o)
        }
        _ => b.ins().iconst(I8, 0),
    })
}
