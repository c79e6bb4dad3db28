//! Static stack shapes: the data and return stack depths at every
//! instruction of a definition, relative to its entry, when they do not
//! depend on the path taken (as in most Forth, and in all of the
//! benchmarks and move words we have seen).
//!
//! With a shape, `translate.rs` checks the stacks once, at entry, instead
//! of at every instruction, and keeps stack cells (loop indices included)
//! in machine registers across branches and loops, storing them only where
//! other code may read the stacks (calls, host words, deoptimization).
//!
//! Owns the analysis and the stack effects it assumes. A host word's
//! effect comes from its declared `( before -- after )`; the translator
//! checks the depths after each host word and call anyway, and hands the
//! rest of the definition to the interpreter when they differ, so a wrong
//! declaration costs speed, never correctness.

use crate::ops::{Addr, Op};
use std::collections::HashMap;
use std::rc::Rc;

/// What running a definition does to the stacks, and what it must find
/// there: all relative to its entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) struct Effect {
    /// Data cells it needs at entry.
    pub need: i32,
    /// Depth change from entry to EXIT.
    pub delta: i32,
    /// The most data cells above the entry depth at any point.
    pub grow: i32,
    /// Return-stack cells it needs at entry, and the most it adds.
    pub rneed: i32,
    pub rgrow: i32,
}

/// The depths at each instruction (`None`: not reachable).
pub(super) struct Shape {
    pub at: Vec<Option<(i32, i32)>>,
    pub effect: Effect,
}

/// Host word ids to their declared `(ins, outs)`, when declared plainly.
pub(super) type HostEffects<'a> = &'a dyn Fn(u32) -> Option<(u32, u32)>;
pub(super) type Definitions<'a> = &'a dyn Fn(Addr) -> Option<Vec<Op>>;
/// DEFER slots to the entry of the word each holds now.
pub(super) type Defers<'a> = &'a dyn Fn(u32) -> Option<Addr>;

/// How many nested callees the analysis follows.
const DEPTH: usize = 8;

/// The analysis, remembered per definition.
pub(super) struct Shapes<'a> {
    definitions: Definitions<'a>,
    hosts: HostEffects<'a>,
    defers: Defers<'a>,
    known: HashMap<Addr, Option<Rc<Shape>>>,
    busy: Vec<Addr>,
}

/// The effect of one instruction that is not flow: (data cells needed,
/// depth change, return cells needed, return depth change).
fn op_effect(op: Op, hosts: HostEffects) -> Option<(i32, i32, i32, i32)> {
    use Op::*;
    let n = op.needs() as i32;
    Some(match op {
        // EXECUTE as a direction step is; the translator checks after a word.
        Execute => (1, 0, 0, 0),
        Pick | Roll | QDup | Deferred(_) => return None,
        Host(id) => {
            let (ins, outs) = hosts(id)?;
            (ins as i32, outs as i32 - ins as i32, 0, 0)
        }
        Do => (2, -2, 0, 2),
        I | ILit(_) | ICell(_) | IFetchCell(_) | ICFetch(_) => (n, 1, 2, 0),
        IAdd => (1, 0, 2, 0),
        IStoreCell(_) | ICStore(_) => (1, -1, 2, 0),
        J => (0, 1, 4, 0),
        K => (0, 1, 6, 0),
        ToR => (1, -1, 0, 1),
        RFrom => (0, 1, 1, -1),
        RFetch => (0, 1, 1, 0),
        Unloop => (0, 0, 2, -2),
        Lit(_) | Dup | Over | Tuck | Depth | Here | Count | FetchAt(_) | GStep(_) | GHere | GFrom | GPlayer | GPieceType | GStalemate | GEmpty
        | GNotEmpty | GFriend | GEnemy => (n, 1, 0, 0),
        TwoDup | TwoOver => (n, 2, 0, 0),
        Drop | Nip | Add | Sub | Mul | Div | Mod | Min | Max | Eq | Ne | Lt | Gt | Le | Ge | ULt | And | Or
        | Xor | LShift | RShift | IncMem | DecMem | On | Off | Allot | Comma | CComma | StoreAt(_) | GVerify
        | FetchAdd | CellsAdd | LitMulAdd(_) | SetDefer(_) | AbortQuote(_) | JumpIfZero(_) | JumpIfNonZero(_)
        | JumpUnlessLitEq(..) | JumpUnlessLitNe(..) | JumpUnlessLitLt(..) | JumpUnlessLitGt(..)
        | JumpUnlessLitLe(..) | JumpUnlessLitGe(..) | GFriendOf | GEnemyOf | GTo => (n, -1, 0, 0),
        TwoDrop | Store | CStore | PlusStore | StoreOff(_) | CStoreOff(_) | StoreCell(_) | JumpUnlessAnd(_)
        | JumpUnlessEq(_) | JumpUnlessNe(_) | JumpUnlessLt(_) | JumpUnlessGt(_) | JumpUnlessLe(_)
        | JumpUnlessGe(_) => (n, -2, 0, 0),
        MulDiv => (3, -2, 0, 0),
        Fill | Move => (3, -3, 0, 0),
        Swap | Rot | MinusRot | TwoSwap | DivMod | Inc | Dec | Add2 | Sub2 | Mul2 | Div2 | Abs | Negate
        | ZeroEq | ZeroNe | ZeroLt | ZeroGt | Invert | Fetch | CFetch | Cells | GEmptyAt | GPieceAt
        | GPlayerAt | GPieceValue | LitAdd(_) | LitMul(_) | LitDiv(_) | LitMod(_) | LitEq(_) | LitNe(_) | LitLt(_)
        | LitGt(_) | OverAdd | FetchOff(_) | CFetchOff(_) | CellsLit(_) | FetchCell(_) | DupJumpIfZero(_)
        | DupJumpUnlessLitEq(..) | DupJumpUnlessLitNe(..) | DupJumpUnlessLitLt(..)
        | DupJumpUnlessLitGt(..) | DupJumpUnlessLitLe(..) | DupJumpUnlessLitGe(..) => (n, 0, 0, 0),
        Jump(_) | DoesSet(_) | CompileXt(_) | DotQuote(_) | GBack | GStepVerify(_) | GEmptyVerify
        | GNotEmptyVerify | GFriendVerify | GEnemyVerify | AddAt(..) | IncAt(_) => (n, 0, 0, 0),
        PlusLoop(_) => (1, -1, 2, 0),
        Loop(_) => (0, 0, 2, 0),
        Leave(_) => (0, 0, 2, -2),
        QDo(_) => (2, -2, 0, 0),
        Call(_) | Exit => return None,
    })
}


impl<'a> Shapes<'a> {
    pub fn new(definitions: Definitions<'a>, hosts: HostEffects<'a>, defers: Defers<'a>) -> Self {
        Shapes { definitions, hosts, defers, known: HashMap::new(), busy: Vec::new() }
    }

    /// The effect of the word DEFER slot `slot` holds now (`IS` may change
    /// it: the translator checks the depths after the call).
    /// The entry of deferred word `slot`'s target now.
    pub fn deferred_entry(&self, slot: u32) -> Option<Addr> {
        (self.defers)(slot)
    }

    pub fn deferred(&mut self, slot: u32) -> Option<Effect> {
        let entry = (self.defers)(slot)?;
        self.callee(entry)
    }

    pub fn definitions(&self) -> Definitions<'a> {
        self.definitions
    }

    /// The depth change of an instruction that is not flow.
    pub fn delta(&self, op: Op) -> Option<i32> {
        op_effect(op, self.hosts).map(|(_, d, _, _)| d)
    }

    /// The shape of the definition at `start`, if it has one.
    pub fn of(&mut self, start: Addr, ops: &[Op]) -> Option<Rc<Shape>> {
        if let Some(s) = self.known.get(&start) {
            return s.clone();
        }
        // The walk indexes by jump target: every one must land inside.
        if !super::translate::self_contained(start, ops) {
            return None;
        }
        if self.busy.contains(&start) || self.busy.len() >= DEPTH {
            return None;
        }
        self.busy.push(start);
        let shape = self.fixpoint(start, ops).map(Rc::new);
        self.busy.pop();
        self.known.insert(start, shape.clone());
        shape
    }

    /// The effect of the definition at `entry`.
    pub fn callee(&mut self, entry: Addr) -> Option<Effect> {
        if let Some(s) = self.known.get(&entry) {
            return s.as_ref().map(|s| s.effect);
        }
        let ops = (self.definitions)(entry)?;
        self.of(entry, &ops).map(|s| s.effect)
    }

    /// A definition that calls itself: first without the paths through its
    /// own calls, then with the effect found, until it settles.
    fn fixpoint(&mut self, start: Addr, ops: &[Op]) -> Option<Shape> {
        let mut own: Option<Effect> = None;
        for _ in 0..4 {
            let (shape, recursive) = self.walk(start, ops, own)?;
            if !recursive || own == Some(shape.effect) {
                return Some(shape);
            }
            own = Some(shape.effect);
        }
        None
    }

    /// One pass over the definition's paths; also says whether it calls
    /// itself.
    fn walk(&mut self, start: Addr, ops: &[Op], own: Option<Effect>) -> Option<(Shape, bool)> {
        let mut at: Vec<Option<(i32, i32)>> = vec![None; ops.len()];
        let mut e = Effect::default();
        let mut delta: Option<i32> = None;
        let mut recursive = false;
        let mut work = vec![0usize];
        at[0] = Some((0, 0));
        let index = |t: Addr| (t - start) as usize;
        let targets: Vec<usize> = ops.iter().filter_map(|op| op.target()).map(index).collect();
        while let Some(i) = work.pop() {
            let (d, r) = at[i]?;
            let op = ops[i];
            let mut next: [Option<(usize, i32, i32)>; 2] = [None, None];
            // `?DUP IF`, `?DUP 0= IF`, `?DUP WHILE` (nothing else jumping
            // to the branch): one branch that keeps the value where it is
            // not zero.
            let pair = match (op, ops.get(i + 1)) {
                (Op::QDup, Some(&b @ (Op::JumpIfZero(t) | Op::JumpIfNonZero(t)))) if !targets.contains(&(i + 1)) => Some((b, index(t))),
                _ => None,
            };
            match (op, pair) {
                (_, Some((b, t))) => {
                    e.need = e.need.max(1 - d);
                    e.grow = e.grow.max(d + 1);
                    let (kept, dropped) = if matches!(b, Op::JumpIfZero(_)) { (i + 2, t) } else { (t, i + 2) };
                    next = [Some((kept, d, r)), Some((dropped, d - 1, r))];
                }
                (Op::Exit, _) => {
                    if delta.is_some_and(|x| x != d) {
                        return None;
                    }
                    delta = Some(d);
                }
                (Op::Deferred(slot), _) => {
                    // Called, never in place: the callee checks itself.
                    let c = self.deferred(slot)?;
                    next[0] = Some((i + 1, d + c.delta, r));
                }
                (Op::Call(a), _) => {
                    // What a callee needs counts here, for a callee translated
                    // in place skips its own checks; a call of the definition
                    // itself is never in place, and checks its own entry.
                    let eff = if a == start {
                        recursive = true;
                        own
                    } else {
                        let c = self.callee(a)?;
                        e.need = e.need.max(c.need - d);
                        e.grow = e.grow.max(d + c.grow);
                        e.rneed = e.rneed.max(c.rneed - r);
                        e.rgrow = e.rgrow.max(r + c.rgrow);
                        Some(c)
                    };
                    if let Some(c) = eff {
                        next[0] = Some((i + 1, d + c.delta, r));
                    }
                }
                _ => {
                    let (n, dd, rn, rd) = op_effect(op, self.hosts)?;
                    e.need = e.need.max(n - d);
                    e.grow = e.grow.max(d + dd.max(0));
                    e.rneed = e.rneed.max(rn - r);
                    e.rgrow = e.rgrow.max(r + rd.max(0));
                    let (d1, r1) = (d + dd, r + rd);
                    match op {
                        Op::Jump(t) | Op::Leave(t) => next[0] = Some((index(t), d1, r1)),
                        Op::QDo(t) => {
                            e.rgrow = e.rgrow.max(r + 2);
                            next = [Some((index(t), d1, r)), Some((i + 1, d1, r + 2))];
                        }
                        Op::Loop(t) | Op::PlusLoop(t) => next = [Some((index(t), d1, r)), Some((i + 1, d1, r - 2))],
                        _ => {
                            next[0] = Some((i + 1, d1, r1));
                            if let Some(t) = op.target() {
                                next[1] = Some((index(t), d1, r1));
                            }
                        }
                    }
                }
            }
            for (j, d, r) in next.into_iter().flatten() {
                match at.get(j)? {
                    Some(s) if *s != (d, r) => return None,
                    Some(_) => {}
                    None => {
                        at[j] = Some((d, r));
                        work.push(j);
                    }
                }
            }
        }
        e.delta = delta?;
        Some((Shape { at, effect: e }, recursive))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declared_effects_parse_when_plain() {
        assert_eq!(crate::vm::effect_arity("( a b -- c )"), Some((2, 1)));
        assert_eq!(crate::vm::effect_arity("( -- )"), Some((0, 0)));
        assert_eq!(crate::vm::effect_arity("( player... -- )"), None);
        assert_eq!(crate::vm::effect_arity("( \"name\" -- )"), None);
        assert_eq!(crate::vm::effect_arity("( x -- x | )"), None);
    }

    fn shape(ops: &[Op]) -> Option<Effect> {
        let defs = |_| None;
        let hosts = |_| None;
        Shapes::new(&defs, &hosts, &|_| None).of(100, ops).map(|s| s.effect)
    }

    #[test]
    fn branches_that_agree_have_a_shape() {
        use Op::*;
        // DUP 2 < IF ELSE DUP 1- RECURSE SWAP 2 - RECURSE + THEN
        let fib = [Dup, JumpUnlessLitLt(2, 103), Jump(110), Dup, Dec, Call(100), Swap, Sub2, Call(100), Add, Exit];
        let e = shape(&fib).expect("fib has a shape");
        assert_eq!((e.need, e.delta), (1, 0));
        // 0= IF DROP THEN: one path drops, the other not.
        assert_eq!(shape(&[JumpIfNonZero(102), Drop, Exit]), None);
        // A loop that grows the stack.
        assert_eq!(shape(&[Lit(5), Lit(0), Do, I, Loop(103), Exit]), None);
        let e = shape(&[Lit(5), Lit(0), Do, I, Drop, Loop(103), Exit]).expect("balanced loop");
        assert_eq!((e.delta, e.grow, e.rgrow), (0, 2, 2));
    }
}
