//! Native code for hot colon definitions, built with Cranelift.
//!
//! Owns `JitMode` (the `--jit` switch), `Jit` (the code generator, the
//! table of compiled entries, call counters) and the way in from the inner
//! interpreter. `translate.rs` (and `translate/`, a file per instruction
//! family) turns a definition's `Op`s into Cranelift IR;
//! `helpers.rs` is the Rust that native code calls for what it does not do
//! inline (native words, game queries, EXECUTE); `worker.rs` is the thread
//! that runs the translator and Cranelift, so that making native code
//! never holds a run up for longer than `wait_budget` (`auto`).
//!
//! Native code appears between two instructions of the interpreter, never
//! inside one: an answer of the compiler thread is put in place (`install`)
//! when the VM's thread looks (`poll`: at a call of a word whose code is
//! being made, or while it waits), and only if no native code was thrown
//! away since it was asked for (`epoch`). Which calls run native code thus
//! depends on timing; what they compute does not (the contract below).
//!
//! The contract that keeps the two engines identical: native code runs the
//! same abstract machine as `interp.rs` (the stacks, call frames and step
//! budget in `Vm`), and before any instruction that would fail, or that it
//! does not handle inline, it *deoptimizes*: it writes its state back and
//! hands the interpreter the address of that instruction, whose state is
//! exactly as before it ran. The interpreter then runs it, errors and
//! tolerances included. Every error therefore comes from the interpreter's
//! own code, with the same location and backtrace. Native frames never
//! outlive a deoptimization: the whole native call chain returns, and the
//! interpreter carries on from the call frames in `Vm`.
//!
//! `DESIGN.md` beside this file is the design note: this contract, the
//! calling convention, deoptimization, what is compiled when, code shared
//! across VMs, memory, and what was tried and why it was kept or dropped.

mod generator;
mod guard;
mod helpers;
mod payback;
pub use payback::Occupant as CoreInUse;
mod plan;
mod shape;
mod shared;
mod translate;
mod worker;

use crate::error::{ErrorKind, VmError};
use crate::ops::Addr;
use crate::vm::{read_alone, Frame, Vm, HOST_RETURN, STACK_CELLS};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};
pub(crate) use generator::{guard_checks, Drive, DriveEnd, GuardCheck, MoveWordCode, MoveWordEnd, MoveWords, PlanLoop};
pub(crate) use plan::{Plan, PlanKey, Plans, KEPT_PLANS};

/// When colon definitions get native code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JitMode {
    /// The interpreter only.
    Off,
    /// Definitions that loop, asked for at their first call; others once
    /// native code has called them often. A run waits for native code
    /// only within `wait_budget`.
    Auto,
    /// Every colon definition at its first call, waited for.
    All,
}

impl JitMode {
    /// The environment variable that sets the default mode.
    pub const ENV: &'static str = "AXFORTH_JIT";

    pub fn parse(s: &str) -> Option<JitMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "off" | "0" | "no" => Some(JitMode::Off),
            "auto" | "" => Some(JitMode::Auto),
            "all" | "on" => Some(JitMode::All),
            _ => None,
        }
    }

    /// The mode `AXFORTH_JIT` asks for (`auto` when unset); an unknown
    /// value is an error naming the choices.
    pub fn from_env() -> Result<JitMode, String> {
        match std::env::var(Self::ENV) {
            Err(_) => Ok(JitMode::Auto),
            Ok(v) => JitMode::parse(&v).ok_or_else(|| format!("{}={v:?}: expected off, auto or all", Self::ENV)),
        }
    }
}

/// The state native code shares with the runtime, at fixed offsets. Filled
/// from `Vm` when native code is entered and after every helper that may
/// change the VM; scalars go back to `Vm` when native code returns.
#[repr(C)]
pub struct JitCtx {
    pub vm: *mut Vm,
    /// The innermost frame's data stack (`Stacks::ds` + `ds_base`).
    pub ds: *mut i32,
    pub rs: *mut i32,
    pub frames: *mut Frame,
    pub mem: *mut u8,
    pub mem_len: u64,
    /// `Memory::written`: stores below it only (filled at every entry).
    pub store_len: u64,
    /// `Vm::defer_epoch` (filled at every entry and after every helper).
    pub defer_epoch: u32,
    /// `Jit::slots`: by code address, a function pointer once compiled.
    pub table: *const usize,
    pub table_len: u64,
    pub game: *mut crate::state::Game,
    /// `Board::walk` and its shape (`walk_last`, `walk_stride`).
    pub walk: *const i32,
    pub walk_len: u64,
    /// `Dictionary::targets`: what EXECUTE does with each xt.
    pub targets: *const i32,
    pub targets_len: u64,
    /// The board's cells in data space, and how many there are (0 when
    /// they do not lie within it: every read goes the interpreter's way).
    pub board: *const i32,
    pub board_len: u64,
    /// `Game::pieces` (filled at every entry and after every helper: a
    /// declaration may move them).
    pub pieces: *const crate::state::PieceDecl,
    pub pieces_len: u64,
    pub steps: u64,
    pub tos: i32,
    pub depth: u32,
    pub rdepth: u32,
    pub fp: u32,
    /// After a deoptimization: the instruction the interpreter runs next.
    pub ip: u32,
    pub max_d: u32,
    pub max_r: u32,
    pub walk_last: u32,
    pub walk_stride: u32,
    /// The start in `walk` of the block of `walk_player`'s directions, as
    /// a step last computed it: a step for the same player reuses it.
    /// `jit_fill` forgets it (`walk_player` = `NO_WALK_PLAYER`), the shape
    /// it came from having possibly changed.
    pub walk_player: i32,
    pub walk_block: u64,
}

/// No player (no player's number is 0, and that cell has no other bits).
pub const NO_WALK_PLAYER: i32 = i32::MIN;

/// A compiled definition's entry (`translate::function::native_signature`), run
/// from Rust through `Jit::trampoline`.
pub type NativeFn = usize;

/// What native code answers.
pub const DONE: u32 = 0;
pub const DEOPT: u32 = 1;
pub const ERROR: u32 = 2;
/// A `verify` failed during move generation: the move word ends (the
/// interpreter's `ErrorKind::Verify`), with the state written back.
pub const VERIFY: u32 = 3;

/// Slot values below this are call counts; a compiled entry holds its
/// function pointer (never this small in a user address space).
const COUNT_LIMIT: usize = 1 << 16;
/// The definition at this address gets no native code.
const NEVER: usize = COUNT_LIMIT - 3;
/// The definition is due for native code that the run has not paid for
/// yet (under `auto`, `payback.rs`), or that the compiler thread had no
/// room for: its calls ask again, now and then (`UNPAID_SKIP`).
const UNPAID: usize = COUNT_LIMIT - 2;
/// Calls of unpaid definitions between two looks at the clock.
const UNPAID_SKIP: u32 = 64;
/// The slot table's first length (`Jit::cover_slots`): 32 MB of address
/// space, of which only the pages holding definitions' entries are used.
const SLOTS_AT_FIRST: usize = 1 << 22;
/// The compiler thread is making the definition's native code: each call
/// looks whether it is done (`Jit::poll`).
const PENDING: usize = COUNT_LIMIT - 1;
/// Calls before `auto` compiles a definition without a loop.
const AUTO_CALLS: usize = 16;
/// Deoptimizations at one EXECUTE after which its guess is no longer
/// trusted (a table of tokens that does change).
const GUESS_MISSES: u32 = 64;
/// Native calls nest only this deep (counted in call frames): the native
/// stack of a tournament thread is small, and deeper recursion is left to
/// the interpreter, whose frames live on the heap.
pub const NATIVE_FRAMES: u32 = 768;

pub struct Jit {
    pub mode: JitMode,
    /// The compiler thread (`worker.rs`), once started; `None` when off,
    /// or when it could not be started or make its module.
    worker: Option<worker::Worker>,
    /// Whether the thread was started (at the first compilation asked
    /// for: a run that asks none never pays for it).
    worker_started: bool,
    /// The thread has made its module: `trampoline` and `driver` are set.
    ready: bool,
    /// Words asked for and not answered yet.
    in_flight: u32,
    /// What the last compilations were asked against (made again when the
    /// code or the dictionary grew).
    view: Option<Arc<worker::View>>,
    /// The data space the last compilations read their guesses from, and
    /// when it was copied (`Jit::data_for_job`).
    data: Option<DataCopy>,
    trampoline: Option<translate::Trampoline>,
    /// The move generator's loop (`translate::driver`).
    pub(crate) driver: Option<translate::Driver>,
    /// Whether the thread was asked for `driver` (`ask_driver`), and has
    /// answered (with the loop, or with none).
    driver_asked: bool,
    driver_answered: bool,
    /// By code address (when not off): call count, `NEVER`, or the entry.
    pub(crate) slots: Vec<usize>,
    ctx: *mut JitCtx,
    /// The error a helper raised (status `ERROR`), final as the
    /// interpreter would return it.
    pub(crate) error: Option<VmError>,
    /// Where a syncing helper deoptimized.
    pub(crate) resume: Addr,
    pub compiled: u32,
    /// Of those, definitions another VM's thread had compiled the same way
    /// (`shared.rs`).
    pub shared: u32,
    /// Of those, definitions with a fixed stack shape.
    pub fixed: u32,
    pub refused: u32,
    /// The size of the native code made for this VM (in `--max-memory`).
    pub(crate) code_bytes: u64,
    /// The modules of other VMs that code in `slots` lives in.
    borrowed: Vec<Arc<shared::Keep>>,
    /// Entries from the interpreter, and how many ended in a deopt.
    pub entries: u64,
    pub deopts: u64,
    /// The EXECUTEs translated trusting a guessed token (a miss
    /// deoptimizes), and how many times each missed.
    guess_misses: HashMap<Addr, u32>,
    /// The EXECUTEs translated without trusting their guess.
    unguessed: HashSet<Addr>,
    /// How many times all native code was thrown away: what was built on
    /// it (a generation's plan) is stale when this moved.
    pub(crate) epoch: u32,
    /// Generator loops made for plans (`plan_driver`), by what they were
    /// made for: a plan made again (after its words got native code) has
    /// the shape of the one before. `None` while the thread makes it.
    plan_loops: Vec<(PlanLoopKey, Option<Option<translate::Driver>>)>,
    /// The board's layout (`Board::layout`) that native code made since
    /// the last change has built in (`translate::Layout`), if any has.
    baked_layout: Option<u32>,
    /// What the context's fixed fields were last filled from (`jit_fill`):
    /// the VM's address, the lengths of the slot table and of the table of
    /// targets, the board's layout.
    filled: Option<(usize, usize, usize, u32)>,
    /// Time spent making native code (the module, definitions, loops),
    /// for `AXFORTH_JIT_STATS`: short runs pay it more than they gain.
    compile_time: std::time::Duration,
    /// With `AXFORTH_JIT_STATS`: deoptimizations by the instruction they
    /// handed over at, to find a storm's cause.
    deopt_sites: Option<HashMap<(Addr, Addr), u64>>,
    /// With `AXFORTH_JIT_STATS`: native words native code called through
    /// a helper, by word and call site: what it does not do inline.
    pub(crate) host_calls: Option<HashMap<(u32, Addr), u64>>,
    /// Under `auto`, definitions due for native code that the run has not
    /// paid for yet (`payback.rs`), with what compiling each is expected
    /// to cost: asked again at their next call.
    /// and how many times it was looked at (each look stands for about
    /// `UNPAID_SKIP` calls: one in that many calls of unpaid words looks).
    unpaid: HashMap<Addr, (Duration, u32)>,
    /// Calls of unpaid definitions left before the next look.
    unpaid_skip: u32,
    /// Under `auto`, what interpreted attempts of move words not native
    /// yet took, timed by the generator (`time_attempt`): what native
    /// code would save each is judged from it (`payback.rs`).
    timed: HashMap<Addr, payback::Timed>,
    /// By token, the attempts of each move word the generator ran
    /// without native code (`jit_move_word_tried`).
    move_tries: Vec<u32>,
    /// This VM's thread counted among those keeping a core busy.
    _occupant: payback::Occupant,
    /// A game was loaded (`game_loaded`): its start may be held
    /// (`payback::held`).
    game: bool,
    /// When this VM's JIT began, and what compiling the definitions it
    /// let through cost, expected (`payback.rs`).
    born: Instant,
    asked: Duration,
    /// The finished definitions by entry (`definition`).
    definitions: DefinitionIndex,
    /// What `translated_size` answered, by entry (finished code never
    /// changes): a word handed back while the thread is busy asks again
    /// at each call.
    sizes: HashMap<Addr, usize>,
    /// The move generator's plans kept for the next generations
    /// (`plan.rs`).
    pub(crate) plans: Plans,
}

/// Nanoseconds spent making native code in this process, every VM and
/// thread together (`compile_time_in_process`).
static PROCESS_COMPILE_NANOS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The time every VM of this process has spent making native code so far
/// (CPU time, summed over threads): what a benchmark shows apart.
pub fn compile_time_in_process() -> std::time::Duration {
    std::time::Duration::from_nanos(PROCESS_COMPILE_NANOS.load(std::sync::atomic::Ordering::Relaxed))
}

impl Jit {
    fn add_compile_time(&mut self, spent: std::time::Duration) {
        self.compile_time += spent;
        PROCESS_COMPILE_NANOS.fetch_add(spent.as_nanos() as u64, std::sync::atomic::Ordering::Relaxed);
    }
}

/// When the first VM of this process started: waiting for the compiler
/// thread is allowed a share of the time since (`wait_budget`).
static STARTED: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
/// Nanoseconds the interpreters of this process have waited for native
/// code under `auto`.
static WAITED_NANOS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
/// What `auto` may wait for native code at any time: this, plus
/// `1 / WAIT_SHARE` of the time the process has run, less what it waited
/// already. A definition that compiles quickly (a benchmark's loop, a
/// small move word) is native from its first call; a large one is taken
/// when it is ready, the interpreter running it meanwhile. So a one-shot
/// `moves` pays at most about this for native code it does not use.
const WAIT_ALLOWANCE: Duration = Duration::from_micros(500);
/// About what compiling costs per instruction translated (the median
/// over the definitions of a few corpus games and the benchmarks, on this
/// project's 2-core machine: 0.1 to 5 ms a definition, 15 to 150 µs an
/// instruction): enough to tell a definition that compiles within the
/// wait budget from one that cannot.
const COMPILE_PER_OP: Duration = Duration::from_micros(30);
const WAIT_SHARE: u32 = 32;

fn wait_budget() -> Duration {
    let run = STARTED.get().map_or(Duration::ZERO, Instant::elapsed);
    let waited = Duration::from_nanos(WAITED_NANOS.load(std::sync::atomic::Ordering::Relaxed));
    (WAIT_ALLOWANCE + run / WAIT_SHARE).saturating_sub(waited)
}

/// Compilations a VM may have asked for and not got yet: each holds a
/// copy of up to `GUESSED_DATA` bytes, and a program that calls thousands
/// of new loop words must not queue them all.
const MAX_IN_FLIGHT: u32 = 32;

/// A definition with more branches than this is left to the interpreter:
/// Cranelift's register allocator takes time that grows with the square
/// of a function's branches, which a file may ask for (10,000 `IF`s in a
/// row: 0.7 s to compile, 40,000: 7.6 s; 10,000 loops in a row: 19 s).
/// Real files stay under: GufuuShogi.zrf's largest move words have 4,407
/// (about 0.4 s each: its `check` under `all` compiled for 54 s, 0.3 s
/// with them interpreted, as `auto` left them); 1,000 loops compile in
/// 0.1 s.
const MAX_BRANCHES: usize = 4096;
/// How much of the data space a compilation reads guesses from (tables
/// of tokens); cells above are read with a bounds check, unguessed.
const GUESSED_DATA: usize = 1 << 20;

/// A copy of the data space that compilations read their guesses from
/// (tables of tokens, a cell at a known address). A guess is checked where
/// native code uses it, so an old copy costs at most a missed guess; a
/// fresh copy for every job cost a one-shot `moves` of Rithmomachy 2 of
/// its 15 ms (22 jobs at once, 64 KB each, copied and freed across
/// threads). The copy is kept while the data space has not grown, no
/// definition was added, and the VM has run fewer than `DATA_STEPS`
/// instructions since.
struct DataCopy {
    bytes: Arc<[u8]>,
    view: worker::ViewKey,
    /// `Vm::steps_left` when copied (it only falls, but for a refill).
    steps_left: u64,
}

/// Instructions after which the data space is copied again for the next
/// job: about a millisecond of interpreting, for a copy of tens of µs.
const DATA_STEPS: u64 = 200_000;

impl DataCopy {
    fn fits(&self, vm: &Vm, len: usize) -> bool {
        self.bytes.len() == len && self.view == worker::view_key(vm) && self.steps_left.checked_sub(vm.steps_left).is_some_and(|ran| ran < DATA_STEPS)
    }
}

/// Address space reserved for one VM's native code; a definition that no
/// longer fits is left to the interpreter.
const CODE_SPACE: usize = 256 << 20;

/// The most generator loops made for plans in one VM.
const PLAN_LOOPS: u32 = 64;

/// What a plan's loop is made for (`translate::PlanShape`): the guards
/// checked, which words are followed by another of their span, the
/// board's number of positions.
type PlanLoopKey = (Vec<GuardCheck>, Vec<bool>, u64);

impl Jit {
    pub fn new(mode: JitMode) -> Jit {
        let ctx = Box::into_raw(Box::new(JitCtx {
            vm: std::ptr::null_mut(),
            ds: std::ptr::null_mut(),
            rs: std::ptr::null_mut(),
            frames: std::ptr::null_mut(),
            mem: std::ptr::null_mut(),
            mem_len: 0,
            store_len: 0,
            defer_epoch: 0,
            table: std::ptr::null(),
            table_len: 0,
            game: std::ptr::null_mut(),
            walk: std::ptr::null(),
            walk_len: 0,
            targets: std::ptr::null(),
            targets_len: 0,
            board: std::ptr::null(),
            board_len: 0,
            pieces: std::ptr::null(),
            pieces_len: 0,
            steps: 0,
            tos: 0,
            depth: 0,
            rdepth: 0,
            fp: 0,
            ip: 0,
            max_d: 0,
            max_r: 0,
            walk_last: 0,
            walk_stride: 0,
            walk_player: NO_WALK_PLAYER,
            walk_block: 0,
        }));
        STARTED.get_or_init(Instant::now);
        Jit { mode, worker: None, worker_started: false, ready: false, in_flight: 0, view: None, data: None, trampoline: None, driver: None, driver_asked: false, driver_answered: false, slots: Vec::new(), ctx, error: None, resume: 0, compiled: 0, shared: 0, code_bytes: 0, borrowed: Vec::new(), fixed: 0, refused: 0, entries: 0, deopts: 0, guess_misses: HashMap::new(), unguessed: HashSet::new(), epoch: 0, plan_loops: Vec::new(), baked_layout: None, filled: None, compile_time: std::time::Duration::ZERO, deopt_sites: std::env::var_os("AXFORTH_JIT_STATS").map(|_| HashMap::new()), host_calls: std::env::var_os("AXFORTH_JIT_STATS").map(|_| HashMap::new()), unpaid: HashMap::new(), unpaid_skip: 0, timed: HashMap::new(), move_tries: Vec::new(), _occupant: payback::Occupant::new(), game: false, born: Instant::now(), asked: Duration::ZERO, definitions: DefinitionIndex::default(), sizes: HashMap::new(), plans: Plans::default() }
    }

    /// The compiler thread, started at the first call (never when off):
    /// a run that compiles nothing (a one-shot `check` or `moves` of a
    /// small game) pays neither its start nor its module.
    fn started_worker(&mut self) -> Option<&worker::Worker> {
        if !self.worker_started && self.mode != JitMode::Off {
            self.worker_started = true;
            self.worker = worker::Worker::start();
        }
        self.worker.as_ref()
    }

    /// Takes the thread's answers that are in, without waiting.
    #[inline]
    pub(crate) fn poll(&mut self) {
        while let Some(done) = self.worker.as_mut().map(|w| w.try_take()) {
            match done {
                Ok(done) => self.install(done),
                Err(std::sync::mpsc::TryRecvError::Empty) => break,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.lose_worker(),
            }
        }
    }

    /// Waits for the thread's answers until `until` holds, or for at most
    /// `budget` (`None`: as long as it takes); whether `until` holds.
    ///
    /// A bounded wait polls, yielding the core between polls: a thread put
    /// to sleep for half a millisecond was seen to wake a millisecond
    /// late, queued behind the compiler thread on its own core.
    fn wait(&mut self, budget: Option<Duration>, until: impl Fn(&Jit) -> bool) -> bool {
        let start = Instant::now();
        self.poll();
        while !until(self) {
            let Some(w) = self.worker.as_mut() else { return false };
            let answer = match budget {
                None => w.take().map_err(|_| std::sync::mpsc::TryRecvError::Disconnected),
                Some(b) if start.elapsed() < b => w.try_take(),
                Some(_) => break,
            };
            match answer {
                Ok(done) => self.install(done),
                Err(std::sync::mpsc::TryRecvError::Empty) => std::thread::yield_now(),
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.lose_worker(),
            }
        }
        if budget.is_some() {
            WAITED_NANOS.fetch_add(start.elapsed().as_nanos() as u64, std::sync::atomic::Ordering::Relaxed);
        }
        until(self)
    }

    /// Asks the thread for the generic generator loop, once; under `all`
    /// waits for it, as for every definition, so that the generator runs
    /// natively from its first sweep.
    pub(crate) fn ask_driver(&mut self) {
        if !self.driver_asked {
            self.driver_asked = true;
            if !self.started_worker().is_some_and(|w| w.send(worker::Job::Driver)) {
                self.lose_worker();
                return;
            }
            if self.mode == JitMode::All {
                self.wait(None, |j| j.driver_answered || j.worker.is_none());
            }
        }
    }

    /// Puts in place what the thread answered.
    fn install(&mut self, done: worker::Done) {
        match done {
            worker::Done::Ready(made, spent) => {
                self.add_compile_time(spent);
                match made {
                    Some(trampoline) => {
                        self.trampoline = Some(trampoline);
                        self.ready = true;
                    }
                    None => self.lose_worker(),
                }
            }
            worker::Done::Driver(made, spent) => {
                self.add_compile_time(spent);
                self.driver = made;
                self.driver_answered = true;
            }
            worker::Done::Word { entry, epoch, made, trusted, spent, bytes, from } => {
                self.add_compile_time(spent);
                self.code_bytes += bytes as u64;
                if let Some(from) = from {
                    self.shared += 1;
                    if !self.borrowed.iter().any(|k| Arc::ptr_eq(k, &from)) {
                        self.borrowed.push(from);
                    }
                }
                self.in_flight = self.in_flight.saturating_sub(1);
                let Some(slot) = self.slots.get_mut(entry as usize).filter(|s| **s == PENDING) else { return };
                if epoch != self.epoch {
                    // Made on what was thrown away since: asked again as
                    // calls come.
                    *slot = 0;
                    return;
                }
                match made {
                    Some((f, fixed)) => {
                        *slot = f;
                        self.compiled += 1;
                        self.fixed += fixed as u32;
                        for at in trusted {
                            self.guess_misses.entry(at).or_insert(0);
                        }
                    }
                    None => {
                        *slot = NEVER;
                        self.refused += 1;
                    }
                }
            }
            worker::Done::Plan { index, made, spent } => {
                self.add_compile_time(spent);
                if let Some((_, answer)) = self.plan_loops.get_mut(index as usize) {
                    *answer = Some(made);
                }
            }
        }
    }

    /// Makes the slot table cover code addresses below `n`. A table is
    /// as long as the code (a Zillions game's is millions of
    /// instructions). Its memory is made zeroed by the allocator, at
    /// least `SLOTS_AT_FIRST` long, so that the code a game loads rarely
    /// makes it grow again (grown by doubling and zeroing, it cost a
    /// Zillions game's VM 16 to 32 MB of memory written and copied while
    /// loading); its length is what is covered (a slot past it reads as
    /// none), written as it is covered.
    ///
    /// Written, never read first: a slot's first touch would otherwise be
    /// a read (a call count), which maps the shared zero page, and the
    /// write after it a copy-on-write fault whose TLB flush interrupts
    /// every core running a thread of the process (the compiler thread,
    /// `check`'s other jobs): 2 % of the time of `check` of a Zillions
    /// file under `auto`, against under 1 % for writing every page. (With
    /// huge pages, each page written is 2 MB to clear: 7 % more.)
    #[cold]
    fn cover_slots(&mut self, n: usize) {
        if self.slots.capacity() == 0 {
            // Pages another VM of this thread faulted in already.
            self.slots = SPARE_SLOTS.with(|spare| std::mem::take(&mut *spare.borrow_mut()));
            self.slots.clear();
        }
        if self.slots.capacity() < n {
            let mut grown = vec![0; n.next_power_of_two().max(SLOTS_AT_FIRST)];
            grown.truncate(self.slots.len());
            grown.copy_from_slice(&self.slots);
            self.slots = grown;
        }
        const PAGE_SLOTS: usize = 4096 / std::mem::size_of::<usize>();
        let end = n.next_multiple_of(PAGE_SLOTS).min(self.slots.capacity());
        self.slots.resize(end, 0);
    }

    /// The thread is gone (or made no module): what it was asked for is
    /// left to the interpreter.
    #[cold]
    fn lose_worker(&mut self) {
        self.worker = None;
        self.in_flight = 0;
        for slot in self.slots.iter_mut().filter(|s| **s == PENDING) {
            *slot = NEVER;
        }
        for (_, made) in self.plan_loops.iter_mut().filter(|(_, made)| made.is_none()) {
            *made = Some(None);
        }
    }

    /// The game is loaded: the run that native code may pay for begins
    /// (`payback.rs`). Loading a large rules file takes tenths of a
    /// second that say nothing of how long the games will run.
    pub fn game_loaded(&mut self) {
        self.born = Instant::now();
        self.game = true;
    }

    /// Waits until every compilation asked for is answered (tests and
    /// benchmarks that count what was compiled).
    pub fn settle(&mut self) {
        self.wait(None, |j| j.worker.is_none() || (j.ready && j.in_flight == 0));
    }
}

impl Jit {
    /// Whether some plan's own generator loop has been made.
    pub(crate) fn has_plan_loops(&self) -> bool {
        self.plan_loops.iter().any(|(_, made)| matches!(made, Some(Some(_))))
    }

    /// Asks for a generator loop made for a plan of this shape (see
    /// `translate::driver`): its index in `plan_loops`, whose answer
    /// `plan_driver` gives when in. `None` when it cannot be made, or when
    /// `PLAN_LOOPS` have been (code is never freed, and plans made over
    /// and over, as filters come and go, must not grow it without end).
    ///
    /// Under `auto` the run goes on with the generic loop meanwhile: a
    /// loop asked behind other jobs waited for their compiling too (a
    /// one-shot `perft 5` of draughts spent a third of its time so).
    pub(in crate::jit) fn ask_plan_driver(&mut self, shape: &translate::PlanShape) -> Option<u32> {
        let key = (shape.checks.to_vec(), shape.followed.to_vec(), shape.positions);
        if let Some(i) = self.plan_loops.iter().position(|(k, _)| *k == key) {
            return Some(i as u32);
        }
        if self.plan_loops.len() >= PLAN_LOOPS as usize {
            return None;
        }
        let index = self.plan_loops.len() as u32;
        let job = worker::Job::Plan { index, checks: shape.checks.to_vec(), followed: shape.followed.to_vec(), positions: shape.positions };
        let asked = self.started_worker().is_some_and(|w| w.send(job));
        self.plan_loops.push((key, if asked { None } else { Some(None) }));
        if asked {
            let budget = match self.mode {
                JitMode::All => None,
                _ if !self.ready || self.in_flight > 0 => Some(Duration::ZERO),
                _ => Some(wait_budget()),
            };
            let i = index as usize;
            self.wait(budget, |j| j.plan_loops.get(i).is_none_or(|(_, made)| made.is_some()));
        }
        Some(index)
    }

    /// The loop `ask_plan_driver` asked for at `index`: `None` while it is
    /// being made, `Some(None)` when none could be.
    pub(in crate::jit) fn plan_driver(&mut self, index: u32) -> Option<Option<translate::Driver>> {
        self.poll();
        match self.plan_loops.get(index as usize) {
            Some((_, made)) => *made,
            None => Some(None),
        }
    }
}

impl Drop for Vm {
    /// `AXFORTH_JIT_STATS`: what native code did in this VM, and where it
    /// handed over to the interpreter most.
    fn drop(&mut self) {
        let jit = &self.jit;
        let Some(sites) = jit.deopt_sites.as_ref().filter(|_| jit.entries > 0) else { return };
        let ms = jit.compile_time.as_secs_f64() * 1e3;
        let waited = WAITED_NANOS.load(std::sync::atomic::Ordering::Relaxed) as f64 / 1e6;
        eprintln!("jit: {} compiled ({} with a fixed shape, {} made by another VM), {} refused, {} entries, {} deopts, {ms:.1} ms compiling, {waited:.2} ms waited for", jit.compiled, jit.fixed, jit.shared, jit.refused, jit.entries, jit.deopts);
        let mut top: Vec<_> = sites.iter().map(|(&at, &n)| (n, at)).collect();
        top.sort_unstable_by(|a, b| b.cmp(a));
        let word = |a: Addr| self.dict.words.iter().rev().find(|w| w.entry <= a && a < w.end).map_or("?".into(), |w| w.display_name());
        for (n, (ip, ret)) in top.into_iter().take(5) {
            eprintln!("jit:   {n} deopts at {ip} in `{}` ({:?}), called from {ret} in `{}`", word(ip), self.code.op(ip), word(ret));
        }
        let mut top: Vec<_> = jit.host_calls.iter().flatten().map(|(&at, &n)| (n, at)).collect();
        top.sort_unstable_by(|a, b| b.cmp(a));
        for (n, (id, at)) in top.into_iter().take(5) {
            let name = self.hosts.get(id as usize).map_or("?", |h| h.name);
            eprintln!("jit:   {n} calls of native `{name}` at {at} in `{}`", word(at));
        }
    }
}

thread_local! {
    /// The slot table the last VM of this thread left, for the next one
    /// (`cover_slots` writes every slot it covers again). Why: a table
    /// newly allocated costs a page fault for each page it covers, at
    /// every VM; `check` of pasang.zrf makes 39 of them in 0.6 s.
    static SPARE_SLOTS: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for Jit {
    fn drop(&mut self) {
        let slots = std::mem::take(&mut self.slots);
        // The larger table stays (a thread being torn down keeps neither).
        let _ = SPARE_SLOTS.try_with(|spare| {
            if let Ok(mut spare) = spare.try_borrow_mut() {
                if spare.capacity() < slots.capacity() {
                    *spare = slots;
                }
            }
        });
        // SAFETY: the context was made by `Box::into_raw` in `new` and
        // native code only runs while the VM (and so this) is alive.
        // The module goes with the thread, which frees it once this end
        // of its channel is dropped.
        unsafe { drop(Box::from_raw(self.ctx)) };
    }
}

/// The finished definitions by entry, each one's word. Code of a
/// finished definition never changes, so native code made from it (its
/// own, or a caller's it was inlined into) stays true. Besides colon
/// definitions, the code of constants, variables and arrays: compiled
/// references to them are literals, but `EXECUTE` and deferred words
/// (`DEFER SSTONE  ' sstone IS SSTONE`) call it, and a call native code
/// cannot make is a deoptimization each time.
///
/// A table brought up to date with the word list as it grows (a search
/// of thousands of words at each first call made a rules file's `check`
/// quadratic). A word is indexed once finished; the first unfinished one
/// (being compiled) and those after it are looked at again next time; a
/// word made again later at the same entry replaces the earlier one.
#[derive(Default)]
struct DefinitionIndex {
    by_entry: HashMap<Addr, u32>,
    indexed: usize,
}

impl DefinitionIndex {
    /// The finished definition that starts at `entry`.
    fn find<'d>(&mut self, dict: &'d crate::dictionary::Dictionary, entry: Addr) -> Option<&'d crate::dictionary::Word> {
        self.refresh(dict);
        self.get(dict, entry)
    }

    /// The finished definition that starts at `entry`, by the table as
    /// it stands (`refresh` first).
    fn get<'d>(&self, dict: &'d crate::dictionary::Dictionary, entry: Addr) -> Option<&'d crate::dictionary::Word> {
        let w = dict.words.get(*self.by_entry.get(&entry)? as usize)?;
        (w.entry == entry && definition_kind(w)).then_some(w)
    }

    /// Indexes the words made or finished since last time.
    fn refresh(&mut self, dict: &crate::dictionary::Dictionary) {
        if self.indexed < dict.words.len() {
            let mut unfinished = None;
            for (xt, w) in dict.words.iter().enumerate().skip(self.indexed) {
                if definition_kind(w) {
                    self.by_entry.insert(w.entry, xt as u32);
                } else if w.end == w.entry && matches!(w.kind, crate::dictionary::WordKind::Colon) {
                    unfinished.get_or_insert(xt);
                }
            }
            self.indexed = unfinished.unwrap_or(dict.words.len());
        }
    }
}

/// Whether `w` is finished code of a kind `definition` answers.
fn definition_kind(w: &crate::dictionary::Word) -> bool {
    use crate::dictionary::WordKind::{Array, Colon, Constant, Variable};
    w.end > w.entry && matches!(w.kind, Colon | Constant(_) | Variable(_) | Array { .. })
}

/// Whether the interpreter should offer the word with this slot to
/// `jit_enter`: it has native code, or it was never called (the first
/// call decides whether to compile), or its native code is being made
/// (the call takes it if the thread has answered). Counting the other
/// calls is left to native callers, so an interpreted call pays a compare
/// or two.
impl Jit {
    #[inline(always)]
    pub(crate) fn worth_entering(&self, slot: usize) -> bool {
        // A count (1 up to NEVER), the interpreted calls' usual slot, is
        // told apart in one compare.
        if slot.wrapping_sub(1) < NEVER - 1 {
            return false;
        }
        slot == 0 || slot >= COUNT_LIMIT || slot == UNPAID || (slot == PENDING && self.worker.as_ref().is_some_and(worker::Worker::has_answers))
    }

    /// A call of an unpaid definition (`UNPAID`, in `slots` at `at`) not
    /// to be looked at: counted down here, so the interpreter goes on
    /// without leaving its loop (`jit_native` would answer the same).
    /// Why: a Zillions game's hot helpers wait unpaid for most of a short
    /// run, and each call leaving the loop to be told so cost `check` of
    /// kamisado.zrf 2 % of its time.
    #[inline(always)]
    pub(crate) fn skip_unpaid(&mut self, at: usize) -> bool {
        let skip = self.unpaid_skip > 0 && self.slots.get(at) == Some(&UNPAID);
        if skip {
            self.unpaid_skip -= 1;
        }
        skip
    }
}

/// What became of a call the interpreter offered to native code.
pub(crate) enum Entered {
    /// No native code for it (yet): interpret it.
    Interpret,
    /// It ran and returned to this address (maybe `HOST_RETURN`).
    Returned(Addr),
    /// Native code stopped here: the interpreter goes on from this address.
    Deopt(Addr),
    Failed(VmError),
}

impl Vm {
    /// Makes room in the slot table for code compiled since (called as
    /// `run` starts, so any entry the interpreter reaches has a slot).
    #[inline]
    pub(crate) fn jit_cover_code(&mut self) {
        if self.jit.mode != JitMode::Off && self.jit.slots.len() <= self.code.next_addr() as usize {
            self.jit.cover_slots(self.code.next_addr() as usize + 1);
        }
    }

    /// The interpreter is about to run the word at `entry` (a call frame
    /// is already pushed, state synced into `self`): runs its native code
    /// instead when there is some, counting calls and compiling when due.
    ///
    /// Native code returns without checking where to: a word returning
    /// from native code into code the compiler may still shorten (after
    /// its fuse barrier, the definition being compiled) is interpreted, so
    /// every return address native code meets stays valid.
    #[inline(never)]
    pub(crate) fn jit_enter(&mut self, entry: Addr) -> Entered {
        let Some(f) = self.jit_native(entry, false) else { return Entered::Interpret };
        let ret = self.stacks.frames[self.fp.wrapping_sub(1) as u16 as usize].ret;
        if self.fp >= NATIVE_FRAMES || (ret >= self.fuse_barrier && ret != HOST_RETURN) {
            return Entered::Interpret;
        }
        self.jit_enter_native(f)
    }

    /// Runs native code `f` (its call frame pushed): how it ended.
    fn jit_enter_native(&mut self, f: NativeFn) -> Entered {
        let (status, ip) = self.jit_call(f);
        self.jit_ended(status, ip)
    }

    /// How native code that answered `status` (and `ip`) ended.
    fn jit_ended(&mut self, status: u32, ip: Addr) -> Entered {
        if status == DEOPT {
            self.jit_deopted(ip);
        }
        match status {
            // It returned through the frame now just above the top one.
            DONE => Entered::Returned(self.stacks.frames[self.fp as u16 as usize].ret),
            DEOPT => Entered::Deopt(ip),
            VERIFY => Entered::Failed(ErrorKind::Verify.into()),
            _ => Entered::Failed(self.jit_error()),
        }
    }

    /// Runs `f` on the VM's state: its status, and `ctx.ip` after it.
    #[inline]
    fn jit_call(&mut self, f: NativeFn) -> (u32, Addr) {
        let ctx = self.jit.ctx;
        self.jit.entries += 1;
        self.jit_fill(ctx);
        // SAFETY: `f` was compiled by `translate` for this VM, and the
        // context was just filled from it.
        let status = unsafe { self.jit_run(ctx, f) };
        self.jit_take(ctx);
        // SAFETY: the context is ours (see `Jit::new`).
        (status, unsafe { (*ctx).ip })
    }

    /// Runs native function `f` on the registers in `ctx`.
    ///
    /// # Safety
    /// `f` was compiled for this VM, and `ctx` is its context, filled.
    pub(crate) unsafe fn jit_run(&self, ctx: *mut JitCtx, f: NativeFn) -> u32 {
        match self.jit.trampoline {
            // SAFETY: as the caller promises.
            Some(trampoline) => unsafe { trampoline(ctx, f) },
            // Native code exists only once its module, and so the
            // trampoline, does: never reached.
            None => ERROR,
        }
    }

    /// Native code handed the interpreter the instruction at `ip`. Code
    /// after a guessed EXECUTE counts on the guess, a miss deoptimizing
    /// there: when one EXECUTE misses often, all native code is thrown
    /// away, to be made again (as calls come) without trusting it.
    pub(crate) fn jit_deopted(&mut self, ip: Addr) {
        self.jit.deopts += 1;
        if let Some(sites) = &mut self.jit.deopt_sites {
            // Where the innermost frame returns to: the site's caller.
            let ret = self.fp.checked_sub(1).map_or(0, |f| self.stacks.frames[f as u16 as usize].ret);
            *sites.entry((ip, ret)).or_default() += 1;
        }
        let Some(misses) = self.jit.guess_misses.get_mut(&ip) else { return };
        *misses += 1;
        if *misses >= GUESS_MISSES {
            self.jit.guess_misses.remove(&ip);
            self.jit.unguessed.insert(ip);
            self.jit_discard();
        }
    }

    /// Throws all native code away (it stays in memory, unreachable), to
    /// be made again as calls come.
    fn jit_discard(&mut self) {
        for slot in self.jit.slots.iter_mut().filter(|s| **s >= COUNT_LIMIT) {
            *slot = 0;
        }
        self.jit.epoch += 1;
        self.jit.baked_layout = None;
    }

    /// The board's layout is about to change: native code that built it
    /// in is thrown away. (Native code running now, which called the
    /// host word making the change, hands over to the interpreter when
    /// that word returns: `helpers::host`.)
    pub(crate) fn jit_layout_changed(&mut self) {
        if self.jit.baked_layout.is_some() {
            self.jit_discard();
        }
    }

    /// The board's layout as native code may build it in: when the board
    /// is complete, its cells lie in the data space and its table of
    /// steps is whole.
    fn jit_layout(&mut self) -> Option<translate::Layout> {
        let board = &self.game.board;
        let (_, mem_len) = self.mem.raw();
        let cells_end = (board.cells as usize).checked_add(4 * board.positions)?;
        let blocks = board.walk_last() as usize + 1;
        let whole = board.walk_stride as usize == board.directions.len() * board.positions && board.walk.len() == blocks * board.walk_stride as usize;
        if !board.complete || board.positions == 0 || cells_end > mem_len || !whole || board.positions > i32::MAX as usize / 4 {
            return None;
        }
        debug_assert!(self.jit.baked_layout.is_none_or(|l| l == board.layout), "the layout changed without `change_layout`");
        self.jit.baked_layout = Some(board.layout);
        Some(translate::Layout {
            positions: board.positions as u32,
            directions: board.directions.len() as u32,
            cells: board.cells as usize,
            walk_len: board.walk.len() as u64,
            symmetric: board.walk_last() > 0,
            friends: self.game.events.has_friends,
        })
    }

    /// The error native code failed with (status `ERROR`).
    fn jit_error(&mut self) -> VmError {
        self.jit.error.take().unwrap_or_else(|| VmError::new(ErrorKind::ControlFlow("native code failed without an error".into())))
    }

    /// `execute` for script the host runs again and again (an event at
    /// every node, a word a move runs when played): the call counts as a
    /// native caller's would, so `auto` compiles the word once it is hot
    /// instead of interpreting it at every node.
    pub fn execute_hot(&mut self, xt: u32) -> crate::error::VmResult<()> {
        let Some(entry) = self.dict.words.get(xt as usize).map(|w| w.entry) else {
            return self.execute(xt);
        };
        if self.jit.mode != JitMode::Off {
            self.jit_cover_code();
            if let Some(f) = self.jit_native(entry, self.jit.mode == JitMode::Auto) {
                let (base, rdepth) = (self.fp, self.rdepth);
                match self.run_native(f) {
                    Some((DONE, _)) => return Ok(()),
                    Some((status, ip)) => return self.native_stopped(entry, status, ip, base, rdepth),
                    None => {}
                }
            }
        }
        self.run(entry)
    }

    /// The native code of the word `xt` when the host may enter it at
    /// once, as an event outside any run (`call_event`); else (`None`)
    /// the host goes the general way, which counts calls and checks
    /// limits.
    #[inline]
    pub(crate) fn event_native(&self, xt: u32) -> Option<NativeFn> {
        let entry = self.dict.words.get(xt as usize)?.entry;
        let f = *self.jit.slots.get(entry as usize)?;
        let frames = self.fp + 1 < NATIVE_FRAMES.min(self.config.return_depth);
        let cells = self.ds_base + self.depth + 1 < crate::vm::STACK_CELLS as u32;
        (f >= COUNT_LIMIT && self.run_nesting == 0 && frames && cells).then_some(f)
    }

    /// Runs the word `xt`, whose native code `event_native` found, in the
    /// frame just entered, as `execute_hot` would.
    #[inline]
    pub(crate) fn run_native_event(&mut self, xt: u32, f: NativeFn) -> crate::error::VmResult<()> {
        let (base, rdepth) = (self.fp, self.rdepth);
        self.run_nesting = 1;
        self.stacks.frames[base as u16 as usize] = Frame { ret: HOST_RETURN, rdepth };
        self.fp = base + 1;
        let (status, ip) = self.jit_call(f);
        if status == DONE {
            self.run_nesting = 0;
            return Ok(());
        }
        let entry = self.dict.words.get(xt as usize).map_or(0, |w| w.entry);
        self.native_stopped(entry, status, ip, base, rdepth)
    }

    /// `run` of a word which has native code `f`, entered at once: the
    /// host frame `run` pushes, pushed here, without the interpreter's way
    /// in. Answers how the code ended (status, `ip`), the usual ending
    /// (`DONE`, returned through the host frame) with nothing more to sort
    /// out; any other is for `native_stopped`. `None` (nothing done) near
    /// a limit `run` reports.
    #[inline]
    fn run_native(&mut self, f: NativeFn) -> Option<(u32, Addr)> {
        let (base, rdepth) = (self.fp, self.rdepth);
        if base >= self.config.return_depth || base + 1 >= NATIVE_FRAMES || self.run_nesting >= crate::interp::MAX_RUN_NESTING {
            return None;
        }
        self.run_nesting += 1;
        self.stacks.frames[base as u16 as usize] = Frame { ret: HOST_RETURN, rdepth };
        self.fp = base + 1;
        let ended = self.jit_call(f);
        if ended.0 == DONE {
            self.run_nesting -= 1;
        }
        Some(ended)
    }

    /// The interpreter finishes the word at `entry`, whose native code (run
    /// by `run_native`) stopped with `status` other than `DONE`.
    /// The host frame `run_native` pushed was at `base`, with `rdepth`.
    #[cold]
    #[inline(never)]
    fn native_stopped(&mut self, entry: Addr, status: u32, ip: Addr, base: u32, rdepth: u32) -> crate::error::VmResult<()> {
        let entered = self.jit_ended(status, ip);
        let result = self.after_native(entered, entry);
        let result = self.end_frame(result, base, rdepth);
        self.run_nesting -= 1;
        result
    }

    /// The native code of the definition at `entry`, compiling it when due
    /// (`from_native`: native code is calling it).
    #[inline]
    fn jit_native(&mut self, entry: Addr, from_native: bool) -> Option<NativeFn> {
        let slot = *self.jit.slots.get(entry as usize)?;
        if slot >= COUNT_LIMIT {
            // SAFETY: only `jit_compile` stores values this large, and
            // they are entries of finalized functions.
            return Some(slot);
        }
        if slot == PENDING && !self.jit.worker.as_ref().is_some_and(worker::Worker::has_answers) {
            // Still being made (native callers come here).
            return None;
        }
        if slot == UNPAID && self.jit.unpaid_skip > 0 {
            // Not paid for, and not to be looked at again yet.
            self.jit.unpaid_skip -= 1;
            return None;
        }
        self.jit_count(entry, slot, from_native)
    }

    /// Counts a call of the definition at `entry`, which has no native
    /// code yet, and asks for it when due.
    #[inline(never)]
    fn jit_count(&mut self, entry: Addr, slot: usize, from_native: bool) -> Option<NativeFn> {
        if slot == NEVER {
            return None;
        }
        if slot == UNPAID {
            self.jit.unpaid_skip = UNPAID_SKIP;
            if self.jit.mode == JitMode::Auto && !self.jit_paid_for(entry) {
                return None;
            }
            // A count again (`jit_compile` may hand the call back).
            if let Some(s) = self.jit.slots.get_mut(entry as usize) {
                *s = 1;
            }
            // Its first call is past: the code is taken at a later call,
            // without waiting for it.
            return self.jit_compile(entry, false);
        }
        if slot == PENDING {
            self.jit.poll();
            // In bounds: `jit_native` found the slot.
            let slot = self.jit.slots[entry as usize];
            return (slot >= COUNT_LIMIT).then_some(slot);
        }
        let calls = slot + 1;
        self.jit.slots[entry as usize] = calls;
        let due = match self.jit.mode {
            JitMode::Off => false,
            JitMode::All => true,
            // Entering native code from the interpreter costs about as much
            // as a few dozen instructions: worth it for a word that loops.
            // A word native code (or the move generator) calls often is
            // compiled so the caller stays native. What compiling costs is
            // kept off the run by the compiler thread (`worker.rs`), and
            // what the run waits for it by `wait_budget`.
            // And only once the run has paid for it (`payback.rs`): until
            // then it is `UNPAID`, and its calls ask again.
            JitMode::Auto => {
                // A move word's attempts are short, however it loops: they
                // are counted (and timed, `payback::Timed`).
                let hot = (calls == 1 && !self.jit.timed.contains_key(&entry) && self.jit_loops(entry)) || (from_native && calls >= AUTO_CALLS);
                if hot && !self.jit_paid_for(entry) {
                    if let Some(s) = self.jit.slots.get_mut(entry as usize) {
                        *s = UNPAID;
                    }
                    return None;
                }
                hot
            }
        };
        if !due {
            return None;
        }
        self.jit_compile(entry, true)
    }

    /// Whether the run has paid for compiling the definition at `entry`
    /// (`payback.rs`; asked under `auto` only, at most once in
    /// `UNPAID_SKIP` calls of an unpaid word: it reads the clock).
    fn jit_paid_for(&mut self, entry: Addr) -> bool {
        let (expected, looks) = match self.jit.unpaid.get(&entry) {
            Some(&(e, looks)) => (e, looks + 1),
            None => (COMPILE_PER_OP * self.jit_translated_size(entry) as u32, 1),
        };
        if payback::held(self.jit.born, self.jit.game) {
            self.jit.unpaid.insert(entry, (expected, looks));
            return false;
        }
        let calls = looks * UNPAID_SKIP;
        let timed = self.jit.timed.get(&entry).and_then(payback::Timed::saving);
        let paid = match timed {
            // A move word whose attempts were timed: by what it saves.
            Some(saving) if payback::core_to_spare() => payback::repaid(calls, saving, expected),
            Some(saving) => payback::called_enough(calls, saving, expected),
            None => payback::called_enough(calls, payback::CALL_SAVING, expected) || payback::affordable(self.jit.born, &mut self.jit.asked, expected, self.jit.game && !payback::core_to_spare()),
        };
        if !paid {
            self.jit.unpaid.insert(entry, (expected, looks));
            return false;
        }
        self.jit.unpaid.remove(&entry);
        self.jit.timed.remove(&entry);
        true
    }

    /// The finished colon definition that starts at `entry`: its word.
    fn jit_definition(&mut self, entry: Addr) -> Option<&crate::dictionary::Word> {
        self.jit.definitions.find(&self.dict, entry)
    }

    /// Whether the definition at `entry` loops: a backward jump, or a call
    /// of itself (RECURSE).
    fn jit_loops(&mut self, entry: Addr) -> bool {
        let Some(w) = self.jit.definitions.find(&self.dict, entry) else { return false };
        (w.entry..w.end).any(|a| {
            let op = self.code.op(a);
            op == crate::ops::Op::Call(entry) || op.target().is_some_and(|t| t <= a)
        })
    }

    /// Asks the compiler thread for the native code of the definition at
    /// `entry` and waits for it: as long as it takes under `all`, within
    /// `wait_budget` under `auto` (the slot stays `PENDING` until the
    /// answer is taken at a later call).
    ///
    /// `entry` indexes `slots` in bounds: `jit_native` found its slot, and
    /// the table never shrinks.
    fn jit_compile(&mut self, entry: Addr, wait: bool) -> Option<NativeFn> {
        let Some(name) = self.jit_definition(entry).map(|w| w.display_name()) else {
            self.jit.slots[entry as usize] = NEVER;
            return None;
        };
        if self.jit_branches(entry) > MAX_BRANCHES {
            self.jit.slots[entry as usize] = NEVER;
            self.jit.refused += 1;
            return None;
        }
        if self.jit.started_worker().is_none() {
            self.jit.slots[entry as usize] = NEVER;
            return None;
        }
        if self.jit.in_flight >= MAX_IN_FLIGHT {
            // Asked again in `UNPAID_SKIP` calls, without deciding again
            // (whether it loops is a walk of its code: a big move word
            // called while the thread was busy walked it at every call).
            self.jit.poll();
            if let Some(slot) = self.jit.slots.get_mut(entry as usize) {
                *slot = UNPAID;
            }
            return None;
        }
        let data = (self.mem.written() as usize).min(GUESSED_DATA);
        if self.jit.data.as_ref().is_none_or(|d| !d.fits(self, data)) && self.memory_room(data, "native code").is_err() {
            // Native code is worth nothing past the budget: the
            // interpreter runs the word (and reports what grew).
            self.jit.slots[entry as usize] = NEVER;
            return None;
        }
        if std::env::var_os("AXFORTH_JIT_DUMP").is_some() {
            eprintln!("---- compiling `{name}`");
        }
        let view = self.jit_view();
        let layout = self.jit_layout();
        let defers = self.defers.iter().map(|d| d.and_then(|xt| self.dict.words.get(xt as usize)).map(|w| w.entry)).collect();
        let job = worker::WordJob {
            entry,
            epoch: self.jit.epoch,
            view,
            defers,
            defer_epoch: self.defer_epoch,
            data: self.jit_data(data),
            unguessed: self.jit.unguessed.clone(),
            layout,
            name,
        };
        if !self.jit.worker.as_ref().is_some_and(|w| w.send(worker::Job::Word(Box::new(job)))) {
            self.jit.lose_worker();
            self.jit.slots[entry as usize] = NEVER;
            return None;
        }
        self.jit.slots[entry as usize] = PENDING;
        self.jit.in_flight += 1;
        let budget = match self.jit.mode {
            JitMode::All => None,
            // A module still being made is most of a millisecond away, and
            // a job queued behind others waits for their compiling too.
            _ if !wait || !self.jit.ready || self.jit.in_flight > 1 => Some(Duration::ZERO),
            _ => {
                // Nor is a definition that will take longer than the
                // budget: the wait would be spent for nothing (a one-shot
                // `moves` of Game of Life waited 0.55 ms of its 12 for a
                // move word that takes 8 to compile).
                let budget = wait_budget();
                let expected = COMPILE_PER_OP * self.jit_translated_size(entry) as u32;
                Some(if expected > budget { Duration::ZERO } else { budget })
            }
        };
        let answered = |j: &Jit| j.slots.get(entry as usize) != Some(&PENDING);
        self.jit.wait(budget, answered);
        let slot = self.jit.slots[entry as usize];
        (slot >= COUNT_LIMIT).then_some(slot)
    }

    /// About how many instructions the definition at `entry` translates
    /// to, callees translated in place included (`translate::translated_size`).
    /// The branches and jumps of the definition at `entry` (its own code,
    /// not what is inlined into it: that is bounded by `INLINE_BUDGET`).
    fn jit_branches(&mut self, entry: Addr) -> usize {
        self.jit.definitions.refresh(&self.dict);
        let (index, dict, code) = (&self.jit.definitions, &self.dict, &self.code);
        let n = index.get(dict, entry).and_then(|w| code.ops(w.entry, w.end)).map_or(0, |ops| ops.iter().filter(|op| op.target().is_some()).count());
        n
    }

    fn jit_translated_size(&mut self, entry: Addr) -> usize {
        if let Some(&size) = self.jit.sizes.get(&entry) {
            return size;
        }
        self.jit.definitions.refresh(&self.dict);
        let (index, dict, code) = (&self.jit.definitions, &self.dict, &self.code);
        let ops_of = |e: Addr| index.get(dict, e).and_then(|w| code.ops(w.entry, w.end));
        let size = ops_of(entry).map_or(0, |ops| translate::translated_size(entry, ops, &ops_of));
        self.jit.sizes.insert(entry, size);
        size
    }

    /// What a compilation reads of the code and the dictionary, made
    /// again when they have grown.
    fn jit_view(&mut self) -> Arc<worker::View> {
        match &self.jit.view {
            Some(v) if v.key == worker::view_key(self) => v.clone(),
            _ => {
                let v = Arc::new(worker::View::of(self));
                self.jit.view = Some(v.clone());
                v
            }
        }
    }

    /// The data space's first `len` bytes as a compilation reads them:
    /// the copy the last job read while it still fits (see `DataCopy`).
    fn jit_data(&mut self, len: usize) -> Arc<[u8]> {
        match &self.jit.data {
            Some(d) if d.fits(self, len) => d.bytes.clone(),
            _ => {
                let bytes: Arc<[u8]> = self.mem.contents()[..len].into();
                self.jit.data = Some(DataCopy { bytes: bytes.clone(), view: worker::view_key(self), steps_left: self.steps_left });
                bytes
            }
        }
    }

    /// Copies the VM's state into the context native code reads.
    pub(crate) fn jit_fill(&mut self, ctx: *mut JitCtx) {
        // What the fields below depend on: they change only with it. The
        // data space and the stacks never move; the slot table and the
        // table of targets move only as they grow; the board's tables
        // change only with its layout (the stamp every change of layout
        // moves, which native code that built the layout in relies on
        // already).
        let vm: *mut Vm = self;
        let key = (vm as usize, self.jit.slots.len(), self.dict.targets().len(), self.game.board.layout);
        if self.jit.filled != Some(key) {
            self.jit.filled = Some(key);
            self.jit_fill_fixed(ctx);
        }
        // SAFETY: `ctx` is the VM's own context; `ds_base < STACK_CELLS`
        // (`enter_frame`) and `ds` has 2 * STACK_CELLS cells.
        unsafe {
            let c = &mut *ctx;
            c.ds = self.stacks.ds.as_mut_ptr().add(self.ds_base as usize);
            c.walk_player = NO_WALK_PLAYER;
            c.store_len = self.mem.written() as u64;
            c.defer_epoch = self.defer_epoch;
            c.pieces = self.game.pieces.as_ptr();
            c.pieces_len = self.game.pieces.len() as u64;
            // These were just stored one by one (a frame entered).
            c.steps = read_alone(&self.steps_left);
            c.tos = read_alone(&self.tos);
            c.depth = read_alone(&self.depth);
            c.rdepth = read_alone(&self.rdepth);
            c.fp = read_alone(&self.fp);
            c.max_d = self.config.stack_depth;
            c.max_r = self.config.return_depth;
        }
        debug_assert!(self.ds_base < STACK_CELLS as u32 && self.fp != HOST_RETURN);
    }

    /// The context's fields that stay as they are while `Jit::filled`'s
    /// key does.
    #[cold]
    #[inline(never)]
    fn jit_fill_fixed(&mut self, ctx: *mut JitCtx) {
        let (mem, mem_len) = self.mem.raw();
        let vm: *mut Vm = self;
        let stacks = &mut *self.stacks;
        // SAFETY: `ctx` is the VM's own context.
        unsafe {
            let c = &mut *ctx;
            c.vm = vm;
            c.rs = stacks.rs.as_mut_ptr();
            c.frames = stacks.frames.as_mut_ptr();
            c.mem = mem;
            c.mem_len = mem_len as u64;
            c.table = self.jit.slots.as_ptr();
            c.table_len = self.jit.slots.len() as u64;
            c.game = &mut *self.game;
            let board = &self.game.board;
            c.walk = board.walk.as_ptr();
            c.walk_len = board.walk.len() as u64;
            c.walk_last = board.walk_last();
            c.walk_stride = board.walk_stride;
            // The data space never moves nor shrinks, so cells found
            // within it now stay there.
            let end = (board.cells as usize).checked_add(4 * board.positions);
            let within = board.complete && end.is_some_and(|e| e <= mem_len);
            c.board = if within { mem.add(board.cells as usize) as *const i32 } else { std::ptr::null() };
            c.board_len = if within { board.positions as u64 } else { 0 };
            let targets = self.dict.targets();
            c.targets = targets.as_ptr();
            c.targets_len = targets.len() as u64;
        }
    }

    /// Takes the scalar state native code left in the context.
    pub(crate) fn jit_take(&mut self, ctx: *mut JitCtx) {
        // Native code stored them one by one.
        // SAFETY: as in `jit_fill`.
        let c = unsafe { &*ctx };
        self.steps_left = read_alone(&c.steps);
        self.tos = read_alone(&c.tos);
        self.depth = read_alone(&c.depth);
        self.rdepth = read_alone(&c.rdepth);
        self.fp = read_alone(&c.fp);
    }

    /// Waits until the compiler thread has answered everything asked of
    /// it, and puts its answers in place: what a test or a benchmark that
    /// wants the steady state calls after warming up.
    pub fn jit_settle(&mut self) {
        self.jit.settle();
    }

    /// How many definitions have native code, how many of those have a
    /// fixed stack shape, and how many were refused: once the compiler
    /// thread has answered everything asked of it.
    pub fn jit_counts(&mut self) -> (u32, u32, u32) {
        self.jit.settle();
        (self.jit.compiled, self.jit.fixed, self.jit.refused)
    }

    /// How many of the definitions with native code got code another VM
    /// of the process had made for them (`shared.rs`), once the compiler
    /// thread has answered everything asked of it.
    pub fn jit_shared(&mut self) -> u32 {
        self.jit.settle();
        self.jit.shared
    }

    /// How many times native code was entered (each move word the
    /// generator's loop entered counts once).
    pub fn jit_entries(&self) -> u64 {
        self.jit.entries
    }
}
