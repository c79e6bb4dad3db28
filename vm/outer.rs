//! The outer interpreter and the compiler.
//!
//! Owns reading the input (token by token through the lexer, or raw text
//! for parsing words), number conversion, interpreting vs compiling a
//! token (the compiler itself is `compiler.rs`), and loading files (`LOAD`
//! resolution, cycle detection, nesting limit).

use crate::error::{ErrorKind, VmError, VmResult};
use crate::lexer::{self, Pos, SourceFile};
use crate::memory::{BASE_ADDR, STATE_ADDR};
use crate::ops::Op;
use crate::state::search::ENGINE_GRACE;
use crate::vm::{Input, Vm};
use std::path::{Path, PathBuf};


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

    /// Interprets text generated from another source (a translated
    /// `.zrf`): `origins` are the byte offsets of its lines that come from
    /// a place of that source, in order; errors there point at the place.
    pub fn run_generated(&mut self, name: &str, text: &[u8], origins: crate::vm::Origins) -> VmResult<()> {
        self.refill_steps();
        let file = self.add_file(name.to_string(), None, text.to_vec());
        self.origins.push((file, origins));
        let r = self.interpret_file(file, true);
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

    /// Script this VM runs stops with an error once `limit` has passed
    /// since `start` (checked between slices of steps, as Ctrl-C is),
    /// whatever it runs: a move word that never ends, under `check`.
    pub fn set_time_limit(&mut self, limit: Option<(std::time::Instant, std::time::Duration)>) {
        self.time_limit = limit.map(|(start, l)| (start + l, l));
    }

    /// Each top-level run gets the whole `--max-steps` budget.
    #[inline]
    pub fn refill_steps(&mut self) {
        let budget = self.config.max_steps.unwrap_or(u64::MAX);
        let sliced = self.interrupt.is_some() || self.hard_deadline.is_some() || self.time_limit.is_some();
        self.steps_left = if sliced { budget.min(STEP_SLICE) } else { budget };
        self.steps_reserve = budget - self.steps_left;
    }

    /// The slice of steps ran out: stop if interrupted or the budget is
    /// spent, else hand out the next slice.
    #[cold]
    pub(crate) fn next_step_slice(&mut self) -> Result<(), ErrorKind> {
        self.check_limits()?;
        if self.steps_reserve == 0 {
            return Err(ErrorKind::StepLimit { limit: self.config.max_steps.unwrap_or(0) });
        }
        self.steps_left = self.steps_reserve.min(STEP_SLICE);
        self.steps_reserve -= self.steps_left;
        Ok(())
    }

    /// Stops the run if it was interrupted or its time is over. Script
    /// is looked at between step slices; the host's own walks of moves
    /// (perft, `"maximal captures"`, a chain's continuations), which the
    /// step budget does not bound, every `MOVES_BETWEEN_CHECKS` moves.
    #[cold]
    pub(crate) fn check_limits(&mut self) -> Result<(), ErrorKind> {
        if let Some(flag) = &self.interrupt {
            if flag.swap(false, std::sync::atomic::Ordering::SeqCst) {
                self.steps_reserve = 0;
                return Err(ErrorKind::Interrupted);
            }
        }
        if let Some(deadline) = self.hard_deadline {
            let now = std::time::Instant::now();
            if now >= deadline {
                self.steps_reserve = 0;
                return Err(ErrorKind::OutOfTime { ms: (ENGINE_GRACE + (now - deadline)).as_millis() as u64 });
            }
        }
        if let Some((end, limit)) = self.time_limit {
            if std::time::Instant::now() >= end {
                self.steps_reserve = 0;
                return Err(ErrorKind::TimedOut { ms: limit.as_millis() as u64 });
            }
        }
        Ok(())
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
        if whole_file && self.def.as_ref().is_some_and(|d| d.pos.file == file) {
            let pos = self.def.as_ref().map(|d| d.pos).unwrap_or(Pos::NONE);
            if let Some(mut e) = self.still_open("the file ends") {
                e.location = self.location(pos);
                return Err(e);
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
            if compiling && self.def.is_some() {
                let what = match name {
                    b":" => Some("a new `:` begins here".to_string()),
                    _ if opens_a_declaration(name) => Some(format!("`{}` begins a declaration block here", String::from_utf8_lossy(name))),
                    _ => None,
                };
                if let Some(e) = what.and_then(|w| self.still_open(&w)) {
                    return Err(e);
                }
            }
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
            None => Err(self.undefined(name)),
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

/// Steps between two looks at the interrupt flag: a few milliseconds.
const STEP_SLICE: u64 = 1 << 20;

/// How many moves the host makes between looks at the interrupt flag and
/// the clock (`check_limits`): a move costs at least a microsecond, a look
/// some tens of nanoseconds.
pub(crate) const MOVES_BETWEEN_CHECKS: u32 = 1024;


/// `{board`, `{players`, `{moves` …: a declaration block's first word,
/// which never belongs inside a colon definition (`:` is caught by `:`).
fn opens_a_declaration(name: &[u8]) -> bool {
    name.len() > 1 && name[0] == b'{' && name[name.len() - 1] != b'}'
}
