//! When `auto` starts making native code: once the process has run long
//! enough to pay for starting.
//!
//! Owns the process's gate (`affordable`); `mod.rs` asks it before it
//! sends a definition to the compiler thread (a generator loop compiles
//! in under a millisecond, and is never held back). Reads nothing of a VM.
//!
//! Why: a hot word is known early (it loops, or native code calls it
//! often), but not how long the run will last. Starting the compiler
//! thread and compiling the first definitions costs 2 to 10 ms of a core;
//! a one-shot `moves` or `check` of a small game runs 3 to 15 ms in all.
//! Asked at once, the compiler thread took as much CPU as the run itself
//! and made it 10 to 25 % slower in wall time on a busy 2-core machine,
//! for native code it never used (Game of Life's `moves`: four move words,
//! 10 ms of compiling, none of it run). So nothing large (over `SMALL`)
//! is compiled until the process has run `PAYBACK` times what starting
//! costs (the thread, and the first definition asked for). From then on
//! the gate stays open: a long run (a tournament, a search) compiles as
//! soon as a word is hot. Small words are never held back: holding them
//! too left compare.py's programs (20–90 ms) interpreted for most of their
//! run (vm/C 3.8 -> 7.4), and draughts' one-shot `perft 5` without its
//! native move words. Throttling
//! every later compilation the same way was tried: the Splut! Duel
//! tournament's later words came so late that native callers kept falling
//! back into the interpreter for them (470,000 deoptimizations in two
//! games instead of 25,000; 4 games took 4.45 s instead of 2.15 s).
//! `all` asks for everything at once, as tests want.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The process must have run this many times what starting to compile
/// costs.
pub(super) const PAYBACK: u32 = 12;

/// What starting a compiler thread costs before its first definition:
/// Cranelift's module and the trampoline (about 2 ms of a core, `perf` of
/// one-shot `moves` runs).
pub(super) const START_COST: Duration = Duration::from_millis(2);

/// What compiles in about this or less is never held back: a small loop
/// word (a benchmark's, a game's helper) pays for itself in a few
/// hundred calls, and waiting for the gate cost compare.py's programs
/// half their speed.
pub(super) const SMALL: Duration = Duration::from_millis(3);

/// The gate has opened in this process.
static OPEN: AtomicBool = AtomicBool::new(false);

/// Whether compiling may start, `expected` being what the first thing
/// asked for costs: the time since `started` (the first VM of the
/// process) has paid for it and the thread's start.
pub(super) fn affordable(started: Option<&Instant>, expected: Duration) -> bool {
    if expected <= SMALL || OPEN.load(Ordering::Relaxed) {
        return true;
    }
    let run = started.map_or(Duration::ZERO, Instant::elapsed);
    let paid = run >= (START_COST + expected).saturating_mul(PAYBACK);
    if paid {
        OPEN.store(true, Ordering::Relaxed);
    }
    paid
}
