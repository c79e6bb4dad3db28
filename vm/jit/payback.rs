//! When `auto` makes native code of a large definition: once the VM has
//! run long enough to pay for it, or the word has been called often
//! enough to.
//!
//! Owns the gate (`affordable`, `called_enough`); `mod.rs` asks it before
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
//! `all` asks for everything at once, as tests want.

use std::time::{Duration, Instant};

/// The process must have run this many times what starting to compile
/// costs.
pub(super) const PAYBACK: u32 = 12;

/// After the first, large definitions compiled take at most one part in
/// this many of the VM's run.
pub(super) const SHARE: u32 = 6;

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
pub(super) fn affordable(born: Instant, asked: &mut Duration, expected: Duration) -> bool {
    let age = born.elapsed();
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

/// What native code saves a call of a large definition, about (a move
/// word of a Zillions game: Gwangsanghui.zrf's `check` ran 156 s faster
/// over 88 million native entries).
pub(super) const CALL_SAVING: Duration = Duration::from_micros(1);

/// Whether a large definition called about `calls` times has been called
/// often enough that, called as often again, native code would save
/// twice what compiling it costs: a hot word compiles early, whatever
/// the VM's share (`affordable`) says.
pub(super) fn called_enough(calls: u32, expected: Duration) -> bool {
    CALL_SAVING.saturating_mul(calls) >= expected.saturating_mul(2)
}
