//! The game layer's instructions in native code: reads of the board and
//! of the generation context (`here`, `from`, the player), direction
//! steps and `verify`, inline. Only `OnFriends?` (script) and positions
//! off the board are left to the interpreter, by deoptimizing.

use super::edges::brif_parts;
use super::regions::{ctx_field, ctx_fixed, in_region, Region};
use super::{Layout, Translator};
use crate::jit::helpers;
use crate::state::buf::Buf;
use crate::state::{Context, Recorded};
use crate::state::moves::{MoveRec, NOT_PARTIAL};
use crate::state::{Action, Game, MoveStore, PieceDecl, PIECE_TYPE_MASK, PLAYER_MASK, PLAYER_NUMBER_MASK};
use crate::jit::JitCtx;
use crate::ops::{Addr, Op};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I64, I8};
use cranelift_codegen::ir::{BlockArg, InstBuilder, SigRef, Value};
use std::mem::offset_of;

/// A step's direction: known when translated, or read at run time.
#[derive(Clone, Copy)]
pub(super) enum Dir {
    Known(u32),
    Run(Value),
}

pub(super) enum GenField {
    Active,
    Here,
    From,
    Player,
    Piece,
    MoveType,
    Partial,
    Pending,
}

/// Where a field of the generation context sits in `Game`.
pub(super) fn gen_offset(f: GenField) -> usize {
    offset_of!(Game, gen)
        + match f {
            GenField::Active => offset_of!(Context, active),
            GenField::Here => offset_of!(Context, here),
            GenField::From => offset_of!(Context, from),
            GenField::Player => offset_of!(Context, player),
            GenField::Piece => offset_of!(Context, piece),
            GenField::MoveType => offset_of!(Context, move_type),
            GenField::Partial => offset_of!(Context, partial),
            GenField::Pending => offset_of!(Context, pending),
        }
}

/// The move generator's buffers native code appends to, as offsets in
/// `Game`.
#[derive(Clone, Copy)]
enum MoveBuf {
    /// The edits of the moves in the lists, and of the move being built.
    Edits,
    Moves,
}

impl MoveBuf {
    fn offset(self) -> usize {
        match self {
            MoveBuf::Edits => offset_of!(Game, store) + offset_of!(MoveStore, actions),
            MoveBuf::Moves => offset_of!(Game, store) + offset_of!(MoveStore, moves),
        }
    }
}

/// `MoveStore::first`, as an offset in `Game`.
const FIRST: i32 = (offset_of!(Game, store) + offset_of!(MoveStore, first)) as i32;

/// `MoveStore::build`, as an offset in `Game`.
const BUILD: i32 = (offset_of!(Game, store) + offset_of!(MoveStore, build)) as i32;

/// A `Buf`'s fields, as offsets in it (alike for every element type).
const BUF_START: i32 = Buf::<Action>::START as i32;
const BUF_LEN: i32 = Buf::<Action>::LEN as i32;
const BUF_CAP: i32 = Buf::<Action>::CAP as i32;
const _: () = assert!(Buf::<Action>::START == Buf::<MoveRec>::START && Buf::<Action>::LEN == Buf::<MoveRec>::LEN && Buf::<Action>::CAP == Buf::<MoveRec>::CAP);
/// Where an edit's tag and fields lie (`Action` is `repr(C, u32)`: the tag,
/// then the variant's fields).
const ACTION_SIZE: i64 = std::mem::size_of::<Action>() as i64;
const ACTION_X: i32 = 4;
const ACTION_Y: i32 = 8;
const _: () = assert!(ACTION_X == 4 && cfg!(target_endian = "little"), "the tag and x are stored as one little-endian word");
const _: () = assert!(ACTION_SIZE == 12);

impl Translator<'_> {
    pub(super) fn game_op(&mut self, op: Op, at: Addr) {
        use IntCC::*;
        let tos_v = self.v.tos;
        match op {
            Op::GStep(dir) => {
                self.room(1, at);
                let moved = self.walk(Dir::Known(dir), at);
                let f = self.flag(moved);
                self.push(f);
            }
            Op::GHere => self.push_checked(at, |s| s.gen_field(GenField::Here)),
            Op::GFrom => self.push_checked(at, |s| s.gen_field(GenField::From)),
            Op::GPlayer => self.push_checked(at, |s| s.gen_field(GenField::Player)),
            Op::GPieceType => self.push_checked(at, |s| {
                let piece = s.gen_field(GenField::Piece);
                s.b.ins().band_imm_s(piece, PIECE_TYPE_MASK as i64)
            }),
            Op::GStalemate => self.push_checked(at, |s| {
                let g = s.game_ptr();
                let moves = s.b.ins().load(s.ptr, in_region(Region::Moves), g, MoveBuf::Moves.offset() as i32 + BUF_LEN);
                let first = s.b.ins().load(s.ptr, in_region(Region::Moves), g, FIRST);
                let none = s.b.ins().icmp(UnsignedLessThanOrEqual, moves, first);
                s.flag(none)
            }),
            Op::GBack => {
                self.here_known = None;
                let from = self.gen_field(GenField::From);
                let g = self.game_ptr();
                self.b.ins().store(in_region(Region::Here), from, g, gen_offset(GenField::Here) as i32);
            }
            Op::GEmpty | Op::GNotEmpty => {
                self.room(1, at);
                let c = self.here_cell(at);
                let cc = if op == Op::GEmpty { Equal } else { NotEqual };
                let yes = self.cmp_imm(cc, c, 0);
                let f = self.flag(yes);
                self.push(f);
            }
            Op::GFriend | Op::GEnemy => {
                self.room(1, at);
                let yes = self.friend(op == Op::GEnemy, at);
                let f = self.flag(yes);
                self.push(f);
            }
            Op::GEmptyAt | Op::GPieceAt | Op::GPlayerAt => {
                self.need(1, at);
                let pos = self.var(tos_v);
                let c = self.board_cell(pos, at);
                let x = match op {
                    Op::GEmptyAt => {
                        let e = self.cmp_imm(Equal, c, 0);
                        self.flag(e)
                    }
                    Op::GPieceAt => c,
                    _ => self.b.ins().band_imm_s(c, PLAYER_MASK as i64),
                };
                self.set(tos_v, x);
            }
            Op::GFriendOf | Op::GEnemyOf => {
                self.need(2, at);
                self.scripted_friends(at);
                let player = self.var(tos_v);
                let pos = self.below(1);
                let c = self.board_cell(pos, at);
                let yes = self.owned_by(op == Op::GEnemyOf, c, player);
                let f = self.flag(yes);
                self.add_d(-1);
                self.set(tos_v, f);
            }
            Op::GTo => {
                self.need(1, at);
                let pos = self.var(tos_v);
                let wide = self.b.ins().uextend(I64, pos);
                // Off the board is the interpreter's (an error, or a
                // warning under the tolerances).
                let off = match self.layout {
                    Some(layout) => self.b.ins().icmp_imm_u(UnsignedGreaterThanOrEqual, wide, layout.positions as i64),
                    None => {
                        let g = self.game_ptr();
                        let positions = self.b.ins().load(I64, in_region(Region::Game), g, offset_of!(Game, board.positions) as i32);
                        self.b.ins().icmp(UnsignedGreaterThanOrEqual, wide, positions)
                    }
                };
                self.guard(off, at);
                let g = self.game_ptr();
                self.b.ins().store(in_region(Region::Here), pos, g, gen_offset(GenField::Here) as i32);
                self.drop_n(1);
                if self.layout.is_some() {
                    self.here_known = self.b.current_block().map(|block| (pos, block, self.calls));
                }
            }
            Op::GPieceValue => {
                self.need(1, at);
                let piece = self.var(tos_v);
                let value = self.piece_value(piece);
                self.set(tos_v, value);
            }
            Op::GVerify => {
                self.need(1, at);
                let x = self.var(tos_v);
                let fails = self.cmp_imm(Equal, x, 0);
                self.verify(fails, at);
                self.drop_n(1);
            }
            Op::GStepVerify(dir) => {
                let moved = self.walk(Dir::Known(dir), at);
                // No link: `here` did not move, so the state is as before.
                let fails = self.cmp_imm(Equal, moved, 0);
                self.verify(fails, at);
            }
            Op::GEmptyVerify | Op::GNotEmptyVerify => {
                let c = self.here_cell(at);
                let cc = if op == Op::GEmptyVerify { NotEqual } else { Equal };
                let fails = self.cmp_imm(cc, c, 0);
                self.verify(fails, at);
            }
            Op::GFriendVerify | Op::GEnemyVerify => {
                let yes = self.friend(op == Op::GEnemyVerify, at);
                let fails = self.cmp_imm(Equal, yes, 0);
                self.verify(fails, at);
            }
            _ => unreachable!("not a game instruction: {op:?}"),
        }
    }

    fn game_ptr(&mut self) -> Value {
        self.b.ins().load(self.ptr, ctx_fixed(), self.ctx, offset_of!(JitCtx, game) as i32)
    }

    /// What `what` records during generation (arguments `a`, `b`; with
    /// `then_add`, the `add-move` right after it), done here when it can
    /// be: generation is on, the edit's positions are on the board, and
    /// the buffers have room. An edit goes at the end of the edits (the
    /// move being built); a move added (`add-move`, or an edit and the
    /// `add-move` after it) is its record, as `MoveStore::commit` writes
    /// it. Otherwise the helper for `code` does it or refuses (the
    /// interpreter then runs the instruction). Answers 0, as the helper.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn record_inline(&mut self, layout: Layout, sig: SigRef, what: Recorded, then_add: bool, code: i32, [a, b]: [Value; 2], at: Addr) -> Value {
        // As the helper's way out would, on both ways: so that neither
        // defines a variable, and what is known holds after them.
        self.materialize();
        let split = self.split();
        let g = self.game_ptr();
        let zero = self.konst(0);
        let mut here = || self.gen_field(GenField::Here);
        let (edit, positions) = match what {
            Recorded::PlaceCurrent => {
                let h = here();
                let piece = self.gen_field(GenField::Piece);
                (Some((Action::PLACE, h, piece)), vec![h])
            }
            Recorded::Move => (Some((Action::MOVE, a, b)), vec![a, b]),
            Recorded::Capture => {
                let h = here();
                (Some((Action::CAPTURE, h, zero)), vec![h])
            }
            Recorded::CaptureAt => (Some((Action::CAPTURE, a, zero)), vec![a]),
            Recorded::ChangeType => {
                let h = here();
                (Some((Action::CHANGE_TYPE, h, a)), vec![h])
            }
            Recorded::ChangeTypeAt => (Some((Action::CHANGE_TYPE, b, a)), vec![b]),
            Recorded::ChangeOwner => {
                let h = here();
                (Some((Action::CHANGE_OWNER, h, a)), vec![h])
            }
            Recorded::ChangeOwnerAt => (Some((Action::CHANGE_OWNER, b, a)), vec![b]),
            Recorded::Lit => (Some((Action::LIT, a, zero)), vec![]),
            Recorded::Call => (Some((Action::CALL, a, zero)), vec![]),
            Recorded::AddMove => (None, vec![]),
        };
        let adds = then_add || what == Recorded::AddMove;
        let active = self.b.ins().load(I8, in_region(Region::Game), g, gen_offset(GenField::Active) as i32);
        let mut ok = self.b.ins().icmp_imm_s(IntCC::NotEqual, active, 0);
        for p in positions {
            let on = self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, p, layout.positions as i64);
            ok = self.b.ins().band(ok, on);
        }
        let field = |s: &mut Self, buf: MoveBuf, at: i32| s.b.ins().load(I64, in_region(Region::Moves), g, buf.offset() as i32 + at);
        let edits = field(self, MoveBuf::Edits, BUF_LEN);
        if edit.is_some() {
            let cap = field(self, MoveBuf::Edits, BUF_CAP);
            let room = self.b.ins().icmp(IntCC::UnsignedLessThan, edits, cap);
            ok = self.b.ins().band(ok, room);
        }
        let end = if edit.is_some() { self.b.ins().iadd_imm_s(edits, 1) } else { edits };
        let added = if adds {
            let moves = field(self, MoveBuf::Moves, BUF_LEN);
            let cap = field(self, MoveBuf::Moves, BUF_CAP);
            let build = self.b.ins().load(I64, in_region(Region::Moves), g, BUILD);
            let room = self.b.ins().icmp(IntCC::UnsignedLessThan, moves, cap);
            let built = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, build, edits);
            ok = self.b.ins().band(ok, room);
            ok = self.b.ins().band(ok, built);
            Some((moves, build))
        } else {
            None
        };
        let (fast, slow, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.set_cold_block(slow);
        brif_parts(&mut self.b, ok, fast, slow);
        self.b.seal_block(fast);
        self.b.seal_block(slow);

        self.b.switch_to_block(fast);
        let start = |s: &mut Self, buf: MoveBuf| s.b.ins().load(s.ptr, in_region(Region::Moves), g, buf.offset() as i32 + BUF_START);
        if let Some((tag, x, y)) = edit {
            let list = start(self, MoveBuf::Edits);
            let bytes = self.b.ins().imul_imm_s(edits, ACTION_SIZE);
            let p = self.b.ins().iadd(list, bytes);
            // The tag and `x` in one store: Rust reads them with one load
            // when the move is played, which could not take its value from
            // two narrower stores still in flight.
            let x_wide = self.b.ins().uextend(I64, x);
            let x_high = self.b.ins().ishl_imm_s(x_wide, 32);
            let tag_x = self.b.ins().bor_imm_s(x_high, tag as i64);
            self.b.ins().store(in_region(Region::Moves), tag_x, p, 0);
            self.b.ins().store(in_region(Region::Moves), y, p, ACTION_Y);
            self.b.ins().store(in_region(Region::Moves), end, g, MoveBuf::Edits.offset() as i32 + BUF_LEN);
        }
        let pending = self.b.ins().iconst(I8, !adds as i64);
        self.b.ins().store(in_region(Region::Game), pending, g, gen_offset(GenField::Pending) as i32);
        if let Some((moves, build)) = added {
            // The move: the edits from `build` on, as `commit_move` adds it.
            let list = start(self, MoveBuf::Moves);
            let bytes = self.b.ins().imul_imm_s(moves, std::mem::size_of::<MoveRec>() as i64);
            let rec = self.b.ins().iadd(list, bytes);
            let next = self.b.ins().iadd_imm_s(moves, 1);
            self.b.ins().store(in_region(Region::Moves), next, g, MoveBuf::Moves.offset() as i32 + BUF_LEN);
            let first = self.b.ins().ireduce(I32, build);
            let count = self.b.ins().isub(end, build);
            let count = self.b.ins().ireduce(I32, count);
            let move_type = self.gen_field(GenField::MoveType);
            let partial = self.gen_field(GenField::Partial);
            let no = self.b.ins().iconst(I8, 0);
            for (v, off) in [
                (first, offset_of!(MoveRec, actions)),
                (count, offset_of!(MoveRec, len)),
                (move_type, offset_of!(MoveRec, move_type)),
                (partial, offset_of!(MoveRec, partial)),
                (no, offset_of!(MoveRec, pass)),
            ] {
                self.b.ins().store(in_region(Region::Moves), v, rec, off as i32);
            }
            self.b.ins().store(in_region(Region::Moves), end, g, BUILD);
            let not_partial = self.konst(NOT_PARTIAL);
            self.b.ins().store(in_region(Region::Game), not_partial, g, gen_offset(GenField::Partial) as i32);
        }
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(slow);
        let f = self.b.ins().iconst(self.ptr, helpers::recorder(code) as i64);
        let (id, at_v) = (self.konst(code), self.konst(at as i32));
        let call = self.b.ins().call_indirect(sig, f, &[self.ctx, id, at_v, a, b]);
        let r = self.b.inst_results(call)[0];
        let refused = self.b.ins().icmp_imm_s(IntCC::Equal, r, helpers::REFUSE);
        self.leave_if(self.deopt, refused, at);
        self.b.ins().jump(join, &[]);

        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.rejoin(split);
        zero
    }

    pub(super) fn gen_field(&mut self, f: GenField) -> Value {
        let g = self.game_ptr();
        let region = if matches!(f, GenField::Here) { Region::Here } else { Region::Game };
        self.b.ins().load(I32, in_region(region), g, gen_offset(f) as i32)
    }

    /// `here`'s content, or a deoptimization.
    fn here_cell(&mut self, at: Addr) -> Value {
        if let (Some(here), Some(layout)) = (self.here_on_board(), self.layout) {
            return self.cell_on_board(layout, here);
        }
        let here = self.gen_field(GenField::Here);
        self.board_cell(here, at)
    }

    /// The content of position `pos`; off the board (an error, or under
    /// the tolerances an empty square with a warning) the interpreter's.
    fn board_cell(&mut self, pos: Value, at: Addr) -> Value {
        if let Some(layout) = self.layout {
            let wide = self.b.ins().uextend(I64, pos);
            let off = self.b.ins().icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, wide, layout.positions as i64);
            self.guard(off, at);
            return self.cell_on_board(layout, pos);
        }
        let len = self.b.ins().load(I64, ctx_field(), self.ctx, offset_of!(JitCtx, board_len) as i32);
        let wide = self.b.ins().uextend(I64, pos);
        let off = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, wide, len);
        self.guard(off, at);
        let cells = self.b.ins().load(self.ptr, ctx_field(), self.ctx, offset_of!(JitCtx, board) as i32);
        let scaled = self.b.ins().ishl_imm_s(wide, 2);
        let p = self.b.ins().iadd(cells, scaled);
        self.b.ins().load(I32, super::regions::data(), p, 0)
    }

    /// The content of position `pos`, known to be on the board, with the
    /// layout built in.
    fn cell_on_board(&mut self, layout: Layout, pos: Value) -> Value {
        let wide = self.b.ins().uextend(I64, pos);
        let scaled = self.b.ins().ishl_imm_s(wide, 2);
        let off = self.b.ins().iadd_imm_s(scaled, layout.cells as i64);
        let mem = self.var(self.v.mem);
        let off = if self.ptr == I64 { off } else { self.b.ins().ireduce(self.ptr, off) };
        let p = self.b.ins().iadd(mem, off);
        self.b.ins().load(I32, super::regions::data(), p, 0)
    }

    /// `friend?` (or `enemy?`) at `here`, as the interpreter answers it
    /// when the game has no `OnFriends?`: the owner there is (is not)
    /// `current-player`. With `OnFriends?` the interpreter runs it. With
    /// the layout built in, whether the game has one is too.
    fn friend(&mut self, enemy: bool, at: Addr) -> Value {
        self.scripted_friends(at);
        let c = self.here_cell(at);
        let player = self.gen_field(GenField::Player);
        self.owned_by(enemy, c, player)
    }

    /// `piece-value`: the `{value}` of the piece's type (`Game::pieces`,
    /// as the context points at them), 0 for no such type.
    fn piece_value(&mut self, piece: Value) -> Value {
        let t = self.b.ins().band_imm_s(piece, PIECE_TYPE_MASK as i64);
        let index = self.b.ins().iadd_imm_s(t, -1);
        let index = self.b.ins().uextend(I64, index);
        let len = self.b.ins().load(I64, ctx_field(), self.ctx, offset_of!(JitCtx, pieces_len) as i32);
        let declared = self.b.ins().icmp(IntCC::UnsignedLessThan, index, len);
        // Two ways that define no variable: what is known holds after.
        let split = self.split();
        let (read, join) = (self.b.create_block(), self.b.create_block());
        self.b.append_block_param(join, I32);
        let zero = self.konst(0);
        self.b.ins().brif(declared, read, &[], join, &[BlockArg::Value(zero)]);
        self.b.switch_to_block(read);
        self.b.seal_block(read);
        let pieces = self.b.ins().load(self.ptr, ctx_field(), self.ctx, offset_of!(JitCtx, pieces) as i32);
        let off = self.b.ins().imul_imm_s(index, std::mem::size_of::<PieceDecl>() as i64);
        let p = self.b.ins().iadd(pieces, off);
        let value = self.b.ins().load(I32, in_region(Region::Tables), p, offset_of!(PieceDecl, value) as i32);
        self.b.ins().jump(join, &[BlockArg::Value(value)]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.rejoin(split);
        self.b.block_params(join)[0]
    }

    /// With `OnFriends?` (script) the interpreter answers: deoptimize.
    fn scripted_friends(&mut self, at: Addr) {
        if self.layout.is_none_or(|layout| layout.friends) {
            let g = self.game_ptr();
            let scripted = self.b.ins().load(I8, in_region(Region::Game), g, offset_of!(Game, events.has_friends) as i32);
            self.guard(scripted, at);
        }
    }

    /// Whether content `c` is `player`'s friend (or enemy, when `enemy`),
    /// without `OnFriends?`: the owner (with the neutral bit) is the player;
    /// an enemy is any other piece.
    fn owned_by(&mut self, enemy: bool, c: Value, player: Value) -> Value {
        let owner = self.b.ins().band_imm_s(c, PLAYER_MASK as i64);
        if enemy {
            let foe = self.b.ins().icmp(IntCC::NotEqual, owner, player);
            let piece = self.cmp_imm(IntCC::NotEqual, c, 0);
            self.b.ins().band(foe, piece)
        } else {
            self.b.ins().icmp(IntCC::Equal, owner, player)
        }
    }

    /// Where `player`'s block of directions starts in `Board::walk`: the
    /// one the context keeps when it is this player's, else computed (and
    /// kept) as `player_index` then the shared block for players beyond
    /// the symmetries.
    fn walk_block(&mut self, player: Value) -> Value {
        let kept = self.b.ins().load(I32, ctx_field(), self.ctx, offset_of!(JitCtx, walk_player) as i32);
        let same = self.b.ins().icmp(IntCC::Equal, kept, player);
        let (hit, miss, join) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.append_block_param(join, I64);
        self.b.ins().brif(same, hit, &[], miss, &[]);

        self.b.switch_to_block(hit);
        self.b.seal_block(hit);
        self.b.seal_block(miss);
        let block = self.b.ins().load(I64, ctx_field(), self.ctx, offset_of!(JitCtx, walk_block) as i32);
        self.b.ins().jump(join, &[BlockArg::Value(block)]);

        self.b.switch_to_block(miss);
        let number = self.b.ins().band_imm_s(player, PLAYER_NUMBER_MASK as i64);
        let number = self.b.ins().ushr_imm_s(number, 11);
        let index = self.b.ins().iadd_imm_s(number, -1);
        let zero = self.konst(0);
        let index = self.b.ins().smax(index, zero);
        let last = self.b.ins().load(I32, ctx_field(), self.ctx, offset_of!(JitCtx, walk_last) as i32);
        let index = self.b.ins().umin(index, last);
        let stride = self.b.ins().load(I32, ctx_field(), self.ctx, offset_of!(JitCtx, walk_stride) as i32);
        let (index, stride) = (self.b.ins().uextend(I64, index), self.b.ins().uextend(I64, stride));
        let block = self.b.ins().imul(index, stride);
        self.b.ins().store(ctx_field(), player, self.ctx, offset_of!(JitCtx, walk_player) as i32);
        self.b.ins().store(ctx_field(), block, self.ctx, offset_of!(JitCtx, walk_block) as i32);
        self.b.ins().jump(join, &[BlockArg::Value(block)]);

        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.b.block_params(join)[0]
    }

    /// A step of `here` along direction `dir` as the player to move sees
    /// it (`Board::step`), for the instruction at `at`: `here` moves when
    /// there is a link. Answers whether it moved (I8).
    pub(super) fn walk(&mut self, dir: Dir, at: Addr) -> Value {
        let g = self.game_ptr();
        let Some(layout) = self.layout else {
            // The step defines no variable: what is known holds after it.
            let mark = self.known_mark();
            let here = self.b.ins().load(I32, in_region(Region::Here), g, gen_offset(GenField::Here) as i32);
            let here64 = self.b.ins().uextend(I64, here);
            let (ok, i, table) = self.walk_index(dir, here64);
            let (moved, _) = self.walk_read(ok, i, table, here, g);
            self.known_carries(mark);
            return moved;
        };
        // With the layout built in, `here` is on the board after a step:
        // a step from off the board (no link, for the interpreter) is the
        // interpreter's.
        let here = match self.here_on_board() {
            Some(here) => here,
            None => {
                let here = self.b.ins().load(I32, in_region(Region::Here), g, gen_offset(GenField::Here) as i32);
                let off = self.b.ins().icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, here, layout.positions as i64);
                self.guard(off, at);
                here
            }
        };
        // The step defines no variable: what is known holds after it (and
        // after the check above, which carries it).
        let mark = self.known_mark();
        let here64 = self.b.ins().uextend(I64, here);
        let (in_table, i, table) = self.walk_index_built_in(layout, dir, here64);
        let (moved, next) = match in_table {
            // A known direction's row is whole: the link is there to read.
            None => {
                let to = self.link(table, i);
                self.move_here(to, here, g)
            }
            Some(in_table) => self.walk_read(in_table, i, table, here, g),
        };
        self.known_carries(mark);
        // Where the step went is on the board: a position (the table holds
        // nothing else), or `here`.
        self.here_known = self.b.current_block().map(|block| (next, block, self.calls));
        moved
    }

    /// `here`, when it is known to be on the board (a step was the last
    /// to set it, with the layout built in, on this path, and nothing was
    /// called since).
    pub(super) fn here_on_board(&self) -> Option<Value> {
        let (here, block, calls) = self.here_known?;
        (self.b.current_block() == Some(block) && self.calls == calls).then_some(here)
    }

    /// Reads the link at `i` of `table` when `ok`, else none, and moves
    /// `here` (at `g`) there: whether it moved, and where `here` is.
    fn walk_read(&mut self, ok: Value, i: Value, table: Value, here: Value, g: Value) -> (Value, Value) {
        let read = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, I32);
        let none = self.konst(-1);
        self.b.ins().brif(ok, read, &[], join, &[BlockArg::Value(none)]);
        self.b.switch_to_block(read);
        self.b.seal_block(read);
        let to = self.link(table, i);
        self.b.ins().jump(join, &[BlockArg::Value(to)]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        let to = self.b.block_params(join)[0];
        self.move_here(to, here, g)
    }

    /// Entry `i` of `table` (`Board::walk`): a position, or -1.
    fn link(&mut self, table: Value, i: Value) -> Value {
        let off = self.b.ins().ishl_imm_s(i, 2);
        let p = self.b.ins().iadd(table, off);
        self.b.ins().load(I32, in_region(Region::Tables), p, 0)
    }

    /// `here` (at `g`) moved to `to` when it is a position: whether it
    /// moved, and where `here` is.
    fn move_here(&mut self, to: Value, here: Value, g: Value) -> (Value, Value) {
        let moved = self.cmp_imm(IntCC::SignedGreaterThanOrEqual, to, 0);
        let next = self.b.ins().select(moved, to, here);
        self.b.ins().store(in_region(Region::Here), next, g, gen_offset(GenField::Here) as i32);
        (moved, next)
    }

    /// Where a step from `here64` along `dir` is read in `Board::walk`, the
    /// layout read from the context: (whether it may be read, its index,
    /// the table).
    fn walk_index(&mut self, dir: Dir, here64: Value) -> (Value, Value, Value) {
        let player = self.gen_field(GenField::Player);
        let block = self.walk_block(player);
        let g = self.game_ptr();
        let positions = self.b.ins().load(I64, in_region(Region::Game), g, offset_of!(Game, board.positions) as i32);
        let dir = match dir {
            Dir::Known(d) => self.b.ins().iconst(I64, d as i64),
            Dir::Run(d) => self.b.ins().uextend(I64, d),
        };
        let on_board = self.b.ins().icmp(IntCC::UnsignedLessThan, here64, positions);
        let row = self.b.ins().imul(dir, positions);
        let i = self.b.ins().iadd(block, row);
        let i = self.b.ins().iadd(i, here64);
        let len = self.b.ins().load(I64, ctx_field(), self.ctx, offset_of!(JitCtx, walk_len) as i32);
        let in_table = self.b.ins().icmp(IntCC::UnsignedLessThan, i, len);
        let ok = self.b.ins().band(on_board, in_table);
        let table = self.b.ins().load(self.ptr, ctx_field(), self.ctx, offset_of!(JitCtx, walk) as i32);
        (ok, i, table)
    }

    /// `walk_index` with the layout built in, from `here64` on the board:
    /// (the check that the index is in the table, none for a known
    /// direction, whose row is whole in every player's block; the index;
    /// the table). Without symmetries there is only the one block.
    fn walk_index_built_in(&mut self, layout: Layout, dir: Dir, here64: Value) -> (Option<Value>, Value, Value) {
        let positions = layout.positions as i64;
        let (row, whole) = match dir {
            Dir::Known(d) => (self.b.ins().iconst(I64, d as i64 * positions), d < layout.directions),
            Dir::Run(d) => {
                let d = self.b.ins().uextend(I64, d);
                (self.b.ins().imul_imm_u(d, positions), false)
            }
        };
        let mut i = self.b.ins().iadd(row, here64);
        if layout.symmetric {
            let player = self.gen_field(GenField::Player);
            let block = self.walk_block(player);
            i = self.b.ins().iadd(block, i);
        }
        let in_table = (!whole).then(|| self.b.ins().icmp_imm_u(IntCC::UnsignedLessThan, i, layout.walk_len as i64));
        let table = self.var(self.v.walk);
        (in_table, i, table)
    }
}
