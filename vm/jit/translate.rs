//! One colon definition's `Op`s into Cranelift IR, then machine code.
//!
//! The machine state (`tos`, depth, return-stack depth, frame count, step
//! budget) lives in SSA variables. Each instruction first makes every
//! check the interpreter makes and deoptimizes (to that instruction, state
//! untouched) when one fails; only then does it change anything. Calls to
//! words with native code are native calls; everything else goes through
//! `helpers.rs`.
//!
//! Stack cells live in the VM's stacks, with copies in variables
//! (`Held`): within straight-line code, or, in a definition with a fixed
//! shape (`shape.rs`), across the whole function, loop indices included.
//! There the stack checks are made once, at entry, and the cells reach
//! memory only where other code reads the stacks: a call, a host word, a
//! deoptimization, EXIT.
//!
//! `Translator` (below) walks a body instruction by instruction and hands
//! each to the file of its family; this file holds only that driver, the
//! `compile` entry, and the translator's state. See `vm/jit/DESIGN.md`.

mod arith;
mod calls;
mod cells;
mod control;
mod deopt;
mod driver;
mod edges;
mod execute;
mod function;
mod game;
mod host;
mod inline;
mod known;
mod loops;
mod memory;
mod regions;
mod stack;
mod state;

pub(super) use driver::{driver, Driver, PlanShape};
pub(super) use function::{trampoline, Trampoline};
pub(crate) use inline::translated_size;
pub(super) use super::shape::{Defers, Definitions, HostEffects};
use calls::{Prepaid, SavedDepth};
use cells::Held;
use edges::leaders;
use function::{declare_named, dump_bytes, native_signature, place};
use inline::INLINE_BUDGET;
use known::{Known, KnownMark};
use regions::{ctx_fixed, declare_regions};
use super::{COUNT_LIMIT, JitCtx, NativeFn};
use super::shape::{Shape, Shapes};
use crate::ops::{Addr, Op};
use cranelift_codegen::ir::{AbiParam, Block, FuncRef, InstBuilder, SigRef, Type, Value};
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::JITModule;
use cranelift_module::Module;
use std::mem::offset_of;

/// Whether a definition can be translated: it stays inside itself (the
/// last instruction returns, and every jump lands inside).
pub(super) fn self_contained(start: Addr, ops: &[Op]) -> bool {
    let Some(end) = start.checked_add(ops.len() as u32) else { return false };
    ops.last() == Some(&Op::Exit) && !ops.iter().any(|op| op.target().is_some_and(|t| t < start || t >= end))
}

/// Whether `op` changes nothing but the registers and stack cells a fixed
/// function holds in variables, its checks made first (the translator's
/// rule: an instruction deoptimizes before it changes anything): no store
/// to memory or the game, no call. From the entry through such
/// instructions only, running the definition again from its entry in the
/// interpreter is running it from where the check failed. `EXECUTE` stays
/// out: a guessed token that misses must hand over its own address, where
/// the interpreter counts the misses.
fn changes_nothing(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        Lit(_) | Exit | Jump(_) | JumpIfZero(_) | DupJumpIfZero(_) | JumpIfNonZero(_)
            | JumpUnlessEq(_) | JumpUnlessNe(_) | JumpUnlessLt(_) | JumpUnlessGt(_) | JumpUnlessLe(_) | JumpUnlessGe(_) | JumpUnlessAnd(_)
            | JumpUnlessLitEq(..) | JumpUnlessLitNe(..) | JumpUnlessLitLt(..) | JumpUnlessLitGt(..) | JumpUnlessLitLe(..) | JumpUnlessLitGe(..)
            | DupJumpUnlessLitEq(..) | DupJumpUnlessLitNe(..) | DupJumpUnlessLitLt(..) | DupJumpUnlessLitGt(..) | DupJumpUnlessLitLe(..) | DupJumpUnlessLitGe(..)
            | Do | QDo(_) | Loop(_) | PlusLoop(_) | Leave(_) | Unloop | I | J | K | ToR | RFrom | RFetch
            | Dup | Drop | Swap | Over | Rot | MinusRot | Nip | Tuck | Pick | TwoDup | TwoDrop | TwoSwap | TwoOver | QDup | Depth
            | Add | Sub | Mul | Div | Mod | DivMod | MulDiv | Inc | Dec | Add2 | Sub2 | Mul2 | Div2 | Abs | Negate | Min | Max
            | Eq | Ne | Lt | Gt | Le | Ge | ZeroEq | ZeroNe | ZeroLt | ZeroGt | ULt | And | Or | Xor | Invert | LShift | RShift
            | Fetch | CFetch | Here | Cells | Count
            | LitAdd(_) | LitMul(_) | LitMulAdd(_) | LitDiv(_) | LitMod(_) | LitEq(_) | LitNe(_) | LitLt(_) | LitGt(_)
            | FetchAt(_) | FetchAdd | CellsAdd | IAdd | OverAdd | FetchOff(_) | CFetchOff(_) | CellsLit(_) | FetchCell(_) | ILit(_) | ICell(_) | IFetchCell(_) | ICFetch(_)
            | GHere | GFrom | GPlayer | GPieceType | GStalemate | GEmpty | GNotEmpty | GFriend | GEnemy | GEmptyAt | GPieceAt | GPlayerAt
            | GFriendOf | GEnemyOf | GPieceValue | GVerify | GEmptyVerify | GNotEmptyVerify | GFriendVerify | GEnemyVerify
    )
}

/// The host words native code calls directly (`HostRun::Direct`): by
/// host id, (arguments, results).
pub(super) type Directs<'a> = &'a dyn Fn(u32) -> Option<Direct>;

/// A direct word as native code calls it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Direct {
    pub ins: u32,
    pub outs: u32,
    /// During move generation it only records this: `helpers::record`.
    pub records: Option<crate::state::Recorded>,
}

/// What the dictionary tells the translator about words it may call.
pub(super) struct Words<'a> {
    pub directs: Directs<'a>,
    /// `Dictionary::targets`: what EXECUTE does with each xt (fixed once
    /// the word exists), for tokens known at translation time.
    pub targets: &'a dyn Fn(u32) -> Option<i32>,
    /// The cell at an address of the data space as it is now (it never
    /// moves nor shrinks; `None` past what was written): a cell at a known
    /// address needs no bounds check, and what it holds now is a guess of
    /// what it will hold (a table of tokens).
    pub data: &'a dyn Fn(usize) -> Option<[u8; 4]>,
    /// The EXECUTEs whose guessed token missed too often to be trusted.
    pub unguessed: &'a dyn Fn(Addr) -> bool,
    /// Where the EXECUTEs translated trusting a guess are noted.
    pub trusted: &'a std::cell::RefCell<Vec<Addr>>,
    /// The board's layout, built into the code when given.
    pub layout: Option<Layout>,
    /// `Vm::defer_epoch` now: while it stands, each deferred word calls
    /// the target it has now, without asking.
    pub defer_epoch: u32,
    /// The definition's name, for `AXFORTH_PERF_MAP`.
    pub name: String,
}

/// The board's layout as native code builds it in (`Vm::jit_layout`): the
/// code is thrown away before the layout changes, so a step is a load
/// from a known table, and a cell a load from a known address.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Layout {
    pub positions: u32,
    pub directions: u32,
    /// Where position 0's cell is in the data space.
    pub cells: usize,
    /// `Board::walk`'s length (the table itself is read through the
    /// context: the code holds no address of one VM's, so that any VM
    /// with the same layout may run it).
    pub walk_len: u64,
    /// Some player walks the directions as others do not: the player's
    /// block of the table is looked up at each step.
    pub symmetric: bool,
    /// The game has `OnFriends?` (as its events were last found): else
    /// `friend?` and `enemy?` compare owners without asking.
    pub friends: bool,
}

/// Compiles the definition whose instructions `ops` start at `start`
/// (`definitions` gives those of its callees, to inline short ones);
/// `None` when it cannot be (the interpreter keeps running it); also says
/// whether the definition has a fixed stack shape.
pub(super) fn compile(module: &mut JITModule, start: Addr, ops: &[Op], definitions: Definitions, hosts: HostEffects, defers: Defers, words: Words) -> Option<(NativeFn, bool, usize)> {
    if !self_contained(start, ops) {
        return None;
    }
    let ptr = module.target_config().pointer_type();
    let sig = native_signature(module);
    let mut helper_sig = module.make_signature();
    helper_sig.params.extend([AbiParam::new(ptr), AbiParam::new(I32), AbiParam::new(I32)]);
    helper_sig.returns.push(AbiParam::new(I64));
    let mut direct_sig = module.make_signature();
    direct_sig.params.extend([AbiParam::new(ptr), AbiParam::new(I32), AbiParam::new(I32), AbiParam::new(I32), AbiParam::new(I32)]);
    direct_sig.returns.push(AbiParam::new(I64));

    let id = declare_named(module, &format!("{} ({start})", words.name), &sig)?;
    let fixed;
    let mut ctx = module.make_context();
    ctx.func.signature = sig.clone();
    let mut fctx = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        declare_regions(&mut b);
        let itself = module.declare_func_in_func(id, b.func);
        let native_sig = b.import_signature(sig);
        let helper_sig = b.import_signature(helper_sig);
        let direct_sig = b.import_signature(direct_sig);
        let mut t = Translator::new(b, ptr, native_sig, helper_sig, start, ops, Shapes::new(definitions, hosts, defers));
        t.direct_sig = Some(direct_sig);
        t.directs = words.directs;
        t.targets = words.targets;
        t.data = words.data;
        t.layout = words.layout;
        t.defer_epoch = words.defer_epoch;
        t.unguessed = words.unguessed;
        t.trusted = Some(words.trusted);
        t.itself = Some(itself);
        t.body();
        fixed = t.fixed;
        t.b.seal_all_blocks();
        t.b.finalize(module.target_config());
    }
    let dump = std::env::var_os("AXFORTH_JIT_DUMP").is_some();
    ctx.set_disasm(dump);
    place(module, id)?;
    if module.define_function(id, &mut ctx).is_err() {
        module.clear_context(&mut ctx);
        return None;
    }
    if dump {
        if let Some(code) = ctx.compiled_code() {
            eprintln!("---- native code at {start}:\n{}", code.vcode.as_deref().unwrap_or(""));
        }
    }
    let size = ctx.compiled_code().map_or(0, |c| c.code_buffer().len());
    module.clear_context(&mut ctx);
    module.finalize_definitions().ok()?;
    let code = module.get_finalized_function(id);
    if dump {
        eprintln!("---- the native code of {start} is at {code:p}");
    }
    dump_bytes(code, size);
    let f = code as NativeFn;
    (f >= COUNT_LIMIT).then_some((f, fixed, size))
}

struct Vars {
    tos: Variable,
    d: Variable,
    rp: Variable,
    fp: Variable,
    steps: Variable,
    ds: Variable,
    rs: Variable,
    frames: Variable,
    mem: Variable,
    mem_len: Variable,
    /// Stores are checked against this (`Memory::written`), not `mem_len`.
    store_len: Variable,
    /// `JitCtx::walk`: fixed while native code that built the layout in
    /// lives (the code is thrown away before the table changes).
    walk: Variable,
}

struct Translator<'a> {
    b: FunctionBuilder<'a>,
    ptr: Type,
    native_sig: SigRef,
    helper_sig: SigRef,
    /// How direct words are called, and which they are.
    direct_sig: Option<SigRef>,
    directs: Directs<'a>,
    targets: &'a dyn Fn(u32) -> Option<i32>,
    data: &'a dyn Fn(usize) -> Option<[u8; 4]>,
    layout: Option<Layout>,
    /// `Words::defer_epoch`.
    defer_epoch: u32,
    /// `here` where a step left it, on the board: the value, the block it
    /// holds in, and `calls` then (`here_on_board`).
    here_known: Option<(Value, Block, u32)>,
    /// Calls made so far (any of them may move `here`).
    calls: u32,
    unguessed: &'a dyn Fn(Addr) -> bool,
    trusted: Option<&'a std::cell::RefCell<Vec<Addr>>>,
    /// What is known to be constant here (see `Known`).
    known: Known,
    shapes: Shapes<'a>,
    /// The function has a fixed shape: depths are `d0 + dk`, `r0 + rk`.
    fixed: bool,
    /// The shape of the body being translated (in a fixed function), and
    /// the depths where it began.
    shape: Option<std::rc::Rc<Shape>>,
    dbase: i32,
    rbase: i32,
    d0: Value,
    r0: Value,
    /// In a fixed function, where the data (return) stack cell `d0` (`r0`)
    /// is, and the keys the entry checks proved to lie on the stack: those
    /// cells are at constant offsets from one address, which is all the
    /// function keeps live for them.
    dframe: Option<(Value, i32, i32)>,
    rframe: Option<(Value, i32, i32)>,
    rk: i32,
    /// By block, the cells held on entry (fixed functions).
    held_at: std::collections::HashMap<Block, (Held, Held)>,
    dvars: std::collections::HashMap<i32, Variable>,
    rvars: std::collections::HashMap<i32, Variable>,
    /// The body being translated: the function's definition, or a callee
    /// inlined into it.
    start: Addr,
    ops: Vec<Op>,
    /// Set while translating an inlined callee: where its EXIT goes on.
    inlined: Option<Block>,
    /// The entries of the bodies being translated, outermost first.
    inline_stack: Vec<Addr>,
    /// The frames of the calls translated in place around this point, not
    /// stored yet, outermost first: the call's address and the return
    /// depth its frame saves. Only code that leaves (a deoptimization, a
    /// helper, a call) needs them in memory, so only that code stores
    /// them; the frame count is the current one less the frames above.
    pending_frames: Vec<(Addr, SavedDepth)>,
    inline_budget: usize,
    /// The function being built, for RECURSE: a direct call.
    itself: Option<FuncRef>,
    /// Nothing outside this function's registers has changed yet on the
    /// path being translated (see `changes_nothing`): a check that fails
    /// here hands the interpreter the definition's entry (`restart`), not
    /// the exact state, which takes no code of its own. Fixed functions
    /// only, whose entry registers stay at hand.
    pure: bool,
    /// By block not started yet, whether every edge into it so far is pure.
    pure_in: std::collections::HashMap<Block, bool>,
    /// The way out to the entry, once a check takes it; and the registers
    /// at entry, which it hands over.
    restart: Option<Block>,
    entry_state: Vec<Value>,
    ctx: Value,
    max_d: Value,
    max_r: Value,
    v: Vars,
    /// A block for each instruction that starts one (jump targets and
    /// what follows a branch).
    leaders: Vec<Option<Block>>,
    deopt: Block,
    /// A failed `verify` (param: its address): ends the move word with
    /// status `VERIFY` during move generation, else deoptimizes there.
    verify_failed: Block,
    /// The move word ends with status `VERIFY` (during move generation).
    verify_ends: Block,
    propagate: Block,
    /// The current block already ends in a jump or return.
    closed: bool,
    /// The next instruction was translated with this one (an edit and the
    /// `add-move` after it).
    skip_next: bool,
    /// Inside a loop unrolled at this inlining depth: the index of the
    /// copy being translated.
    unrolled: Option<(usize, i32)>,
    prepaid: Prepaid,
    /// By block not started yet, what a check made before still covers on
    /// every edge translated into it so far (`None`: some edge has no
    /// cover): a block only forward jumps reach starts with the least.
    prepaid_in: std::collections::HashMap<Block, Option<(u32, usize)>>,
    /// Where the last EXIT of a callee translated in place left.
    inline_exit: Option<KnownMark>,
    /// What this straight-line stretch has proved: at least `known_d`
    /// cells, room for `known_room` more (checks already made).
    known_d: u32,
    known_room: u32,
    /// Data stack cells held in variables, by index relative to the
    /// depth where the function (fixed) or the block began; `dk` now.
    cells: Held,
    /// Return stack cells held (fixed functions only), relative to `r0`.
    rcells: Held,
    dk: i32,
    known_r: u32,
}

impl<'a> Translator<'a> {
    fn new(mut b: FunctionBuilder<'a>, ptr: Type, native_sig: SigRef, helper_sig: SigRef, start: Addr, ops: &[Op], mut shapes: Shapes<'a>) -> Self {
        let v = Vars {
            tos: b.declare_var(I32),
            d: b.declare_var(I32),
            rp: b.declare_var(I32),
            fp: b.declare_var(I32),
            steps: b.declare_var(I64),
            ds: b.declare_var(ptr),
            rs: b.declare_var(ptr),
            frames: b.declare_var(ptr),
            mem: b.declare_var(ptr),
            mem_len: b.declare_var(I64),
            store_len: b.declare_var(I64),
            walk: b.declare_var(ptr),
        };
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let ctx = b.block_params(entry)[0];
        let max_d = b.ins().load(I32, ctx_fixed(), ctx, offset_of!(JitCtx, max_d) as i32);
        let max_r = b.ins().load(I32, ctx_fixed(), ctx, offset_of!(JitCtx, max_r) as i32);

        let leaders = leaders(&mut b, start, ops);
        let deopt = b.create_block();
        b.append_block_param(deopt, I32);
        let verify_failed = b.create_block();
        b.append_block_param(verify_failed, I32);
        b.set_cold_block(verify_failed);
        let verify_ends = b.create_block();
        let propagate = b.create_block();
        b.append_block_param(propagate, I32);
        let shape = shapes.of(start, ops);
        let mut t = Translator {
            b,
            ptr,
            native_sig,
            helper_sig,
            direct_sig: None,
            directs: &|_| None,
            targets: &|_| None,
            data: &|_| None,
            layout: None,
            defer_epoch: 0,
            here_known: None,
            calls: 0,
            unguessed: &|_| true,
            trusted: None,
            known: Known::default(),
            shapes,
            fixed: shape.is_some(),
            shape,
            dbase: 0,
            rbase: 0,
            d0: max_d,
            r0: max_r,
            dframe: None,
            rframe: None,
            rk: 0,
            held_at: Default::default(),
            dvars: Default::default(),
            rvars: Default::default(),
            start,
            ops: ops.to_vec(),
            inlined: None,
            inline_stack: vec![start],
            pending_frames: Vec::new(),
            inline_budget: INLINE_BUDGET,
            itself: None,
            pure: false,
            pure_in: Default::default(),
            restart: None,
            entry_state: Vec::new(),
            ctx, max_d, max_r, v, leaders, deopt, verify_failed, verify_ends, propagate, closed: false, skip_next: false, unrolled: None, prepaid: Prepaid::default(), prepaid_in: Default::default(), inline_exit: None, known_d: 0, known_room: 0, cells: Default::default(), rcells: Default::default(), dk: 0, known_r: 0 };
        t.load_env();
        let params = t.b.block_params(entry)[1..].to_vec();
        for ((var, _, _), &x) in t.scalars().into_iter().zip(&params) {
            t.set(var, x);
        }
        t.entry_state = params;
        t.pure = t.fixed;
        t.forget();
        if let Some(shape) = t.shape.clone() {
            t.entry_checks(&shape, start);
        }
        let first = t.block_at(start);
        t.goto(first);
        t.closed = true;
        t.exits();
        t
    }

    // ---- the body ----------------------------------------------------

    fn body(&mut self) {
        self.range(0, self.ops.len());
        if !self.closed {
            // Unreachable: the last instruction is EXIT.
            self.b.ins().trap(cranelift_codegen::ir::TrapCode::unwrap_user(1));
        }
    }

    /// Translates instructions `lo..hi` of the body.
    fn range(&mut self, lo: usize, hi: usize) {
        let mut i = lo;
        while i < hi {
            if std::mem::take(&mut self.skip_next) || !self.enter_op(i) {
                i += 1;
                continue;
            }
            if let Some((j, first, count)) = self.unrollable(i) {
                self.unroll(i, j, first, count);
                i = j + 1;
                continue;
            }
            self.op(self.ops[i], self.start + i as u32);
            i += 1;
        }
    }

    /// Opens instruction `i`'s block when it starts one (or follows a
    /// jump); false when no path reaches it.
    fn enter_op(&mut self, i: usize) -> bool {
        if let Some(block) = self.leaders[i] {
            let mark = self.known_mark();
            if !self.closed {
                self.goto(block);
            }
            self.closed = false;
            self.start_block(block, i);
            // An inlined body has no loop: only its call reaches its
            // first instruction.
            if i == 0 && self.inlined.is_some() {
                self.known_carries(mark);
            }
        } else if self.closed {
            // Unreachable code after a jump or EXIT: a block of its own.
            let block = self.b.create_block();
            self.closed = false;
            self.start_block(block, i);
        }
        if self.fixed {
            let Some((d, r)) = self.shape_at(i) else {
                // The shape follows every edge: nothing jumps here.
                self.b.ins().trap(cranelift_codegen::ir::TrapCode::unwrap_user(1));
                self.closed = true;
                return false;
            };
            debug_assert_eq!((self.dk - self.dbase, self.rk - self.rbase), (d, r), "depths at {}", self.start + i as u32);
        }
        true
    }

    /// Translates one instruction: the driver of the families, each in a
    /// file of its own (named beside its instructions).
    fn op(&mut self, op: Op, at: Addr) {
        // A call translated in place is as pure as its instructions.
        if !changes_nothing(op) && !matches!(op, Op::Call(_)) {
            self.pure = false;
        }
        match op {
            // calls.rs, execute.rs
            Op::Call(a) => self.call(a, at),
            Op::Exit => self.exit(),
            Op::Execute => self.execute(at),
            Op::Deferred(slot) => self.deferred(slot, at),
            // host.rs
            Op::SetDefer(_) | Op::Host(_) | Op::DoesSet(_) | Op::CompileXt(_) | Op::DotQuote(_) | Op::AbortQuote(_) => self.host_op(op, at),
            // control.rs
            Op::Jump(_) | Op::JumpIfZero(_) | Op::JumpIfNonZero(_) | Op::DupJumpIfZero(_) | Op::JumpUnlessAnd(_) | Op::JumpUnlessEq(_)
                | Op::JumpUnlessNe(_) | Op::JumpUnlessLt(_) | Op::JumpUnlessGt(_) | Op::JumpUnlessLe(_) | Op::JumpUnlessGe(_)
                | Op::JumpUnlessLitEq(..) | Op::JumpUnlessLitNe(..) | Op::JumpUnlessLitLt(..) | Op::JumpUnlessLitGt(..) | Op::JumpUnlessLitLe(..)
                | Op::JumpUnlessLitGe(..) | Op::DupJumpUnlessLitEq(..) | Op::DupJumpUnlessLitNe(..) | Op::DupJumpUnlessLitLt(..)
                | Op::DupJumpUnlessLitGt(..) | Op::DupJumpUnlessLitLe(..) | Op::DupJumpUnlessLitGe(..) => self.branch_op(op, at),
            // loops.rs
            Op::Do | Op::QDo(_) | Op::Loop(_) | Op::PlusLoop(_) | Op::Leave(_) | Op::Unloop | Op::I | Op::J | Op::K | Op::ToR | Op::RFrom
                | Op::RFetch => self.loop_op(op, at),
            // stack.rs
            Op::Lit(_) | Op::Dup | Op::Drop | Op::Swap | Op::Over | Op::Rot | Op::MinusRot | Op::Nip | Op::Tuck | Op::Pick | Op::Roll | Op::TwoDup
                | Op::TwoDrop | Op::TwoSwap | Op::TwoOver | Op::QDup | Op::Depth => self.stack_op(op, at),
            // arith.rs
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Mod | Op::DivMod | Op::MulDiv | Op::Inc | Op::Dec | Op::Add2 | Op::Sub2 | Op::Mul2 | Op::Div2
                | Op::Abs | Op::Negate | Op::Min | Op::Max | Op::Eq | Op::Ne | Op::Lt | Op::Gt | Op::Le | Op::Ge | Op::ULt | Op::ZeroEq | Op::ZeroNe
                | Op::ZeroLt | Op::ZeroGt | Op::And | Op::Or | Op::Xor | Op::Invert | Op::LShift | Op::RShift | Op::LitAdd(_) | Op::LitMul(_)
                | Op::LitMulAdd(_) | Op::LitDiv(_) | Op::LitMod(_) | Op::LitEq(_) | Op::LitNe(_) | Op::LitLt(_) | Op::LitGt(_) | Op::CellsAdd
                | Op::IAdd | Op::OverAdd | Op::CellsLit(_) | Op::ILit(_) | Op::ICell(_) => self.arith_op(op, at),
            // memory.rs
            Op::Fetch | Op::CFetch | Op::Store | Op::CStore | Op::PlusStore | Op::IncMem | Op::DecMem | Op::On | Op::Off | Op::Here | Op::Allot
                | Op::Comma | Op::CComma | Op::Cells | Op::Fill | Op::Move | Op::Count | Op::AddAt(..) | Op::FetchAt(_) | Op::StoreAt(_)
                | Op::IncAt(_) | Op::FetchAdd | Op::FetchOff(_) | Op::CFetchOff(_) | Op::StoreOff(_) | Op::CStoreOff(_) | Op::FetchCell(_)
                | Op::StoreCell(_) | Op::IFetchCell(_) | Op::IStoreCell(_) | Op::ICFetch(_) | Op::ICStore(_) => self.memory_op(op, at),
            // game.rs
            Op::GStep(_) | Op::GHere | Op::GFrom | Op::GPlayer | Op::GPieceType | Op::GStalemate | Op::GBack | Op::GEmpty | Op::GNotEmpty
                | Op::GFriend | Op::GEnemy | Op::GEmptyAt | Op::GPieceAt | Op::GPlayerAt | Op::GFriendOf | Op::GEnemyOf | Op::GPieceValue | Op::GTo
                | Op::GVerify | Op::GStepVerify(_) | Op::GEmptyVerify | Op::GNotEmptyVerify | Op::GFriendVerify
                | Op::GEnemyVerify => self.game_op(op, at),
        }
    }
}
