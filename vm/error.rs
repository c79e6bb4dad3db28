//! Errors as values: what went wrong, where, and how we got there.
//!
//! Owns `VmError` and `ErrorKind`. An error is created where it happens
//! (`kind` + the word that was running + `--> file:line:col`); each layer it
//! passes through on the way out (inner interpreter frames, LOAD, the outer
//! interpreter, move generation) appends one "called from" line. Two kinds
//! are not failures but non-local exits: `Verify` (Axiom's `verify`) and
//! `Bye`; they carry no trace and cost nothing to create.

use crate::lexer::Location;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    StackUnderflow { needs: u32, has: u32 },
    StackOverflow { limit: u32 },
    ReturnStackUnderflow,
    ReturnStackOverflow { limit: u32 },
    /// The name, and a "did you mean" hint when a defined name is close
    /// (boxed: errors stay small, and they travel through the hot paths).
    UndefinedWord(String, Option<Box<String>>),
    NumberOutOfRange(String),
    DivisionByZero,
    /// `PICK` or `ROLL` of a negative index.
    NegativeIndex { word: &'static str, index: i32 },
    /// An array of a negative number of cells (`-5 [] x`).
    NegativeSize { word: &'static str, size: i32 },
    AddressOutOfRange { addr: i32, len: u32, size: u32 },
    DataSpaceExhausted { wanted: i64, free: i64 },
    /// What the script made grow (saved boards, the moves and their
    /// edits) would take the VM past `--max-memory`.
    OutOfMemory { what: &'static str, bytes: u64, limit: u64 },
    StepLimit { limit: u64 },
    /// Stopped from outside (Ctrl-C in the REPL).
    Interrupted,
    /// A script engine ran past its time per move and the grace after it
    /// without giving way (`$Yield` … `searching?`).
    OutOfTime { ms: u64 },
    /// The run went past the time its command allows it (`check`'s time
    /// per variant, `Vm::set_time_limit`).
    TimedOut { ms: u64 },
    /// Script run by native words run by script…, too deep.
    NestingLimit { limit: u32 },
    UnsetDefer(String),
    NotAnXt(i32),
    NotDeferred(String),
    CompileOnly(String),
    InterpretOnly(String),
    NotCompiling(String),
    Unterminated(String),
    ControlFlow(String),
    /// A colon definition left open where something else begins.
    MissingSemicolon(Box<OpenDefinition>),
    MissingName(String),
    NoDataField(String),
    LoadNotFound(String),
    LoadCycle(String),
    LoadDepth { limit: u32 },
    Io(String),
    Abort(String),
    /// Errors of the game layer (bad declarations, unbalanced clones...).
    Game(String),
    /// Axiom's `verify` with a false flag: leave the move word.
    Verify,
    /// `BYE`: stop interpreting, successfully.
    Bye,
    /// Inside the inner interpreter only: a tolerated underflow was
    /// repaired, run again from `Vm::resume_at`.
    Resume,
}

impl ErrorKind {
    /// A stable short name, used by tests and tools that match on errors.
    pub fn code(&self) -> &'static str {
        use ErrorKind::*;
        match self {
            StackUnderflow { .. } => "stack-underflow",
            StackOverflow { .. } => "stack-overflow",
            ReturnStackUnderflow => "return-stack-underflow",
            ReturnStackOverflow { .. } => "return-stack-overflow",
            UndefinedWord(..) => "undefined-word",
            NumberOutOfRange(_) => "number-out-of-range",
            DivisionByZero => "division-by-zero",
            NegativeIndex { .. } => "negative-index",
            NegativeSize { .. } => "negative-size",
            AddressOutOfRange { .. } => "address-out-of-range",
            DataSpaceExhausted { .. } => "data-space-exhausted",
            OutOfMemory { .. } => "out-of-memory",
            StepLimit { .. } => "step-limit",
            Interrupted => "interrupted",
            OutOfTime { .. } => "out-of-time",
            TimedOut { .. } => "timed-out",
            NestingLimit { .. } => "nesting-limit",
            UnsetDefer(_) => "unset-defer",
            NotAnXt(_) => "not-an-xt",
            NotDeferred(_) => "not-deferred",
            CompileOnly(_) => "compile-only",
            InterpretOnly(_) => "interpret-only",
            NotCompiling(_) => "not-compiling",
            Unterminated(_) => "unterminated",
            ControlFlow(_) => "control-flow",
            MissingSemicolon(_) => "missing-semicolon",
            MissingName(_) => "missing-name",
            NoDataField(_) => "no-data-field",
            LoadNotFound(_) => "load-not-found",
            LoadCycle(_) => "load-cycle",
            LoadDepth { .. } => "load-depth",
            Io(_) => "io",
            Abort(_) => "abort",
            Game(_) => "game",
            Verify => "verify",
            Bye => "bye",
            Resume => "resume",
        }
    }

    /// A limit on runaway code (steps, stack depths, nesting): never
    /// forgiven by the tolerances of AXIOM.md §8, which would let a
    /// runaway recursion go on branching.
    pub fn is_resource_limit(&self) -> bool {
        use ErrorKind::*;
        matches!(self, StepLimit { .. } | Interrupted | OutOfTime { .. } | TimedOut { .. } | NestingLimit { .. } | StackOverflow { .. } | ReturnStackOverflow { .. } | LoadDepth { .. } | DataSpaceExhausted { .. } | OutOfMemory { .. })
    }

    /// What to do about it, shown after the word.
    fn hint(&self) -> Option<String> {
        use ErrorKind::*;
        Some(match self {
            StackUnderflow { needs, has } => format!("needs {needs}, has {has}"),
            StackOverflow { limit } => format!("more than {limit} cells; raise the limit with --stack-depth"),
            ReturnStackOverflow { limit } => format!("deeper than {limit}: runaway recursion? raise the limit with --return-depth"),
            DataSpaceExhausted { .. } => "raise the limit with --data-space".into(),
            OutOfMemory { .. } => "a runaway loop? each `$CloneBoard` needs a `$DeallocateBoard`, each `$GenerateMoves` a `$DeallocateMoves`; raise the limit with --max-memory".into(),
            StepLimit { .. } => "an infinite loop? raise the budget with --max-steps".into(),
            NegativeIndex { .. } => "the index counts cells below the top: 0 is the top".into(),
            OutOfTime { .. } => "an engine must call `$Yield` and stop once `searching?` is false".into(),
            UnsetDefer(w) => format!("set one with `' word IS {w}`"),
            UndefinedWord(_, Some(hint)) => hint.to_string(),
            _ => return None,
        })
    }

    /// The headline, without the word: "stack underflow".
    fn headline(&self) -> String {
        use ErrorKind::*;
        match self {
            StackUnderflow { .. } => "stack underflow".into(),
            StackOverflow { .. } => "stack overflow".into(),
            ReturnStackUnderflow => "return stack underflow".into(),
            ReturnStackOverflow { .. } => "return stack overflow".into(),
            UndefinedWord(w, _) => format!("undefined word: {w}"),
            NumberOutOfRange(w) => format!("number out of range for a 32-bit cell: {w}"),
            DivisionByZero => "division by zero".into(),
            NegativeIndex { word, index } => format!("negative index for {word}: {index}"),
            NegativeSize { word, size } => format!("negative size for {word}: {size} cells"),
            AddressOutOfRange { addr, len, size } => {
                format!("address out of range: {addr} (+{len} bytes; the data space is 0..{size})")
            }
            DataSpaceExhausted { wanted, free } => format!("data space exhausted: ALLOT of {wanted} bytes with {free} free"),
            OutOfMemory { what, bytes, limit } => format!("out of memory: {what} would take the VM to {bytes} bytes, past its budget of {limit}"),
            StepLimit { limit } => format!("step budget of {limit} exhausted"),
            Interrupted => "interrupted".into(),
            TimedOut { ms } => format!("timed out: past the {} s this run may take (--timeout)", *ms as f64 / 1000.0),
            OutOfTime { ms } => format!("still searching {:.1} s after its time per move ran out", *ms as f64 / 1000.0),
            NestingLimit { limit } => format!(
                "script called from native words nested deeper than {limit} (a move that plays itself, or generates moves inside a move word, without end?)"
            ),
            UnsetDefer(w) => format!("deferred word `{w}` has no action"),
            NotAnXt(n) => format!("not an execution token: {n}"),
            NotDeferred(w) => format!("`{w}` is not a deferred word (IS needs a word made by DEFER)"),
            CompileOnly(w) => format!("`{w}` is compile-only: use it inside a colon definition"),
            InterpretOnly(w) => format!("`{w}` cannot be used inside a colon definition"),
            NotCompiling(w) => format!("`{w}` without a matching `:`"),
            Unterminated(what) => format!("unterminated {what}"),
            ControlFlow(what) => format!("unbalanced control structure: {what}"),
            MissingSemicolon(d) => format!("`;` missing: the definition of `{}`{} is still open, and {}", d.name, d.opened, d.then),
            MissingName(w) => format!("`{w}` needs a name after it, but the input ended"),
            NoDataField(w) => format!("`{w}` has no data field (>BODY works on CREATEd words and variables)"),
            LoadNotFound(f) => format!("LOAD: file not found: {f}"),
            LoadCycle(f) => format!("LOAD cycle: {f} is already being loaded"),
            LoadDepth { limit } => format!("LOAD nested deeper than {limit}"),
            Io(m) => format!("i/o error: {m}"),
            Abort(m) => format!("aborted: {m}"),
            Game(m) => m.clone(),
            Verify => "`verify` outside move generation".into(),
            Bye => "BYE".into(),
            Resume => "resume".into(),
        }
    }
}

/// Source bytes as text to print: valid UTF-8 stays, control characters
/// and bytes that are not UTF-8 become `\xNN`, so a binary file shows
/// what it holds instead of driving the terminal.
pub fn printable(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            if c.is_control() {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// A colon definition still open: its name, " opened at file:line", and
/// what came instead of its `;`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenDefinition {
    pub name: String,
    pub opened: String,
    pub then: String,
}

/// An error with where it happened: boxed, so that a `VmResult` is a
/// word or two, returned in registers (every layer between the host and
/// the script passes one on, at every node of a search). A failed
/// `verify`, which ends most move words, is not boxed: it allocates
/// nothing until something is added to it.
#[derive(Clone, Debug)]
pub struct VmError(Option<Box<ErrorDetail>>);

/// Errors are equal by what they hold, boxed or not.
impl PartialEq for VmError {
    fn eq(&self, other: &VmError) -> bool {
        **self == **other
    }
}

impl Eq for VmError {}

/// What an unboxed `verify` failure (`VmError(None)`) reads as.
static VERIFY: ErrorDetail = ErrorDetail { kind: ErrorKind::Verify, word: None, location: None, trace: Vec::new(), line: Vec::new() };

/// What a `VmError` holds (read through it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorDetail {
    pub kind: ErrorKind,
    /// The word that was executing (or being defined) when it happened.
    pub word: Option<String>,
    /// Where: the instruction or token that failed.
    pub location: Option<Location>,
    /// How we got there, innermost first: "called from ..." lines.
    pub trace: Vec<String>,
    /// An error of the game's code met inside an engine's search: the
    /// moves the search had played from the position it searched, so the
    /// position can be reached again (`axforth moves --after`).
    pub line: Vec<String>,
}

pub type VmResult<T> = Result<T, VmError>;

impl VmError {
    pub fn new(kind: ErrorKind) -> VmError {
        match kind {
            ErrorKind::Verify => VmError(None),
            kind => VmError(Some(Box::new(ErrorDetail { kind, word: None, location: None, trace: Vec::new(), line: Vec::new() }))),
        }
    }

    /// Verify and Bye pass through every layer untouched.
    pub fn is_control(&self) -> bool {
        matches!(self.kind, ErrorKind::Verify | ErrorKind::Bye | ErrorKind::Resume)
    }

    pub fn is_located(&self) -> bool {
        self.location.is_some() || self.word.is_some()
    }

    pub fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl std::ops::Deref for VmError {
    type Target = ErrorDetail;
    fn deref(&self) -> &ErrorDetail {
        self.0.as_deref().unwrap_or(&VERIFY)
    }
}

impl std::ops::DerefMut for VmError {
    fn deref_mut(&mut self) -> &mut ErrorDetail {
        self.0.get_or_insert_with(|| Box::new(VERIFY.clone()))
    }
}

impl From<ErrorKind> for VmError {
    fn from(kind: ErrorKind) -> VmError {
        VmError::new(kind)
    }
}

impl fmt::Display for VmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.kind.headline())?;
        if let Some(w) = &self.word {
            write!(f, " in `{w}`")?;
        }
        if let Some(hint) = self.kind.hint() {
            write!(f, " ({hint})")?;
        }
        if let Some(loc) = &self.location {
            write!(f, "\n  --> {loc}")?;
        }
        // Runaway recursion repeats one line thousands of times: fold runs.
        let mut i = 0;
        while i < self.trace.len() {
            let line = &self.trace[i];
            let run = self.trace[i..].iter().take_while(|l| *l == line).count();
            write!(f, "\n  {line}")?;
            if run > 1 {
                write!(f, " (and {} more times)", run - 1)?;
            }
            i += run;
        }
        if !self.line.is_empty() {
            write!(f, "\n  in a position the search reached after: {}", self.line.join("; "))?;
        }
        Ok(())
    }
}

impl std::error::Error for VmError {}

/// Warnings: what the tolerances of AXIOM.md §8 let pass. Each is kept
/// once per instruction (a word and a source location) and kind, so a
/// sloppy move word run a million times in a search warns once.
#[derive(Clone, Default)]
pub struct Warnings {
    /// (the instruction, or a hash of an error's place, with its kind)
    seen: std::collections::HashSet<(u64, &'static str)>,
    pending: Vec<String>,
    /// Warnings ever raised (including those already taken).
    pub count: usize,
}

impl Warnings {
    /// Records a warning for the instruction at `addr` unless one of this
    /// kind was recorded there before; `text` makes the message lazily.
    pub fn once(&mut self, addr: u64, kind: &'static str, text: impl FnOnce() -> String) {
        if self.seen.insert((addr, kind)) {
            self.count += 1;
            self.pending.push(text());
        }
    }

    pub fn is_known(&self, addr: u64, kind: &'static str) -> bool {
        self.seen.contains(&(addr, kind))
    }

    /// The warnings not yet taken, oldest first.
    pub fn take(&mut self) -> Vec<String> {
        std::mem::take(&mut self.pending)
    }
}
