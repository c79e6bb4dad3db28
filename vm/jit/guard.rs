//! What a move word verifies first of the squares around its start, found
//! by reading its code: the generator's loop checks it before entering the
//! word, and passes the attempts that would fail it without entering.
//!
//! Most attempts of a move word end within a few instructions, at a
//! `verify` of a direction step or of a square's content (`nw verify
//! enemy? verify`). Entering native code for each costs more than the test.
//! A word's *guard* is the tests it makes before anything else can happen:
//! walking its code from the entry as an abstract machine, through calls
//! and `EXECUTE`s of known tokens, over instructions that only compute on
//! the stack or read (nothing stored, recorded, called in Rust; no branch,
//! nothing that could fail), it collects each direction step and each
//! square test that is verified, in order. Every test found is then
//! necessary: where one fails, the word would fail a `verify` no later,
//! having changed nothing. Where they all pass, the word runs as always
//! (and makes the same tests again).
//!
//! One thing differs between skipping and running a failing word: the
//! steps it would have taken from the budget (a call takes one) before it
//! failed, and the room on the stacks it would have needed. A test reached
//! before any step or push is exact either way (`Guard::free`); the others
//! are skipped only when each attempt starts with a fresh budget and
//! stacks that they cannot exhaust (the generator refills the budget per
//! word), which `MoveWords::prepare_guards` finds out per sweep.
//!
//! Owns `Guard`, as the generator's loop reads it, and
//! `Vm::move_word_guard`; reads the code, the dictionary and data space,
//! changes nothing.

use super::generator::{DROP_EMPTY, DROP_TAKEN};
use crate::ops::{Addr, Op};
use crate::vm::Vm;

/// Squares a guard looks at: tests past these are left to the word.
pub(crate) const GUARD_LEN: usize = 2;

/// One square a guard looks at: `here` stepped along `dir` (as the player
/// to move sees it; `NO_STEP`: where it is), the word failing where
/// there is no link; then its content, which must be of one of the
/// `classes`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
pub(crate) struct GuardSquare {
    pub dir: u32,
    pub classes: u32,
}

/// What a move word tests first: `squares[..len]`, of which the first
/// `free` are reached before any step or push.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub(crate) struct Guard {
    pub squares: [GuardSquare; GUARD_LEN],
    pub len: u32,
    pub free: u32,
}

impl Default for GuardSquare {
    fn default() -> Self {
        GuardSquare { dir: NO_STEP, classes: ANY_CLASS }
    }
}

pub(crate) const NO_STEP: u32 = u32::MAX;
/// The classes of a square's content, as bits of `GuardSquare::classes`:
/// empty, a piece of the player to move, a piece of another player
/// (`friend?` and `enemy?` as they are without `OnFriends?`).
pub(crate) const EMPTY_CLASS: u32 = 1;
pub(crate) const FRIEND_CLASS: u32 = 2;
pub(crate) const FOREIGN_CLASS: u32 = 4;
pub(crate) const ANY_CLASS: u32 = 7;

impl Guard {
    /// A step of `here` verified: it starts the next square (false: no
    /// room for it, the guard ends before it).
    fn step(&mut self, dir: u32, free: bool) -> bool {
        let n = self.len as usize;
        if n == GUARD_LEN {
            return false;
        }
        self.squares[n] = GuardSquare { dir, classes: ANY_CLASS };
        self.len += 1;
        self.note(free);
        true
    }

    /// A test of `here` verified: the square it looks at must be of
    /// `classes` as well.
    fn test(&mut self, classes: u32, free: bool) {
        if self.len == 0 {
            self.squares[0] = GuardSquare { dir: NO_STEP, classes };
            self.len = 1;
        } else {
            self.squares[self.len as usize - 1].classes &= classes;
        }
        self.note(free);
    }

    /// The directions its steps go along.
    pub(crate) fn steps(&self) -> impl Iterator<Item = u32> + '_ {
        self.squares[..self.len as usize].iter().map(|sq| sq.dir).filter(|&d| d != NO_STEP)
    }

    /// What a drop sweep's scan can check for it (`Drive::drop_requires`):
    /// its first test, of the square it starts on, when that is free and
    /// one the scan makes (empty, or taken); 0 otherwise.
    pub(crate) fn drop_scan(&self) -> u32 {
        let sq = self.squares[0];
        if self.free == 0 || sq.dir != NO_STEP {
            return 0;
        }
        match sq.classes {
            EMPTY_CLASS => DROP_EMPTY,
            c if c == FRIEND_CLASS | FOREIGN_CLASS => DROP_TAKEN,
            _ => 0,
        }
    }

    /// Whether it is only a test of the square it starts on that a drop
    /// sweep's scan makes.
    pub(crate) fn scanned(&self) -> bool {
        self.len == 1 && self.drop_scan() != 0
    }

    /// The last square is complete so far; it is free when all of it is.
    fn note(&mut self, free: bool) {
        let last = self.len - 1;
        if free && self.free == last {
            self.free = self.len;
        } else if !free {
            self.free = self.free.min(last);
        }
    }
}

/// The most a guard's prefix may nest calls, hold on the data stack and
/// take steps: `MoveWords::prepare_guards` asks the stacks and budget for this much
/// room, so the prefix can neither overflow nor exhaust them.
pub(crate) const GUARD_CALLS: u32 = 8;
pub(crate) const GUARD_CELLS: u32 = 16;
pub(crate) const GUARD_STEPS: u64 = 128;
/// Instructions read at most (each takes at most one step).
const GUARD_OPS: usize = 64;

/// A cell of the abstract data stack.
#[derive(Clone, Copy, PartialEq)]
enum Cell {
    Known(i32),
    Unknown,
    /// The truth value of a square test at `here`: its content is of
    /// these classes.
    Test(u32),
}

impl Vm {
    /// The guard of the move word whose code starts at `entry` (of no
    /// squares when it tests nothing first).
    pub(crate) fn move_word_guard(&mut self, entry: Addr) -> Guard {
        self.refresh_events();
        let mut guard = Guard::default();
        let friends_scripted = self.game.events.has_friends;
        let mut stack: Vec<Cell> = Vec::new();
        let mut returns: Vec<Addr> = Vec::new();
        let mut free = true;
        let mut ip = entry;
        for _ in 0..GUARD_OPS {
            let op = self.code.op(ip);
            ip += 1;
            // A direction step (its flag pushed, then verified), when the
            // next instruction verifies it.
            let verified = |ip: &mut Addr| -> bool {
                if self.code.op(*ip) != Op::GVerify {
                    return false;
                }
                *ip += 1;
                true
            };
            let test = |op: Op| -> Option<u32> {
                match op {
                    Op::GEmpty | Op::GEmptyVerify => Some(EMPTY_CLASS),
                    Op::GNotEmpty | Op::GNotEmptyVerify => Some(FRIEND_CLASS | FOREIGN_CLASS),
                    Op::GFriend | Op::GFriendVerify if !friends_scripted => Some(FRIEND_CLASS),
                    Op::GEnemy | Op::GEnemyVerify if !friends_scripted => Some(FOREIGN_CLASS),
                    _ => None,
                }
            };
            macro_rules! pop {
                () => {
                    match stack.pop() {
                        Some(c) => c,
                        None => break,
                    }
                };
            }
            macro_rules! push {
                ($c:expr) => {{
                    if stack.len() + 1 >= GUARD_CELLS as usize {
                        break;
                    }
                    stack.push($c);
                }};
            }
            macro_rules! unary {
                () => {{
                    pop!();
                    push!(Cell::Unknown);
                }};
            }
            macro_rules! binary {
                () => {{
                    pop!();
                    pop!();
                    push!(Cell::Unknown);
                }};
            }
            use Op::*;
            match op {
                Lit(n) => push!(Cell::Known(n)),
                Call(target) => {
                    if returns.len() >= GUARD_CALLS as usize {
                        break;
                    }
                    returns.push(ip);
                    ip = target;
                    free = false;
                }
                Exit => match returns.pop() {
                    Some(r) => ip = r,
                    None => break,
                },
                Execute => {
                    let Cell::Known(token) = pop!() else { break };
                    match self.dict.get(token).map(|w| (w.step, w.entry)) {
                        Some((Some(dir), _)) => {
                            if stack.len() + 1 >= GUARD_CELLS as usize || !verified(&mut ip) {
                                break;
                            }
                            free = false;
                            if !guard.step(dir, free) {
                                break;
                            }
                        }
                        Some((None, target)) => {
                            if returns.len() >= GUARD_CALLS as usize {
                                break;
                            }
                            returns.push(ip);
                            ip = target;
                            free = false;
                        }
                        None => break,
                    }
                }
                GStep(dir) => {
                    if stack.len() + 1 >= GUARD_CELLS as usize || !verified(&mut ip) {
                        break;
                    }
                    free = false;
                    if !guard.step(dir, free) {
                        break;
                    }
                }
                GStepVerify(dir) => {
                    if !guard.step(dir, free) {
                        break;
                    }
                }
                GEmptyVerify | GNotEmptyVerify | GFriendVerify | GEnemyVerify => match test(op) {
                    Some(classes) => guard.test(classes, free),
                    None => break,
                },
                GEmpty | GNotEmpty | GFriend | GEnemy => match test(op) {
                    Some(kind) => push!(Cell::Test(kind)),
                    None => break,
                },
                GVerify => match pop!() {
                    Cell::Test(classes) => guard.test(classes, free),
                    // A verify of anything else found so far passes or
                    // fails having changed nothing: the tests after it
                    // are still necessary.
                    Cell::Unknown => {}
                    Cell::Known(n) => {
                        if n == 0 {
                            break;
                        }
                    }
                },
                FetchAt(addr) => {
                    if self.mem.fetch(addr as i32).is_err() {
                        break;
                    }
                    push!(Cell::Unknown)
                }
                GHere | GFrom | GPlayer | GPieceType | GStalemate => push!(Cell::Unknown),
                Dup => {
                    let a = pop!();
                    push!(a);
                    push!(a);
                }
                Drop => {
                    pop!();
                }
                Swap => {
                    let (b, a) = (pop!(), pop!());
                    push!(b);
                    push!(a);
                }
                Over => {
                    let (b, a) = (pop!(), pop!());
                    push!(a);
                    push!(b);
                    push!(a);
                }
                Rot => {
                    let (c, b, a) = (pop!(), pop!(), pop!());
                    push!(b);
                    push!(c);
                    push!(a);
                }
                MinusRot => {
                    let (c, b, a) = (pop!(), pop!(), pop!());
                    push!(c);
                    push!(a);
                    push!(b);
                }
                Nip => {
                    let b = pop!();
                    pop!();
                    push!(b);
                }
                Tuck => {
                    let (b, a) = (pop!(), pop!());
                    push!(b);
                    push!(a);
                    push!(b);
                }
                TwoDup => {
                    let (b, a) = (pop!(), pop!());
                    for c in [a, b, a, b] {
                        push!(c);
                    }
                }
                TwoDrop => {
                    pop!();
                    pop!();
                }
                Inc | Dec | Add2 | Sub2 | Mul2 | Div2 | Abs | Negate | ZeroEq | ZeroNe | ZeroLt | ZeroGt | Invert | Cells
                | LitAdd(_) | LitMul(_) | LitEq(_) | LitNe(_) | LitLt(_) | LitGt(_) => unary!(),
                Add | Sub | Mul | Min | Max | Eq | Ne | Lt | Gt | Le | Ge | ULt | And | Or | Xor | LShift | RShift
                | LitMulAdd(_) => binary!(),
                // Anything else may store, record, run Rust or script,
                // branch or fail: the guard ends before it.
                _ => break,
            }
            free &= stack.is_empty();
        }
        guard
    }
}
