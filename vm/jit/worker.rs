//! The compiler thread: each VM's native code is made on a thread of its
//! own, so that the interpreter goes on while Cranelift works.
//!
//! Owns the Cranelift module (made when the VM first asks for native code:
//! a run that asks none starts no thread) and everything a compilation
//! reads, handed over as plain
//! data: a `View` of the code, dictionary and native words (shared while
//! none of them grows), and per job the deferred words' targets, the data
//! space as far as it was written, and the board's layout. Nothing here
//! touches the `Vm`; what a job answers is installed by `Jit::install`
//! on the VM's thread, and only while the epoch it was asked under
//! stands (all native code thrown away since: the answer is dropped).
//!
//! Why a thread: a definition costs 0.1 to 5 ms to compile (Cranelift's
//! register allocator the most of it), as much as a one-shot `moves`
//! spends on the whole game. The interpreter never waits for more than a
//! small budget of the run's time (`Jit::wait`); a result that comes later
//! is taken at the next call of its word. Under `all` every compilation is
//! waited for, as before, so that tests see every definition compiled.
//!
//! The module lives as long as the thread, which ends when the VM drops
//! its end of the channel; its code lives on while other VMs run it
//! (`shared.rs`: a definition compiled here is offered to every VM of the
//! process, and a job whose definition another thread compiled the same
//! way is answered with that code).

use super::shared::{self, Answer, Ask, Keep, Reads};
use super::translate::{self, Direct, Driver, Layout, PlanShape, Trampoline};
use super::{GuardCheck, NativeFn, CODE_SPACE};
use crate::ops::{Addr, Op};
use cranelift_jit::{JITBuilder, JITModule};
use std::collections::{HashMap, HashSet};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::atomic::{AtomicU32, Ordering as AtomicOrdering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a compilation may read of the code, the dictionary and the
/// native words: a copy, made again only when one of them grew (finished
/// code never changes).
pub(super) struct View {
    pub key: ViewKey,
    ops: Vec<Op>,
    /// The finished definitions native code may be made of or call, by
    /// entry: their end (`super::definition`).
    definitions: HashMap<Addr, Addr>,
    host_effects: Vec<Option<(u32, u32)>>,
    directs: Vec<Option<Direct>>,
    targets: Vec<i32>,
}

/// What a `View` was made from: the lengths of the code, the word list,
/// the native words and the table of targets.
pub(super) type ViewKey = (u32, usize, usize, usize);

impl View {
    pub fn of(vm: &crate::vm::Vm) -> View {
        let key = view_key(vm);
        let ops = (0..vm.code.next_addr()).map(|a| vm.code.op(a)).collect();
        let mut definitions = HashMap::new();
        for w in &vm.dict.words {
            if super::definition_kind(w) {
                definitions.insert(w.entry, w.end);
            }
        }
        let host_effects = vm.hosts.iter().map(|h| (!h.immediate && !h.compile_only).then(|| crate::vm::effect_arity(h.effect)).flatten()).collect();
        let directs = vm
            .hosts
            .iter()
            .map(|h| match h.run {
                crate::vm::HostRun::Direct { ins, outs, records, .. } => Some(Direct { ins: ins as u32, outs: outs as u32, records }),
                _ => None,
            })
            .collect();
        View { key, ops, definitions, host_effects, directs, targets: vm.dict.targets().to_vec() }
    }

    /// The instructions of the finished definition at `entry`.
    pub fn ops_of(&self, entry: Addr) -> Option<&[Op]> {
        let end = *self.definitions.get(&entry)?;
        self.ops.get(entry as usize..end as usize)
    }
}

pub(super) fn view_key(vm: &crate::vm::Vm) -> ViewKey {
    (vm.code.next_addr(), vm.dict.words.len(), vm.hosts.len(), vm.dict.targets().len())
}

/// A definition to compile, with what it is compiled against.
pub(super) struct WordJob {
    pub entry: Addr,
    /// `Jit::epoch` when asked.
    pub epoch: u32,
    pub view: Arc<View>,
    /// Each DEFER slot's target's entry now (`Vm::defer_epoch` guards it).
    pub defers: Vec<Option<Addr>>,
    pub defer_epoch: u32,
    /// The data space up to `Memory::written`: what a cell at a known
    /// address holds now is a guess the code checks.
    pub data: Arc<[u8]>,
    pub unguessed: HashSet<Addr>,
    pub layout: Option<Layout>,
    pub name: String,
}

pub(super) enum Job {
    Word(Box<WordJob>),
    /// The generic generator loop (`translate::driver`), asked for by the
    /// first move generation: a program that generates no moves never
    /// pays the millisecond it takes.
    Driver,
    /// A plan's generator loop (`translate::PlanShape`).
    /// `index`: where the VM keeps its answer.
    Plan { index: u32, checks: Vec<GuardCheck>, followed: Vec<bool>, positions: u64 },
}

/// What the thread answers (cheapest job first: `next_job`).
pub(super) enum Done {
    /// The module is made (first, before any other answer): the way into
    /// native code; `None`, no native code on this machine.
    Ready(Option<Trampoline>, Duration),
    /// The generic generator loop (`translate::driver`), answering
    /// `Job::Driver`.
    Driver(Option<Driver>, Duration),
    /// A definition's code; `from` holds the module it lives in when
    /// another VM's thread made it (`shared.rs`), and it was not made now.
    /// `bytes`: the size of the code, when made now.
    Word { entry: Addr, epoch: u32, made: Option<(NativeFn, bool)>, trusted: Vec<Addr>, spent: Duration, bytes: usize, from: Option<Arc<Keep>> },
    Plan { index: u32, made: Option<Driver>, spent: Duration },
}

/// The VM's end of its compiler thread.
pub(super) struct Worker {
    jobs: Sender<Job>,
    done: Receiver<Done>,
    /// Answers the thread has sent so far: the interpreter looks at this
    /// (one load) before it looks into the channel, which costs a lock's
    /// worth of work. A word called while its code is being made asks at
    /// every call, and a one-shot run spent 5 % of its time asking.
    sent: Arc<AtomicU32>,
    /// Answers taken from the channel so far.
    taken: u32,
}

/// The thread's end of the answers: the channel and the count beside it.
struct Replies {
    done: Sender<Done>,
    sent: Arc<AtomicU32>,
}

impl Replies {
    /// Sends an answer; false when the VM is gone.
    fn send(&self, answer: Done) -> bool {
        let ok = self.done.send(answer).is_ok();
        // After the send: a VM that sees the count sees the answer.
        self.sent.fetch_add(1, AtomicOrdering::Release);
        ok
    }
}

impl Worker {
    /// Starts the thread, which begins by making the module; `None` when
    /// no thread can be started (the VM stays interpreted).
    pub fn start() -> Option<Worker> {
        let (jobs, job_rx) = std::sync::mpsc::channel();
        let (done_tx, done) = std::sync::mpsc::channel();
        let sent = Arc::new(AtomicU32::new(0));
        let replies = Replies { done: done_tx, sent: sent.clone() };
        // Cranelift's passes recurse over the function: room to spare.
        std::thread::Builder::new().name("axforth-jit".into()).stack_size(16 << 20).spawn(move || serve(job_rx, replies)).ok()?;
        Some(Worker { jobs, done, sent, taken: 0 })
    }

    /// Whether the thread has sent an answer the VM has not taken.
    #[inline]
    pub fn has_answers(&self) -> bool {
        self.sent.load(AtomicOrdering::Acquire) != self.taken
    }

    /// An answer the thread has sent and the VM not taken, without
    /// waiting. Looks into the channel only when the count says there is
    /// one (or the thread may be gone: `Disconnected` comes from there).
    pub fn try_take(&mut self) -> Result<Done, std::sync::mpsc::TryRecvError> {
        if !self.has_answers() {
            return Err(std::sync::mpsc::TryRecvError::Empty);
        }
        let answer = self.done.try_recv();
        if answer.is_ok() {
            self.taken += 1;
        }
        answer
    }

    /// Waits for the thread's next answer.
    pub fn take(&mut self) -> Result<Done, std::sync::mpsc::RecvError> {
        let answer = self.done.recv();
        if answer.is_ok() {
            self.taken += 1;
        }
        answer
    }

    /// Hands the thread a job; false when it is gone.
    pub fn send(&self, job: Job) -> bool {
        self.jobs.send(job).is_ok()
    }
}

fn serve(jobs: Receiver<Job>, done: Replies) {
    let start = Instant::now();
    let Some(mut module) = make_module() else {
        let _ = done.send(Done::Ready(None, start.elapsed()));
        return;
    };
    let keep = Keep::new();
    serve_with(&mut module, &keep, jobs, done, start);
    keep.retire(module);
}

fn serve_with(m: &mut JITModule, keep: &Arc<Keep>, jobs: Receiver<Job>, done: Replies, start: Instant) {
    let ready = translate::trampoline(m);
    if !done.send(Done::Ready(ready, start.elapsed())) || ready.is_none() {
        return;
    }
    let mut queue: Vec<Job> = Vec::new();
    while let Some(job) = next_job(&jobs, &mut queue) {
        let start = Instant::now();
        let answer = match job {
            Job::Driver => Done::Driver(translate::driver(m, None), start.elapsed()),
            Job::Word(job) => match shared::find(job.entry, job.layout, job.defer_epoch, &|q| answer(&job, q)) {
                Some((made, trusted, from)) => {
                    let from = (!Arc::ptr_eq(&from, keep)).then_some(from);
                    Done::Word { entry: job.entry, epoch: job.epoch, made: Some(made), trusted, spent: Duration::ZERO, bytes: 0, from }
                }
                None => {
                    let (made, trusted) = compile_word(m, keep, &job);
                    let bytes = made.map_or(0, |(_, _, bytes)| bytes);
                    Done::Word { entry: job.entry, epoch: job.epoch, made: made.map(|(f, fixed, _)| (f, fixed)), trusted, spent: start.elapsed(), bytes, from: None }
                }
            },
            Job::Plan { index, checks, followed, positions } => {
                let shape = PlanShape { checks: &checks, followed: &followed, positions };
                Done::Plan { index, made: translate::driver(m, Some(&shape)), spent: start.elapsed() }
            }
        };
        if !done.send(answer) {
            break;
        }
    }
}

/// The job to do next: of those sent so far, the one expected to take
/// least (a generator loop, then the shortest definition). Done in the
/// order they came, a helper word asked for behind a few large move words
/// waited for all of them (a second each in Mancala's Knights), and every
/// native call of it meanwhile handed its caller back to the interpreter:
/// 440,000 deoptimizations in a perft 3. `None` once the VM is gone.
fn next_job(jobs: &Receiver<Job>, queue: &mut Vec<Job>) -> Option<Job> {
    if queue.is_empty() {
        queue.push(jobs.recv().ok()?);
    }
    queue.extend(jobs.try_iter());
    let cost = |job: &Job| match job {
        Job::Driver | Job::Plan { .. } => 0,
        Job::Word(w) => 1 + w.view.ops_of(w.entry).map_or(0, <[Op]>::len),
    };
    let (best, _) = queue.iter().enumerate().min_by_key(|&(i, job)| (cost(job), i))?;
    Some(queue.remove(best))
}

/// What `job`'s VM answers to question `q` of a compilation.
fn answer(job: &WordJob, q: Ask) -> Answer {
    let view = &*job.view;
    match q {
        Ask::Ops(entry) => Answer::Ops(view.ops_of(entry).map(<[Op]>::to_vec)),
        Ask::Host(id) => Answer::Effect(view.host_effects.get(id as usize).copied().flatten()),
        Ask::Direct(id) => Answer::Direct(view.directs.get(id as usize).copied().flatten()),
        Ask::Defer(slot) => Answer::Addr(job.defers.get(slot as usize).copied().flatten()),
        Ask::Unguessed(at) => Answer::Flag(job.unguessed.contains(&at)),
        Ask::Target(index) => Answer::Cell(view.targets.get(index as usize).copied()),
        Ask::Data(at) => Answer::Bytes(job.data.get(at..at.saturating_add(4)).map(|b| [b[0], b[1], b[2], b[3]])),
    }
}

/// Compiles `job`'s definition, noting every question the translator
/// asked and offering the code to the other VMs (`shared.rs`).
fn compile_word(module: &mut JITModule, keep: &Arc<Keep>, job: &WordJob) -> (Option<(NativeFn, bool, usize)>, Vec<Addr>) {
    let Some(ops) = job.view.ops_of(job.entry) else { return (None, Vec::new()) };
    let answers = std::cell::RefCell::new(HashMap::new());
    let ask = |q: Ask| answers.borrow_mut().entry(q).or_insert_with(|| answer(job, q)).clone();
    let ops_of = |entry: Addr| match ask(Ask::Ops(entry)) {
        Answer::Ops(ops) => ops,
        _ => None,
    };
    let host_effect = |id: u32| match ask(Ask::Host(id)) {
        Answer::Effect(e) => e,
        _ => None,
    };
    let directs = |id: u32| match ask(Ask::Direct(id)) {
        Answer::Direct(d) => d,
        _ => None,
    };
    let defers = |slot: u32| match ask(Ask::Defer(slot)) {
        Answer::Addr(a) => a,
        _ => None,
    };
    let unguessed = |at: Addr| matches!(ask(Ask::Unguessed(at)), Answer::Flag(true));
    let targets = |index: u32| match ask(Ask::Target(index)) {
        Answer::Cell(c) => c,
        _ => None,
    };
    let data = |at: usize| match ask(Ask::Data(at)) {
        Answer::Bytes(b) => b,
        _ => None,
    };
    let trusted = std::cell::RefCell::new(Vec::new());
    let words = translate::Words {
        defer_epoch: job.defer_epoch,
        directs: &directs,
        targets: &targets,
        data: &data,
        unguessed: &unguessed,
        trusted: &trusted,
        layout: job.layout,
        name: job.name.clone(),
    };
    let made = translate::compile(module, job.entry, ops, &ops_of, &host_effect, &defers, words);
    let trusted = trusted.into_inner();
    if let Some((f, fixed, _)) = made {
        let mut answers = answers.into_inner();
        answers.insert(Ask::Ops(job.entry), Answer::Ops(Some(ops.to_vec())));
        shared::offer(job.entry, keep, Reads { layout: job.layout, defer_epoch: job.defer_epoch, answers }, (f, fixed), trusted.clone());
    }
    (made, trusted)
}

fn make_module() -> Option<JITModule> {
    let mut flags = cranelift_codegen::settings::builder();
    use cranelift_codegen::settings::Configurable;
    flags.set("opt_level", "speed").ok()?;
    flags.set("use_colocated_libcalls", "false").ok()?;
    flags.set("is_pic", "false").ok()?;
    // The IR checker costs a sixth of compile time; debug builds (and so
    // the test suite) keep it to catch a translator slip.
    flags.set("enable_verifier", if cfg!(debug_assertions) { "true" } else { "false" }).ok()?;
    let isa = cranelift_native::builder().ok()?.finish(cranelift_codegen::settings::Flags::new(flags)).ok()?;
    let mut builder = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
    // One reservation of address space (committed as code is made), so
    // that a function goes on where the one before it, or the filler
    // `translate::function::place` lays, ends.
    if let Ok(arena) = cranelift_jit::ArenaMemoryProvider::new_with_size(CODE_SPACE) {
        builder.memory_provider(Box::new(arena));
    }
    Some(JITModule::new(builder))
}
