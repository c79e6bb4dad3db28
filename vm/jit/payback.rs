//! When `auto` makes native code of a large definition: once the VM has
//! run long enough to pay for it, or the word has been called often
//! enough to.
//!
//! Owns the gate (`affordable`, `called_enough`, `held`, `Timed`,
//! `core_to_spare`); `mod.rs` asks it before
//! it sends a large definition to the compiler thread (small ones, and
//! the generator loops, which compile in under a millisecond, are never
//! held back). Reads nothing of a VM but what it is handed.
//!
//! Why: a hot word is known early (it loops, or native code calls it
//! often), but not how long the run will last. Starting the compiler
//! thread and compiling the first definitions costs 2 to 10 ms of a core;
//! a one-shot `moves` or `check` of a small game runs 3 to 15 ms in all.
//! Asked at once, the compiler thread took as much CPU as the run itself
//! and made it 10 to 25 % slower in wall time on a busy 2-core machine,
//! for native code it never used (Game of Life's `moves`: four move words,
//! 10 ms of compiling, none of it run). So nothing large (over `SMALL`)
//! is compiled until the VM has run `PAYBACK` times what starting costs
//! (the thread, and the first definition asked for); after the first
//! `FREE` of compiling, everything compiled takes at most one part in
//! `SHARE` of the VM's run — unless a word has been called so often that
//! native code, called as often again, saves twice what it costs
//! (`called_enough`). The run is counted from the end of loading (a
//! large rules file loads in tenths of a second, which say nothing of how
//! long its games run). Small words within `FREE` are never held back:
//! holding them left compare.py's programs (20–90 ms) interpreted for
//! most of their run (vm/C 3.8 -> 7.4), and draughts' one-shot `perft 5`
//! without its native move words; past it, a `check` running a variant
//! per core compiled a second of small words the games did not repay.
//!
//! What was measured (2-core machine, `check` runs two variants at once):
//! - a gate for the whole process that stayed open once the process had
//!   run 12× the first definition's cost: `check` of one Zillions file
//!   with large move words compiled them all in a run too short to use
//!   them (Ko Shogi 3.9 s against 2.3 s with `--jit off`, Mancala's
//!   Knights 3.4 against 2.4, Nine-Tile Cyvasse 8.5 against 5.8);
//! - the share alone (1/6): those three as fast as `off`, but a long run
//!   with hundreds of hot large move words got them late (Gwangsanghui's
//!   `check` 74 s against 56);
//! - share and calls together: Ko Shogi 2.25 s, Mancala's Knights 2.3,
//!   Gwangsanghui 62 s, the Splut! Duel tournament 5 % slower than with
//!   the open gate (18.1–18.5 s against 17.3);
//! - throttling every compilation by the process's age (each word's own
//!   payback) made the Duel tournament's later words come so late that
//!   native callers kept falling back into the interpreter for them
//!   (470,000 deoptimizations in two games instead of 25,000).
//!
//!
//! Since, three things decide by what the run shows rather than by rule:
//! - **the move words' own timings** (`Timed`): the generator times some
//!   interpreted attempts of a move word, and a word so timed is
//!   compiled by what native code would save it (`called_enough` with
//!   half its time), not by `CALL_SAVING` or the share — unless a core is
//!   spare;
//! - **a spare core** (`core_to_spare`, counting the threads that hold a
//!   VM): with one, the compiler thread's work costs no wall time, and
//!   the rules above apply as they were; without one (`check` and
//!   tournaments run a VM per core), what is compiled is what each VM
//!   waits for;
//! - **a game's start is held** (`held`) for `PAYBACK` times the cost of
//!   starting the thread when no core is spare.
//!
//! - **a crowded game VM** (a game, no core spare) compiles what is not
//!   timed within one part in `CROWDED_SHARE` of its run, small
//!   definitions too (no `FREE`): `check` runs a variant per core, most
//!   of them for tenths of a second, and each VM's first 20 ms of small
//!   helpers (CheckersCollection.zrf: 60 ms compiled over 5 of its 37
//!   variants, for 90,000 native entries) cost more than they saved;
//! - **with a core to spare, a timed word needs to repay its cost once**
//!   (`repaid`), not twice: kamisado.zrf's first variant (one VM, a core
//!   spare) compiled eight dragon move words of 15 ms each, by the share,
//!   whose attempts ran 300–900 ns interpreted; they saved under a
//!   millisecond each, and the run was 3.9 % slower than `off`.
//!
//! Measured together (side by side, `--jit off` against `auto`, `check`
//! with its two variants at once): Ragnarok.zrf's 15 variants 1.09× →
//! 1.00×, CheckersCollection.zrf's 37 short ones 1.20× → 1.02–1.05×,
//! kamisado.zrf 1.07–1.10× → 1.05×; Gwangsanghui.zrf (one variant, a core
//! spare) 0.85× `off` as before. With the two rules above, unpaid words
//! told apart inside the interpreter's loop (`Jit::skip_unpaid`) and a
//! thread's slot table kept from one VM to the next (`SPARE_SLOTS`):
//! CheckersCollection.zrf 1.06× → 1.02–1.05×, pasang.zrf (39 variants)
//! 1.05× → 1.02–1.03×, kamisado.zrf 1.06× → 1.02–1.03×, Gwangsanghui.zrf 0.78×
//! (wall, medians of 12; the machine's noise is ±3–5 %).
//!
//! `all` asks for everything at once, as tests want.

use std::collections::HashMap;
use std::sync::Mutex;
use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// The process must have run this many times what starting to compile
/// costs.
pub(super) const PAYBACK: u32 = 12;

/// After the first, large definitions compiled take at most one part in
/// this many of the VM's run.
pub(super) const SHARE: u32 = 6;

/// A game's VM with no core to spare: what it compiles takes at most one
/// part in this many of its run, small definitions too.
pub(super) const CROWDED_SHARE: u32 = 30;

/// What starting a compiler thread costs before its first definition:
/// Cranelift's module and the trampoline (about 2 ms of a core, `perf` of
/// one-shot `moves` runs).
pub(super) const START_COST: Duration = Duration::from_millis(2);

/// What compiles in about this or less is never held back: a small loop
/// word (a benchmark's, a game's helper) pays for itself in a few
/// hundred calls, and waiting for the gate cost compare.py's programs
/// half their speed.
pub(super) const SMALL: Duration = Duration::from_millis(3);

/// What the first definitions a VM asks for may cost in all before
/// small ones, too, wait for the VM's run to pay (`affordable`): a few
/// small loop words, compiled at once.
pub(super) const FREE: Duration = Duration::from_millis(20);

/// Whether compiling a definition expected to cost `expected` may start
/// now, `asked` being what the definitions compiled so far were expected
/// to cost (a yes adds to it). Small ones may within the first `FREE`,
/// and after it once the VM has run (since `born`) `SHARE` times what
/// was asked; large ones once it has run `PAYBACK` times what starting
/// the thread and this one cost, besides that share.
pub(super) fn affordable(born: Instant, asked: &mut Duration, expected: Duration, crowded: bool) -> bool {
    let age = born.elapsed();
    if crowded {
        let paid = age >= (*asked + expected).saturating_mul(CROWDED_SHARE);
        if paid {
            *asked += expected;
        }
        return paid;
    }
    let share = asked.saturating_mul(SHARE);
    let paid = if expected <= SMALL {
        *asked + expected <= FREE || age >= share
    } else {
        age >= (START_COST + expected).saturating_mul(PAYBACK) + share
    };
    if paid {
        *asked += expected;
    }
    paid
}

/// Whether a game's VM that has run (since `born`) this long waits
/// before it compiles anything: with no core to spare, until it has run
/// `PAYBACK` times what starting the compiler thread costs.
///
/// Why: a game's work is many short calls (events, move words), so a word
/// held back is asked again a few calls later at no loss; but starting
/// the thread (its module, the trampoline, a copy of the code) costs 2 to
/// 5 ms of a core, which a variant that runs for 10 ms never pays back.
/// `check` of CheckersCollection.zrf (37 short variants, one per core)
/// ran 15 % slower under `auto` than `off` for it. A program (not a game)
/// is never held: its loop word may be called once, and run the whole run
/// (compare.py's); nor is anything when a core is spare, whose work costs
/// no wall time (a one-shot `perft`).
pub(super) fn held(born: Instant, game: bool) -> bool {
    game && born.elapsed() < START_COST.saturating_mul(PAYBACK) && !core_to_spare()
}

/// What native code saves a call of a large definition, about (a move
/// word of a Zillions game: Gwangsanghui.zrf's `check` ran 156 s faster
/// over 88 million native entries).
pub(super) const CALL_SAVING: Duration = Duration::from_micros(1);

/// Whether a large definition called about `calls` times has been called
/// often enough that, called as often again, native code saving `saving`
/// a call would save twice what compiling it costs: a hot word compiles
/// early, whatever the VM's share (`affordable`) says.
pub(super) fn called_enough(calls: u32, saving: Duration, expected: Duration) -> bool {
    saving.saturating_mul(calls) >= expected.saturating_mul(2)
}

/// Whether native code saving `saving` a call, called `calls` times
/// again, would save what compiling it costs once: the bar for a timed
/// word when a core is spare (`core_to_spare`), where compiling costs the
/// run its CPU but hardly any wall time.
pub(super) fn repaid(calls: u32, saving: Duration, expected: Duration) -> bool {
    saving.saturating_mul(calls) >= expected
}

/// The interpreted attempts of a move word the generator timed (a sample:
/// its first ones, then one in `TIME_EVERY`, `generator.rs`).
///
/// Why: what native code saves a move word's call ranges over a hundred
/// times. A Zillions game's drop word tried on every empty square, whose
/// `verify` fails at once, runs in 60–250 ns interpreted and saves a
/// hundred; Gwangsanghui's move words run 2.5–4.6 µs and save about 1.8.
/// `CALL_SAVING` made `check` of Ragnarok.zrf (15 variants) compile 1.2 s
/// of drop words that saved less than they cost. The generator runs each
/// attempt from the host, so one is timed whole, cheaply.
#[derive(Clone, Copy, Default)]
pub(crate) struct Timed {
    pub spent: Duration,
    pub calls: u32,
}

/// Timed attempts before their mean is trusted.
const TIMED_ENOUGH: u32 = 4;

impl Timed {
    /// What native code would save an attempt, about: half its
    /// interpreted time (native, Ragnarok's drop words ran in a third of
    /// it, Gwangsanghui's move words in about half); `None` until enough
    /// attempts were timed.
    pub fn saving(&self) -> Option<Duration> {
        (self.calls >= TIMED_ENOUGH).then(|| self.spent / self.calls / 2)
    }
}

/// The threads of this process that hold a VM, each with how many
/// (`Occupant`): the cores the runs keep busy.
static OCCUPIED: Mutex<Option<HashMap<ThreadId, u32>>> = Mutex::new(None);

/// A hold on the current thread's core, for `core_to_spare`: each VM's
/// JIT state has one, and a worker thread that makes VMs one after the
/// other (`check`) holds one for its life, since translating a Zillions
/// file before its VM exists keeps the core as busy. Let go on the thread
/// that made it.
pub struct Occupant(ThreadId);

impl Occupant {
    #[allow(clippy::new_without_default)]
    pub fn new() -> Occupant {
        let thread = std::thread::current().id();
        let mut map = OCCUPIED.lock().unwrap_or_else(|e| e.into_inner());
        *map.get_or_insert_with(HashMap::new).entry(thread).or_default() += 1;
        Occupant(thread)
    }
}

impl Drop for Occupant {
    fn drop(&mut self) {
        let mut map = OCCUPIED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(map) = map.as_mut() {
            if let Some(n) = map.get_mut(&self.0) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&self.0);
                }
            }
        }
    }
}

/// Whether a core is left over by the threads running VMs, for the
/// compiler thread: its work then costs the run no wall time, and large
/// definitions are taken by the VM's share and by `CALL_SAVING`
/// (`affordable`, `called_enough`), sooner than their timed attempts
/// alone would let them.
///
/// Why: with a core to spare, Gwangsanghui.zrf's `check` (one variant)
/// ran 11 % faster with its move words compiled early than by their
/// timings; `check` of a file with many variants runs one per core, where
/// every millisecond compiled is one the variants wait.
pub(super) fn core_to_spare() -> bool {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let cores = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let busy = OCCUPIED.lock().unwrap_or_else(|e| e.into_inner()).as_ref().map_or(0, HashMap::len);
    busy < cores
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_words_saving_is_half_its_timed_attempts_once_there_are_enough() {
        let mut t = Timed { spent: Duration::from_micros(3), calls: 3 };
        assert_eq!(t.saving(), None);
        t.spent += Duration::from_micros(1);
        t.calls += 1;
        assert_eq!(t.saving(), Some(Duration::from_nanos(500)));
        // 4 ms of compiling pays after 16,000 calls saving 500 ns.
        assert!(!called_enough(15_999, Duration::from_nanos(500), Duration::from_millis(4)));
        assert!(called_enough(16_000, Duration::from_nanos(500), Duration::from_millis(4)));
    }

    #[test]
    fn with_every_core_holding_a_vm_none_is_spare_and_a_game_starts_held() {
        // Other tests' VMs only add to the threads counted.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let (held_tx, held_rx) = std::sync::mpsc::channel();
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let go_rx = std::sync::Arc::new(std::sync::Mutex::new(go_rx));
        let threads: Vec<_> = (0..cores)
            .map(|_| {
                let (held_tx, go_rx) = (held_tx.clone(), go_rx.clone());
                std::thread::spawn(move || {
                    let _core = Occupant::new();
                    held_tx.send(()).unwrap();
                    let _ = go_rx.lock().unwrap().recv();
                })
            })
            .collect();
        for _ in 0..cores {
            held_rx.recv().unwrap();
        }
        assert!(!core_to_spare());
        assert!(held(Instant::now(), true));
        // A program is never held, nor a game that has run long enough.
        assert!(!held(Instant::now(), false));
        let long_ago = Instant::now().checked_sub(START_COST * PAYBACK * 2);
        assert!(long_ago.is_none_or(|t| !held(t, true)));
        for _ in 0..cores {
            go_tx.send(()).unwrap();
        }
        for t in threads {
            t.join().unwrap();
        }
    }
}
