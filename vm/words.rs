//! Native words of the language core: defining words, control structures,
//! the compiler words, parsing words, output, randomness, system words.
//! Words that only move cells around are instructions (`ops.rs`); words
//! that can be written in Forth are in `stdlib/core.4th`.
//!
//! Each entry: name, stack effect, flags, and the Rust that runs it.

use crate::dictionary::WordKind;
use crate::error::{ErrorKind, VmError, VmResult};
use crate::memory::{BASE_ADDR, STATE_ADDR};
use crate::ops::Op;
use crate::state::Recorded;
use crate::vm::{direct, word, Control, HostRun, HostWord, Vm};


/// Immediate and compile-only: control structures and compiler words.
fn compiler(name: &'static str, effect: &'static str, f: fn(&mut Vm) -> VmResult<()>) -> HostWord {
    HostWord { name, run: HostRun::Vm(f), effect, immediate: true, compile_only: true }
}

/// Immediate, and meaningful in both states.
fn immediate(name: &'static str, effect: &'static str, f: fn(&mut Vm) -> VmResult<()>) -> HostWord {
    HostWord { name, run: HostRun::Vm(f), effect, immediate: true, compile_only: false }
}

pub fn register(vm: &mut Vm) {
    let table = [
        // ---- defining ----
        word(":", "( \"name\" -- )", |vm| {
            let (name, pos) = vm.parse_name(":")?;
            vm.begin_definition(&name, pos)
        }),
        compiler(";", "( -- )", |vm| {
            let pos = vm.token_pos();
            vm.end_definition(pos)
        }),
        word("CONSTANT", "( n \"name\" -- )", |vm| {
            let (name, _) = vm.parse_name("CONSTANT")?;
            let v = vm.pop()?;
            vm.add_thunk_word(&name, WordKind::Constant(v), &[Op::Lit(v), Op::Exit]);
            Ok(())
        }),
        word("VARIABLE", "( \"name\" -- )", |vm| {
            let (name, _) = vm.parse_name("VARIABLE")?;
            vm.mem.header_gap()?;
            let a = vm.mem.allot_cells_zeroed(4)?;
            vm.add_thunk_word(&name, WordKind::Variable(a), &[Op::Lit(a as i32), Op::Exit]);
            Ok(())
        }),
        word("CREATE", "( \"name\" -- )", create),
        word("<BUILDS", "( \"name\" -- )", create),
        compiler("DOES>", "( -- ) run time: ( -- addr )", |vm| {
            let pos = vm.token_pos();
            let at = vm.code.next_addr();
            vm.emit_plain(Op::DoesSet(at + 2), pos);
            vm.emit_plain(Op::Exit, pos);
            vm.label();
            Ok(())
        }),
        word("DEFER", "( \"name\" -- )", |vm| {
            let (name, _) = vm.parse_name("DEFER")?;
            let slot = vm.defers.len() as u32;
            vm.defers.push(None);
            let xt = vm.add_thunk_word(&name, WordKind::Deferred(slot), &[Op::Deferred(slot), Op::Exit]);
            vm.defer_owner.push(xt);
            Ok(())
        }),
        immediate("IS", "( xt \"name\" -- )", |vm| {
            let (name, _) = vm.parse_name("IS")?;
            let xt = vm.find_or_fail(&name)?;
            let WordKind::Deferred(slot) = vm.dict.word(xt).kind else {
                return Err(ErrorKind::NotDeferred(String::from_utf8_lossy(&name).into_owned()).into());
            };
            if vm.is_compiling() {
                let pos = vm.token_pos();
                vm.emit(Op::SetDefer(slot), pos);
            } else {
                let target = vm.pop()?;
                let Some(target) = vm.dict.index_of(target) else {
                    return Err(ErrorKind::NotAnXt(target).into());
                };
                vm.set_defer(slot as usize, target);
            }
            Ok(())
        }),
        word("IMMEDIATE", "( -- )", |vm| {
            if let Some(xt) = vm.latest {
                vm.dict.word_mut(xt).immediate = true;
            }
            Ok(())
        }),
        word("[]", "( n \"name\" -- )", |vm| {
            let (name, _) = vm.parse_name("[]")?;
            let n = vm.pop()?;
            if n < 0 {
                return Err(ErrorKind::NegativeSize { word: "[]", size: n }.into());
            }
            vm.mem.header_gap()?;
            vm.add_cell_array(&name, n)
        }),
        word("TIMER", "( \"name\" -- ) name: ( -- ms )", |vm| {
            let (name, _) = vm.parse_name("TIMER")?;
            let id = vm.timers.len() as i32;
            vm.timers.push(std::time::Instant::now());
            let elapsed = vm.host_id("(TIMER-MS)");
            let xt = vm.add_thunk_word(&name, WordKind::Colon, &[Op::Lit(id), Op::Host(elapsed), Op::Exit]);
            vm.dict.word_mut(xt).inline = true;
            Ok(())
        }),
        word("(TIMER-MS)", "( timer -- ms )", |vm| {
            let id = vm.pop()?;
            let ms = vm.timers.get(id as usize).map_or(0, |t| t.elapsed().as_millis() as i32);
            vm.push(ms)
        }),
        // Immediate: inside a definition the name is read as it is
        // compiled (as `[']` reads its), and the definition restarts that
        // timer when it runs.
        immediate("RESTART-TIMER", "( \"name\" -- )", |vm| {
            let (name, pos) = vm.parse_name("RESTART-TIMER")?;
            let id = vm.timer_named(&name)?;
            if vm.is_compiling() {
                vm.compile_literal(id)?;
                let restart = vm.host_id("(RESTART-TIMER)");
                vm.emit(Op::Host(restart), pos);
            } else {
                // `timer_named` answers only ids of existing timers.
                if let Some(t) = vm.timers.get_mut(id as usize) {
                    *t = std::time::Instant::now();
                }
            }
            Ok(())
        }),
        word("(RESTART-TIMER)", "( timer -- )", |vm| {
            let id = vm.pop()?;
            if let Some(t) = vm.timers.get_mut(id as usize) {
                *t = std::time::Instant::now();
            }
            Ok(())
        }),
        word(">BODY", "( xt -- addr )", |vm| {
            let xt = vm.pop()?;
            let w = vm.dict.get(xt).ok_or(ErrorKind::NotAnXt(xt))?;
            let body = w.body().ok_or_else(|| ErrorKind::NoDataField(w.display_name()))?;
            vm.push(body as i32)
        }),

        // ---- control structures ----
        compiler("IF", "( f -- )", |vm| {
            let pos = vm.token_pos();
            let at = vm.emit(Op::JumpIfZero(0), pos);
            vm.definition("IF")?.open(Control::If(at), pos);
            Ok(())
        }),
        compiler("ELSE", "( -- )", |vm| {
            let (if_at, if_pos) = match vm.definition("ELSE")?.close() {
                Some((Control::If(at), pos)) => (at, pos),
                other => return Err(vm.unbalanced("ELSE", "IF", other)),
            };
            // `IF ELSE` with nothing between: branch on the opposite
            // condition instead of jumping over an empty part.
            if if_at + 1 == vm.code.next_addr() {
                if let Some(inverted) = vm.code.op(if_at).inverted_branch() {
                    vm.code.set(if_at, inverted);
                    vm.label();
                    vm.definition("ELSE")?.open(Control::If(if_at), if_pos);
                    return Ok(());
                }
            }
            let pos = vm.token_pos();
            let at = vm.emit_plain(Op::Jump(0), pos);
            let here = vm.label();
            vm.patch(if_at, here);
            vm.definition("ELSE")?.open(Control::Else(at), pos);
            Ok(())
        }),
        compiler("THEN", "( -- )", then),
        compiler("ENDIF", "( -- )", then),
        compiler("BEGIN", "( -- )", |vm| {
            let pos = vm.token_pos();
            let here = vm.label();
            vm.definition("BEGIN")?.open(Control::Begin(here), pos);
            Ok(())
        }),
        compiler("UNTIL", "( f -- )", |vm| {
            let dest = match vm.definition("UNTIL")?.close() {
                Some((Control::Begin(dest), _)) => dest,
                other => return Err(vm.unbalanced("UNTIL", "BEGIN", other)),
            };
            vm.emit(Op::JumpIfZero(dest), vm.token_pos());
            vm.label();
            Ok(())
        }),
        compiler("AGAIN", "( -- )", |vm| {
            let dest = match vm.definition("AGAIN")?.close() {
                Some((Control::Begin(dest), _)) => dest,
                other => return Err(vm.unbalanced("AGAIN", "BEGIN", other)),
            };
            vm.emit_plain(Op::Jump(dest), vm.token_pos());
            vm.label();
            Ok(())
        }),
        compiler("WHILE", "( f -- )", |vm| {
            let begin = match vm.definition("WHILE")?.close() {
                Some((Control::Begin(begin), _)) => begin,
                other => return Err(vm.unbalanced("WHILE", "BEGIN", other)),
            };
            let pos = vm.token_pos();
            let exit = vm.emit(Op::JumpIfZero(0), pos);
            vm.definition("WHILE")?.open(Control::While { begin, exit }, pos);
            Ok(())
        }),
        compiler("REPEAT", "( -- )", |vm| {
            let (begin, exit) = match vm.definition("REPEAT")?.close() {
                Some((Control::While { begin, exit }, _)) => (begin, exit),
                other => return Err(vm.unbalanced("REPEAT", "BEGIN … WHILE", other)),
            };
            vm.close_while_loop(begin, exit);
            let here = vm.label();
            vm.patch(exit, here);
            Ok(())
        }),
        compiler("DO", "( limit start -- )", |vm| do_loop(vm, Op::Do)),
        compiler("?DO", "( limit start -- )", |vm| do_loop(vm, Op::QDo(0))),
        compiler("LOOP", "( -- )", |vm| end_loop(vm, Op::Loop(0))),
        compiler("+LOOP", "( n -- )", |vm| end_loop(vm, Op::PlusLoop(0))),
        compiler("LEAVE", "( -- )", |vm| {
            let pos = vm.token_pos();
            let at = vm.emit_plain(Op::Leave(0), pos);
            let def = vm.definition("LEAVE")?;
            match def.control.iter_mut().rev().find_map(|(c, _)| match c {
                Control::Do { leaves, .. } => Some(leaves),
                _ => None,
            }) {
                Some(leaves) => {
                    leaves.push(at);
                    Ok(())
                }
                None => Err(ErrorKind::ControlFlow("LEAVE outside DO ... LOOP".into()).into()),
            }
        }),
        compiler("EXIT", "( -- )", |vm| {
            vm.emit_plain(Op::Exit, vm.token_pos());
            vm.label();
            Ok(())
        }),
        compiler("RECURSE", "( -- )", |vm| {
            let start = vm.definition("RECURSE")?.start;
            vm.emit(Op::Call(start), vm.token_pos());
            Ok(())
        }),

        // ---- compiler ----
        word("'", "( \"name\" -- xt )", |vm| {
            let (name, _) = vm.parse_name("'")?;
            let xt = vm.find_or_fail(&name)?;
            vm.push(crate::dictionary::token(xt))
        }),
        compiler("[']", "( \"name\" -- ) run time: ( -- xt )", |vm| {
            let (name, _) = vm.parse_name("[']")?;
            let xt = vm.find_or_fail(&name)?;
            vm.emit(Op::Lit(crate::dictionary::token(xt)), vm.token_pos());
            Ok(())
        }),
        immediate("[", "( -- )", |vm| {
            vm.set_compiling(false);
            Ok(())
        }),
        word("]", "( -- )", |vm| {
            vm.set_compiling(true);
            Ok(())
        }),
        compiler("LITERAL", "( n -- )", |vm| {
            let n = vm.pop()?;
            vm.emit(Op::Lit(n), vm.token_pos());
            Ok(())
        }),
        compiler("COMPILE", "( \"name\" -- )", |vm| {
            let (name, _) = vm.parse_name("COMPILE")?;
            let xt = vm.find_or_fail(&name)?;
            vm.emit(Op::CompileXt(xt), vm.token_pos());
            Ok(())
        }),
        compiler("[COMPILE]", "( \"name\" -- )", |vm| {
            let (name, pos) = vm.parse_name("[COMPILE]")?;
            let xt = vm.find_or_fail(&name)?;
            vm.compile_word(xt, pos)
        }),
        compiler("POSTPONE", "( \"name\" -- )", |vm| {
            let (name, pos) = vm.parse_name("POSTPONE")?;
            let xt = vm.find_or_fail(&name)?;
            if vm.dict.word(xt).immediate {
                vm.compile_word(xt, pos)
            } else {
                vm.emit(Op::CompileXt(xt), pos);
                Ok(())
            }
        }),
        // While moves are generated, it records the literal in the move
        // being built: native code then runs it through the lean helper.
        direct("COMPILE-LITERAL", "( n -- )", |vm, n, _| {
            vm.compile_literal(n)?;
            Ok(0)
        })
        .recording(Recorded::Lit),
        word("COMPILE,", "( xt -- )", |vm| {
            let token = vm.pop()?;
            let xt = vm.dict.index_of(token).ok_or(ErrorKind::NotAnXt(token))?;
            vm.compile_dynamic(xt)
        }),

        // ---- parsing words ----
        immediate("(", "( -- )", |vm| match vm.parse_until(b')') {
            Some(_) => Ok(()),
            None => Err(ErrorKind::Unterminated("comment: `(` without `)`".into()).into()),
        }),
        immediate("\\", "( -- )", |vm| {
            vm.skip_line();
            Ok(())
        }),
        immediate(".\"", "( -- )", |vm| {
            let text = vm.parse_until(b'"').ok_or(ErrorKind::Unterminated("string: `.\"` without closing `\"`".into()))?;
            if vm.is_compiling() {
                let a = vm.mem.counted_string(&text)?;
                vm.emit(Op::DotQuote(a), vm.token_pos());
            } else {
                vm.emit_bytes(&text);
            }
            Ok(())
        }),
        immediate("S\"", "( -- str )", |vm| {
            let text = vm.parse_until(b'"').ok_or(ErrorKind::Unterminated("string: `S\"` without closing `\"`".into()))?;
            let a = vm.mem.counted_string(&text)?;
            if vm.is_compiling() {
                vm.emit(Op::Lit(a as i32), vm.token_pos());
                Ok(())
            } else {
                vm.push(a as i32)
            }
        }),
        compiler("ABORT\"", "( f -- )", |vm| {
            let text = vm.parse_until(b'"').ok_or(ErrorKind::Unterminated("string: `ABORT\"` without closing `\"`".into()))?;
            let a = vm.mem.counted_string(&text)?;
            vm.emit(Op::AbortQuote(a), vm.token_pos());
            Ok(())
        }),
        immediate("ASCII", "( \"c\" -- c )", |vm| {
            let c = first_char(vm, "ASCII")?;
            if vm.is_compiling() {
                vm.emit(Op::Lit(c), vm.token_pos());
                Ok(())
            } else {
                vm.push(c)
            }
        }),
        word("CHAR", "( \"c\" -- c )", |vm| {
            let c = first_char(vm, "CHAR")?;
            vm.push(c)
        }),
        compiler("[CHAR]", "( \"c\" -- ) run time: ( -- c )", |vm| {
            let c = first_char(vm, "[CHAR]")?;
            vm.emit(Op::Lit(c), vm.token_pos());
            Ok(())
        }),
        word("LOAD", "( \"file\" -- )", |vm| {
            let (name, _) = vm.parse_name("LOAD")?;
            vm.load(&name)
        }),

        // ---- output ----
        word(".", "( n -- )", |vm| {
            let n = vm.pop()?;
            let mut s = format_number(n as i64, vm.base());
            s.push(' ');
            vm.emit_bytes(s.as_bytes());
            Ok(())
        }),
        word("U.", "( u -- )", |vm| {
            let n = vm.pop()?;
            let mut s = format_number(n as u32 as i64, vm.base());
            s.push(' ');
            vm.emit_bytes(s.as_bytes());
            Ok(())
        }),
        word(".R", "( n width -- )", |vm| {
            let width = vm.pop()?;
            let n = vm.pop()?;
            let s = format_number(n as i64, vm.base());
            let pad = (width.max(0) as usize).saturating_sub(s.len()).min(4096);
            vm.emit_bytes(" ".repeat(pad).as_bytes());
            vm.emit_bytes(s.as_bytes());
            Ok(())
        }),
        word(".S", "( -- )", |vm| {
            let base = vm.base();
            let stack = vm.stack();
            let mut s = format!("<{}> ", stack.len());
            for n in stack {
                s.push_str(&format_number(n as i64, base));
                s.push(' ');
            }
            vm.emit_bytes(s.as_bytes());
            Ok(())
        }),
        word("CR", "( -- )", |vm| {
            vm.emit_bytes(b"\n");
            vm.flush_output();
            Ok(())
        }),
        word("EMIT", "( c -- )", |vm| {
            let c = vm.pop()?;
            vm.emit_bytes(&[c as u8]);
            Ok(())
        }),
        word("TYPE", "( str -- )", |vm| {
            let a = vm.pop()?;
            let text = vm.mem.counted(a)?.to_vec();
            vm.emit_bytes(&text);
            Ok(())
        }),

        // ---- random numbers ----
        word("RAND-WITHIN", "( lo hi -- n )", |vm| rand_within(vm, 0)),
        word("RAND-WITHIN2", "( lo hi -- n )", |vm| rand_within(vm, 1)),
        word("RANDOMIZE", "( -- )", |vm| {
            vm.randomize(0);
            Ok(())
        }),
        word("RANDOMIZE2", "( -- )", |vm| {
            vm.randomize(1);
            Ok(())
        }),

        // ---- system ----
        word("BYE", "( -- )", |_| Err(ErrorKind::Bye.into())),
        word("ABORT", "( -- )", |_| Err(ErrorKind::Abort("ABORT".into()).into())),
        word("WORDS", "( -- )", |vm| {
            // Wrapped at the terminal's width (the REPL sets `columns`).
            let mut text = String::new();
            let mut line = 0;
            for name in vm.dict.visible_names() {
                let width = name.chars().count();
                if line > 0 && line + 1 + width > vm.columns {
                    text.push('\n');
                    line = 0;
                }
                if line > 0 {
                    text.push(' ');
                    line += 1;
                }
                text.push_str(&name);
                line += width;
            }
            text.push('\n');
            vm.emit_bytes(text.as_bytes());
            Ok(())
        }),
        word("SEE", "( \"name\" -- )", |vm| {
            let (name, _) = vm.parse_name("SEE")?;
            let xt = vm.find_or_fail(&name)?;
            let text = crate::see::decompile(vm, xt);
            vm.emit_bytes(text.as_bytes());
            Ok(())
        }),
        word("DUMP", "( addr n -- )", |vm| {
            let n = vm.pop()?;
            let a = vm.pop()?;
            let bytes = vm.mem.slice(a, n.max(0))?.to_vec();
            let mut s = String::new();
            for (i, chunk) in bytes.chunks(16).enumerate() {
                s.push_str(&format!("{:08X}:", a as i64 + i as i64 * 16));
                for b in chunk {
                    s.push_str(&format!(" {b:02X}"));
                }
                s.push_str("  ");
                s.extend(chunk.iter().map(|&b| if (32..127).contains(&b) { b as char } else { '.' }));
                s.push('\n');
            }
            vm.emit_bytes(s.as_bytes());
            Ok(())
        }),
    ];
    for h in table {
        vm.add_host(h);
    }
    for (name, value) in [("TRUE", -1), ("FALSE", 0), ("BL", 32), ("CELLSIZE", 4)] {
        vm.add_thunk_word(name.as_bytes(), WordKind::Constant(value), &[Op::Lit(value), Op::Exit]);
    }
    for (name, addr) in [("BASE", BASE_ADDR), ("STATE", STATE_ADDR)] {
        vm.add_thunk_word(name.as_bytes(), WordKind::Variable(addr), &[Op::Lit(addr as i32), Op::Exit]);
    }
}

impl Vm {
    /// `n [] name` (and the game's `n {array} name`): n zeroed cells,
    /// `name ( i -- addr )`.
    pub fn add_cell_array(&mut self, name: &[u8], n: i32) -> VmResult<()> {
        let bytes = n.checked_mul(4).filter(|b| *b >= 0).ok_or(ErrorKind::DataSpaceExhausted { wanted: n as i64 * 4, free: 0 })?;
        let base = self.mem.allot_cells_zeroed(bytes)?;
        self.add_thunk_word(name, WordKind::Array { base }, &[Op::CellsLit(base as i32), Op::Exit]);
        Ok(())
    }

    pub fn find_or_fail(&self, name: &[u8]) -> VmResult<u32> {
        self.dict.find(name).ok_or_else(|| self.undefined(name))
    }

    /// "undefined word", with the defined name it is closest to (words,
    /// and the board's positions, which declarations take as names too).
    pub fn undefined(&self, name: &[u8]) -> VmError {
        let text = crate::error::printable(name);
        let words = self.dict.visible_names();
        let positions = self.game.board.names.iter().map(String::as_str);
        let hint = crate::suggest::did_you_mean(&text, words.iter().map(String::as_str).chain(positions)).map(Box::new);
        ErrorKind::UndefinedWord(text, hint).into()
    }

    /// The host table index of a native word, by name.
    pub fn host_id(&self, name: &str) -> u32 {
        self.hosts.iter().position(|h| h.name == name).map_or(0, |i| i as u32)
    }

    pub fn base(&self) -> u32 {
        let b = self.mem.fetch(BASE_ADDR as i32).unwrap_or(10);
        if (2..=36).contains(&b) {
            b as u32
        } else {
            10
        }
    }
}

fn create(vm: &mut Vm) -> VmResult<()> {
    let (name, _) = vm.parse_name("CREATE")?;
    vm.mem.header_gap()?;
    let body = vm.mem.here;
    let xt = vm.add_thunk_word(&name, WordKind::Created { body, does: None }, &[Op::Lit(body as i32), Op::Exit]);
    vm.last_created = Some(xt);
    Ok(())
}

fn then(vm: &mut Vm) -> VmResult<()> {
    let at = match vm.definition("THEN")?.close() {
        Some((Control::If(at), _)) | Some((Control::Else(at), _)) => at,
        other => return Err(vm.unbalanced("THEN", "IF", other)),
    };
    let here = vm.label();
    vm.patch(at, here);
    Ok(())
}

fn do_loop(vm: &mut Vm, op: Op) -> VmResult<()> {
    let pos = vm.token_pos();
    let at = vm.emit_plain(op, pos);
    let body = vm.label();
    let leaves = if matches!(op, Op::QDo(_)) { vec![at] } else { Vec::new() };
    vm.definition("DO")?.open(Control::Do { body, leaves }, pos);
    Ok(())
}

fn end_loop(vm: &mut Vm, op: Op) -> VmResult<()> {
    let (body, leaves) = match vm.definition("LOOP")?.close() {
        Some((Control::Do { body, leaves }, _)) => (body, leaves),
        other => return Err(vm.unbalanced("LOOP", "DO", other)),
    };
    vm.emit_plain(op.with_target(body), vm.token_pos());
    let after = vm.label();
    for at in leaves {
        vm.patch(at, after);
    }
    Ok(())
}

fn first_char(vm: &mut Vm, word: &str) -> VmResult<i32> {
    let (name, _) = vm.parse_name(word)?;
    Ok(name[0] as i32)
}

fn rand_within(vm: &mut Vm, stream: usize) -> VmResult<()> {
    let hi = vm.pop()?;
    let lo = vm.pop()?;
    let n = vm.rand_within(stream, lo, hi);
    vm.push(n)
}

pub fn format_number(n: i64, base: u32) -> String {
    if base == 10 {
        return n.to_string();
    }
    let negative = n < 0;
    let mut u = n.unsigned_abs();
    let mut digits = Vec::new();
    loop {
        digits.push(std::char::from_digit((u % base as u64) as u32, base).unwrap_or('?').to_ascii_uppercase());
        u /= base as u64;
        if u == 0 {
            break;
        }
    }
    if negative {
        digits.push('-');
    }
    digits.iter().rev().collect()
}

impl Vm {
    /// The timer a word made by `TIMER` reads.
    fn timer_named(&mut self, name: &[u8]) -> VmResult<i32> {
        let xt = self.find_or_fail(name)?;
        let entry = self.dict.word(xt).entry;
        let elapsed = self.host_id("(TIMER-MS)");
        match (self.code.op(entry), self.code.op(entry + 1)) {
            (Op::Lit(id), Op::Host(h)) if h == elapsed && (id as usize) < self.timers.len() => Ok(id),
            _ => Err(ErrorKind::Game(format!("RESTART-TIMER: `{}` is not a TIMER", String::from_utf8_lossy(name))).into()),
        }
    }
}
