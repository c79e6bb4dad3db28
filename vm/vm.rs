//! The VM's state and the small interface the rest of the program uses.
//!
//! Owns `Vm` (stacks, code, dictionary, data space, sources, output, RNG)
//! and `Config` (every limit, with defaults). Execution lives in
//! `interp.rs`, the outer interpreter in `outer.rs`, the compiler in
//! `compiler.rs`, the native words in `words.rs`; they are all `impl Vm` blocks over this
//! state, so a host word can read the input, run code and compile.
//!
//! The machine floor (see `lib.rs`): may touch the game's plain state
//! (`state/`) and the floor below, never the game layer or the engines.
//! `Vm::bare` is the machine alone; `Vm::new` (`assemble.rs`) adds the
//! game's words and installs `GameHooks`, through which instructions run
//! the little game code they need. Also here: the memory budget every
//! part answers to, and the game's events as found in the dictionary.

use crate::code::{Code, OpInfo};
use crate::dictionary::{Dictionary, Word, WordKind};
use crate::error::{ErrorKind, VmError, VmResult};
use crate::lexer::{Location, Pos, SourceFile};
use crate::memory::Memory;
use crate::ops::{Addr, Op, PRIMITIVES};
use crate::state::Events;
pub(crate) use crate::state::context::read_alone;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256StarStar;
use std::io::Write;
use std::path::PathBuf;

/// Physical size of each stack; the configured depth limit is below it.
/// Indexing with a `u16` keeps every stack access in bounds by type.
pub const STACK_CELLS: usize = 1 << 16;

/// How many cells below its base a host frame may read (as zeros) under
/// the tolerances of AXIOM.md §8, in one go; more is an error.
pub const GUARD_CELLS: u32 = 64;

#[derive(Clone, Debug)]
pub struct Config {
    /// Data stack depth, in cells.
    pub stack_depth: u32,
    /// Return stack depth: cells for `>R` and loops, and nested calls.
    pub return_depth: u32,
    /// Data space size in bytes.
    pub data_space: usize,
    /// How deep LOAD may nest.
    pub load_depth: u32,
    /// Instruction budget: calls, loop iterations and backward jumps.
    pub max_steps: Option<u64>,
    /// Fixes the random streams (and makes RANDOMIZE reproducible).
    pub seed: Option<u64>,
    /// Code the host runs for a game (move words, events, engines) is
    /// checked as strictly as top-level code, instead of with the
    /// original Axiom's tolerances (AXIOM.md §8), which only warn.
    pub strict: bool,
    /// When colon definitions get native code (`--jit`, `AXFORTH_JIT`).
    pub jit: crate::jit::JitMode,
    /// What the VM may hold, in bytes: its data space, saved boards, move
    /// lists and their edits (`Vm::memory_used`). Past it, what would
    /// grow is an error instead (`ErrorKind::OutOfMemory`).
    pub max_memory: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            stack_depth: 4096,
            return_depth: 4096,
            data_space: 4 << 20,
            load_depth: 32,
            max_steps: None,
            seed: None,
            strict: false,
            // A real game's search holds a few megabytes; this stays
            // under what a 32-bit or a `ulimit -v 2000000` process can
            // reserve besides.
            max_memory: 1 << 30,
            // An unknown AXFORTH_JIT is reported by the CLI; here it
            // leaves the default.
            jit: crate::jit::JitMode::from_env().unwrap_or(crate::jit::JitMode::Auto),
        }
    }
}

impl Config {
    fn clamped(mut self) -> Config {
        self.stack_depth = self.stack_depth.clamp(16, STACK_CELLS as u32 - 2);
        self.return_depth = self.return_depth.clamp(16, STACK_CELLS as u32 - 2);
        self.load_depth = self.load_depth.max(1);
        self
    }
}

/// Where a call returns to, and the return-stack depth to restore (so a
/// word that EXITs from inside a DO loop cannot corrupt its caller's loop).
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub ret: Addr,
    pub rdepth: u32,
}

/// Return address meaning "go back to the Rust caller of `run`".
pub const HOST_RETURN: Addr = u32::MAX;

/// What `enter_frame` saved of its caller's data stack.
#[must_use = "leave the frame with `leave_frame`"]
pub struct StackFrame {
    base: u32,
    depth: u32,
    tos: i32,
    /// `Vm::tolerant`, as a whole word: with a `bool`, the padding after
    /// it made every `Option<StackFrame>` copied byte by byte.
    tolerant: u32,
}

pub type HostFn = fn(&mut Vm) -> VmResult<()>;

/// The Rust of a direct word ( a b -- r ): its arguments (`a` the deeper
/// one; with one argument, `a`; 0 for those it has not) and its result.
/// It reads and records game state and data-space contents only: it runs
/// no script, touches no stack, and on an error has changed nothing (native
/// code then leaves the word to the interpreter, which runs it again and
/// reports the error). Native code calls it with its arguments in
/// registers, without handing the VM's state over.
pub type DirectFn = fn(&mut Vm, i32, i32) -> VmResult<i32>;

/// What a native word runs.
#[derive(Clone, Copy)]
pub enum HostRun {
    /// Rust with the whole VM: it pops its arguments and pushes its results.
    Vm(HostFn),
    /// A direct word, with its number of arguments (at most 2) and results
    /// (at most 1).
    Direct { f: DirectFn, ins: u8, outs: u8, records: Option<crate::state::Recorded> },
}

/// A native word: Rust code with access to the whole VM.
pub struct HostWord {
    pub name: &'static str,
    pub run: HostRun,
    pub effect: &'static str,
    pub immediate: bool,
    pub compile_only: bool,
}

/// A native word that runs as it is: the common kind.
pub fn word(name: &'static str, effect: &'static str, f: HostFn) -> HostWord {
    HostWord { name, run: HostRun::Vm(f), effect, immediate: false, compile_only: false }
}

/// A direct native word (`DirectFn`); its arity comes from `effect`.
pub fn direct(name: &'static str, effect: &'static str, f: DirectFn) -> HostWord {
    let (ins, outs) = effect_arity(effect).filter(|&(i, o)| i <= 2 && o <= 1).unwrap_or_else(|| panic!("direct word {name}: effect {effect} takes at most 2 cells and leaves at most 1"));
    HostWord { name, run: HostRun::Direct { f, ins: ins as u8, outs: outs as u8, records: None }, effect, immediate: false, compile_only: false }
}

impl HostWord {
    /// A direct word that, while moves are generated, only records `what`
    /// (native code then runs it through `Vm::record_fast`).
    pub fn recording(mut self, what: crate::state::Recorded) -> HostWord {
        if let HostRun::Direct { records, .. } = &mut self.run {
            *records = Some(what);
        }
        self
    }
}

/// A declared effect `( a b -- c )` as the cells it takes and leaves;
/// `None` for anything but plain names (variable counts, parsed input,
/// alternatives).
pub fn effect_arity(effect: &str) -> Option<(u32, u32)> {
    let inner = effect.trim().strip_prefix('(')?.strip_suffix(')')?;
    let (before, after) = inner.split_once("--")?;
    let count = |s: &str| -> Option<u32> {
        let mut n = 0;
        for w in s.split_whitespace() {
            if w.contains(['.', '|', '"', '*', '\\', '{', '}', '(', '[']) {
                return None;
            }
            n += 1;
        }
        Some(n)
    };
    Some((count(before)?, count(after)?))
}

/// A source being interpreted (LOAD nests these).
pub struct Input {
    pub file: u32,
    pub pos: usize,
    /// Start of the token being interpreted, for messages.
    pub token: Pos,
}

/// Control-flow entries of the definition being compiled.
#[derive(Clone, Debug)]
pub enum Control {
    If(Addr),
    Else(Addr),
    Begin(Addr),
    While { begin: Addr, exit: Addr },
    Do { body: Addr, leaves: Vec<Addr> },
}

/// The colon definition under construction.
pub struct Definition {
    pub xt: u32,
    pub start: Addr,
    /// Open control structures, innermost last, with where each opened.
    pub control: Vec<(Control, Pos)>,
    pub pos: Pos,
}

impl Definition {
    pub fn open(&mut self, c: Control, pos: Pos) {
        self.control.push((c, pos));
    }

    pub fn close(&mut self) -> Option<(Control, Pos)> {
        self.control.pop()
    }
}

impl Control {
    /// The word that opened it, and the words that may close it.
    pub fn names(&self) -> (&'static str, &'static str) {
        match self {
            Control::If(_) => ("IF", "THEN"),
            Control::Else(_) => ("ELSE", "THEN"),
            Control::Begin(_) => ("BEGIN", "UNTIL, AGAIN or WHILE … REPEAT"),
            Control::While { .. } => ("WHILE", "REPEAT"),
            Control::Do { .. } => ("DO", "LOOP or +LOOP"),
        }
    }
}

/// Where script output goes: stdout (buffered) or a buffer (tests, and
/// `check` and `replay`, which do not show it).
pub struct Output {
    buf: Vec<u8>,
    to_stdout: bool,
    /// Captured bytes not kept, past `CAPTURE_LIMIT`.
    dropped: u64,
    pub log: Option<std::fs::File>,
}

/// What a captured run keeps of what it prints: a move word that prints
/// in a loop (50 million steps of `."` under `check`) made gigabytes
/// the run never shows.
const CAPTURE_LIMIT: usize = 1 << 20;

impl Output {
    pub fn write(&mut self, bytes: &[u8]) {
        if !self.to_stdout && self.buf.len() + bytes.len() > CAPTURE_LIMIT {
            let room = CAPTURE_LIMIT.saturating_sub(self.buf.len()).min(bytes.len());
            self.buf.extend_from_slice(&bytes[..room]);
            self.dropped += (bytes.len() - room) as u64;
        } else {
            self.buf.extend_from_slice(bytes);
        }
        if let Some(log) = &mut self.log {
            let _ = log.write_all(bytes);
        }
        if self.to_stdout && self.buf.len() > 1 << 14 {
            self.flush();
        }
    }

    pub fn flush(&mut self) {
        if self.to_stdout && !self.buf.is_empty() {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(&self.buf);
            let _ = out.flush();
            self.buf.clear();
        }
    }
}

/// Of a generated file: the byte offset of each line and the place of
/// the source it comes from, if any, as (file, line, column), the file an
/// index into `files` (`Vm::origins`). Kept as numbers, made a
/// `Location` only when one is asked for: a large Zillions game
/// generates hundreds of thousands of lines.
#[derive(Clone, Debug, Default)]
pub struct Origins {
    pub files: Vec<String>,
    pub lines: Vec<(u32, Option<[u32; 3]>)>,
}

pub struct Vm {
    pub config: Config,
    pub(crate) stacks: Box<Stacks>,
    pub(crate) depth: u32,
    pub(crate) tos: i32,
    pub(crate) rdepth: u32,
    /// Number of live frames.
    pub(crate) fp: u32,
    pub(crate) steps_left: u64,
    /// Steps of the budget not handed to `steps_left` yet: with an
    /// interrupt flag, the budget is handed out in slices, and the flag is
    /// looked at between slices (never in the dispatch loop itself).
    pub(crate) steps_reserve: u64,
    /// Set from outside (Ctrl-C in the REPL) to stop the running code with
    /// an "interrupted" error at its next call, loop or backward jump.
    pub interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// While a script engine searches: when it is stopped whether it
    /// gives way or not (its time per move and a grace); the budget is
    /// then handed out in slices, as for `interrupt`, and looked at
    /// between them.
    pub(crate) hard_deadline: Option<std::time::Instant>,
    /// When the command's time for this VM's runs ends, and how long it
    /// was (`set_time_limit`): script still running then is stopped.
    pub(crate) time_limit: Option<(std::time::Instant, std::time::Duration)>,
    /// Moves the host may still make before it looks at the limits above
    /// (`outer::MOVES_BETWEEN_CHECKS`).
    pub(crate) moves_to_check: u32,
    /// Where WORDS wraps its lines.
    pub columns: usize,
    /// Where the data stack of the innermost frame starts in `Stacks::ds`:
    /// `depth` and the cells `ds[ds_base + 1 ..]` are that frame's.
    pub(crate) ds_base: u32,
    /// The innermost frame is code the host runs for a game and gets the
    /// original's tolerances (not under `--strict`).
    pub(crate) tolerant: bool,
    /// The instruction of the native word running (for its warnings).
    pub(crate) host_ip: Addr,
    /// Where the inner interpreter resumes after a tolerated underflow.
    pub(crate) resume_at: Addr,
    /// `run` calls in progress (native words may call back into script).
    pub(crate) run_nesting: u32,

    pub code: Code,
    pub dict: Dictionary,
    pub mem: Memory,
    pub(crate) defers: Vec<Option<u32>>,
    /// Moves whenever a deferred word is pointed elsewhere (`set_defer`):
    /// native code that calls a deferred word's target directly checks it.
    pub(crate) defer_epoch: u32,
    pub(crate) defer_owner: Vec<u32>,
    pub(crate) hosts: Vec<HostWord>,

    pub files: Vec<SourceFile>,
    /// Text generated from another source (a `.zrf` translated to
    /// ForthScript): per file, the byte offsets of its lines that come
    /// from a place of that source, so errors point there instead.
    pub(crate) origins: Vec<(u32, Origins)>,
    pub(crate) inputs: Vec<Input>,
    pub(crate) def: Option<Definition>,
    /// The word IMMEDIATE applies to.
    pub(crate) latest: Option<u32>,
    /// The word DOES> applies to.
    pub(crate) last_created: Option<u32>,
    /// No peephole fusion into instructions before this address (a jump
    /// may land here).
    pub(crate) fuse_barrier: Addr,

    pub out: Output,
    /// A script said BYE.
    pub(crate) bye: bool,
    rng: [Xoshiro256StarStar; 2],
    pub(crate) timers: Vec<std::time::Instant>,
    /// The Axiom game layer's state (the board itself is in `mem`).
    pub game: Box<crate::state::Game>,
    /// What the tolerances of AXIOM.md §8 let pass, once per place.
    pub(crate) warnings: crate::error::Warnings,
    /// Native code for hot definitions (`jit/`).
    pub(crate) jit: crate::jit::Jit,
    /// The game layer's behaviour the inner loop and native code call.
    pub(crate) hooks: GameHooks,
}

/// What the machine calls in the game layer above it: game code that an
/// instruction runs (playing a move, asking `OnFriends?`). The machine
/// may not name the game layer (see the floors in `lib.rs`), so the game
/// layer installs these when the VM is assembled (`Vm::new`). All are off
/// the hot paths: a move's token is rarely EXECUTEd, and `OnFriends?` is
/// script anyway.
#[derive(Clone, Copy)]
pub struct GameHooks {
    /// `EXECUTE` of a move's token (`.moveCFA`): plays the move.
    pub execute_move: fn(&mut Vm, i32) -> VmResult<()>,
    /// `friend?` (false) or `enemy?` (true) at `here` when the game
    /// defines `OnFriends?`: ( -- ? ).
    pub friend_or_enemy: fn(&mut Vm, bool) -> VmResult<()>,
    /// `friend-of?` / `enemy-of?` likewise: ( pos player -- ? ).
    pub friend_or_enemy_of: fn(&mut Vm, bool) -> VmResult<()>,
}

impl Default for GameHooks {
    /// A bare VM's (`Vm::bare`): no game layer to call.
    fn default() -> GameHooks {
        fn none(_: &mut Vm) -> VmResult<()> {
            Err(ErrorKind::Game("no game layer in this VM (`Vm::bare`)".into()).into())
        }
        GameHooks { execute_move: |vm, _| none(vm), friend_or_enemy: |vm, _| none(vm), friend_or_enemy_of: |vm, _| none(vm) }
    }
}

/// The three stacks in one allocation, so the inner loop reaches all of
/// them through one pointer (one register fewer for each).
#[repr(C)]
pub struct Stacks {
    /// Data stack: the top cell is cached in `Vm::tos`; the cells below it
    /// are ds[base + 1 .. base + depth] (ds[base] is scratch for the empty
    /// case). Frames sit one above the other; every base is below
    /// `STACK_CELLS`, so base + any u16 index stays inside.
    pub ds: [i32; 2 * STACK_CELLS],
    pub rs: [i32; STACK_CELLS],
    pub frames: [Frame; STACK_CELLS],
}

impl Stacks {
    fn new() -> Box<Stacks> {
        // SAFETY: every field is an array of plain integers, for which all
        // zero bits is a valid value. (Built in place: 1 MiB would not fit
        // on the native stack of a debug build.)
        unsafe { Box::<Stacks>::new_zeroed().assume_init() }
    }
}

impl Vm {
    /// The machine alone: the primitives and the language core's native
    /// words, no game words and no standard library. `Vm::new`
    /// (`assemble.rs`) builds the VM every caller wants on it; the machine
    /// floor cannot, since the game layer's words sit above it.
    pub fn bare(config: Config) -> Vm {
        let config = config.clamped();
        let seed = config.seed.unwrap_or_else(clock_seed);
        let mut vm = Vm {
            stacks: Stacks::new(),
            depth: 0,
            tos: 0,
            rdepth: 0,
            fp: 0,
            steps_left: config.max_steps.unwrap_or(u64::MAX),
            steps_reserve: 0,
            interrupt: None,
            hard_deadline: None,
            time_limit: None,
            moves_to_check: crate::outer::MOVES_BETWEEN_CHECKS,
            columns: 80,
            ds_base: 0,
            tolerant: false,
            host_ip: 0,
            resume_at: 0,
            run_nesting: 0,
            code: Code::default(),
            dict: Dictionary::default(),
            mem: Memory::new(config.data_space),
            defers: Vec::new(),
            defer_epoch: 0,
            defer_owner: Vec::new(),
            hosts: Vec::new(),
            files: Vec::new(),
            origins: Vec::new(),
            inputs: Vec::new(),
            def: None,
            latest: None,
            last_created: None,
            fuse_barrier: 0,
            out: Output { buf: Vec::new(), to_stdout: true, dropped: 0, log: None },
            bye: false,
            rng: seeded_streams(seed),
            timers: Vec::new(),
            game: Box::default(),
            warnings: Default::default(),
            jit: crate::jit::Jit::new(config.jit),
            hooks: GameHooks::default(),
            config,
        };
        for p in PRIMITIVES {
            let xt = vm.add_thunk_word(p.name.as_bytes(), WordKind::Primitive(p.op), &[p.op, Op::Exit]);
            vm.dict.word_mut(xt).compile_only = p.compile_only;
        }
        crate::words::register(&mut vm);
        vm
    }

    /// Sends output to an in-memory buffer (read it with `take_output`).
    pub fn capture_output(&mut self) {
        self.out.flush();
        self.out.to_stdout = false;
    }

    /// What was captured since the last take; past the first MiB, a
    /// line saying how much more was printed and not kept.
    pub fn take_output(&mut self) -> Vec<u8> {
        let mut out = std::mem::take(&mut self.out.buf);
        let dropped = std::mem::take(&mut self.out.dropped);
        if dropped > 0 {
            out.extend_from_slice(format!("\n[{dropped} more bytes printed, not kept]\n").as_bytes());
        }
        out
    }

    pub fn flush_output(&mut self) {
        self.out.flush();
    }

    pub fn emit_bytes(&mut self, bytes: &[u8]) {
        self.out.write(bytes);
    }

    // ---- registration ---------------------------------------------------

    /// Adds a word whose EXECUTE entry is a small piece of code.
    pub fn add_thunk_word(&mut self, name: &[u8], kind: WordKind, thunk: &[Op]) -> u32 {
        // A word defined inside `[ ]` while a colon definition is open:
        // the definition jumps over the thunk.
        let skip = self.def.as_ref().map(|d| self.code.push(Op::Jump(0), OpInfo { pos: Pos::NONE, word: d.xt, inlined: None }));
        let entry = self.code.next_addr();
        let xt = self.dict.add(Word {
            name: name.into(),
            kind,
            entry,
            end: entry + thunk.len() as Addr,
            immediate: false,
            compile_only: false,
            inline: false,
            step: None,
        });
        for &op in thunk {
            self.code.push(op, OpInfo { pos: Pos::NONE, word: xt, inlined: None });
        }
        if let Some(at) = skip {
            self.code.set(at, Op::Jump(self.code.next_addr()));
        }
        self.fuse_barrier = self.code.next_addr();
        self.dict.reveal(xt);
        self.latest = Some(xt);
        xt
    }

    /// Registers a native word; returns its xt.
    pub fn add_host(&mut self, h: HostWord) -> u32 {
        let id = self.hosts.len() as u32;
        let (name, immediate, compile_only) = (h.name, h.immediate, h.compile_only);
        self.hosts.push(h);
        let xt = self.add_thunk_word(name.as_bytes(), WordKind::Host(id), &[Op::Host(id), Op::Exit]);
        let w = self.dict.word_mut(xt);
        w.immediate = immediate;
        w.compile_only = compile_only;
        xt
    }

    pub fn host_name(&self, id: u32) -> &'static str {
        self.hosts.get(id as usize).map_or("?", |h| h.name)
    }

    // ---- the data stack, for native words --------------------------------

    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Cell i of the innermost frame's data stack (1 is the bottom).
    pub(crate) fn ds_cell(&mut self, i: u32) -> &mut i32 {
        &mut self.stacks.ds[self.ds_base as usize + i as u16 as usize]
    }

    pub fn push(&mut self, x: i32) -> VmResult<()> {
        if self.depth >= self.config.stack_depth {
            return Err(ErrorKind::StackOverflow { limit: self.config.stack_depth }.into());
        }
        let tos = self.tos;
        *self.ds_cell(self.depth) = tos;
        self.depth += 1;
        self.tos = x;
        Ok(())
    }

    /// Fails with an underflow error naming how many cells were needed;
    /// in a tolerant frame the missing cells read as zeros instead.
    pub fn need(&mut self, n: u32) -> VmResult<()> {
        if self.depth < n {
            return self.tolerate_underflow(n, self.host_ip);
        }
        Ok(())
    }

    pub fn pop(&mut self) -> VmResult<i32> {
        self.need(1)?;
        let x = self.tos;
        self.depth -= 1;
        self.tos = *self.ds_cell(self.depth);
        Ok(x)
    }

    /// The stack of the innermost frame, bottom first.
    pub fn stack(&self) -> Vec<i32> {
        let base = self.ds_base as usize;
        let mut v: Vec<i32> = (1..self.depth).map(|i| self.stacks.ds[base + i as usize]).collect();
        if self.depth > 0 {
            v.push(self.tos);
        }
        v
    }

    /// Drops cells from the top of the data stack down to `depth`.
    pub fn set_depth(&mut self, depth: u32) {
        if depth < self.depth {
            self.tos = *self.ds_cell(depth);
            self.depth = depth;
        }
    }

    pub fn clear_stacks(&mut self) {
        self.depth = 0;
        self.rdepth = 0;
        self.fp = 0;
        self.ds_base = 0;
        self.tolerant = false;
    }

    // ---- frames for code the host runs for a game ------------------------

    /// Opens a fresh data-stack frame above the current one: the code run
    /// in it sees an empty stack, cannot reach its caller's cells, and
    /// (unless `--strict`) gets the original Axiom's tolerances.
    /// `leave_frame` puts everything back, whatever the code left.
    #[inline]
    pub fn enter_frame(&mut self) -> VmResult<StackFrame> {
        let saved = StackFrame { base: self.ds_base, depth: self.depth, tos: self.tos, tolerant: self.tolerant as u32 };
        let base = self.ds_base + self.depth + 1;
        if base as usize >= STACK_CELLS {
            return Err(ErrorKind::StackOverflow { limit: self.config.stack_depth }.into());
        }
        // The caller's top cell goes where a push would put it; the new
        // frame's scratch cell is the one above.
        let tos = self.tos;
        *self.ds_cell(self.depth) = tos;
        self.ds_base = base;
        self.depth = 0;
        self.tolerant = !self.config.strict;
        Ok(saved)
    }

    #[inline]
    pub fn leave_frame(&mut self, f: StackFrame) {
        self.ds_base = f.base;
        self.depth = f.depth;
        self.tos = f.tos;
        self.tolerant = f.tolerant != 0;
    }

    /// `needs` cells were wanted where the frame has fewer. Strict: the
    /// underflow error. Tolerant: as in the original, the cells below the
    /// frame's base read as zeros: that many zeros are slid under the
    /// frame's cells, with a warning (once per instruction).
    pub(crate) fn tolerate_underflow(&mut self, needs: u32, at: Addr) -> VmResult<()> {
        let has = self.depth;
        let missing = needs.saturating_sub(has);
        let kind = ErrorKind::StackUnderflow { needs, has };
        // Nothing missing (a negative PICK index) is a real error, and
        // resuming would fail again forever.
        if !self.tolerant || missing == 0 || missing > GUARD_CELLS {
            return Err(kind.into());
        }
        if has + missing > self.config.stack_depth {
            return Err(ErrorKind::StackOverflow { limit: self.config.stack_depth }.into());
        }
        self.warn(at, kind, "the cells below the frame read as 0, as in the original Axiom");
        let base = self.ds_base as usize;
        let ds = &mut self.stacks.ds;
        if has > 1 {
            ds.copy_within(base + 1..base + has as usize, base + 1 + missing as usize);
        }
        ds[base + 1..base + 1 + missing as usize].fill(0);
        if has == 0 {
            self.tos = 0;
        }
        self.depth = has + missing;
        Ok(())
    }

    /// Lets pass what the original tolerated (in a tolerant frame): a
    /// warning, once per instruction and kind; strict: the error.
    pub(crate) fn tolerate(&mut self, kind: ErrorKind, consequence: &str) -> VmResult<()> {
        if !self.tolerant {
            return Err(kind.into());
        }
        self.warn(self.host_ip, kind, consequence);
        Ok(())
    }

    /// A warning about the instruction at `at`: the error it would have
    /// been, where, and what happened instead.
    #[cold]
    pub(crate) fn warn(&mut self, at: Addr, kind: ErrorKind, consequence: &str) {
        let code = kind.code();
        if self.warnings.is_known(at as u64, code) {
            return;
        }
        let e = self.error_at(at, VmError::new(kind));
        self.warnings.once(at as u64, code, || warning_text(&e, consequence));
    }

    /// A warning for an error that came out of script the host ran (once
    /// per place the error names and kind).
    #[cold]
    pub(crate) fn warn_error(&mut self, e: &VmError, consequence: &str) {
        self.warnings.once(error_key(e), e.code(), || warning_text(e, consequence));
    }

    /// Whether `warn_error` already gave `e`'s warning: the caller may
    /// skip adding to it.
    pub(crate) fn error_warned(&self, e: &VmError) -> bool {
        self.warnings.is_known(error_key(e), e.code())
    }

    /// A warning about the definition `xt` as a whole, made by `make` only
    /// the first time: a search may run a sloppy move word millions of
    /// times, and building the error (its name, its place) each time cost
    /// a quarter of a Splut! match. Under `--strict` the error itself.
    #[cold]
    pub(crate) fn warn_word(&mut self, xt: u32, kind: &'static str, consequence: &str, make: impl FnOnce(&Vm) -> VmError) -> VmResult<()> {
        // Above every instruction address and every hashed place (`warn`,
        // `warn_error`): a key of its own.
        let key = 1 << 62 | xt as u64;
        if !self.config.strict && self.warnings.is_known(key, kind) {
            return Ok(());
        }
        let e = make(self);
        if self.config.strict {
            return Err(e);
        }
        self.warnings.once(key, kind, || warning_text(&e, consequence));
        Ok(())
    }

    /// After an error: stacks empty, back to interpreting, inputs closed.
    pub fn reset_after_error(&mut self) {
        self.clear_stacks();
        self.inputs.clear();
        self.def = None;
        let _ = self.mem.store(crate::memory::STATE_ADDR as i32, 0);
        self.refill_steps();
    }

    // ---- random numbers --------------------------------------------------

    /// lo..=hi from stream 0 or 1.
    pub fn rand_within(&mut self, stream: usize, lo: i32, hi: i32) -> i32 {
        let (lo, hi) = if hi < lo { (hi, lo) } else { (lo, hi) };
        let span = (hi as i64 - lo as i64 + 1) as u64;
        let r = ((self.rng[stream].next_u64() as u128 * span as u128) >> 64) as i64;
        (lo as i64 + r) as i32
    }

    /// The random streams' state, to hand to another VM playing the same
    /// game (`set_random_state`).
    pub fn random_state(&self) -> [Xoshiro256StarStar; 2] {
        self.rng.clone()
    }

    pub fn set_random_state(&mut self, state: [Xoshiro256StarStar; 2]) {
        self.rng = state;
    }

    pub fn randomize(&mut self, stream: usize) {
        self.rng[stream] = match self.config.seed {
            Some(s) => seeded_streams(s)[stream].clone(),
            None => Xoshiro256StarStar::seed_from_u64(clock_seed().wrapping_add(stream as u64)),
        };
    }

    // ---- positions and errors --------------------------------------------

    pub fn location(&self, pos: Pos) -> Option<Location> {
        if pos.is_none() {
            return None;
        }
        if let Some((_, origins)) = self.origins.iter().find(|(file, _)| *file == pos.file) {
            let lines = &origins.lines;
            let i = lines.partition_point(|(offset, _)| *offset <= pos.offset);
            if let Some((_, Some([file, line, col]))) = i.checked_sub(1).and_then(|i| lines.get(i)) {
                if let Some(name) = origins.files.get(*file as usize) {
                    return Some(Location { file: name.clone(), line: *line, col: *col });
                }
            }
        }
        let f = self.files.get(pos.file as usize)?;
        let (line, col) = f.line_col(pos.offset);
        Some(Location { file: f.name.clone(), line, col })
    }

    /// "`word` (file:line)" for a "called from" line.
    pub fn describe_site(&self, word: u32, pos: Pos) -> String {
        let name = self.dict.word(word).display_name();
        match self.location(pos) {
            Some(l) => format!("called from `{name}` ({}:{})", l.file, l.line),
            None => format!("called from `{name}`"),
        }
    }

    /// Points deferred word `slot` (which exists) at word `xt`.
    pub(crate) fn set_defer(&mut self, slot: usize, xt: u32) {
        self.defers[slot] = Some(xt);
        self.defer_epoch = self.defer_epoch.wrapping_add(1);
    }

    /// An error raised by the instruction at `addr`.
    #[cold]
    #[inline(never)]
    pub fn error_at(&self, addr: Addr, mut e: VmError) -> VmError {
        if e.is_control() || e.is_located() {
            return e;
        }
        if let Some(info) = self.code.info(addr) {
            e.word = Some(self.dict.word(info.word).display_name());
            e.location = self.location(info.pos);
            for site in self.code.inline_sites(info.inlined) {
                e.trace.push(self.describe_site(site.caller, site.pos));
            }
        }
        e
    }

    /// The current input file's path (for relative LOADs).
    pub fn current_dir(&self) -> Option<PathBuf> {
        let input = self.inputs.last()?;
        let path = self.files.get(input.file as usize)?.path.as_ref()?;
        path.parent().map(|p| p.to_path_buf())
    }
}

/// The two random streams as `seed` starts them (the script's, the
/// engines').
pub(crate) fn seeded_streams(seed: u64) -> [Xoshiro256StarStar; 2] {
    [Xoshiro256StarStar::seed_from_u64(seed), Xoshiro256StarStar::seed_from_u64(seed ^ 0x9E37_79B9_7F4A_7C15)]
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0x5EED)
}

impl Vm {
    /// Warnings raised since the last call, formatted like errors
    /// (`warning: … --> file:line:col`); the CLI prints them to stderr.
    pub fn take_warnings(&mut self) -> Vec<String> {
        self.warnings.take()
    }

    /// How many warnings were raised since the VM was made.
    pub fn warning_count(&self) -> usize {
        self.warnings.count
    }
}

/// An error's text as a warning, with what happened instead.
/// What `warn_error` keeps a warning under: the place, not the whole
/// trace (the same error from another square or call chain is the same
/// warning).
fn error_key(e: &VmError) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (&e.location, &e.word).hash(&mut h);
    h.finish() | 1 << 63
}

fn warning_text(e: &VmError, consequence: &str) -> String {
    let text = e.to_string();
    let text = text.strip_prefix("error").map_or(text.clone(), |rest| format!("warning{rest}"));
    format!("{text}\n  = {consequence} (--strict makes this an error)")
}

/// What the machine keeps of the game layer's bookkeeping: the memory
/// budget every part of the VM answers to, the events the game defines
/// (native code and the inner loop read `OnFriends?`), and the tolerance
/// of a position off the board. Machine-level: they read the plain state
/// (`state/`) and the dictionary, and run no game code.
impl Vm {
    /// Finds the game's events again when words were defined since.
    #[inline]
    pub fn refresh_events(&mut self) {
        if self.game.events.stamp != self.dict.words.len() {
            self.find_events();
        }
    }

    #[cold]
    fn find_events(&mut self) {
        // The stdlib's default events count as not defined (kernel.rs).
        let find = |name: &str| self.game_event(self.dict.find(name.as_bytes()));
        let events = Events {
            stamp: self.dict.words.len(),
            new_game: find("OnNewGame"),
            is_game_over: find("OnIsGameOver"),
            evaluate: find("OnEvaluate"),
            make_a_move: find("OnMakeAMove"),
            next_turn: find("OnNextTurn"),
            friends: find("OnFriends?"),
            has_friends: false,
        };
        let events = Events { has_friends: events.friends.is_some(), ..events };
        if events.has_friends != self.game.events.has_friends {
            // Native code reads squares as `friend?` did until now.
            self.jit_layout_changed();
            self.game.board.layout += 1;
        }
        self.game.events = events;
    }

    /// `xt` unless it is one of the stdlib's default events.
    pub(crate) fn game_event(&self, xt: Option<u32>) -> Option<u32> {
        xt.filter(|x| !self.game.kernel.default_events.contains(x))
    }

    /// A position for `to` and `home`: off the board is an error, or
    /// (tolerant) taken as it is: queries there read empty squares.
    pub(crate) fn position_arg(&mut self, pos: i32) -> VmResult<i32> {
        if !self.game.board.valid(pos) {
            let kind = self.game.board.no_such_position(pos);
            self.tolerate(kind, "queries there read empty squares, as in the original Axiom")?;
        }
        Ok(pos)
    }

    // ---- the memory budget (`--max-memory`) ---------------------------------

    /// What the VM holds of what a script makes grow: its data space,
    /// its code and the native code made for it, the saved boards, the
    /// move lists and their edits. (The dictionary grows only with the
    /// source read, so a file bounds it; UCT's tree is counted while it
    /// grows, `search::uct`.) Past the budget, no more native code is made.
    pub fn memory_used(&self) -> u64 {
        let code = self.code.reserved_bytes() as u64;
        self.mem.size() as u64 + code + self.jit.code_bytes + self.game.snapshots.capacity() as u64 + self.game.store.reserved_bytes() as u64
    }

    /// Room for an instruction that script compiles as it runs
    /// (`COMPILE-LITERAL`, `COMPILE`), or the error: code read from a file
    /// is bounded by the file, code compiled in a loop is not.
    pub(crate) fn code_room(&self) -> VmResult<()> {
        match self.code.growth_bytes() {
            0 => Ok(()),
            more => self.memory_room(more, "compiled code (COMPILE-LITERAL, COMPILE)"),
        }
    }

    /// Room for `more` bytes of `what` within `--max-memory`, or the error.
    pub(crate) fn memory_room(&self, more: usize, what: &'static str) -> VmResult<()> {
        let bytes = self.memory_used().saturating_add(more as u64);
        if bytes > self.config.max_memory {
            return Err(self.out_of_memory(more, what));
        }
        Ok(())
    }

    #[cold]
    pub(crate) fn out_of_memory(&self, more: usize, what: &'static str) -> VmError {
        ErrorKind::OutOfMemory { what, bytes: self.memory_used().saturating_add(more as u64), limit: self.config.max_memory }.into()
    }

    /// Room for an edit and a move in the move store, or the error.
    #[inline]
    pub(crate) fn store_room(&self) -> VmResult<()> {
        if self.game.store.has_room() {
            return Ok(());
        }
        self.memory_room(self.game.store.growth_bytes(), "move lists and their edits")
    }
}
