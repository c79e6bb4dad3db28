//! The outer interpreter and the compiler.
//!
//! Owns reading the input (token by token through the lexer, or raw text
//! for parsing words), number conversion, interpreting vs compiling a
//! token, emitting instructions with peephole fusion and inlining, and
//! loading files (`LOAD` resolution, cycle detection, nesting limit).

use crate::dictionary::{Word, WordKind};
use crate::error::{ErrorKind, VmError, VmResult};
use crate::lexer::{self, Pos, SourceFile};
use crate::memory::{BASE_ADDR, STATE_ADDR};
use crate::ops::{fuse, Addr, Op};
use crate::code::OpInfo;
use crate::vm::{Definition, Input, Vm};
use std::path::{Path, PathBuf};

/// Straight-line colon words up to this many instructions are copied into
/// their callers instead of called.
const INLINE_MAX: u32 = 10;

impl Vm {
    // ---- entry points ----------------------------------------------------

    /// Interprets a file given on the command line. `BYE` ends it cleanly.
    pub fn run_file(&mut self, path: &Path) -> VmResult<()> {
        let text = std::fs::read(path).map_err(|e| VmError::new(ErrorKind::Io(format!("{}: {e}", path.display()))))?;
        let canonical = std::fs::canonicalize(path).ok();
        let file = self.add_file(path.display().to_string(), canonical.or(Some(path.to_path_buf())), text);
        self.refill_steps();
        let r = self.interpret_file(file, true);
        self.note_bye(r)
    }

    /// Interprets text that is not a file on disk (REPL lines, stdlib).
    /// A definition may stay open across calls (REPL continuation).
    pub fn run_text(&mut self, name: &str, text: &[u8]) -> VmResult<()> {
        self.refill_steps();
        let r = self.interpret_text(name, text);
        self.note_bye(r)
    }

    /// `BYE` ends interpreting successfully; the host asks `bye_requested`
    /// to know whether to stop.
    fn note_bye(&mut self, r: VmResult<()>) -> VmResult<()> {
        match r {
            Err(e) if e.kind == ErrorKind::Bye => {
                self.bye = true;
                Ok(())
            }
            other => other,
        }
    }

    /// Each top-level run gets the whole `--max-steps` budget.
    pub fn refill_steps(&mut self) {
        self.steps_left = self.config.max_steps.unwrap_or(u64::MAX);
    }

    pub fn bye_requested(&self) -> bool {
        self.bye
    }

    pub(crate) fn interpret_text(&mut self, name: &str, text: &[u8]) -> VmResult<()> {
        let file = self.add_file(name.to_string(), None, text.to_vec());
        self.interpret_file(file, false)
    }

    pub fn add_file(&mut self, name: String, path: Option<PathBuf>, text: Vec<u8>) -> u32 {
        self.files.push(SourceFile::new(name, path, text));
        self.files.len() as u32 - 1
    }

    pub fn is_compiling(&self) -> bool {
        self.mem.fetch(STATE_ADDR as i32).unwrap_or(0) != 0
    }

    pub(crate) fn set_compiling(&mut self, on: bool) {
        let _ = self.mem.store(STATE_ADDR as i32, if on { -1 } else { 0 });
    }

    /// Interprets one source to its end. `whole_file`: a definition left
    /// open at the end is an error (not so for REPL lines).
    fn interpret_file(&mut self, file: u32, whole_file: bool) -> VmResult<()> {
        if self.inputs.len() as u32 >= self.config.load_depth {
            return Err(ErrorKind::LoadDepth { limit: self.config.load_depth }.into());
        }
        self.inputs.push(Input { file, pos: 0, token: Pos { file, offset: 0 } });
        let result = self.interpret_input();
        self.inputs.pop();
        result?;
        if whole_file {
            if let Some(def) = &self.def {
                if def.pos.file == file {
                    let name = self.dict.word(def.xt).display_name();
                    let mut e = VmError::new(ErrorKind::Unterminated(format!("definition of `{name}` (no `;` before the end of the file)")));
                    e.location = self.location(def.pos);
                    self.def = None;
                    self.set_compiling(false);
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    fn interpret_input(&mut self) -> VmResult<()> {
        while let Some((name, pos)) = self.next_token() {
            if let Err(mut e) = self.interpret_token(&name, pos) {
                if e.is_control() {
                    return Err(e);
                }
                let here = self.location(pos);
                if e.location.is_none() {
                    // Raised by a word run from here (a primitive at top
                    // level, or a compiling word): point at the token, and
                    // name the definition being compiled, if any.
                    e.location = here;
                    if let Some(def) = &self.def {
                        e.word = Some(self.dict.word(def.xt).display_name());
                    }
                } else if let Some(l) = here.filter(|l| Some(l) != e.location.as_ref()) {
                    e.trace.push(format!("called from {l}"));
                }
                if self.def.is_some() {
                    self.def = None;
                    self.set_compiling(false);
                }
                return Err(e);
            }
        }
        Ok(())
    }

    fn interpret_token(&mut self, name: &[u8], pos: Pos) -> VmResult<()> {
        let compiling = self.is_compiling();
        if let Some(xt) = self.dict.find(name) {
            let w = self.dict.word(xt);
            if compiling && !w.immediate {
                return self.compile_word(xt, pos);
            }
            if !compiling && w.compile_only {
                return Err(ErrorKind::CompileOnly(w.display_name()).into());
            }
            return self.execute(xt);
        }
        match self.parse_number(name)? {
            Some(n) if compiling => {
                self.emit(Op::Lit(n), pos);
                Ok(())
            }
            Some(n) => self.push(n),
            None => Err(ErrorKind::UndefinedWord(String::from_utf8_lossy(name).into_owned()).into()),
        }
    }

    // ---- reading input -----------------------------------------------------

    /// The next token of the current input, and where it starts.
    pub fn next_token(&mut self) -> Option<(Vec<u8>, Pos)> {
        let input = self.inputs.last_mut()?;
        let text = &self.files[input.file as usize].text;
        let (start, end) = lexer::next_token(text, input.pos)?;
        input.pos = end;
        let pos = Pos { file: input.file, offset: start as u32 };
        input.token = pos;
        Some((text[start..end].to_vec(), pos))
    }

    /// The name a defining or parsing word reads after itself.
    pub fn parse_name(&mut self, after: &str) -> VmResult<(Vec<u8>, Pos)> {
        self.next_token().ok_or_else(|| ErrorKind::MissingName(after.to_string()).into())
    }

    /// Raw text after the one delimiting space, up to `delim` (consumed).
    /// None when the input ends first.
    pub fn parse_until(&mut self, delim: u8) -> Option<Vec<u8>> {
        let input = self.inputs.last_mut()?;
        let text = &self.files[input.file as usize].text;
        let mut p = input.pos;
        if p < text.len() && lexer::is_space(text[p]) {
            p += 1;
        }
        match text[p.min(text.len())..].iter().position(|&b| b == delim) {
            Some(n) => {
                input.pos = p + n + 1;
                Some(text[p..p + n].to_vec())
            }
            None => {
                input.pos = text.len();
                None
            }
        }
    }

    /// Skips to the end of the current line (`\`).
    pub fn skip_line(&mut self) {
        if let Some(input) = self.inputs.last_mut() {
            let text = &self.files[input.file as usize].text;
            input.pos = match text[input.pos.min(text.len())..].iter().position(|&b| b == b'\n') {
                Some(n) => input.pos + n + 1,
                None => text.len(),
            };
        }
    }

    /// Where the token being interpreted starts.
    pub fn token_pos(&self) -> Pos {
        self.inputs.last().map_or(Pos::NONE, |i| i.token)
    }

    // ---- numbers -------------------------------------------------------------

    /// A number in the current BASE (`$hex`, `#decimal`, `%binary` prefixes
    /// too); None if the token is not a number; an error if it is one
    /// that does not fit a 32-bit cell.
    pub fn parse_number(&self, token: &[u8]) -> VmResult<Option<i32>> {
        let mut base = self.mem.fetch(BASE_ADDR as i32).unwrap_or(10) as u32;
        if !(2..=36).contains(&base) {
            base = 10;
        }
        let (negative, mut digits) = match token.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, token),
        };
        if let Some((&p, rest)) = digits.split_first() {
            let prefixed = match p {
                b'$' => Some(16),
                b'#' => Some(10),
                b'%' => Some(2),
                _ => None,
            };
            if let Some(b) = prefixed {
                base = b;
                digits = rest;
            }
        }
        if digits.is_empty() {
            return Ok(None);
        }
        let mut value: u64 = 0;
        let mut overflow = false;
        for &c in digits {
            let d = match (c as char).to_digit(36) {
                Some(d) if d < base => d as u64,
                _ => return Ok(None),
            };
            value = value * base as u64 + d;
            if value > u32::MAX as u64 {
                overflow = true;
                value = u32::MAX as u64 + 1;
            }
        }
        // Other bases may spell a cell's bit pattern ($FFFFFFFF is -1);
        // decimal numbers must fit a signed cell.
        let limit = match (negative, base) {
            (true, _) => 1u64 << 31,
            (false, 10) => i32::MAX as u64,
            (false, _) => u32::MAX as u64,
        };
        let too_big = overflow || value > limit;
        if too_big {
            return Err(ErrorKind::NumberOutOfRange(String::from_utf8_lossy(token).into_owned()).into());
        }
        let v = value as u32 as i32;
        Ok(Some(if negative { v.wrapping_neg() } else { v }))
    }

    // ---- compiling -------------------------------------------------------------

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

    /// `COMPILE x` / `POSTPONE x` at run time: append a reference to x to
    /// whatever is being built.
    pub fn compile_dynamic(&mut self, xt: u32) -> VmResult<()> {
        if let Some(r) = crate::game::compile_into_move(self, crate::game::MoveAction::Call(xt)) {
            return r;
        }
        if self.dict.get(xt as i32).is_none() {
            return Err(ErrorKind::NotAnXt(xt as i32).into());
        }
        let pos = self.token_pos();
        self.compile_word(xt, pos)
    }

    /// `n COMPILE-LITERAL`: append the literal to whatever is being built.
    pub fn compile_literal(&mut self, n: i32) -> VmResult<()> {
        if let Some(r) = crate::game::compile_into_move(self, crate::game::MoveAction::Lit(n)) {
            return r;
        }
        let pos = self.token_pos();
        self.emit(Op::Lit(n), pos);
        Ok(())
    }

    /// `:` — starts a colon definition (found only after `;`).
    pub fn begin_definition(&mut self, name: &[u8], pos: Pos) -> VmResult<()> {
        if let Some(def) = &self.def {
            let open = self.dict.word(def.xt).display_name();
            return Err(ErrorKind::ControlFlow(format!("`:` inside the definition of `{open}` (missing `;`?)")).into());
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
        if let Some(open) = def.control.last() {
            let what = match open {
                crate::vm::Control::If(_) => "IF without THEN",
                crate::vm::Control::Else(_) => "ELSE without THEN",
                crate::vm::Control::Begin(_) => "BEGIN without UNTIL, AGAIN or REPEAT",
                crate::vm::Control::While { .. } => "WHILE without REPEAT",
                crate::vm::Control::Do { .. } => "DO without LOOP",
            };
            let name = self.dict.word(def.xt).display_name();
            self.def = None;
            self.set_compiling(false);
            let mut e = VmError::new(ErrorKind::ControlFlow(what.into()));
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

    // ---- LOAD ------------------------------------------------------------------

    /// `LOAD name`: relative to the loading file's folder, with a
    /// case-insensitive fallback; a file already being loaded is a cycle.
    pub fn load(&mut self, name: &[u8]) -> VmResult<()> {
        let name = String::from_utf8_lossy(name).into_owned();
        let dir = self.current_dir().unwrap_or_else(|| PathBuf::from("."));
        let path = resolve_load(&dir, &name).ok_or_else(|| VmError::new(ErrorKind::LoadNotFound(dir.join(&name).display().to_string())))?;
        let canonical = std::fs::canonicalize(&path).unwrap_or(path.clone());
        let loading = self.inputs.iter().any(|i| self.files[i.file as usize].path.as_ref() == Some(&canonical));
        if loading {
            return Err(ErrorKind::LoadCycle(path.display().to_string()).into());
        }
        let text = std::fs::read(&path).map_err(|e| VmError::new(ErrorKind::Io(format!("{}: {e}", path.display()))))?;
        let file = self.add_file(path.display().to_string(), Some(canonical), text);
        self.interpret_file(file, true)
    }
}

impl Vm {
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

/// Finds `name` in `dir`: exactly, else ignoring case (Windows-era files
/// say `LOAD Board.4th` for `board.4th`).
fn resolve_load(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.is_file() {
        return Some(exact);
    }
    // The name may contain folders: match each component ignoring case.
    let mut current = dir.to_path_buf();
    for part in Path::new(name).components() {
        let part = part.as_os_str().to_string_lossy().to_string();
        let direct = current.join(&part);
        if direct.exists() {
            current = direct;
            continue;
        }
        let wanted = part.to_lowercase();
        let found = std::fs::read_dir(&current)
            .ok()?
            .filter_map(|e| e.ok())
            .find(|e| e.file_name().to_string_lossy().to_lowercase() == wanted)?;
        current = found.path();
    }
    current.is_file().then_some(current)
}
