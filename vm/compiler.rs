//! The compiler: colon definitions into instructions, and the optimizer
//! that works on them as they are emitted.
//!
//! Owns `emit` and everything it does to the code after the fuse barrier
//! (the last address a jump may land on or that was recorded): pairs fuse
//! into superinstructions (`ops::fuse`), repeatedly; longer idioms are
//! rewritten; literals move through `>R ... R>`; short WHILE conditions
//! are copied to the loop's end; small words are inlined; jumps to jumps
//! are threaded at `;`. Code before the barrier is never touched, which is
//! what keeps `Code::remove` safe (see `code.rs`). `tests/optimizer.rs`
//! checks every rewrite against the same program run unfused.

use crate::code::OpInfo;
use crate::dictionary::{Word, WordKind};
use crate::error::{ErrorKind, VmError, VmResult};
use crate::lexer::Pos;
use crate::ops::{fuse, Addr, Op};
use crate::state::Action;
use crate::vm::{Definition, Vm};

/// Straight-line colon words up to this many instructions are copied into
/// their callers instead of called.
const INLINE_MAX: u32 = 10;

impl Vm {
    /// The definition being compiled, or an error naming the word that
    /// needed one.
    pub(crate) fn definition(&mut self, word: &str) -> VmResult<&mut Definition> {
        self.def.as_mut().ok_or_else(|| ErrorKind::CompileOnly(word.to_string()).into())
    }

    /// Appends an instruction to the code being compiled and optimizes the
    /// straight-line code after the fuse barrier: pairs fuse into
    /// superinstructions (repeatedly, so a fused op may fuse again with
    /// the one before it), and longer idioms are rewritten. Returns the
    /// address of the instruction that now holds it.
    pub fn emit(&mut self, op: Op, pos: Pos) -> Addr {
        let word = self.def.as_ref().map_or(0, |d| d.xt);
        self.emit_with_info(op, OpInfo { pos, word, inlined: None })
    }

    fn emit_with_info(&mut self, op: Op, info: OpInfo) -> Addr {
        let op = match op {
            Op::RFrom => self.literal_through_return_stack().unwrap_or(op),
            _ => op,
        };
        let mut at = self.code.push(op, info);
        loop {
            if let Some(shorter) = self.rewrite_idiom(at) {
                at = shorter;
                continue;
            }
            if at <= self.fuse_barrier {
                break;
            }
            let (prev, next) = (self.code.op(at - 1), self.code.op(at));
            let Some(fused) = fuse(prev, next) else { break };
            // The fused op fails where the second part would have, unless
            // the first is the one that can fail (`@ +` fails at the `@`).
            let info = match prev {
                Op::Lit(_) | Op::LitAdd(_) | Op::I | Op::ILit(_) | Op::ICell(_) | Op::Cells | Op::CellsLit(_) => self.code.info(at).copied(),
                _ => self.code.info(at - 1).copied(),
            };
            self.code.remove(at, 1);
            at -= 1;
            self.code.set(at, fused);
            if let Some(info) = info {
                self.code.set_info(at, info);
            }
        }
        // Nothing may fuse into a jump or move it: its address is recorded
        // (IF, WHILE) and its target is fixed.
        let last = self.code.op(at);
        if last.target().is_some() || last == Op::Exit {
            self.fuse_barrier = self.code.next_addr();
        }
        at
    }

    /// Rewrites an idiom ending at `at` (the last instruction) into fewer
    /// instructions; returns the new last address.
    fn rewrite_idiom(&mut self, at: Addr) -> Option<Addr> {
        use Op::*;
        let window = |n: u32| -> Option<Vec<Op>> {
            (at + 1 >= self.fuse_barrier + n).then(|| (at + 1 - n..=at).map(|a| self.code.op(a)).collect())
        };
        // `a b SWAP` where a and b only push: `b a`.
        if let Some([a, b, Swap]) = window(3).as_deref() {
            if a.only_pushes() && b.only_pushes() {
                let (a, b) = (*a, *b);
                let info = (self.code.info(at - 2).copied(), self.code.info(at - 1).copied());
                self.code.remove(at, 1);
                self.code.set(at - 2, b);
                self.code.set(at - 1, a);
                if let (Some(ia), Some(ib)) = info {
                    self.code.set_info(at - 2, ib);
                    self.code.set_info(at - 1, ia);
                }
                return Some(at - 1);
            }
        }
        // `v @ n + v !`: add to a variable in place.
        if let Some([FetchAt(a), change, StoreAt(b)]) = window(3).as_deref() {
            let n = match change {
                Inc => Some(1),
                Dec => Some(-1),
                LitAdd(n) => i16::try_from(*n).ok(),
                _ => None,
            };
            if let (Some(n), true) = (n, a == b) {
                let op = if n == 1 { IncAt(*a) } else { AddAt(n, *a) };
                self.code.remove(at - 1, 2);
                self.code.set(at - 2, op);
                return Some(at - 2);
            }
        }
        // `DUP @ 1+ SWAP !` is `++` (and `1-` is `--`).
        let replacement = match window(5)?[..] {
            [Dup, Fetch, Inc, Swap, Store] => IncMem,
            [Dup, Fetch, Dec, Swap, Store] => DecMem,
            _ => return None,
        };
        let first = at - 4;
        self.code.remove(first + 1, 4);
        self.code.set(first, replacement);
        Some(first)
    }

    /// `n >R ... R>` where the code between leaves the return stack alone
    /// and calls nothing: drop the `n >R` and give `n` instead of `R>`.
    fn literal_through_return_stack(&mut self) -> Option<Op> {
        use Op::*;
        let end = self.code.next_addr();
        let mut a = end;
        while a > self.fuse_barrier {
            a -= 1;
            match self.code.op(a) {
                ToR => {
                    let Lit(n) = self.code.op(a.checked_sub(1)?) else { return None };
                    if a - 1 < self.fuse_barrier {
                        return None;
                    }
                    // What was between may now fuse with what was before.
                    let between: Vec<(Op, OpInfo)> =
                        (a + 1..end).filter_map(|b| Some((self.code.op(b), *self.code.info(b)?))).collect();
                    self.code.remove(a - 1, end - (a - 1));
                    for (op, info) in between {
                        self.emit_with_info(op, info);
                    }
                    return Some(Lit(n));
                }
                op if op.is_pure_data() => {}
                _ => return None,
            }
        }
        None
    }

    /// Ends `BEGIN cond WHILE body REPEAT`. A short condition is copied
    /// to the end of the body with the opposite branch back into the
    /// body, so each turn of the loop takes one jump instead of two.
    pub fn close_while_loop(&mut self, begin: Addr, exit: Addr) {
        let test = self.code.op(exit);
        let straight = (begin..exit).all(|a| {
            let op = self.code.op(a);
            op.target().is_none() && op != Op::Exit
        });
        match test.inverted_branch() {
            Some(back) if straight && exit - begin <= 6 => {
                for a in begin..exit {
                    if let Some(&info) = self.code.info(a) {
                        self.emit_with_info(self.code.op(a), info);
                    }
                }
                if let Some(&info) = self.code.info(exit) {
                    self.emit_with_info(back.with_target(exit + 1), info);
                }
            }
            _ => {
                self.emit_plain(Op::Jump(begin), self.token_pos());
            }
        }
    }

    /// Emits without fusion (for instructions whose address is recorded).
    pub fn emit_plain(&mut self, op: Op, pos: Pos) -> Addr {
        self.fuse_barrier = self.code.next_addr();
        let at = self.emit(op, pos);
        self.fuse_barrier = self.code.next_addr();
        at
    }

    /// The address the next instruction will have, marked as a jump
    /// target so nothing fuses across it.
    pub fn label(&mut self) -> Addr {
        self.fuse_barrier = self.code.next_addr();
        self.fuse_barrier
    }

    /// Points the jump at `at` to `target`.
    pub fn patch(&mut self, at: Addr, target: Addr) {
        let op = self.code.op(at).with_target(target);
        self.code.set(at, op);
    }

    /// Compiles a reference to a word into the current definition.
    pub fn compile_word(&mut self, xt: u32, pos: Pos) -> VmResult<()> {
        let w = self.dict.word(xt).clone();
        match w.kind {
            WordKind::Primitive(op) => {
                self.emit(op, pos);
            }
            WordKind::Host(id) => {
                self.emit(Op::Host(id), pos);
            }
            WordKind::Constant(v) => {
                self.emit(Op::Lit(v), pos);
            }
            WordKind::Variable(a) => {
                self.emit(Op::Lit(a as i32), pos);
            }
            WordKind::Array { base } => {
                self.emit(Op::CellsLit(base as i32), pos);
            }
            WordKind::Deferred(slot) => {
                self.emit(Op::Deferred(slot), pos);
            }
            WordKind::Created { body, does } => {
                self.emit(Op::Lit(body as i32), pos);
                if let Some(code) = does {
                    self.emit(Op::Call(code), pos);
                }
            }
            WordKind::Colon if w.inline => {
                let caller = self.def.as_ref().map_or(0, |d| d.xt);
                for a in w.entry..w.end - 1 {
                    let op = self.code.op(a);
                    let Some(&src) = self.code.info(a) else { continue };
                    let chain = self.code.inline_chain(src.inlined, caller, pos);
                    self.emit_with_info(op, OpInfo { inlined: Some(chain), ..src });
                }
            }
            WordKind::Colon => {
                self.emit(Op::Call(w.entry), pos);
            }
        }
        Ok(())
    }

    /// While a move word runs, the move being built plays the role of
    /// HERE: `COMPILE x` and `n COMPILE-LITERAL` append to the move. None
    /// when no move is being built (the caller then compiles into the
    /// current definition).
    fn compile_into_move(&mut self, a: Action) -> Option<VmResult<()>> {
        if !self.game.gen.active {
            return None;
        }
        Some(self.store_room().map(|()| self.game.record(a)))
    }

    /// `COMPILE x` / `POSTPONE x` at run time: append a reference to x to
    /// whatever is being built.
    pub fn compile_dynamic(&mut self, xt: u32) -> VmResult<()> {
        if let Some(r) = self.compile_into_move(Action::Call(xt)) {
            return r;
        }
        if xt as usize >= self.dict.words.len() {
            return Err(ErrorKind::NotAnXt(crate::dictionary::token(xt)).into());
        }
        self.code_room()?;
        let pos = self.token_pos();
        self.compile_word(xt, pos)
    }

    /// `n COMPILE-LITERAL`: append the literal to whatever is being built.
    pub fn compile_literal(&mut self, n: i32) -> VmResult<()> {
        if let Some(r) = self.compile_into_move(Action::Lit(n)) {
            return r;
        }
        self.code_room()?;
        let pos = self.token_pos();
        self.emit(Op::Lit(n), pos);
        Ok(())
    }

    /// A control word that found the wrong structure open (or none):
    /// name the one that is open and where, rather than only the closer.
    pub fn unbalanced(&self, closer: &str, wanted: &str, open: Option<(crate::vm::Control, Pos)>) -> VmError {
        let what = match open {
            None => format!("{closer} without {wanted}"),
            Some((c, at)) => {
                let (opener, closers) = c.names();
                let opened = self.location(at).map_or(String::new(), |l| format!(" at {l}"));
                format!("`{opener}`{opened} has no {closers} before this `{closer}`")
            }
        };
        ErrorKind::ControlFlow(what).into()
    }

    /// The definition still open where `what` begins something else (a
    /// new `:`, a declaration block, the end of the file).
    pub fn still_open(&mut self, what: &str) -> Option<VmError> {
        let def = self.def.take()?;
        self.set_compiling(false);
        let name = self.dict.word(def.xt).display_name();
        let opened = self.location(def.pos).map_or(String::new(), |l| format!(" opened at {}:{}", l.file, l.line));
        Some(ErrorKind::MissingSemicolon(Box::new(crate::error::OpenDefinition { name, opened, then: what.to_string() })).into())
    }

    /// `:` — starts a colon definition (found only after `;`).
    pub fn begin_definition(&mut self, name: &[u8], pos: Pos) -> VmResult<()> {
        if let Some(e) = self.still_open("a new `:` begins here") {
            return Err(e);
        }
        let start = self.code.next_addr();
        let xt = self.dict.add(Word {
            name: name.into(),
            kind: WordKind::Colon,
            entry: start,
            end: start,
            immediate: false,
            compile_only: false,
            inline: false,
            step: None,
        });
        self.def = Some(Definition { xt, start, control: Vec::new(), pos });
        self.latest = Some(xt);
        self.fuse_barrier = start;
        self.set_compiling(true);
        Ok(())
    }

    /// `;` — closes the definition and makes it findable.
    pub fn end_definition(&mut self, pos: Pos) -> VmResult<()> {
        let Some(def) = self.def.as_ref() else {
            return Err(ErrorKind::NotCompiling(";".into()).into());
        };
        if let Some(&(ref open, at)) = def.control.last() {
            let (opener, closers) = open.names();
            let name = self.dict.word(def.xt).display_name();
            let opened = self.location(at).map_or(String::new(), |l| format!(" at {l}"));
            self.def = None;
            self.set_compiling(false);
            let mut e = VmError::new(ErrorKind::ControlFlow(format!("`{opener}`{opened} has no {closers} before `;`")));
            e.word = Some(name);
            e.location = self.location(pos);
            return Err(e);
        }
        self.emit_plain(Op::Exit, pos);
        let Some(def) = self.def.take() else {
            return Err(ErrorKind::NotCompiling(";".into()).into());
        };
        let end = self.code.next_addr();
        self.thread_jumps(def.start, end);
        let inline = end - 1 - def.start <= INLINE_MAX && self.inlinable(def.start, end - 1);
        let w = self.dict.word_mut(def.xt);
        w.end = end;
        w.inline = inline;
        self.dict.reveal(def.xt);
        self.set_compiling(false);
        Ok(())
    }

    /// Whether code[start..end] may be copied into callers: straight-line
    /// code whose return-stack use balances, without calls (so the error
    /// trace of an inlined word is exact).
    fn inlinable(&self, start: Addr, end: Addr) -> bool {
        let mut rdepth = 0i32;
        for a in start..end {
            let op = self.code.op(a);
            rdepth += match op {
                Op::ToR => 1,
                Op::RFrom => -1,
                Op::RFetch if rdepth > 0 => 0,
                Op::Call(_) | Op::Exit | Op::DoesSet(_) | Op::Host(_) | Op::CompileXt(_) | Op::Do | Op::Unloop | Op::RFetch => return false,
                _ if op.target().is_some() => return false,
                _ => 0,
            };
            if rdepth < 0 {
                return false;
            }
        }
        rdepth == 0
    }

    /// Jumps that land on an unconditional jump go straight to its target.
    fn thread_jumps(&mut self, start: Addr, end: Addr) {
        for a in start..end {
            let op = self.code.op(a);
            let Some(mut t) = op.target() else { continue };
            if matches!(op, Op::Jump(_)) && self.code.op(t) == Op::Exit && t < end {
                self.code.set(a, Op::Exit);
                continue;
            }
            for _ in 0..8 {
                match self.code.op(t) {
                    Op::Jump(next) if next != t && (start..end).contains(&t) => t = next,
                    _ => break,
                }
            }
            self.code.set(a, op.with_target(t));
        }
    }
}

