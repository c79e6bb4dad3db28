//! Native code shared by every VM of the process: a definition compiled
//! once is reused by any VM, any game and any thread of `--jobs` that
//! would compile it the same way.
//!
//! Owns the process-wide table of compiled definitions and the lifetime of
//! the modules their code lives in. A compilation is a function of what it
//! read (`Reads`): its definition, the callees it looked at, the native
//! words, deferred words, tokens and data-space cells it asked about, the
//! board's layout and the deferred words' epoch. Its code reads everything
//! else of a VM's through the context (`JitCtx`), never from an address
//! built in, so another VM may run it whenever the same questions get the
//! same answers there (`find` asks them again). Two variants that define
//! a word at the same address differently thus never share it: its own
//! instructions are among the answers.
//!
//! A module's code is freed only when no VM can run it: each compiler
//! thread holds its module while its VM lives, then hands it to its
//! `Keep`, which frees it when the last VM that took code from it (and
//! this table) let go. The table keeps the modules of at most
//! `KEPT_DEAD` VMs that are gone (so that `check`'s next variant and a
//! tournament's next worker start warm), and at most `PER_ENTRY` codes
//! per address.

use super::translate::{Direct, Layout};
use super::NativeFn;
use crate::ops::{Addr, Op};
use cranelift_jit::JITModule;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// One compiler thread's module, kept while any VM may run its code.
pub(crate) struct Keep {
    /// Set when the thread that made the module ends (its VM is gone).
    module: Mutex<Option<Retired>>,
    gone: AtomicBool,
}

/// A module no thread compiles into any more; only its memory is used.
struct Retired(JITModule);
// SAFETY: a retired module is never compiled into again; the only thing
// done with it is freeing its memory, once, from whichever thread drops
// the last `Keep`.
unsafe impl Send for Retired {}

impl Drop for Keep {
    fn drop(&mut self) {
        let retired = self.module.get_mut().map(Option::take).unwrap_or_else(|e| e.into_inner().take());
        if let Some(Retired(module)) = retired {
            // SAFETY: this was the last hold on the module: no VM has an
            // entry into its code any more.
            unsafe { module.free_memory() };
        }
    }
}

impl Keep {
    /// A hold on a new module, known to the table.
    pub fn new() -> Arc<Keep> {
        let keep = Arc::new(Keep { module: Mutex::new(None), gone: AtomicBool::new(false) });
        table().modules.push(keep.clone());
        keep
    }

    /// The thread that made `module` ends: its code lives on while held.
    pub fn retire(self: Arc<Keep>, module: JITModule) {
        *self.module.lock().unwrap_or_else(|e| e.into_inner()) = Some(Retired(module));
        self.gone.store(true, Ordering::Release);
        table().forget_old();
    }
}

/// A question a compilation asked, and (in `Reads`) the answer it got.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) enum Ask {
    /// The instructions of the definition at an entry.
    Ops(Addr),
    /// A native word's stack effect.
    Host(u32),
    /// A native word called directly.
    Direct(u32),
    /// A deferred word's target.
    Defer(u32),
    /// Whether an EXECUTE's guess is no longer trusted.
    Unguessed(Addr),
    /// What EXECUTE does with a token.
    Target(u32),
    /// A cell of the data space.
    Data(usize),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) enum Answer {
    Ops(Option<Vec<Op>>),
    Effect(Option<(u32, u32)>),
    Direct(Option<Direct>),
    Addr(Option<Addr>),
    Flag(bool),
    Cell(Option<i32>),
    Bytes(Option<[u8; 4]>),
}

/// What a compilation read, beyond its definition's entry.
pub(super) struct Reads {
    pub layout: Option<Layout>,
    pub defer_epoch: u32,
    pub answers: HashMap<Ask, Answer>,
}

/// A definition's code, as one compilation made it.
struct Shared {
    keep: Arc<Keep>,
    reads: Reads,
    made: (NativeFn, bool),
    trusted: Vec<Addr>,
}

/// What `find` gives: the code, whether it has a fixed shape, the
/// EXECUTEs it trusts, and the module it lives in.
pub(super) type Found = ((NativeFn, bool), Vec<Addr>, Arc<Keep>);

/// Modules of VMs that are gone whose code the table keeps.
const KEPT_DEAD: usize = 2;
/// Codes kept for one address (each for other answers).
const PER_ENTRY: usize = 8;

#[derive(Default)]
struct Table {
    by_entry: HashMap<Addr, Vec<Shared>>,
    /// Every module with code in the table, oldest first.
    modules: Vec<Arc<Keep>>,
}

static TABLE: std::sync::LazyLock<Mutex<Table>> = std::sync::LazyLock::new(Default::default);

/// The table, locked (one that a panicking thread left half-changed is
/// still sound: each code holds its own module).
fn table() -> std::sync::MutexGuard<'static, Table> {
    TABLE.lock().unwrap_or_else(|e| e.into_inner())
}

impl Table {
    /// Lets go of the modules of gone VMs past the newest `KEPT_DEAD`,
    /// and of their codes.
    fn forget_old(&mut self) {
        let dead = self.modules.iter().filter(|k| k.gone.load(Ordering::Acquire)).count();
        let mut extra = dead.saturating_sub(KEPT_DEAD);
        if extra == 0 {
            return;
        }
        let mut dropped = Vec::new();
        self.modules.retain(|k| {
            if extra > 0 && k.gone.load(Ordering::Acquire) {
                extra -= 1;
                dropped.push(k.clone());
                return false;
            }
            true
        });
        for codes in self.by_entry.values_mut() {
            codes.retain(|c| !dropped.iter().any(|k| Arc::ptr_eq(k, &c.keep)));
        }
        self.by_entry.retain(|_, codes| !codes.is_empty());
    }
}

/// Code made for the definition at `entry` elsewhere, whose every question
/// `ask` answers as it was answered then.
pub(super) fn find(entry: Addr, layout: Option<Layout>, defer_epoch: u32, ask: &dyn Fn(Ask) -> Answer) -> Option<Found> {
    let t = table();
    let shared = t.by_entry.get(&entry)?.iter().find(|s| s.reads.layout == layout && s.reads.defer_epoch == defer_epoch && s.reads.answers.iter().all(|(q, a)| ask(*q) == *a))?;
    Some((shared.made, shared.trusted.clone(), shared.keep.clone()))
}

/// Offers what a compilation made to every VM of the process.
pub(super) fn offer(entry: Addr, keep: &Arc<Keep>, reads: Reads, made: (NativeFn, bool), trusted: Vec<Addr>) {
    let mut t = table();
    if !t.modules.iter().any(|k| Arc::ptr_eq(k, keep)) {
        return;
    }
    let codes = t.by_entry.entry(entry).or_default();
    if codes.len() >= PER_ENTRY {
        codes.remove(0);
    }
    codes.push(Shared { keep: keep.clone(), reads, made, trusted });
}
