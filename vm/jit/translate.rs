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

mod driver;
mod game;

pub(super) use driver::{driver, Driver, PlanShape};

use super::helpers::{self, Helper, REFUSE};
use super::shape::{Effect, Shape, Shapes};
pub(super) use super::shape::{Defers, Definitions, HostEffects};
use game::{gen_offset, Dir, GenField};
use super::{JitCtx, NativeFn, COUNT_LIMIT, DEOPT, DONE, NATIVE_FRAMES, VERIFY};
use crate::game::generate::Recorded;
use crate::ops::{Addr, Op};
use crate::vm::Frame;
use cranelift_codegen::ir::condcodes::{CondCode, IntCC};
use cranelift_codegen::ir::types::{I32, I64};
use cranelift_codegen::ir::{AbiParam, AliasRegion, AliasRegionData, Block, BlockArg, FuncRef, InstBuilder, InstructionData, MemFlagsData, Opcode, SigRef, Type, Value};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_codegen::entity::EntityRef;
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
            | GFriendOf | GEnemyOf | GPieceValue | GTo | GVerify | GEmptyVerify | GNotEmptyVerify | GFriendVerify | GEnemyVerify
    )
}

/// Calls of definitions this short are translated in place.
const INLINE_OPS: usize = 48;
/// At most this many instructions inlined into one function.
const INLINE_BUDGET: usize = 400;
/// Inlined calls nest at most this deep.
const INLINE_DEPTH: usize = 4;
/// Loops of known bounds are unrolled up to this many iterations, and as
/// long as the copies come to at most `UNROLL_OPS` instructions.
const UNROLL_COUNT: i32 = 8;
const UNROLL_OPS: usize = 160;
/// A check of the budget and the call depth covers this many steps, and
/// calls nested this deep, on the path after it.
const PREPAID_STEPS: u32 = 64;
const PREPAID_FRAMES: usize = 8;

/// Compiles the definition whose instructions `ops` start at `start`
/// (`definitions` gives those of its callees, to inline short ones);
/// `None` when it cannot be (the interpreter keeps running it); also says
/// whether the definition has a fixed stack shape.
/// The host words native code calls directly (`HostRun::Direct`): by
/// host id, (arguments, results).
pub(super) type Directs<'a> = &'a dyn Fn(u32) -> Option<Direct>;

/// A direct word as native code calls it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Direct {
    pub ins: u32,
    pub outs: u32,
    /// During move generation it only records this: `helpers::record`.
    pub records: Option<crate::game::generate::Recorded>,
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

/// How native functions call each other: the context, then the machine
/// registers (`tos`, depth, return depth, frame count, steps) in machine
/// registers both ways, after the status. The `Tail` convention returns
/// them all in registers.
fn native_signature(module: &JITModule) -> cranelift_codegen::ir::Signature {
    let ptr = module.target_config().pointer_type();
    let mut sig = cranelift_codegen::ir::Signature::new(cranelift_codegen::isa::CallConv::Tail);
    sig.params.push(AbiParam::new(ptr));
    sig.params.extend([I32, I32, I32, I32, I64].map(AbiParam::new));
    sig.returns.extend([I32, I32, I32, I32, I32, I64].map(AbiParam::new));
    sig
}

/// The way in from Rust: `status = trampoline(ctx, f)` runs native
/// function `f` on the registers in the context, and puts them back when
/// it returns normally (any other ending has stored them already).
pub(super) type Trampoline = unsafe extern "C" fn(*mut JitCtx, NativeFn) -> u32;

pub(super) fn trampoline(module: &mut JITModule) -> Option<Trampoline> {
    let code = entry_function(module, "the trampoline", |b, native, c, f| {
        let fields = scalar_fields();
        let mut args = vec![c];
        for (ty, off) in fields {
            args.push(b.ins().load(ty, trusted(), c, off as i32));
        }
        let call = b.ins().call_indirect(native, f, &args);
        let results = b.inst_results(call).to_vec();
        let done = b.create_block();
        let out = b.create_block();
        b.ins().brif(results[0], out, &[], done, &[]);
        b.switch_to_block(done);
        for ((_, off), &x) in fields.iter().zip(&results[1..]) {
            b.ins().store(trusted(), x, c, *off as i32);
        }
        b.ins().jump(out, &[]);
        b.switch_to_block(out);
        b.ins().return_(&results[..1]);
    })?;
    // SAFETY: built with the signature of `Trampoline`.
    Some(unsafe { std::mem::transmute::<*const u8, Trampoline>(code) })
}

/// A function Rust calls, `extern "C" fn(ctx, x) -> u32` (`x` a pointer
/// or a pointer-sized value), whose body `build` writes from its entry
/// block, given the native functions' signature, `ctx` and `x`. Its code
/// is printed under `AXFORTH_JIT_DUMP`.
pub(super) fn entry_function(
    module: &mut JITModule,
    what: &str,
    build: impl FnOnce(&mut FunctionBuilder, SigRef, Value, Value),
) -> Option<*const u8> {
    let ptr = module.target_config().pointer_type();
    let mut sig = module.make_signature();
    sig.params.extend([AbiParam::new(ptr), AbiParam::new(ptr)]);
    sig.returns.push(AbiParam::new(I32));
    let id = declare_named(module, what, &sig)?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    let mut fctx = FunctionBuilderContext::new();
    {
        let mut b = FunctionBuilder::new(&mut ctx.func, &mut fctx);
        declare_regions(&mut b);
        let native = b.import_signature(native_signature(module));
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let (c, x) = (b.block_params(entry)[0], b.block_params(entry)[1]);
        build(&mut b, native, c, x);
        b.seal_all_blocks();
        b.finalize(module.target_config());
    }
    let dump = std::env::var_os("AXFORTH_JIT_DUMP").is_some();
    ctx.set_disasm(dump);
    place(module, id)?;
    if let Err(e) = module.define_function(id, &mut ctx) {
        // Built from no script: a failure is ours, and without the loop
        // everything would still work, only slower; debug builds (the
        // tests) say so.
        debug_assert!(false, "{what} does not compile: {e:?}");
        return None;
    }
    if dump {
        if let Some(code) = ctx.compiled_code() {
            eprintln!("---- {what}:\n{}", code.vcode.as_deref().unwrap_or(""));
        }
    }
    let size = ctx.compiled_code().map_or(0, |c| c.code_buffer().len());
    module.clear_context(&mut ctx);
    module.finalize_definitions().ok()?;
    let code = module.get_finalized_function(id);
    dump_bytes(code, size);
    Some(code)
}

/// Chooses where function `id`'s code starts in its page, by laying a
/// filler (never jumped to) of some cache lines before it. Each function
/// is finalized on its own, so each would otherwise start a page: the
/// first lines of all of them (their entries and most often their hottest
/// paths) would map to the same few sets of the instruction cache and of
/// the branch predictor's tables, which index by the low bits of an
/// address. Spread this way, tic-tac-toe perft 9 and draughts perft 8 run
/// about 4% faster. Needs the module's memory to go on where the filler
/// ends (`Jit::module`'s arena).
fn place(module: &mut JITModule, id: cranelift_module::FuncId) -> Option<()> {
    const LINE: usize = 64;
    // Fibonacci hashing of the id to one of the 64 lines of a page:
    // successive ids (a function's filler takes one too) land far apart.
    let lines = (id.as_u32().wrapping_mul(0x9e37_79b9) >> 26) as usize;
    if lines == 0 {
        return Some(());
    }
    let filler = module.declare_anonymous_function(&module.make_signature()).ok()?;
    module.define_function_bytes(filler, LINE as u64, &vec![0xcc; lines * LINE], &[]).ok()
}

/// When `AXFORTH_JIT_DUMP` names a directory, writes a function's machine
/// code there as `ADDRESS.bin` (hex), so a profiler's samples, which only
/// know addresses, can be read against a disassembly
/// (`objdump -D -b binary -mi386:x86-64 --adjust-vma=0xADDRESS`).
fn dump_bytes(code: *const u8, size: usize) {
    let Some(dir) = std::env::var_os("AXFORTH_JIT_DUMP").map(std::path::PathBuf::from).filter(|d| d.is_dir()) else {
        return;
    };
    // SAFETY: `code` is the start of a finalized function of `size` bytes.
    let bytes = unsafe { std::slice::from_raw_parts(code, size) };
    let _ = std::fs::write(dir.join(format!("{:x}.bin", code as usize)), bytes);
}

/// A function named for profilers: under `perf record` (which sets
/// `PERF_BUILDID_DIR`), Cranelift writes each function's name and place to
/// `/tmp/perf-PID.map`, so native code shows as the word it came from. A
/// word's code may be made again (`Vm::jit_discard`): the serial keeps
/// names unique in the module.
fn declare_named(module: &mut JITModule, name: &str, sig: &cranelift_codegen::ir::Signature) -> Option<cranelift_module::FuncId> {
    static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    module.declare_function(&format!("{name} #{serial}"), cranelift_module::Linkage::Local, sig).ok()
}

/// The machine registers' places in the context, in signature order.
fn scalar_fields() -> [(Type, usize); 5] {
    [
        (I32, offset_of!(JitCtx, tos)),
        (I32, offset_of!(JitCtx, depth)),
        (I32, offset_of!(JitCtx, rdepth)),
        (I32, offset_of!(JitCtx, fp)),
        (I64, offset_of!(JitCtx, steps)),
    ]
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

/// The return depth a frame not stored yet saves.
#[derive(Clone, Copy)]
enum SavedDepth {
    Value(Value),
    /// `r0` plus this, in a fixed function.
    Fixed(i32),
}

/// The constants the translator can see: the values `konst` made, and the
/// variables that hold one. What a variable holds is known only on the
/// path that defined it: in the block being filled, and in a block
/// entered from it alone with nothing redefined on the way (a guard's way
/// on, a direction step); any other block starts knowing nothing.
#[derive(Default)]
struct Known {
    values: std::collections::HashMap<Value, i32>,
    /// By variable index.
    vars: std::collections::HashMap<usize, i32>,
    /// What a value read from a table at a known address held when the
    /// function was translated, and the variables holding such a value
    /// (a guess, checked where it is used).
    guessed_values: std::collections::HashMap<Value, i32>,
    guessed_vars: std::collections::HashMap<usize, i32>,
    /// The block `vars` holds for.
    block: Option<Block>,
    /// Definitions made so far.
    defs: u64,
}

/// What held where an instruction split in ways that join again.
struct Split {
    mark: KnownMark,
    known: bool,
    prepaid: bool,
    /// `here`, known on the board.
    here: Option<Value>,
}

/// What the last check of the step budget and the call depth covers, on
/// the path through `block` (and the blocks only it leads to).
#[derive(Default)]
struct Prepaid {
    block: Option<Block>,
    /// Calls (steps) still covered.
    steps: u32,
    /// The calls translated in place around the check (`pending_frames`).
    frames_base: usize,
}

/// Where knowledge stood before code that may create blocks.
#[derive(Clone, Copy)]
struct KnownMark {
    block: Option<Block>,
    defs: u64,
}

/// Which stack cells a variable holds (`live`), and which of those are not
/// stored yet (`dirty`): stored before anything reads the stack in memory
/// (a call, a helper, a deoptimization, a block boundary in an unfixed
/// function).
#[derive(Clone, Default, PartialEq)]
struct Held {
    live: std::collections::BTreeSet<i32>,
    dirty: std::collections::BTreeSet<i32>,
}

impl Held {
    /// Cells at or above `top` are gone.
    fn cut(&mut self, top: i32) {
        let _ = self.live.split_off(&top);
        let _ = self.dirty.split_off(&top);
    }
}

/// A block for each instruction of a body that starts one (jump targets
/// and what follows a branch or EXIT).
fn leaders(b: &mut FunctionBuilder, start: Addr, ops: &[Op]) -> Vec<Option<Block>> {
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

/// `x + n`, without an instruction when `n` is 0 (depths and offsets
/// often are): what Cranelift is not given it need not fold away.
fn add_imm(b: &mut FunctionBuilder, x: Value, n: i64) -> Value {
    if n == 0 {
        x
    } else {
        b.ins().iadd_imm_s(x, n)
    }
}

fn trusted() -> MemFlagsData {
    MemFlagsData::trusted()
}

/// The memory native code touches, in parts that never overlap. Tagging
/// each access with its part lets Cranelift keep a value it loaded (or
/// stored) across stores to other parts: `here` stored by a step is
/// forwarded to the next step, and the board's shape read once, instead
/// of every store counting as a fence. A call may change anything.
#[derive(Clone, Copy)]
enum Region {
    /// The data and return stacks and the call frames.
    Stacks,
    /// `JitCtx`.
    Ctx,
    /// `Context::here` of the move generator.
    Here,
    /// The rest of `Game` native code reads: the board's shape, the other
    /// generation fields.
    Game,
    /// The data space (the board's cells included).
    Data,
    /// `Board::walk`, `Dictionary::targets`, `Jit::slots`.
    Tables,
    /// The move generator's edits and moves (`Buf`s: their fields and
    /// what they hold).
    Moves,
}

const REGIONS: [(Region, &str); 7] = [
    (Region::Stacks, "stacks"),
    (Region::Ctx, "ctx"),
    (Region::Here, "here"),
    (Region::Game, "game"),
    (Region::Data, "data space"),
    (Region::Tables, "tables"),
    (Region::Moves, "moves"),
];

/// Declares the regions in a function about to be built, in `Region`
/// order, so `in_region` names them by number.
fn declare_regions(b: &mut FunctionBuilder) {
    for (i, (_, name)) in REGIONS.iter().enumerate() {
        let r = b.func.dfg.alias_regions.insert(AliasRegionData { user_id: i as u32, description: (*name).into() });
        debug_assert_eq!(r.as_u32(), i as u32);
    }
}

/// An aligned, in-bounds access to `region`.
fn in_region(region: Region) -> MemFlagsData {
    MemFlagsData::trusted().with_alias_region(Some(AliasRegion::from_u32(region as u32)))
}

/// The VM's own state: stacks and frames.
fn stacks() -> MemFlagsData {
    in_region(Region::Stacks)
}

fn ctx_field() -> MemFlagsData {
    in_region(Region::Ctx)
}

/// A context field no code changes while native code runs.
fn ctx_fixed() -> MemFlagsData {
    ctx_field().with_readonly().with_can_move()
}

/// Data space: in bounds (checked) but of any alignment.
fn data() -> MemFlagsData {
    MemFlagsData::new().with_notrap().with_alias_region(Some(AliasRegion::from_u32(Region::Data as u32)))
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

    // ---- the state in the context ----------------------------------

    /// The state native code may change: the machine registers.
    fn load_scalars(&mut self) {
        self.load_fields(&self.scalars());
        self.forget();
    }

    /// The machine registers and their places in the context.
    fn scalars(&self) -> [(Variable, Type, usize); 5] {
        let vars = [self.v.tos, self.v.d, self.v.rp, self.v.fp, self.v.steps];
        let fields = scalar_fields();
        std::array::from_fn(|i| (vars[i], fields[i].0, fields[i].1))
    }

    /// The machine registers, as a call passes them.
    fn scalar_values(&mut self) -> Vec<Value> {
        self.scalars().into_iter().map(|(var, _, _)| self.b.use_var(var)).collect()
    }

    /// Returns `status`, the registers not passed (the context has them).
    fn return_status(&mut self, status: Value) {
        let zero = self.konst(0);
        let zero64 = self.b.ins().iconst(I64, 0);
        self.b.ins().return_(&[status, zero, zero, zero, zero, zero64]);
    }

    /// Where the stacks and the data space are: fixed while this function
    /// runs (a helper that opens a stack frame closes it before it returns;
    /// the data space never moves).
    fn load_env(&mut self) {
        let ptr = self.ptr;
        let fields = [
            (self.v.ds, ptr, offset_of!(JitCtx, ds)),
            (self.v.rs, ptr, offset_of!(JitCtx, rs)),
            (self.v.frames, ptr, offset_of!(JitCtx, frames)),
            (self.v.mem, ptr, offset_of!(JitCtx, mem)),
            (self.v.mem_len, I64, offset_of!(JitCtx, mem_len)),
            (self.v.store_len, I64, offset_of!(JitCtx, store_len)),
            (self.v.walk, ptr, offset_of!(JitCtx, walk)),
        ];
        // Read-only while the function runs, so a field it never uses is
        // not loaded at all.
        for (var, ty, off) in fields {
            let x = self.b.ins().load(ty, ctx_fixed(), self.ctx, off as i32);
            self.set(var, x);
        }
    }

    fn load_fields(&mut self, fields: &[(Variable, Type, usize)]) {
        for &(var, ty, off) in fields {
            let x = self.b.ins().load(ty, ctx_field(), self.ctx, off as i32);
            self.set(var, x);
        }
    }

    /// Nothing is known about the stack any more (a block boundary, or
    /// code that ran elsewhere); a fixed function still knows its depths.
    fn forget(&mut self) {
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

    /// The stack checks of a fixed function, all at entry: when one fails
    /// the interpreter runs the definition (and reports what it finds).
    fn entry_checks(&mut self, shape: &Shape, at: Addr) {
        use IntCC::*;
        let e = shape.effect;
        self.d0 = self.var(self.v.d);
        self.r0 = self.var(self.v.rp);
        let (d, r) = (self.d0, self.r0);
        // Depths never exceed their limits, so a stack the function does
        // not grow needs no test of its room (nor one it does not take
        // from, of its cells).
        let mut tests = Vec::new();
        for (depth, need, grow, max) in [(d, e.need, e.grow, self.max_d), (r, e.rneed, e.rgrow, self.max_r)] {
            if need > 0 {
                tests.push(self.b.ins().icmp_imm_s(UnsignedLessThan, depth, need as i64));
            }
            if grow > 0 {
                let top = add_imm(&mut self.b, depth, grow as i64);
                tests.push(self.b.ins().icmp(UnsignedGreaterThan, top, max));
            }
        }
        // With nothing to test, a guard that never leaves: what follows
        // is translated into the block a guard opens.
        let bad = match tests.into_iter().reduce(|a, b| self.b.ins().bor(a, b)) {
            Some(bad) => bad,
            None => self.b.ins().iconst(cranelift_codegen::ir::types::I8, 0),
        };
        self.guard(bad, at);
        // Past the checks, `d0 - need ..= d0 + grow` lies within the stack
        // (`max_d` < `STACK_CELLS`): no index there wraps.
        let frame = |s: &mut Self, base: Variable, depth: Value, need: i32, grow: i32| {
            let depth = s.b.ins().uextend(s.ptr, depth);
            let off = s.b.ins().ishl_imm_s(depth, 2);
            let base = s.var(base);
            (s.b.ins().iadd(base, off), -need.max(0), grow.max(0))
        };
        self.dframe = Some(frame(self, self.v.ds, d, e.need, e.grow));
        self.rframe = Some(frame(self, self.v.rs, r, e.rneed, e.rgrow));
    }

    fn depth(&mut self) -> Value {
        if self.fixed {
            add_imm(&mut self.b, self.d0, self.dk as i64)
        } else {
            self.var(self.v.d)
        }
    }

    fn rdepth(&mut self) -> Value {
        if self.fixed {
            add_imm(&mut self.b, self.r0, self.rk as i64)
        } else {
            self.var(self.v.rp)
        }
    }

    /// In a fixed function the depth variables are set only on the way
    /// out (a guard, a call, EXIT), where the exits store them.
    fn materialize(&mut self) {
        if self.fixed {
            let d = self.depth();
            self.set(self.v.d, d);
            let r = self.rdepth();
            self.set(self.v.rp, r);
        }
    }

    fn store_state(&mut self) {
        self.flush();
        self.store_frames();
        self.materialize();
        self.store_scalars();
    }

    /// Stores the frames of the calls translated in place around here, as
    /// the interpreter would have pushed them (the code that leaves reads
    /// them: a deoptimization returns through them, an error's backtrace
    /// names their call sites).
    fn store_frames(&mut self) {
        let pending = self.pending_frames.clone();
        let fp = self.var(self.v.fp);
        for (i, (at, rdepth)) in pending.iter().enumerate() {
            let fp = add_imm(&mut self.b, fp, -((pending.len() - i) as i64));
            let rdepth = match *rdepth {
                SavedDepth::Value(x) => x,
                SavedDepth::Fixed(rk) => add_imm(&mut self.b, self.r0, rk as i64),
            };
            self.store_frame(fp, *at, rdepth);
        }
    }

    /// The frame record a call from `at` pushes at frame count `fp`.
    fn store_frame(&mut self, fp: Value, at: Addr, rdepth: Value) {
        let frame = self.frame_slot(fp);
        let ret = self.konst((at + 1) as i32);
        self.b.ins().store(stacks(), ret, frame, offset_of!(Frame, ret) as i32);
        self.b.ins().store(stacks(), rdepth, frame, offset_of!(Frame, rdepth) as i32);
    }

    /// Whether move generation is running (I8).
    fn generating(&mut self) -> Value {
        let g = self.b.ins().load(self.ptr, ctx_fixed(), self.ctx, offset_of!(JitCtx, game) as i32);
        self.b.ins().load(cranelift_codegen::ir::types::I8, in_region(Region::Game), g, gen_offset(GenField::Active) as i32)
    }

    fn store_scalars(&mut self) {
        for (var, _, off) in self.scalars() {
            let x = self.b.use_var(var);
            self.b.ins().store(ctx_field(), x, self.ctx, off as i32);
        }
    }

    /// After a call or a host word in a fixed function: the depths must be
    /// what the shape says, else the interpreter goes on from `next`.
    fn resync(&mut self, delta: i32, next: Addr) {
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
    fn exits(&mut self) {
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

    // ---- small pieces ----------------------------------------------

    fn var(&mut self, v: Variable) -> Value {
        if let Some(n) = self.known_var(v) {
            return self.konst(n);
        }
        let x = self.b.use_var(v);
        if let Some(g) = self.guessed_var(v) {
            self.known.guessed_values.insert(x, g);
        }
        x
    }

    fn set(&mut self, v: Variable, x: Value) {
        let here = self.b.current_block();
        if self.known.block != here {
            self.known.vars.clear();
            self.known.guessed_vars.clear();
            self.known.block = here;
        }
        match self.folded(x) {
            Some(n) => {
                self.known.values.insert(x, n);
                self.known.vars.insert(v.index(), n)
            }
            None => self.known.vars.remove(&v.index()),
        };
        match self.known.guessed_values.get(&x) {
            Some(&g) => self.known.guessed_vars.insert(v.index(), g),
            None => self.known.guessed_vars.remove(&v.index()),
        };
        self.known.defs += 1;
        self.b.def_var(v, x);
    }

    /// The constant `x` is: made by `konst`, or computed from such
    /// constants (an address in a table at a known index), as Cranelift
    /// computes it.
    fn folded(&self, x: Value) -> Option<i32> {
        self.folded_within(x, 4)
    }

    /// `folded`, looking through at most `depth` instructions.
    fn folded_within(&self, x: Value, depth: u32) -> Option<i32> {
        if let Some(&n) = self.known.values.get(&x) {
            return Some(n);
        }
        let dfg = &self.b.func.dfg;
        if depth == 0 || dfg.value_type(x) != I32 {
            return None;
        }
        let known = |v: Value| self.folded_within(v, depth - 1);
        Some(match dfg.insts[dfg.value_def(x).inst()?] {
            InstructionData::UnaryImm { opcode: Opcode::Iconst, imm } => imm.bits() as i32,
            InstructionData::Binary { opcode, args: [a, b] } => {
                let (a, b) = (known(a)?, known(b)?);
                match opcode {
                    Opcode::Iadd => a.wrapping_add(b),
                    Opcode::Isub => a.wrapping_sub(b),
                    Opcode::Imul => a.wrapping_mul(b),
                    Opcode::Band => a & b,
                    Opcode::Bor => a | b,
                    Opcode::Bxor => a ^ b,
                    Opcode::Ishl => a.wrapping_shl(b as u32),
                    Opcode::Sshr => a.wrapping_shr(b as u32),
                    Opcode::Ushr => (a as u32).wrapping_shr(b as u32) as i32,
                    _ => return None,
                }
            }
            InstructionData::Unary { opcode: Opcode::Ineg, arg } => known(arg)?.wrapping_neg(),
            InstructionData::Unary { opcode: Opcode::Bnot, arg } => !known(arg)?,
            _ => return None,
        })
    }

    /// The guess `v` holds here (see `Known::guessed_values`).
    fn guessed_var(&self, v: Variable) -> Option<i32> {
        (self.known.block == self.b.current_block()).then(|| self.known.guessed_vars.get(&v.index()).copied()).flatten()
    }

    fn konst(&mut self, n: i32) -> Value {
        let x = self.b.ins().iconst(I32, n as i64);
        self.known.values.insert(x, n);
        x
    }

    /// The constant `v` holds here, when known.
    fn known_var(&self, v: Variable) -> Option<i32> {
        (self.known.block == self.b.current_block()).then(|| self.known.vars.get(&v.index()).copied()).flatten()
    }

    fn known_mark(&self) -> KnownMark {
        KnownMark { block: self.b.current_block(), defs: self.known.defs }
    }

    /// The block just entered follows the one marked on the only path
    /// that reaches it, and nothing was defined meanwhile: what was known
    /// there still holds.
    fn known_carries(&mut self, mark: KnownMark) {
        if self.prepaid.block == mark.block {
            self.prepaid.block = self.b.current_block();
        }
        if self.known.block == mark.block && self.known.defs == mark.defs {
            self.known.block = self.b.current_block();
        }
        if let Some((here, block, calls)) = self.here_known {
            if Some(block) == mark.block {
                self.here_known = self.b.current_block().map(|now| (here, now, calls));
            }
        }
    }

    /// Marks where an instruction splits into ways that join again
    /// (`rejoin`), neither defining a variable, spending a step, or moving
    /// `here`.
    fn split(&self) -> Split {
        let block = self.b.current_block();
        Split {
            mark: self.known_mark(),
            known: self.known.block == block,
            prepaid: self.prepaid.block == block,
            here: self.here_known.filter(|&(_, b, calls)| Some(b) == block && calls == self.calls).map(|(here, _, _)| here),
        }
    }

    /// The block just entered joins the ways split at `s`: what held
    /// there holds here (the ways' own checks carried nothing further).
    fn rejoin(&mut self, s: Split) {
        let now = self.b.current_block();
        if s.known && self.known.defs == s.mark.defs {
            self.known.block = now;
        }
        if s.prepaid {
            self.prepaid.block = now;
        }
        if let (Some(here), Some(block)) = (s.here, now) {
            self.here_known = Some((here, block, self.calls));
        }
    }

    /// Deoptimizes to `at` when `bad` (an I8 truth value) holds.
    fn guard(&mut self, bad: Value, at: Addr) {
        self.guard_to(self.deopt, bad, at);
    }

    /// `verify` at `at` fails when `fails` holds.
    fn verify(&mut self, fails: Value, at: Addr) {
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
    fn leave_if(&mut self, exit: Block, bad: Value, at: Addr) {
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

    /// Seals `block`, entered from one place only, as soon as that jump is
    /// made: the variables read in it are then the values defined before
    /// the jump, not block parameters resolved at the end, so what is
    /// known of them (a flag's truth value, a constant) still holds.
    fn seal_one_way(&mut self, block: Block) {
        self.b.seal_block(block);
        self.inherit_prepaid(block);
    }

    /// Stores the dirty cells (they stay dirty on this path).
    fn emit_flush(&mut self) {
        for r in [false, true] {
            let dirty: Vec<i32> = self.held(r).dirty.iter().copied().collect();
            for key in dirty {
                self.store_cell(r, key);
            }
        }
    }

    fn store_cell(&mut self, r: bool, key: i32) {
        let var = self.cell_var(r, key);
        let x = self.b.use_var(var);
        let p = self.key_slot(r, key);
        self.b.ins().store(stacks(), x, p, 0);
    }

    /// Stores the dirty cells: memory is the truth again.
    fn flush(&mut self) {
        if self.cells.dirty.first().is_some_and(|&k| k < 0) || self.rcells.dirty.first().is_some_and(|&k| k < 0) {
            // The caller's cells change.
            self.pure = false;
        }
        self.emit_flush();
        self.cells.dirty.clear();
        self.rcells.dirty.clear();
    }

    fn held(&mut self, r: bool) -> &mut Held {
        if r {
            &mut self.rcells
        } else {
            &mut self.cells
        }
    }

    fn cell_var(&mut self, r: bool, key: i32) -> Variable {
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

    fn load_cell(&mut self, r: bool, key: i32) -> Value {
        let var = self.cell_var(r, key);
        let p = self.key_slot(r, key);
        let x = self.b.ins().load(I32, stacks(), p, 0);
        self.set(var, x);
        self.held(r).live.insert(key);
        x
    }

    fn write_cell(&mut self, r: bool, key: i32, x: Value) {
        let var = self.cell_var(r, key);
        self.set(var, x);
        let held = self.held(r);
        held.live.insert(key);
        held.dirty.insert(key);
    }

    // ---- edges -------------------------------------------------------

    /// Ends the block with a jump to `target`.
    fn goto(&mut self, target: Block) {
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
    fn inherit_prepaid(&mut self, block: Block) {
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
    fn branch_to(&mut self, cond: Value, yes: Block, no: Block) {
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
    fn start_block(&mut self, block: Block, i: usize) {
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
    fn shape_at(&self, i: usize) -> Option<(i32, i32)> {
        self.shape.as_ref().and_then(|s| s.at[i])
    }

    /// The interpreter's `need!`: at least `n` cells.
    fn need(&mut self, n: u32, at: Addr) {
        if n > self.known_d && !self.fixed {
            self.known_d = n;
            let d = self.var(self.v.d);
            let bad = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, d, n as i64);
            self.guard(bad, at);
        }
    }

    /// Room for `n` more cells.
    fn room(&mut self, n: u32, at: Addr) {
        if n <= self.known_room || self.fixed {
            return;
        }
        self.known_room = n;
        let d = self.var(self.v.d);
        let after = add_imm(&mut self.b, d, n as i64);
        let bad = self.b.ins().icmp(IntCC::UnsignedGreaterThan, after, self.max_d);
        self.guard(bad, at);
    }

    fn rneed(&mut self, n: u32, at: Addr) {
        if n <= self.known_r || self.fixed {
            return;
        }
        self.known_r = n;
        let rp = self.var(self.v.rp);
        let bad = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, rp, n as i64);
        self.guard(bad, at);
    }

    fn rroom(&mut self, n: u32, at: Addr) {
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
    fn slot(&mut self, base: Variable, i: Value) -> Value {
        let i = self.b.ins().band_imm_s(i, 0xffff);
        let i = self.b.ins().uextend(self.ptr, i);
        let off = self.b.ins().ishl_imm_s(i, 2);
        let base = self.var(base);
        self.b.ins().iadd(base, off)
    }

    /// Data stack cell `d - k`.
    fn below(&mut self, k: i64) -> Value {
        self.read_cell(false, self.dk - k as i32)
    }

    fn set_below(&mut self, k: i64, x: Value) {
        self.write_cell(false, self.dk - k as i32, x);
    }

    fn add_d(&mut self, n: i64) {
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
    fn push(&mut self, x: Value) {
        let tos = self.var(self.v.tos);
        self.set_below(0, tos);
        self.add_d(1);
        self.set(self.v.tos, x);
    }

    /// Pop, depth already checked.
    fn pop(&mut self) -> Value {
        let x = self.var(self.v.tos);
        self.add_d(-1);
        let t = self.below(0);
        self.set(self.v.tos, t);
        x
    }

    /// Drops `n` cells, depth already checked.
    fn drop_n(&mut self, n: i64) {
        self.add_d(-n);
        let t = self.below(0);
        self.set(self.v.tos, t);
    }

    fn rslot(&mut self, k: i64) -> Value {
        let rp = self.var(self.v.rp);
        let i = add_imm(&mut self.b, rp, -k);
        self.slot(self.v.rs, i)
    }

    fn rget(&mut self, k: i64) -> Value {
        if self.fixed {
            return self.read_cell(true, self.rk - k as i32);
        }
        let p = self.rslot(k);
        self.b.ins().load(I32, stacks(), p, 0)
    }

    fn rput(&mut self, k: i64, x: Value) {
        if self.fixed {
            return self.write_cell(true, self.rk - k as i32, x);
        }
        let p = self.rslot(k);
        self.b.ins().store(stacks(), x, p, 0);
    }

    fn add_rp(&mut self, n: i64) {
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

    fn flag(&mut self, c: Value) -> Value {
        self.b.ins().bmask(I32, c)
    }

    /// The truth value flag `x` was made from, when it is one `flag` made
    /// (a value defined in this function dominates its uses, and so do its
    /// operands).
    fn flag_source(&self, x: Value) -> Option<Value> {
        let dfg = &self.b.func.dfg;
        match dfg.insts[dfg.value_def(x).inst()?] {
            InstructionData::Unary { opcode: Opcode::Bmask, arg } => Some(arg),
            _ => None,
        }
    }

    /// `c` false: a comparison turned around where `c` is one, so a branch
    /// on it stays a compare and a jump.
    fn invert(&mut self, c: Value) -> Value {
        if let Some(inst) = self.b.func.dfg.value_def(c).inst() {
            if let InstructionData::IntCompare { cond, args, .. } = self.b.func.dfg.insts[inst] {
                return self.b.ins().icmp(cond.complement(), args[0], args[1]);
            }
        }
        self.b.ins().bxor_imm_s(c, 1)
    }

    /// A comparison of `x` with `n`; a flag tested against zero is its own
    /// truth value (no mask made and tested again).
    fn cmp_imm(&mut self, cc: IntCC, x: Value, n: i64) -> Value {
        if n == 0 && matches!(cc, IntCC::Equal | IntCC::NotEqual) {
            if let Some(c) = self.flag_source(x) {
                return if cc == IntCC::NotEqual { c } else { self.invert(c) };
            }
        }
        self.b.ins().icmp_imm_s(cc, x, n)
    }

    /// `AND`; of two flags, the flag of both truth values.
    fn and(&mut self, a: Value, b: Value) -> Value {
        match (self.flag_source(a), self.flag_source(b)) {
            (Some(x), Some(y)) => {
                let both = self.b.ins().band(x, y);
                self.flag(both)
            }
            _ => self.b.ins().band(a, b),
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

    /// The step budget: deoptimize when it is spent (`when`, if given,
    /// says whether the step is taken at all).
    fn step(&mut self, when: Option<Value>, at: Addr) {
        if when.is_none() && self.prepaid.block == self.b.current_block() && self.prepaid.steps > 0 {
            self.prepaid.steps -= 1;
            let steps = self.var(self.v.steps);
            let steps = add_imm(&mut self.b, steps, -1);
            return self.set(self.v.steps, steps);
        }
        let steps = self.var(self.v.steps);
        let spent = self.b.ins().icmp_imm_s(IntCC::Equal, steps, 0);
        let bad = match when {
            Some(w) => self.b.ins().band(spent, w),
            None => spent,
        };
        self.guard(bad, at);
        let one = match when {
            Some(w) => self.b.ins().uextend(I64, w),
            None => self.b.ins().iconst(I64, 1),
        };
        let steps = self.b.ins().isub(steps, one);
        self.set(self.v.steps, steps);
    }

    fn call_helper(&mut self, h: Helper, a: i32, b: Value) -> Value {
        let f = self.b.ins().iconst(self.ptr, h as usize as i64);
        let a = self.konst(a);
        self.calls += 1;
        let call = self.b.ins().call_indirect(self.helper_sig, f, &[self.ctx, a, b]);
        self.b.inst_results(call)[0]
    }

    /// A syncing helper: state out, call, failure passed up, state back in.
    fn synced(&mut self, h: Helper, a: i32, at: Addr) {
        self.store_state();
        let at_v = self.konst(at as i32);
        let s = self.call_helper(h, a, at_v);
        let s = self.b.ins().ireduce(I32, s);
        self.check_status(s);
        self.load_scalars();
        if self.fixed {
            let op = self.ops[(at - self.start) as usize];
            // The shape knew the effect; were it not so, the check of the
            // depths in `resync` hands over to the interpreter.
            let delta = self.shapes.delta(op).unwrap_or(0);
            self.resync(delta, at + 1);
        }
    }

    /// `COMPILE name` (`CompileXt`): while moves are generated, the word
    /// recorded in the move being built, through the lean helper (with
    /// the `add-move` right after it, if there is one); else the
    /// interpreter's.
    fn record_call(&mut self, xt: u32, at: Addr) {
        let Some(sig) = self.direct_sig else {
            return self.synced(helpers::compile_xt, xt as i32, at);
        };
        let (x, zero) = (self.konst(xt as i32), self.konst(0));
        self.record(sig, Recorded::Call, x, zero, at);
    }

    /// What `what` records during generation (arguments `a`, `b`), through
    /// a helper that does only that; an edit and the `add-move` right
    /// after it, through one call. Answers the helper's result.
    fn record(&mut self, sig: SigRef, what: Recorded, a: Value, b: Value, at: Addr) -> Value {
        let mut code = what.code();
        let then_add = what != Recorded::AddMove && self.adds_move_next(at);
        if then_add {
            self.skip_next = true;
            code |= Recorded::THEN_ADD;
        }
        match self.layout {
            Some(layout) => self.record_inline(layout, sig, what, then_add, code, [a, b], at),
            None => self.call_direct(sig, helpers::recorder(code), code, a, b, at),
        }
    }

    /// Calls `helper` with the direct words' signature (`id`, `at`, `a`,
    /// `b`); when it refuses, the interpreter runs the instruction.
    fn call_direct(&mut self, sig: SigRef, helper: *const (), id: i32, a: Value, b: Value, at: Addr) -> Value {
        let f = self.b.ins().iconst(self.ptr, helper as i64);
        let (id, at_v) = (self.konst(id), self.konst(at as i32));
        self.calls += 1;
        let call = self.b.ins().call_indirect(sig, f, &[self.ctx, id, at_v, a, b]);
        let r = self.b.inst_results(call)[0];
        let refused = self.b.ins().icmp_imm_s(IntCC::Equal, r, REFUSE);
        self.guard(refused, at);
        self.b.ins().ireduce(I32, r)
    }

    /// A direct word: its arguments from the stack cells where they are,
    /// its result into one; nothing is handed over. When it fails, the
    /// interpreter runs it again (and reports the error).
    fn direct(&mut self, id: u32, Direct { ins, outs, records }: Direct, at: Addr) {
        let Some(sig) = self.direct_sig else {
            return self.synced(helpers::host, id as i32, at);
        };
        self.need(ins, at);
        if outs > ins {
            self.room(outs - ins, at);
        }
        let zero = self.konst(0);
        let (a, b) = match ins {
            0 => (zero, zero),
            1 => (self.var(self.v.tos), zero),
            _ => (self.below(1), self.var(self.v.tos)),
        };
        let r = match records {
            Some(what) => self.record(sig, what, a, b, at),
            None => self.call_direct(sig, helpers::direct as *const (), id as i32, a, b, at),
        };
        if ins > 0 {
            self.drop_n(ins as i64);
        }
        if outs > 0 {
            self.push(r);
        }
    }

    /// The instruction after `at` is `add-move`, reached only from `at`.
    fn adds_move_next(&mut self, at: Addr) -> bool {
        let next = (at + 1 - self.start) as usize;
        let Some(&Op::Host(id)) = self.ops.get(next) else { return false };
        if self.leaders[next].is_some() {
            return false;
        }
        matches!((self.directs)(id), Some(Direct { records: Some(Recorded::AddMove), .. }))
    }

    /// Passes a failure status up; else code that ran elsewhere has
    /// changed the stacks.
    fn check_status(&mut self, s: Value) {
        let ok = self.b.create_block();
        self.b.ins().brif(s, self.propagate, &[BlockArg::Value(s)], ok, &[]);
        self.b.switch_to_block(ok);
        self.seal_one_way(ok);
        self.forget();
    }

    /// A value helper that may answer `REFUSE`: deoptimize then.
    fn value_helper(&mut self, h: Helper, a: i32, b: Value, at: Addr) -> Value {
        let r = self.call_helper(h, a, b);
        let bad = self.b.ins().icmp_imm_s(IntCC::Equal, r, REFUSE);
        self.guard(bad, at);
        self.b.ins().ireduce(I32, r)
    }

    /// The block of instruction `a`. `compile` admits only definitions
    /// whose jumps land inside and whose last instruction is EXIT, so every
    /// target, and the successor of every branch, is an instruction with a
    /// block made in `new`.
    fn block_at(&self, a: Addr) -> Block {
        self.leaders[(a - self.start) as usize].expect("every jump target and successor of a branch has a block")
    }

    /// Jump to `t` from `at` (a backward jump is a step).
    fn jump(&mut self, t: Addr, at: Addr) {
        if t <= at {
            self.step(None, at);
        }
        let target = self.block_at(t);
        self.goto(target);
        self.closed = true;
    }

    /// A conditional jump to `t` when `taken`; `commit` pops its operands
    /// (after the checks, before the branch).
    fn branch(&mut self, taken: Value, t: Addr, at: Addr, commit: impl FnOnce(&mut Self)) {
        let backward = t <= at;
        if backward {
            let steps = self.var(self.v.steps);
            let spent = self.b.ins().icmp_imm_s(IntCC::Equal, steps, 0);
            let bad = self.b.ins().band(spent, taken);
            self.guard(bad, at);
        }
        commit(self);
        if backward {
            let steps = self.var(self.v.steps);
            let one = self.b.ins().uextend(I64, taken);
            let steps = self.b.ins().isub(steps, one);
            self.set(self.v.steps, steps);
        }
        let target = self.block_at(t);
        let next = self.block_at(at + 1);
        self.branch_to(taken, target, next);
        self.closed = true;
    }

    /// `( a b -- )` jump unless `cond(a, b)`.
    fn compare_jump(&mut self, cc: IntCC, t: Addr, at: Addr) {
        self.need(2, at);
        let b = self.var(self.v.tos);
        let a = self.below(1);
        let holds = self.b.ins().icmp(cc, a, b);
        let taken = self.b.ins().bxor_imm_s(holds, 1);
        self.branch(taken, t, at, |s| s.drop_n(2));
    }

    fn literal_jump(&mut self, cc: IntCC, n: i16, t: Addr, at: Addr, keep: bool) {
        self.need(1, at);
        let a = self.var(self.v.tos);
        let holds = self.cmp_imm(cc, a, n as i64);
        let taken = self.b.ins().bxor_imm_s(holds, 1);
        self.branch(taken, t, at, |s| {
            if !keep {
                s.drop_n(1)
            }
        });
    }

    fn unary(&mut self, at: Addr, f: impl FnOnce(&mut Self, Value) -> Value) {
        self.need(1, at);
        let x = self.var(self.v.tos);
        let y = f(self, x);
        self.set(self.v.tos, y);
    }

    fn binary(&mut self, at: Addr, f: impl FnOnce(&mut Self, Value, Value) -> Value) {
        self.need(2, at);
        let b = self.var(self.v.tos);
        let a = self.below(1);
        let y = f(self, a, b);
        self.add_d(-1);
        self.set(self.v.tos, y);
    }

    fn compare(&mut self, at: Addr, cc: IntCC) {
        self.binary(at, |s, a, b| {
            let c = s.b.ins().icmp(cc, a, b);
            s.flag(c)
        });
    }

    fn compare_lit(&mut self, at: Addr, cc: IntCC, n: i32) {
        self.unary(at, |s, x| {
            let c = s.cmp_imm(cc, x, n as i64);
            s.flag(c)
        });
    }

    /// Pushes a value computed after the room check.
    fn push_checked(&mut self, at: Addr, f: impl FnOnce(&mut Self) -> Value) {
        self.room(1, at);
        let x = f(self);
        self.push(x);
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

    /// The loop index (`I`), with the return-stack check.
    fn index(&mut self, at: Addr) -> Value {
        self.rneed(2, at);
        self.rget(1)
    }

    /// ( a b -- q ) or r: wrapping division by a non-zero divisor
    /// (`MIN / -1` wraps instead of trapping).
    fn divide(&mut self, a: Value, b: Value, rem: bool) -> Value {
        let minus_one = self.cmp_imm(IntCC::Equal, b, -1);
        let one = self.konst(1);
        let safe = self.b.ins().select(minus_one, one, b);
        if rem {
            let r = self.b.ins().srem(a, safe);
            let zero = self.konst(0);
            self.b.ins().select(minus_one, zero, r)
        } else {
            let q = self.b.ins().sdiv(a, safe);
            let neg = self.b.ins().ineg(a);
            self.b.ins().select(minus_one, neg, q)
        }
    }

    fn nonzero_divisor(&mut self, at: Addr) {
        let tos = self.var(self.v.tos);
        let zero = self.cmp_imm(IntCC::Equal, tos, 0);
        self.guard(zero, at);
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

    /// A `DO` at `i` to translate once per index: a fixed function, known
    /// bounds, a few iterations of a short body ending in its `LOOP` (at
    /// `j`) that only jumps forward within itself, touches the return
    /// stack only by reading the index, and is entered only from the `DO`.
    /// Answers `j`, the first index and the count.
    fn unrollable(&mut self, i: usize) -> Option<(usize, i32, i32)> {
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
    fn unroll(&mut self, i: usize, j: usize, first: i32, count: i32) {
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

    fn op(&mut self, op: Op, at: Addr) {
        use IntCC::*;
        // A call translated in place is as pure as its instructions.
        if !changes_nothing(op) && !matches!(op, Op::Call(_)) {
            self.pure = false;
        }
        let tos_v = self.v.tos;
        match op {
            Op::Lit(n) => self.push_checked(at, |s| s.konst(n)),
            Op::Call(a) => self.call(a, at),
            Op::Exit => self.exit(),
            Op::Jump(t) => self.jump(t, at),
            Op::JumpIfZero(t) => {
                self.need(1, at);
                let x = self.var(tos_v);
                let taken = self.cmp_imm(Equal, x, 0);
                self.branch(taken, t, at, |s| s.drop_n(1));
            }
            Op::JumpIfNonZero(t) => {
                self.need(1, at);
                let x = self.var(tos_v);
                let taken = self.cmp_imm(NotEqual, x, 0);
                self.branch(taken, t, at, |s| s.drop_n(1));
            }
            Op::DupJumpIfZero(t) => {
                self.need(1, at);
                let x = self.var(tos_v);
                let taken = self.cmp_imm(Equal, x, 0);
                self.branch(taken, t, at, |_| {});
            }
            Op::Execute => self.execute(at),
            Op::Deferred(slot) => self.deferred(slot, at),
            Op::SetDefer(slot) => self.synced(helpers::set_defer, slot as i32, at),
            Op::Host(id) => match (self.directs)(id) {
                Some(d) => self.direct(id, d, at),
                None => self.synced(helpers::host, id as i32, at),
            },
            Op::DoesSet(t) => self.synced(helpers::does, t as i32, at),
            Op::CompileXt(xt) => self.record_call(xt, at),
            Op::DotQuote(a) => self.synced(helpers::dot_quote, a as i32, at),
            Op::AbortQuote(_) => {
                self.need(1, at);
                let x = self.var(tos_v);
                let abort = self.cmp_imm(NotEqual, x, 0);
                self.guard(abort, at);
                self.drop_n(1);
            }

            // ---- loops and the return stack ----
            Op::Do => {
                self.need(2, at);
                self.rroom(2, at);
                let start = self.var(tos_v);
                let limit = self.below(1);
                self.drop_n(2);
                self.rput(0, limit);
                self.rput(-1, start);
                self.add_rp(2);
            }
            Op::QDo(t) => {
                self.need(2, at);
                self.rroom(2, at);
                let start = self.var(tos_v);
                let limit = self.below(1);
                self.drop_n(2);
                let same = self.b.ins().icmp(Equal, start, limit);
                let enter = self.b.create_block();
                let target = self.block_at(t);
                self.branch_to(same, target, enter);
                self.b.switch_to_block(enter);
                self.rput(0, limit);
                self.rput(-1, start);
                self.add_rp(2);
            }
            Op::Loop(t) => {
                self.rneed(2, at);
                let i = self.rget(1);
                let i = add_imm(&mut self.b, i, 1);
                let limit = self.rget(2);
                let again = self.b.ins().icmp(NotEqual, i, limit);
                self.loop_back(again, i, t, at);
            }
            Op::PlusLoop(t) => {
                self.need(1, at);
                self.rneed(2, at);
                let n = self.var(tos_v);
                let index = self.rget(1);
                let limit = self.rget(2);
                let old = self.b.ins().isub(index, limit);
                let new = self.b.ins().iadd(old, n);
                let x1 = self.b.ins().bxor(old, new);
                let x2 = self.b.ins().bxor(old, n);
                let both = self.b.ins().band(x1, x2);
                let again = self.cmp_imm(SignedGreaterThanOrEqual, both, 0);
                // The step check comes before the pop, so a deopt finds
                // the instruction's operands in place.
                let steps = self.var(self.v.steps);
                let spent = self.cmp_imm(Equal, steps, 0);
                let bad = self.b.ins().band(spent, again);
                self.guard(bad, at);
                self.drop_n(1);
                let i = self.b.ins().iadd(index, n);
                self.loop_back_checked(again, i, t, at);
            }
            Op::Leave(t) => {
                self.rneed(2, at);
                self.add_rp(-2);
                self.jump(t, at);
            }
            Op::Unloop => {
                self.rneed(2, at);
                self.add_rp(-2);
            }
            Op::I => {
                self.room(1, at);
                let i = match self.unrolled {
                    Some((depth, i)) if depth == self.inline_stack.len() => self.konst(i),
                    _ => self.index(at),
                };
                self.push(i);
            }
            Op::J => {
                self.room(1, at);
                self.rneed(4, at);
                let j = self.rget(3);
                self.push(j);
            }
            Op::K => {
                self.room(1, at);
                self.rneed(6, at);
                let k = self.rget(5);
                self.push(k);
            }
            Op::ToR => {
                self.need(1, at);
                self.rroom(1, at);
                let x = self.pop();
                self.rput(0, x);
                self.add_rp(1);
            }
            Op::RFrom => {
                self.rneed(1, at);
                self.room(1, at);
                let x = self.rget(1);
                self.add_rp(-1);
                self.push(x);
            }
            Op::RFetch => {
                self.rneed(1, at);
                self.room(1, at);
                let x = self.rget(1);
                self.push(x);
            }

            // ---- stack ----
            Op::Dup => {
                self.need(1, at);
                self.room(1, at);
                let x = self.var(tos_v);
                self.push(x);
            }
            Op::Drop => {
                self.need(1, at);
                self.drop_n(1);
            }
            Op::Swap => {
                self.need(2, at);
                let a = self.below(1);
                let b = self.var(tos_v);
                self.set_below(1, b);
                self.set(tos_v, a);
            }
            Op::Over => {
                self.need(2, at);
                self.room(1, at);
                let a = self.below(1);
                self.push(a);
            }
            Op::Rot => {
                self.need(3, at);
                let (a, b, c) = (self.below(2), self.below(1), self.var(tos_v));
                self.set_below(2, b);
                self.set_below(1, c);
                self.set(tos_v, a);
            }
            Op::MinusRot => {
                self.need(3, at);
                let (a, b, c) = (self.below(2), self.below(1), self.var(tos_v));
                self.set_below(2, c);
                self.set_below(1, a);
                self.set(tos_v, b);
            }
            Op::Nip => {
                self.need(2, at);
                self.add_d(-1);
            }
            Op::Tuck => {
                self.need(2, at);
                self.room(1, at);
                let a = self.below(1);
                let b = self.var(tos_v);
                self.set_below(1, b);
                self.set_below(0, a);
                self.add_d(1);
            }
            Op::Pick => {
                self.flush();
                self.need(1, at);
                let u = self.var(tos_v);
                let negative = self.cmp_imm(SignedLessThan, u, 0);
                let want = add_imm(&mut self.b, u, 2);
                let d = self.var(self.v.d);
                let short = self.b.ins().icmp(UnsignedGreaterThan, want, d);
                let bad = self.b.ins().bor(negative, short);
                self.guard(bad, at);
                let d = self.var(self.v.d);
                let i = self.b.ins().isub(d, u);
                let i = add_imm(&mut self.b, i, -1);
                let p = self.slot(self.v.ds, i);
                let x = self.b.ins().load(I32, stacks(), p, 0);
                self.set(tos_v, x);
            }
            Op::Roll => self.synced(helpers::roll, 0, at),
            Op::TwoDup => {
                self.need(2, at);
                self.room(2, at);
                let (a, b) = (self.below(1), self.var(tos_v));
                self.push(a);
                self.push(b);
            }
            Op::TwoDrop => {
                self.need(2, at);
                self.drop_n(2);
            }
            Op::TwoSwap => {
                self.need(4, at);
                let (a, b, c, x) = (self.below(3), self.below(2), self.below(1), self.var(tos_v));
                self.set_below(3, c);
                self.set_below(2, x);
                self.set_below(1, a);
                self.set(tos_v, b);
            }
            Op::TwoOver => {
                self.need(4, at);
                self.room(2, at);
                let (a, b) = (self.below(3), self.below(2));
                self.push(a);
                self.push(b);
            }
            Op::QDup if self.fixed => self.qdup_branch(at),
            Op::QDup => {
                self.need(1, at);
                let x = self.var(tos_v);
                let nonzero = self.cmp_imm(NotEqual, x, 0);
                // Room only matters when it duplicates.
                let d = self.var(self.v.d);
                let full = self.b.ins().icmp(UnsignedGreaterThanOrEqual, d, self.max_d);
                let bad = self.b.ins().band(full, nonzero);
                self.guard(bad, at);
                let dup = self.b.create_block();
                let next = self.b.create_block();
                self.flush();
                self.b.ins().brif(nonzero, dup, &[], next, &[]);
                self.b.switch_to_block(dup);
                self.seal_one_way(dup);
                self.push(x);
                self.flush();
                self.b.ins().jump(next, &[]);
                self.b.switch_to_block(next);
                self.b.seal_block(next);
                self.forget();
            }
            Op::Depth => self.push_checked(at, |s| s.depth()),

            // ---- arithmetic and logic ----
            Op::Add => self.binary(at, |s, a, b| s.b.ins().iadd(a, b)),
            Op::Sub => self.binary(at, |s, a, b| s.b.ins().isub(a, b)),
            Op::Mul => self.binary(at, |s, a, b| s.b.ins().imul(a, b)),
            Op::Div | Op::Mod => {
                self.need(2, at);
                self.nonzero_divisor(at);
                let rem = op == Op::Mod;
                self.binary(at, |s, a, b| s.divide(a, b, rem));
            }
            Op::DivMod => {
                self.need(2, at);
                self.nonzero_divisor(at);
                let (a, b) = (self.below(1), self.var(tos_v));
                let r = self.divide(a, b, true);
                let q = self.divide(a, b, false);
                self.set_below(1, r);
                self.set(tos_v, q);
            }
            Op::MulDiv => {
                self.need(3, at);
                self.nonzero_divisor(at);
                let (a, b, c) = (self.below(2), self.below(1), self.var(tos_v));
                let a = self.b.ins().sextend(I64, a);
                let b = self.b.ins().sextend(I64, b);
                let c = self.b.ins().sextend(I64, c);
                let p = self.b.ins().imul(a, b);
                let q = self.b.ins().sdiv(p, c);
                let q = self.b.ins().ireduce(I32, q);
                self.add_d(-2);
                self.set(tos_v, q);
            }
            Op::Inc => self.unary(at, |s, x| add_imm(&mut s.b, x, 1)),
            Op::Dec => self.unary(at, |s, x| add_imm(&mut s.b, x, -1)),
            Op::Add2 => self.unary(at, |s, x| add_imm(&mut s.b, x, 2)),
            Op::Sub2 => self.unary(at, |s, x| add_imm(&mut s.b, x, -2)),
            Op::Mul2 => self.unary(at, |s, x| s.b.ins().ishl_imm_s(x, 1)),
            Op::Div2 => self.unary(at, |s, x| s.b.ins().sshr_imm_s(x, 1)),
            Op::Abs => self.unary(at, |s, x| s.b.ins().iabs(x)),
            Op::Negate => self.unary(at, |s, x| s.b.ins().ineg(x)),
            Op::Min => self.binary(at, |s, a, b| s.b.ins().smin(a, b)),
            Op::Max => self.binary(at, |s, a, b| s.b.ins().smax(a, b)),
            Op::Eq => self.compare(at, Equal),
            Op::Ne => self.compare(at, NotEqual),
            Op::Lt => self.compare(at, SignedLessThan),
            Op::Gt => self.compare(at, SignedGreaterThan),
            Op::Le => self.compare(at, SignedLessThanOrEqual),
            Op::Ge => self.compare(at, SignedGreaterThanOrEqual),
            Op::ULt => self.compare(at, UnsignedLessThan),
            Op::ZeroEq => self.compare_lit(at, Equal, 0),
            Op::ZeroNe => self.compare_lit(at, NotEqual, 0),
            Op::ZeroLt => self.compare_lit(at, SignedLessThan, 0),
            Op::ZeroGt => self.compare_lit(at, SignedGreaterThan, 0),
            Op::And => self.binary(at, |s, a, b| s.and(a, b)),
            Op::Or => self.binary(at, |s, a, b| s.b.ins().bor(a, b)),
            Op::Xor => self.binary(at, |s, a, b| s.b.ins().bxor(a, b)),
            Op::Invert => self.unary(at, |s, x| s.b.ins().bnot(x)),
            Op::LShift | Op::RShift => {
                let left = op == Op::LShift;
                self.binary(at, |s, a, b| {
                    let shifted = if left { s.b.ins().ishl(a, b) } else { s.b.ins().ushr(a, b) };
                    let small = s.cmp_imm(UnsignedLessThan, b, 32);
                    let zero = s.konst(0);
                    s.b.ins().select(small, shifted, zero)
                });
            }

            // ---- memory ----
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

            // ---- the game layer ----
            Op::GStep(_)
            | Op::GHere
            | Op::GFrom
            | Op::GPlayer
            | Op::GPieceType
            | Op::GStalemate
            | Op::GBack
            | Op::GEmpty
            | Op::GNotEmpty
            | Op::GFriend
            | Op::GEnemy
            | Op::GEmptyAt
            | Op::GPieceAt
            | Op::GPlayerAt
            | Op::GFriendOf
            | Op::GEnemyOf
            | Op::GPieceValue
            | Op::GTo
            | Op::GVerify
            | Op::GStepVerify(_)
            | Op::GEmptyVerify
            | Op::GNotEmptyVerify
            | Op::GFriendVerify
            | Op::GEnemyVerify => self.game_op(op, at),

            // ---- superinstructions ----
            Op::LitAdd(n) => self.unary(at, |s, x| add_imm(&mut s.b, x, n as i64)),
            Op::LitMul(n) => self.unary(at, |s, x| s.b.ins().imul_imm_s(x, n as i64)),
            Op::LitMulAdd(n) => self.binary(at, |s, a, b| {
                let m = s.b.ins().imul_imm_s(b, n as i64);
                s.b.ins().iadd(a, m)
            }),
            Op::LitDiv(n) | Op::LitMod(n) => {
                let rem = matches!(op, Op::LitMod(_));
                self.unary(at, |s, x| {
                    let k = s.konst(n);
                    s.divide(x, k, rem)
                });
            }
            Op::AddAt(n, a) => {
                let addr = self.konst(a as i32);
                let delta = self.konst(n as i32);
                self.add_at(addr, delta, at);
            }
            Op::LitEq(n) => self.compare_lit(at, Equal, n),
            Op::LitNe(n) => self.compare_lit(at, NotEqual, n),
            Op::LitLt(n) => self.compare_lit(at, SignedLessThan, n),
            Op::LitGt(n) => self.compare_lit(at, SignedGreaterThan, n),
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
            Op::CellsAdd => self.binary(at, |s, a, b| {
                let m = s.b.ins().ishl_imm_s(b, 2);
                s.b.ins().iadd(a, m)
            }),
            Op::IAdd => {
                self.need(1, at);
                let i = self.index(at);
                let x = self.var(tos_v);
                let y = self.b.ins().iadd(x, i);
                self.set(tos_v, y);
            }
            Op::OverAdd => {
                self.need(2, at);
                let a = self.below(1);
                let x = self.var(tos_v);
                let y = self.b.ins().iadd(x, a);
                self.set(tos_v, y);
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
            Op::CellsLit(n) => self.unary(at, |s, x| {
                let m = s.b.ins().ishl_imm_s(x, 2);
                add_imm(&mut s.b, m, n as i64)
            }),
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
            Op::ILit(n) => {
                self.room(1, at);
                let i = self.index(at);
                let x = add_imm(&mut self.b, i, n as i64);
                self.push(x);
            }
            Op::ICell(n) => {
                self.room(1, at);
                let i = self.index(at);
                let x = self.b.ins().ishl_imm_s(i, 2);
                let x = add_imm(&mut self.b, x, n as i64);
                self.push(x);
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
            Op::JumpUnlessAnd(t) => {
                self.need(2, at);
                let b = self.var(tos_v);
                let a = self.below(1);
                let taken = match (self.flag_source(a), self.flag_source(b)) {
                    (Some(x), Some(y)) => {
                        let (x, y) = (self.invert(x), self.invert(y));
                        self.b.ins().bor(x, y)
                    }
                    _ => {
                        let both = self.b.ins().band(a, b);
                        self.cmp_imm(Equal, both, 0)
                    }
                };
                self.branch(taken, t, at, |s| s.drop_n(2));
            }
            Op::JumpUnlessEq(t) => self.compare_jump(Equal, t, at),
            Op::JumpUnlessNe(t) => self.compare_jump(NotEqual, t, at),
            Op::JumpUnlessLt(t) => self.compare_jump(SignedLessThan, t, at),
            Op::JumpUnlessGt(t) => self.compare_jump(SignedGreaterThan, t, at),
            Op::JumpUnlessLe(t) => self.compare_jump(SignedLessThanOrEqual, t, at),
            Op::JumpUnlessGe(t) => self.compare_jump(SignedGreaterThanOrEqual, t, at),
            Op::JumpUnlessLitEq(n, t) => self.literal_jump(Equal, n, t, at, false),
            Op::JumpUnlessLitNe(n, t) => self.literal_jump(NotEqual, n, t, at, false),
            Op::JumpUnlessLitLt(n, t) => self.literal_jump(SignedLessThan, n, t, at, false),
            Op::JumpUnlessLitGt(n, t) => self.literal_jump(SignedGreaterThan, n, t, at, false),
            Op::JumpUnlessLitLe(n, t) => self.literal_jump(SignedLessThanOrEqual, n, t, at, false),
            Op::JumpUnlessLitGe(n, t) => self.literal_jump(SignedGreaterThanOrEqual, n, t, at, false),
            Op::DupJumpUnlessLitEq(n, t) => self.literal_jump(Equal, n, t, at, true),
            Op::DupJumpUnlessLitNe(n, t) => self.literal_jump(NotEqual, n, t, at, true),
            Op::DupJumpUnlessLitLt(n, t) => self.literal_jump(SignedLessThan, n, t, at, true),
            Op::DupJumpUnlessLitGt(n, t) => self.literal_jump(SignedGreaterThan, n, t, at, true),
            Op::DupJumpUnlessLitLe(n, t) => self.literal_jump(SignedLessThanOrEqual, n, t, at, true),
            Op::DupJumpUnlessLitGe(n, t) => self.literal_jump(SignedGreaterThanOrEqual, n, t, at, true),
        }
    }

    /// `LOOP`: the step check, then back to `t` with the new index or out.
    fn loop_back(&mut self, again: Value, i: Value, t: Addr, at: Addr) {
        let steps = self.var(self.v.steps);
        let spent = self.cmp_imm(IntCC::Equal, steps, 0);
        let bad = self.b.ins().band(spent, again);
        self.guard(bad, at);
        self.loop_back_checked(again, i, t, at);
    }

    fn loop_back_checked(&mut self, again: Value, i: Value, t: Addr, at: Addr) {
        let back = self.b.create_block();
        let out = self.b.create_block();
        self.b.ins().brif(again, back, &[], out, &[]);
        self.b.switch_to_block(back);
        let held = (self.cells.clone(), self.rcells.clone());
        let target = self.block_at(t);
        let steps = self.var(self.v.steps);
        let steps = add_imm(&mut self.b, steps, -1);
        self.set(self.v.steps, steps);
        if self.fixed {
            self.rput(1, i);
            self.goto(target);
        } else {
            // The cells stay dirty on the way out.
            self.emit_flush();
            self.rput(1, i);
            self.b.ins().jump(target, &[]);
        }
        (self.cells, self.rcells) = held;
        self.b.switch_to_block(out);
        self.add_rp(-2);
        let _ = at;
    }

    /// `Call`: the interpreter's checks, the frame, then the callee's
    /// native code directly when it has some, else the `call` helper.
    fn call(&mut self, target: Addr, at: Addr) {
        self.call_checks(at);
        if let Some(ops) = self.inlinable(target) {
            self.inline(target, ops, at);
            return;
        }
        self.pure = false;
        let effect = if self.fixed { self.shapes.callee(target) } else { None };
        let kept = effect.map(|e| self.untouched_by(e));
        if target == self.inline_stack[0] {
            self.recurse(at);
        } else {
            let entry = self.konst(target as i32);
            self.enter(entry, at);
        }
        if self.fixed {
            self.resync(effect.map_or(0, |e| e.delta), at + 1);
        }
        if let Some(kept) = kept {
            self.hold_again(kept);
        }
        // The callee took steps of its own: a check here, on the path
        // that called, keeps the code after the paths join covered.
        if self.fixed {
            self.prepay(at + 1);
        }
    }

    /// The cells held now that a callee with effect `e` cannot touch:
    /// those below the ones it needs.
    fn untouched_by(&self, e: Effect) -> [Vec<i32>; 2] {
        let (dk, rk) = (self.dk - e.need, self.rk - e.rneed);
        [self.cells.live.range(..dk).copied().collect(), self.rcells.live.range(..rk).copied().collect()]
    }

    /// Holds again, after a call, the cells it left as they were. They
    /// count as changed, so a block this path reaches first expects them
    /// in variables: the paths that join it later, which did not call
    /// (the common ones, a call being the rare branch), then keep theirs
    /// there instead of storing them and reading them back.
    fn hold_again(&mut self, [d, r]: [Vec<i32>; 2]) {
        for (rr, keys) in [(false, d), (true, r)] {
            for key in keys {
                let x = self.load_cell(rr, key);
                self.write_cell(rr, key, x);
            }
        }
    }

    /// A call of the function being built (checks made): as `enter`, but
    /// a direct call, its code being this very function.
    fn recurse(&mut self, at: Addr) {
        let fp1 = self.push_frame(at);
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, I32);
        let shallow = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, fp1, NATIVE_FRAMES as i64);
        self.b.ins().brif(shallow, fast, &[], slow, &[]);
        self.b.seal_block(slow);

        self.b.switch_to_block(fast);
        self.seal_one_way(fast);
        let itself = self.itself.expect("set by `compile`");
        let mut args = vec![self.ctx];
        args.extend(self.scalar_values());
        self.calls += 1;
        let call = self.b.ins().call(itself, &args);
        let s = self.take_results(call);
        self.b.ins().jump(join, &[BlockArg::Value(s)]);

        self.b.switch_to_block(slow);
        let target = self.konst(self.inline_stack[0] as i32);
        let s = self.call_interpreter(target, at);
        self.b.ins().jump(join, &[BlockArg::Value(s)]);

        self.b.switch_to_block(join);
        self.b.seal_block(join);
        let s = self.b.block_params(join)[0];
        self.check_status(s);
    }

    /// The instructions of the callee at `target` when its call is worth
    /// translating in place: a short definition, not one being translated.
    fn inlinable(&mut self, target: Addr) -> Option<Vec<Op>> {
        if self.inline_stack.len() > INLINE_DEPTH || self.inline_stack.contains(&target) {
            return None;
        }
        let ops = (self.shapes.definitions())(target)?;
        // A callee that loops pays its call once for many iterations, and
        // its loop runs faster alone than with its callers' values live
        // around it (measured: sieve.4th is slower with its loops inlined).
        let loops = ops.iter().enumerate().any(|(i, op)| op.target().is_some_and(|t| t <= target + i as u32));
        if loops || ops.len() > INLINE_OPS || ops.len() > self.inline_budget || !self_contained(target, &ops) {
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
    fn inline(&mut self, target: Addr, ops: Vec<Op>, at: Addr) {
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

    /// The checks the interpreter's `call!` makes, before anything changes.
    /// One check covers the calls of a stretch of code: it deoptimizes
    /// unless `PREPAID_STEPS` steps and `PREPAID_FRAMES` frames are left
    /// (the interpreter then takes the rest of the budget exactly), and
    /// the calls after it on the same path need none.
    fn call_checks(&mut self, at: Addr) {
        if !self.prepaid_call() {
            self.prepay(at);
            self.prepaid.steps -= 1;
        }
    }

    /// The check of `call_checks`, made at `at` for the calls and steps
    /// that follow, before anything changes there.
    fn prepay(&mut self, at: Addr) {
        let steps = self.var(self.v.steps);
        let short = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, steps, PREPAID_STEPS as i64);
        let fp = self.var(self.v.fp);
        let fp_after = add_imm(&mut self.b, fp, PREPAID_FRAMES as i64);
        let deep = self.b.ins().icmp(IntCC::UnsignedGreaterThan, fp_after, self.max_r);
        let bad = self.b.ins().bor(short, deep);
        self.guard(bad, at);
        self.prepaid = Prepaid { block: self.b.current_block(), steps: PREPAID_STEPS, frames_base: self.pending_frames.len() };
    }

    /// Whether a check made on this path covers one more call (a step,
    /// and a frame at the current depth of calls translated in place).
    fn prepaid_call(&mut self) -> bool {
        let p = &mut self.prepaid;
        let depth = self.pending_frames.len().checked_sub(p.frames_base);
        if p.block != self.b.current_block() || p.steps == 0 || depth.is_none_or(|d| d >= PREPAID_FRAMES) {
            return false;
        }
        p.steps -= 1;
        true
    }

    /// The step a call costs, and the frame it pushes, with the stacks in
    /// memory for the callee. Answers the new frame count.
    fn push_frame(&mut self, at: Addr) -> Value {
        self.store_frames();
        let fp1 = self.open_frame(at);
        // The callee reads the stacks in memory; the registers go along.
        self.flush();
        self.materialize();
        fp1
    }

    /// The step a call from `at` costs, and its frame; answers the new
    /// frame count.
    fn open_frame(&mut self, at: Addr) -> Value {
        let steps = self.var(self.v.steps);
        let steps = add_imm(&mut self.b, steps, -1);
        self.set(self.v.steps, steps);
        let fp = self.var(self.v.fp);
        let rp = self.rdepth();
        self.store_frame(fp, at, rp);
        let fp1 = add_imm(&mut self.b, fp, 1);
        self.set(self.v.fp, fp1);
        fp1
    }

    /// The registers a native callee returned (meaningless unless its
    /// status, answered, is `DONE`).
    fn take_results(&mut self, call: cranelift_codegen::ir::Inst) -> Value {
        let results = self.b.inst_results(call).to_vec();
        for ((var, _, _), &x) in self.scalars().into_iter().zip(&results[1..]) {
            self.set(var, x);
        }
        results[0]
    }

    /// Runs the word at `target` through the `call` helper (the
    /// interpreter), the registers passing through the context.
    fn call_interpreter(&mut self, target: Value, at: Addr) -> Value {
        self.store_scalars();
        let fh = self.b.ins().iconst(self.ptr, (helpers::call as Helper) as usize as i64);
        let at_v = self.konst(at as i32);
        self.calls += 1;
        let call = self.b.ins().call_indirect(self.helper_sig, fh, &[self.ctx, target, at_v]);
        let s = self.b.inst_results(call)[0];
        let s = self.b.ins().ireduce(I32, s);
        let fields: Vec<_> = self.scalars().to_vec();
        self.load_fields(&fields);
        s
    }

    /// Pushes the frame of a call from `at` and runs the word at `target`
    /// (checks made): its native code directly when it has some, else
    /// through the `call` helper.
    fn enter(&mut self, target: Value, at: Addr) {
        let fp1 = self.push_frame(at);

        let lookup = self.b.create_block();
        let fast = self.b.create_block();
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.b.append_block_param(join, I32);
        let table_len = self.b.ins().load(I64, ctx_field(), self.ctx, offset_of!(JitCtx, table_len) as i32);
        let index = self.b.ins().uextend(I64, target);
        let in_table = self.b.ins().icmp(IntCC::UnsignedGreaterThan, table_len, index);
        let shallow = self.b.ins().icmp_imm_s(IntCC::UnsignedLessThan, fp1, NATIVE_FRAMES as i64);
        let ok = self.b.ins().band(in_table, shallow);
        self.b.ins().brif(ok, lookup, &[], slow, &[]);

        self.b.switch_to_block(lookup);
        self.seal_one_way(lookup);
        let table = self.b.ins().load(self.ptr, ctx_field(), self.ctx, offset_of!(JitCtx, table) as i32);
        let off = self.b.ins().imul_imm_s(index, self.ptr.bytes() as i64);
        let p = self.b.ins().iadd(table, off);
        let f = self.b.ins().load(self.ptr, in_region(Region::Tables), p, 0);
        let compiled = self.b.ins().icmp_imm_s(IntCC::UnsignedGreaterThanOrEqual, f, COUNT_LIMIT as i64);
        self.b.ins().brif(compiled, fast, &[], slow, &[]);

        self.b.switch_to_block(fast);
        self.seal_one_way(fast);
        self.b.seal_block(slow);
        let mut args = vec![self.ctx];
        args.extend(self.scalar_values());
        self.calls += 1;
        let call = self.b.ins().call_indirect(self.native_sig, f, &args);
        let s = self.take_results(call);
        self.b.ins().jump(join, &[BlockArg::Value(s)]);

        self.b.switch_to_block(slow);
        let s = self.call_interpreter(target, at);
        self.b.ins().jump(join, &[BlockArg::Value(s)]);

        self.b.switch_to_block(join);
        self.b.seal_block(join);
        let s = self.b.block_params(join)[0];
        self.check_status(s);
    }

    /// `EXECUTE`: a direction word steps `here`; a word with code is
    /// called; anything else (a move's token, a bad token) is the
    /// interpreter's.
    fn execute(&mut self, at: Addr) {
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
            let is_move = self.cmp_imm(IntCC::SignedGreaterThanOrEqual, xt, crate::game::play::MOVE_XT_BASE as i64);
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

    /// An instruction a fixed shape cannot have: the interpreter's.
    fn op_unfixed(&mut self, at: Addr) {
        let always = self.b.ins().iconst(cranelift_codegen::ir::types::I8, 1);
        self.guard(always, at);
    }

    /// `?DUP IF` and `?DUP 0= IF` in a fixed shape: one branch, the
    /// value kept on the path where it is not zero.
    fn qdup_branch(&mut self, at: Addr) {
        let next = self.ops.get((at + 1 - self.start) as usize).copied();
        let (t, jumps_when_zero) = match next {
            Some(Op::JumpIfZero(t)) => (t, true),
            Some(Op::JumpIfNonZero(t)) => (t, false),
            // The shape pairs ?DUP only with a branch.
            _ => return self.op_unfixed(at),
        };
        let x = self.var(self.v.tos);
        let nonzero = self.cmp_imm(IntCC::NotEqual, x, 0);
        let zero = self.b.create_block();
        let after = self.block_at(at + 2);
        if t <= at + 1 {
            // A backward jump is a step: when the budget is spent, the
            // interpreter runs the pair from the ?DUP and stops at the jump.
            let taken = if jumps_when_zero { self.b.ins().bxor_imm_s(nonzero, 1) } else { nonzero };
            let steps = self.var(self.v.steps);
            let spent = self.cmp_imm(IntCC::Equal, steps, 0);
            let bad = self.b.ins().band(spent, taken);
            self.guard(bad, at);
            let one = self.b.ins().uextend(I64, taken);
            let steps = self.b.ins().isub(steps, one);
            self.set(self.v.steps, steps);
        }
        let target = self.block_at(t);
        let (kept, dropped) = if jumps_when_zero { (after, target) } else { (target, after) };
        self.branch_to(nonzero, kept, zero);
        self.b.switch_to_block(zero);
        self.seal_one_way(zero);
        self.drop_n(1);
        self.goto(dropped);
        self.closed = true;
    }

    /// A deferred word: the word in its slot, called.
    fn deferred(&mut self, slot_number: u32, at: Addr) {
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

    fn frame_slot(&mut self, fp: Value) -> Value {
        let i = self.b.ins().band_imm_s(fp, 0xffff);
        let i = self.b.ins().uextend(self.ptr, i);
        let off = self.b.ins().imul_imm_s(i, std::mem::size_of::<Frame>() as i64);
        let frames = self.var(self.v.frames);
        self.b.ins().iadd(frames, off)
    }

    /// `EXIT`: pop the frame and return. Where to is the caller's to
    /// know: native code returns only to code that stays as it is (see
    /// `Vm::jit_enter`), so nothing is checked here.
    fn exit(&mut self) {
        if let Some(after) = self.inlined {
            // Back into the caller, whose next instruction is `after`'s,
            // with the return depth its frame saved (read back rather
            // than kept in a register through the whole callee).
            let fp = self.var(self.v.fp);
            let fp1 = add_imm(&mut self.b, fp, -1);
            self.set(self.v.fp, fp1);
            if self.fixed {
                self.rk = self.rbase;
                self.rcells.cut(self.rk);
            } else if let Some(&(_, SavedDepth::Value(rdepth))) = self.pending_frames.last() {
                self.set(self.v.rp, rdepth);
            }
            self.goto(after);
            self.closed = true;
            self.inline_exit = Some(self.known_mark());
            return;
        }
        let fp = self.var(self.v.fp);
        let fp1 = add_imm(&mut self.b, fp, -1);
        self.set(self.v.fp, fp1);
        if self.fixed {
            // The frame's return depth is the entry's.
            self.rk = 0;
            self.rcells.cut(0);
        } else {
            let frame = self.frame_slot(fp1);
            let rdepth = self.b.ins().load(I32, stacks(), frame, offset_of!(Frame, rdepth) as i32);
            self.set(self.v.rp, rdepth);
        }
        self.flush();
        self.materialize();
        let mut results = vec![self.konst(DONE as i32)];
        results.extend(self.scalar_values());
        self.b.ins().return_(&results);
        self.closed = true;
    }
}
