//! The inner interpreter: one loop, one `match` over `Op`.
//!
//! Owns `Vm::run` (enter code from Rust and come back) and the dispatch
//! loop. The top of the data stack lives in a local; the loop reads no
//! names and allocates nothing. The build (`.cargo/config.toml`) has LLVM
//! copy the dispatch into every arm, so keep the loop head small: fetch,
//! advance, match. Every instruction checks the stack depth
//! it needs (one compare) so an underflow is a clean error naming the
//! word; memory goes through the bounds-checked `Memory`.
//!
//! `run` is re-entrant: native words may call it again (LOAD, EXECUTE from
//! the game layer, move generation). On an error each `run` adds its own
//! call frames to the error's trace, innermost first, then unwinds them.

use crate::error::{ErrorKind, VmError, VmResult};
use crate::state::player_index;
use crate::state::PLAYER_MASK;
use crate::ops::{Addr, Op};
use crate::vm::{DirectFn, Frame, HostRun, Stacks, Vm, HOST_RETURN};

/// How deeply `run` may nest inside native words.
pub const MAX_RUN_NESTING: u32 = 128;

impl Vm {
    /// Executes the word with this execution token.
    pub fn execute(&mut self, xt: u32) -> VmResult<()> {
        let entry = match self.dict.words.get(xt as usize) {
            Some(w) => w.entry,
            None => return Err(ErrorKind::NotAnXt(crate::dictionary::token(xt)).into()),
        };
        self.run(entry)
    }

    /// Runs code from `entry` until it returns to us.
    pub fn run(&mut self, entry: Addr) -> VmResult<()> {
        self.run_as(entry, true)
    }

    /// `run`, with the word at `entry` itself interpreted whatever native
    /// code it has (what it calls is not): for a caller that knows it has
    /// none, without reading the JIT's slot for it (a cache miss at each
    /// of the move generator's attempts, `game/generate.rs`).
    pub(crate) fn run_interpreted(&mut self, entry: Addr) -> VmResult<()> {
        self.run_as(entry, false)
    }

    fn run_as(&mut self, entry: Addr, native: bool) -> VmResult<()> {
        let entry = entry.min(self.code.next_addr());
        let base = self.fp;
        let rdepth = self.rdepth;
        if base >= self.config.return_depth {
            return Err(ErrorKind::ReturnStackOverflow { limit: self.config.return_depth }.into());
        }
        // Native words that run script (events, moves applied through
        // `.moveCFA EXECUTE`, generation inside a move word) nest Rust
        // calls: bound them so a runaway script cannot exhaust the native
        // stack.
        if self.run_nesting >= MAX_RUN_NESTING {
            return Err(ErrorKind::NestingLimit { limit: MAX_RUN_NESTING }.into());
        }
        self.run_nesting += 1;
        self.jit_cover_code();
        let result = self.run_frame(entry, base, rdepth, native);
        self.run_nesting -= 1;
        result
    }

    fn run_frame(&mut self, entry: Addr, base: u32, rdepth: u32, native: bool) -> VmResult<()> {
        self.stacks.frames[base as u16 as usize] = Frame { ret: HOST_RETURN, rdepth };
        self.fp = base + 1;
        let result = if native && self.jit.slots.get(entry as usize).is_some_and(|&s| self.jit.worth_entering(s)) {
            let entered = self.jit_enter(entry);
            self.after_native(entered, entry)
        } else {
            self.dispatch(entry)
        };
        self.end_frame(result, base, rdepth)
    }

    /// The word at `entry` was offered to native code, which `entered`
    /// says what became of: the interpreter runs what is left of it.
    pub(crate) fn after_native(&mut self, entered: crate::jit::Entered, entry: Addr) -> VmResult<()> {
        match entered {
            crate::jit::Entered::Interpret => self.dispatch(entry),
            // The frame it returned through is the one above.
            crate::jit::Entered::Returned(_) => Ok(()),
            crate::jit::Entered::Deopt(at) => self.dispatch(at),
            crate::jit::Entered::Failed(e) => Err(e),
        }
    }

    /// Finishes a run whose host frame is at `base`: resumes after
    /// `Resume`, and on an error adds the call sites of the frames it
    /// unwinds and pops them.
    pub(crate) fn end_frame(&mut self, mut result: VmResult<()>, base: u32, rdepth: u32) -> VmResult<()> {
        while matches!(&result, Err(e) if matches!(e.kind, ErrorKind::Resume)) {
            result = self.dispatch(self.resume_at);
        }
        if let Err(mut e) = result {
            if !e.is_control() {
                for i in (base + 1..self.fp).rev() {
                    let site = self.stacks.frames[i as u16 as usize].ret.wrapping_sub(1);
                    self.trace_site(&mut e, site);
                }
            }
            self.fp = base;
            self.rdepth = rdepth;
            return Err(e);
        }
        Ok(())
    }

    /// Runs the native word `id` for the instruction at `at`: its error,
    /// located and traced as the dispatch loop returns it.
    pub(crate) fn host_step(&mut self, id: u32, at: Addr) -> VmResult<()> {
        self.host_ip = at;
        let result = match self.hosts[id as usize].run {
            HostRun::Vm(f) => f(self),
            HostRun::Direct { f, ins, outs, .. } => self.run_direct(f, ins, outs),
        };
        match result {
            Ok(()) => Ok(()),
            Err(e) if e.is_control() => Err(e),
            Err(mut e) if e.is_located() => {
                self.trace_site(&mut e, at);
                Err(e)
            }
            Err(e) => Err(self.error_at(at, e)),
        }
    }

    /// A direct word as the interpreter runs it: its arguments popped, its
    /// result pushed.
    fn run_direct(&mut self, f: DirectFn, ins: u8, outs: u8) -> VmResult<()> {
        let (a, b) = match ins {
            0 => (0, 0),
            1 => (self.pop()?, 0),
            _ => {
                let b = self.pop()?;
                (self.pop()?, b)
            }
        };
        let r = f(self, a, b)?;
        if outs > 0 {
            self.push(r)?;
        }
        Ok(())
    }

    /// Adds the "called from" line(s) for the call instruction at `site`.
    fn trace_site(&self, e: &mut VmError, site: Addr) {
        if let Some(info) = self.code.info(site) {
            if !info.pos.is_none() {
                e.trace.push(self.describe_site(info.word, info.pos));
            }
            for site in self.code.inline_sites(info.inlined) {
                e.trace.push(self.describe_site(site.caller, site.pos));
            }
        }
    }

    #[inline(never)]
    pub(crate) fn dispatch(&mut self, entry: Addr) -> VmResult<()> {
        // The hot state lives in locals, and the code and the stacks (one
        // allocation) are reached through raw pointers held in locals too: reading
        // them through `self` on every instruction would cost a load each
        // time, since LLVM cannot prove that stores through the stacks
        // leave `self` alone. The pointers are re-derived (`reload!`)
        // after anything that takes `&mut self`, which may grow the code
        // vector. Every stack index is cast to `u16` and every stack has
        // `STACK_CELLS` = 2^16 entries, so no stack access can leave its
        // allocation whatever the script does; code addresses obey the
        // invariant in `code.rs`.
        let mut ip = entry as usize;
        let mut tos = self.tos;
        let mut d = self.depth;
        let mut fp = self.fp;
        let mut rp = self.rdepth;
        let max_d = self.config.stack_depth;
        let max_r = self.config.return_depth;
        let mut ops = self.code.ops_ptr();
        let mut stacks: *mut Stacks = &mut *self.stacks;
        // The innermost frame's data stack: its cell i is `ds[i]`.
        // SAFETY: `ds_base < STACK_CELLS` (`enter_frame`) and `ds` has
        // 2 * STACK_CELLS cells, so `ds + any u16` stays inside.
        let mut ds: *mut i32 = unsafe { (*stacks).ds.as_mut_ptr().add(self.ds_base as usize) };

        macro_rules! sync {
            () => {{
                self.tos = tos;
                self.depth = d;
                self.fp = fp;
                self.rdepth = rp;
            }};
        }
        macro_rules! reload {
            () => {{
                tos = self.tos;
                d = self.depth;
                fp = self.fp;
                rp = self.rdepth;
                ops = self.code.ops_ptr();
                // Native words may compile, and the compiler may shorten
                // the code after its fuse barrier: never resume past the
                // end (the sentinel `Exit` is at `next_addr`).
                ip = ip.min(self.code.next_addr() as usize);
                stacks = &mut *self.stacks;
                // SAFETY: as above.
                ds = unsafe { (*stacks).ds.as_mut_ptr().add(self.ds_base as usize) };
            }};
        }
        let failure: ErrorKind = 'run: loop {
            // Every failure leaves the loop through one exit below, so the
            // arms stay small and the hot state stays in registers.
            macro_rules! fail {
                ($kind:expr) => {{
                    break 'run $kind;
                }};
            }
            macro_rules! need {
                ($n:expr) => {
                    if d < $n {
                        fail!(ErrorKind::StackUnderflow { needs: $n, has: d })
                    }
                };
            }
            macro_rules! at {
                ($i:expr) => {
                    // SAFETY: `ds` points into the live `Stacks` (re-derived
                    // after anything that takes `&mut self`) at most
                    // STACK_CELLS before the end of the 2 * STACK_CELLS
                    // data stack, and the index is a u16.
                    *unsafe { &mut *ds.add(($i) as u16 as usize) }
                };
            }
            macro_rules! push {
                ($x:expr) => {{
                    let x = $x;
                    if d >= max_d {
                        fail!(ErrorKind::StackOverflow { limit: max_d })
                    }
                    at!(d) = tos;
                    d += 1;
                    tos = x;
                }};
            }
            // Callers have checked the depth.
            macro_rules! pop {
                () => {{
                    let x = tos;
                    d -= 1;
                    tos = at!(d);
                    x
                }};
            }
            macro_rules! binary {
                (|$a:ident, $b:ident| $e:expr) => {{
                    need!(2);
                    let $b = tos;
                    d -= 1;
                    let $a = at!(d);
                    tos = $e;
                }};
            }
            macro_rules! flag {
                ($c:expr) => {
                    -(($c) as i32)
                };
            }
            macro_rules! add_at {
                ($delta:expr) => {{
                    need!(1);
                    let v = mem!(self.mem.fetch(tos));
                    mem!(self.mem.store(tos, v.wrapping_add($delta)));
                    pop!();
                }};
            }
            macro_rules! store_tos_addr {
                ($value:expr) => {{
                    need!(1);
                    mem!(self.mem.store(tos, $value));
                    pop!();
                }};
            }
            // A direction word: ( -- ? ) move `here` along `dir` (as the
            // player whose moves are generated sees it) if there is a link.
            // Moves `here` along `dir` if there is a link; true if it moved.
            macro_rules! step_here {
                ($dir:expr) => {{
                    let dir = $dir;
                    let g = &mut *self.game;
                    let to = g.board.step(player_index(g.gen.player), dir, g.gen.here);
                    if to >= 0 {
                        g.gen.here = to;
                    }
                    to >= 0
                }};
            }
            macro_rules! walk {
                ($dir:expr) => {{
                    let moved = step_here!($dir);
                    push!(flag!(moved));
                }};
            }
            // `verify`: leave the move word unless `ok`.
            macro_rules! verify {
                ($ok:expr) => {{
                    if !$ok {
                        if !self.game.gen.active {
                            fail!(ErrorKind::Game("`verify` failed outside move generation (only move words may use it)".into()))
                        }
                        sync!();
                        return Err(ErrorKind::Verify.into());
                    }
                }};
            }
            macro_rules! friend_or_enemy {
                ($enemy:expr) => {{
                    if self.game.events.friends.is_some() {
                        // OnFriends? is script: run it through the VM.
                        sync!();
                        let result = (self.hooks.friend_or_enemy)(self, $enemy);
                        reload!();
                        if let Err(e) = result {
                            return Err(self.error_at((ip - 1) as Addr, e));
                        }
                    } else {
                        // As the original's kernel defines them: `friend?`
                        // is the owner (with the neutral bit) equal to
                        // `current-player`; `enemy?` is any other piece.
                        let c = cell!(self.game.gen.here);
                        let friend = c & PLAYER_MASK == self.game.gen.player;
                        let yes = if $enemy { c != 0 && !friend } else { friend };
                        push!(flag!(yes));
                    }
                }};
            }
            // The content of a position. Off the board: an error, or in a
            // tolerant frame an empty cell, as the original read.
            macro_rules! cell {
                ($pos:expr) => {{
                    let pos = $pos;
                    if self.game.board.valid(pos) {
                        mem!(self.mem.fetch(self.game.board.cell_addr(pos)))
                    } else {
                        mem!(self.off_board((ip - 1) as Addr, pos))
                    }
                }};
            }
            macro_rules! mem {
                ($e:expr) => {
                    match $e {
                        Ok(v) => v,
                        Err(k) => fail!(k),
                    }
                };
            }
            macro_rules! step {
                () => {{
                    if self.steps_left == 0 {
                        if let Err(k) = self.next_step_slice() {
                            fail!(k)
                        }
                    }
                    self.steps_left -= 1;
                }};
            }
            macro_rules! call {
                ($target:expr) => {{
                    step!();
                    if fp >= max_r {
                        fail!(ErrorKind::ReturnStackOverflow { limit: max_r })
                    }
                    // SAFETY: as for `at!`.
                    unsafe { (*stacks).frames[fp as u16 as usize] = Frame { ret: ip as Addr, rdepth: rp } };
                    fp += 1;
                    ip = $target as usize;
                    jit!();
                }};
            }
            // A word is entered (its frame pushed, `ip` at its entry): its
            // native code runs instead when it has some (`jit/`). Off, the
            // slot table is empty and this is one compare; on, two.
            macro_rules! jit {
                () => {{
                    if self.jit.slots.get(ip).is_some_and(|&s| self.jit.worth_entering(s)) && !self.jit.skip_unpaid(ip) {
                        sync!();
                        let entered = self.jit_enter(ip as Addr);
                        reload!();
                        match entered {
                            crate::jit::Entered::Interpret => {}
                            crate::jit::Entered::Returned(ret) => {
                                if ret == HOST_RETURN {
                                    return Ok(());
                                }
                                ip = ret as usize;
                            }
                            crate::jit::Entered::Deopt(at) => ip = at as usize,
                            crate::jit::Entered::Failed(e) => return Err(e),
                        }
                    }
                }};
            }
            macro_rules! rneed {
                ($n:expr) => {
                    if rp < $n {
                        fail!(ErrorKind::ReturnStackUnderflow)
                    }
                };
            }
            macro_rules! rat {
                ($i:expr) => {
                    // SAFETY: as for `at!`.
                    *unsafe { &mut (*stacks).rs[($i) as u16 as usize] }
                };
            }
            macro_rules! jump {
                ($t:expr) => {{
                    let t = $t as usize;
                    if t < ip {
                        step!();
                    }
                    ip = t;
                }};
            }
            macro_rules! compare_jump {
                ($t:expr, |$a:ident, $b:ident| $cond:expr) => {{
                    need!(2);
                    let $b = tos;
                    let $a = at!(d - 1);
                    d -= 2;
                    tos = at!(d);
                    if !($cond) {
                        jump!($t);
                    }
                }};
            }
            macro_rules! dup_literal_jump {
                ($t:expr, |$a:ident| $cond:expr) => {{
                    need!(1);
                    let $a = tos;
                    if !($cond) {
                        jump!($t);
                    }
                }};
            }
            macro_rules! literal_jump {
                ($t:expr, |$a:ident| $cond:expr) => {{
                    need!(1);
                    let $a = pop!();
                    if !($cond) {
                        jump!($t);
                    }
                }};
            }

            // SAFETY: `ip` is an entry, a jump target, a checked return
            // address, or the successor of an instruction that is not the
            // final `Exit` (code.rs); `reload!` clamps it after anything
            // that may have compiled.
            let op = unsafe { *ops.add(ip) };
            ip += 1;
            match op {
                Op::Lit(n) => push!(n),
                Op::Call(a) => call!(a),
                Op::Exit => {
                    // `run_frame` put a HOST_RETURN frame under every frame
                    // this loop pushes, so `fp` never gets below it.
                    fp -= 1;
                    // SAFETY: as for `at!`.
                    let f = unsafe { (*stacks).frames[fp as u16 as usize] };
                    rp = f.rdepth;
                    // One compare for both rare cases: back to Rust, or a
                    // return address past code that was shortened since.
                    if f.ret >= self.code.next_addr() {
                        if f.ret == HOST_RETURN {
                            sync!();
                            return Ok(());
                        }
                        if f.ret > self.code.next_addr() {
                            fail!(ErrorKind::ControlFlow("return into a definition recompiled while it ran".into()))
                        }
                    }
                    ip = f.ret as usize;
                }
                Op::Jump(t) => jump!(t),
                Op::JumpIfZero(t) => {
                    need!(1);
                    if pop!() == 0 {
                        jump!(t);
                    }
                }
                Op::DupJumpIfZero(t) => {
                    need!(1);
                    if tos == 0 {
                        jump!(t);
                    }
                }
                Op::Execute => {
                    need!(1);
                    let xt = pop!();
                    match self.dict.get(xt).map(|w| (w.step, w.entry)) {
                        // Direction tables + EXECUTE are the idiom of Axiom
                        // move words: step without a call frame.
                        Some((Some(step), _)) => walk!(step),
                        Some((None, entry)) => call!(entry),
                        None if xt >= crate::state::MOVE_XT_BASE => {
                            sync!();
                            let result = (self.hooks.execute_move)(self, xt);
                            reload!();
                            if let Err(e) = result {
                                return Err(self.error_at((ip - 1) as Addr, e));
                            }
                        }
                        None => fail!(ErrorKind::NotAnXt(xt)),
                    }
                }
                Op::Deferred(slot) => match self.defers[slot as usize] {
                    Some(xt) => call!(self.dict.word(xt).entry),
                    None => {
                        let name = self.dict.word(self.defer_owner[slot as usize]).display_name();
                        fail!(ErrorKind::UnsetDefer(name))
                    }
                },
                Op::SetDefer(slot) => {
                    need!(1);
                    let token = pop!();
                    let Some(xt) = self.dict.index_of(token) else {
                        fail!(ErrorKind::NotAnXt(token))
                    };
                    self.set_defer(slot as usize, xt);
                }
                Op::Host(id) => {
                    sync!();
                    let result = self.host_step(id, (ip - 1) as Addr);
                    reload!();
                    result?;
                }
                Op::DoesSet(target) => {
                    let Some(xt) = self.last_created else {
                        fail!(ErrorKind::ControlFlow("DOES> without a word made by CREATE or <BUILDS".into()))
                    };
                    let w = self.dict.word_mut(xt);
                    if let crate::dictionary::WordKind::Created { does, .. } = &mut w.kind {
                        *does = Some(target);
                        let entry = w.entry;
                        self.code.set(entry + 1, Op::Jump(target));
                    }
                }
                Op::CompileXt(xt) => {
                    sync!();
                    let r = self.compile_dynamic(xt);
                    reload!();
                    if let Err(e) = r {
                        return Err(self.error_at((ip - 1) as Addr, e));
                    }
                }
                Op::DotQuote(a) => {
                    let text = mem!(self.mem.counted(a as i32)).to_vec();
                    self.out.write(&text);
                }
                Op::AbortQuote(a) => {
                    need!(1);
                    if pop!() != 0 {
                        let text = String::from_utf8_lossy(mem!(self.mem.counted(a as i32))).into_owned();
                        fail!(ErrorKind::Abort(text))
                    }
                }

                // ---- loops and the return stack ----
                Op::Do => {
                    need!(2);
                    if rp + 2 > max_r {
                        fail!(ErrorKind::ReturnStackOverflow { limit: max_r })
                    }
                    let start = pop!();
                    let limit = pop!();
                    rat!(rp) = limit;
                    rat!(rp + 1) = start;
                    rp += 2;
                }
                Op::QDo(t) => {
                    need!(2);
                    if rp + 2 > max_r {
                        fail!(ErrorKind::ReturnStackOverflow { limit: max_r })
                    }
                    let start = pop!();
                    let limit = pop!();
                    if start == limit {
                        ip = t as usize;
                    } else {
                        rat!(rp) = limit;
                        rat!(rp + 1) = start;
                        rp += 2;
                    }
                }
                Op::Loop(t) => {
                    rneed!(2);
                    let r = rp;
                    let i = rat!(r - 1).wrapping_add(1);
                    if i == rat!(r - 2) {
                        rp -= 2;
                    } else {
                        rat!(r - 1) = i;
                        step!();
                        ip = t as usize;
                    }
                }
                Op::PlusLoop(t) => {
                    need!(1);
                    rneed!(2);
                    let n = pop!();
                    let r = rp;
                    let old = rat!(r - 1).wrapping_sub(rat!(r - 2));
                    let new = old.wrapping_add(n);
                    if (old ^ new) < 0 && (old ^ n) < 0 {
                        rp -= 2;
                    } else {
                        rat!(r - 1) = rat!(r - 1).wrapping_add(n);
                        step!();
                        ip = t as usize;
                    }
                }
                Op::Leave(t) => {
                    rneed!(2);
                    rp -= 2;
                    ip = t as usize;
                }
                Op::Unloop => {
                    rneed!(2);
                    rp -= 2;
                }
                Op::I => {
                    rneed!(2);
                    push!(rat!(rp - 1))
                }
                Op::J => {
                    rneed!(4);
                    push!(rat!(rp - 3))
                }
                Op::K => {
                    rneed!(6);
                    push!(rat!(rp - 5))
                }
                Op::ToR => {
                    need!(1);
                    if rp >= max_r {
                        fail!(ErrorKind::ReturnStackOverflow { limit: max_r })
                    }
                    rat!(rp) = pop!();
                    rp += 1;
                }
                Op::RFrom => {
                    rneed!(1);
                    rp -= 1;
                    push!(rat!(rp))
                }
                Op::RFetch => {
                    rneed!(1);
                    push!(rat!(rp - 1))
                }

                // ---- stack ----
                Op::Dup => {
                    need!(1);
                    push!(tos)
                }
                Op::Drop => {
                    need!(1);
                    pop!();
                }
                Op::Swap => {
                    need!(2);
                    std::mem::swap(&mut tos, &mut at!(d - 1));
                }
                Op::Over => {
                    need!(2);
                    push!(at!(d - 1))
                }
                Op::Rot => {
                    need!(3);
                    let (a, b, c) = (at!(d - 2), at!(d - 1), tos);
                    at!(d - 2) = b;
                    at!(d - 1) = c;
                    tos = a;
                }
                Op::MinusRot => {
                    need!(3);
                    let (a, b, c) = (at!(d - 2), at!(d - 1), tos);
                    at!(d - 2) = c;
                    at!(d - 1) = a;
                    tos = b;
                }
                Op::Nip => {
                    need!(2);
                    d -= 1;
                }
                Op::Tuck => {
                    need!(2);
                    if d >= max_d {
                        fail!(ErrorKind::StackOverflow { limit: max_d })
                    }
                    let a = at!(d - 1);
                    at!(d - 1) = tos;
                    at!(d) = a;
                    d += 1;
                }
                Op::Pick => {
                    need!(1);
                    let u = tos;
                    if u < 0 {
                        fail!(ErrorKind::NegativeIndex { word: "PICK", index: u })
                    }
                    if (u as u32) + 2 > d {
                        fail!(ErrorKind::StackUnderflow { needs: (u.max(0) as u32).saturating_add(2), has: d })
                    }
                    tos = at!(d - 1 - u as u32);
                }
                Op::Roll => {
                    need!(1);
                    let u = tos;
                    if u < 0 {
                        fail!(ErrorKind::NegativeIndex { word: "ROLL", index: u })
                    }
                    if (u as u32) + 2 > d {
                        fail!(ErrorKind::StackUnderflow { needs: (u.max(0) as u32).saturating_add(2), has: d })
                    }
                    pop!();
                    if u > 0 {
                        at!(d) = tos;
                        let lo = d - u as u32;
                        let bottom = at!(lo);
                        for i in lo..d {
                            at!(i) = at!(i + 1);
                        }
                        at!(d) = bottom;
                        tos = at!(d);
                    }
                }
                Op::TwoDup => {
                    need!(2);
                    let (a, b) = (at!(d - 1), tos);
                    push!(a);
                    push!(b);
                }
                Op::TwoDrop => {
                    need!(2);
                    d -= 2;
                    tos = at!(d);
                }
                Op::TwoSwap => {
                    need!(4);
                    let (a, b, c, x) = (at!(d - 3), at!(d - 2), at!(d - 1), tos);
                    at!(d - 3) = c;
                    at!(d - 2) = x;
                    at!(d - 1) = a;
                    tos = b;
                }
                Op::TwoOver => {
                    need!(4);
                    let (a, b) = (at!(d - 3), at!(d - 2));
                    push!(a);
                    push!(b);
                }
                Op::QDup => {
                    need!(1);
                    if tos != 0 {
                        push!(tos)
                    }
                }
                Op::Depth => push!(d as i32),

                // ---- arithmetic and logic ----
                Op::Add => binary!(|a, b| a.wrapping_add(b)),
                Op::Sub => binary!(|a, b| a.wrapping_sub(b)),
                Op::Mul => binary!(|a, b| a.wrapping_mul(b)),
                Op::Div => {
                    need!(2);
                    if tos == 0 {
                        fail!(ErrorKind::DivisionByZero)
                    }
                    binary!(|a, b| a.wrapping_div(b))
                }
                Op::Mod => {
                    need!(2);
                    if tos == 0 {
                        fail!(ErrorKind::DivisionByZero)
                    }
                    binary!(|a, b| a.wrapping_rem(b))
                }
                Op::DivMod => {
                    need!(2);
                    if tos == 0 {
                        fail!(ErrorKind::DivisionByZero)
                    }
                    let (a, b) = (at!(d - 1), tos);
                    at!(d - 1) = a.wrapping_rem(b);
                    tos = a.wrapping_div(b);
                }
                Op::MulDiv => {
                    need!(3);
                    if tos == 0 {
                        fail!(ErrorKind::DivisionByZero)
                    }
                    let (a, b, c) = (at!(d - 2) as i64, at!(d - 1) as i64, tos as i64);
                    d -= 2;
                    tos = (a * b / c) as i32;
                }
                Op::Inc => {
                    need!(1);
                    tos = tos.wrapping_add(1);
                }
                Op::Dec => {
                    need!(1);
                    tos = tos.wrapping_sub(1);
                }
                Op::Add2 => {
                    need!(1);
                    tos = tos.wrapping_add(2);
                }
                Op::Sub2 => {
                    need!(1);
                    tos = tos.wrapping_sub(2);
                }
                Op::Mul2 => {
                    need!(1);
                    tos = tos.wrapping_shl(1);
                }
                Op::Div2 => {
                    need!(1);
                    tos >>= 1;
                }
                Op::Abs => {
                    need!(1);
                    tos = tos.wrapping_abs();
                }
                Op::Negate => {
                    need!(1);
                    tos = tos.wrapping_neg();
                }
                Op::Min => binary!(|a, b| a.min(b)),
                Op::Max => binary!(|a, b| a.max(b)),
                Op::Eq => binary!(|a, b| flag!(a == b)),
                Op::Ne => binary!(|a, b| flag!(a != b)),
                Op::Lt => binary!(|a, b| flag!(a < b)),
                Op::Gt => binary!(|a, b| flag!(a > b)),
                Op::Le => binary!(|a, b| flag!(a <= b)),
                Op::Ge => binary!(|a, b| flag!(a >= b)),
                Op::ULt => binary!(|a, b| flag!((a as u32) < (b as u32))),
                Op::ZeroEq => {
                    need!(1);
                    tos = flag!(tos == 0);
                }
                Op::ZeroNe => {
                    need!(1);
                    tos = flag!(tos != 0);
                }
                Op::ZeroLt => {
                    need!(1);
                    tos = flag!(tos < 0);
                }
                Op::ZeroGt => {
                    need!(1);
                    tos = flag!(tos > 0);
                }
                Op::And => binary!(|a, b| a & b),
                Op::Or => binary!(|a, b| a | b),
                Op::Xor => binary!(|a, b| a ^ b),
                Op::Invert => {
                    need!(1);
                    tos = !tos;
                }
                Op::LShift => binary!(|a, b| if (b as u32) < 32 { a << b } else { 0 }),
                Op::RShift => binary!(|a, b| if (b as u32) < 32 { ((a as u32) >> b) as i32 } else { 0 }),

                // ---- memory ----
                Op::Fetch => {
                    need!(1);
                    tos = mem!(self.mem.fetch(tos));
                }
                Op::Store => {
                    need!(2);
                    mem!(self.mem.store(tos, at!(d - 1)));
                    d -= 2;
                    tos = at!(d);
                }
                Op::CFetch => {
                    need!(1);
                    tos = mem!(self.mem.cfetch(tos));
                }
                Op::CStore => {
                    need!(2);
                    mem!(self.mem.cstore(tos, at!(d - 1)));
                    d -= 2;
                    tos = at!(d);
                }
                Op::PlusStore => {
                    need!(2);
                    let v = mem!(self.mem.fetch(tos));
                    mem!(self.mem.store(tos, v.wrapping_add(at!(d - 1))));
                    d -= 2;
                    tos = at!(d);
                }
                // (No arm reads `op` after the dispatch: that would keep it
                // alive across the loop and cost a spill on every op.)
                Op::IncMem => add_at!(1),
                Op::DecMem => add_at!(-1),
                Op::On => store_tos_addr!(-1),
                Op::Off => store_tos_addr!(0),
                Op::Here => push!(self.mem.here as i32),
                Op::Allot => {
                    need!(1);
                    let n = pop!();
                    mem!(self.mem.allot(n));
                }
                Op::Comma => {
                    need!(1);
                    let x = pop!();
                    mem!(self.mem.comma(x));
                }
                Op::CComma => {
                    need!(1);
                    let x = pop!();
                    mem!(self.mem.ccomma(x));
                }
                Op::Cells => {
                    need!(1);
                    tos = tos.wrapping_mul(4);
                }
                Op::Fill => {
                    need!(3);
                    let (addr, n, c) = (at!(d - 2), at!(d - 1), tos);
                    if n > 0 {
                        mem!(self.mem.slice_mut(addr, n)).fill(c as u8);
                    }
                    d -= 3;
                    tos = at!(d);
                }
                Op::Move => {
                    need!(3);
                    let (from, to, n) = (at!(d - 2), at!(d - 1), tos);
                    mem!(self.mem.copy(from, to, n));
                    d -= 3;
                    tos = at!(d);
                }
                Op::Count => {
                    need!(1);
                    let len = mem!(self.mem.cfetch(tos));
                    tos = tos.wrapping_add(1);
                    push!(len);
                }

                // ---- the game layer ----
                Op::GStep(dir) => walk!(dir),
                Op::GHere => push!(self.game.gen.here),
                Op::GFrom => push!(self.game.gen.from),
                Op::GPlayer => push!(self.game.gen.player),
                Op::GStalemate => push!(flag!(self.game.store.count() == 0)),
                Op::GPieceType => push!(self.game.gen.piece & crate::state::PIECE_TYPE_MASK),
                Op::GBack => self.game.gen.here = self.game.gen.from,
                Op::GEmpty => {
                    let c = cell!(self.game.gen.here);
                    push!(flag!(c == 0));
                }
                Op::GNotEmpty => {
                    let c = cell!(self.game.gen.here);
                    push!(flag!(c != 0));
                }
                Op::GFriend => friend_or_enemy!(false),
                Op::GEnemy => friend_or_enemy!(true),
                Op::GEmptyAt => {
                    need!(1);
                    let c = cell!(tos);
                    tos = flag!(c == 0);
                }
                Op::GPieceAt => {
                    need!(1);
                    tos = cell!(tos);
                }
                Op::GPlayerAt => {
                    need!(1);
                    tos = cell!(tos) & PLAYER_MASK;
                }
                Op::GTo => {
                    need!(1);
                    let pos = pop!();
                    if self.game.board.valid(pos) {
                        self.game.gen.here = pos;
                    } else {
                        // Off the board: an error, or (tolerant) taken as
                        // it is, with a warning.
                        sync!();
                        self.host_ip = (ip - 1) as Addr;
                        let result = self.position_arg(pos);
                        reload!();
                        match result {
                            Ok(pos) => self.game.gen.here = pos,
                            Err(e) => return Err(self.error_at((ip - 1) as Addr, e)),
                        }
                    }
                }
                Op::GFriendOf | Op::GEnemyOf => {
                    need!(2);
                    let enemy = op == Op::GEnemyOf;
                    if self.game.events.friends.is_some() {
                        sync!();
                        self.host_ip = (ip - 1) as Addr;
                        let result = (self.hooks.friend_or_enemy_of)(self, enemy);
                        reload!();
                        if let Err(e) = result {
                            return Err(self.error_at((ip - 1) as Addr, e));
                        }
                    } else {
                        let player = pop!();
                        let c = cell!(tos);
                        let friend = c & PLAYER_MASK == player;
                        tos = flag!(if enemy { c != 0 && !friend } else { friend });
                    }
                }
                Op::GPieceValue => {
                    need!(1);
                    tos = crate::state::piece_value(&self.game, tos);
                }
                Op::GVerify => {
                    need!(1);
                    verify!(pop!() != 0);
                }
                Op::GStepVerify(dir) => verify!(step_here!(dir)),
                Op::GEmptyVerify => {
                    let c = cell!(self.game.gen.here);
                    verify!(c == 0);
                }
                Op::GNotEmptyVerify => {
                    let c = cell!(self.game.gen.here);
                    verify!(c != 0);
                }
                Op::GFriendVerify => {
                    friend_or_enemy!(false);
                    verify!(pop!() != 0);
                }
                Op::GEnemyVerify => {
                    friend_or_enemy!(true);
                    verify!(pop!() != 0);
                }

                // ---- superinstructions ----
                Op::LitAdd(n) => {
                    need!(1);
                    tos = tos.wrapping_add(n);
                }
                Op::LitMul(n) => {
                    need!(1);
                    tos = tos.wrapping_mul(n);
                }
                Op::LitMulAdd(n) => binary!(|a, b| a.wrapping_add(b.wrapping_mul(n))),
                Op::LitDiv(n) => {
                    need!(1);
                    tos = tos.wrapping_div(n);
                }
                Op::LitMod(n) => {
                    need!(1);
                    tos = tos.wrapping_rem(n);
                }
                Op::AddAt(n, a) => {
                    let v = mem!(self.mem.fetch(a as i32));
                    mem!(self.mem.store(a as i32, v.wrapping_add(n as i32)));
                }
                Op::LitEq(n) => {
                    need!(1);
                    tos = flag!(tos == n);
                }
                Op::LitNe(n) => {
                    need!(1);
                    tos = flag!(tos != n);
                }
                Op::LitLt(n) => {
                    need!(1);
                    tos = flag!(tos < n);
                }
                Op::LitGt(n) => {
                    need!(1);
                    tos = flag!(tos > n);
                }
                Op::FetchAt(a) => push!(mem!(self.mem.fetch(a as i32))),
                Op::StoreAt(a) => {
                    need!(1);
                    mem!(self.mem.store(a as i32, tos));
                    pop!();
                }
                Op::IncAt(a) => {
                    let v = mem!(self.mem.fetch(a as i32));
                    mem!(self.mem.store(a as i32, v.wrapping_add(1)));
                }
                Op::FetchAdd => {
                    need!(2);
                    let v = mem!(self.mem.fetch(tos));
                    d -= 1;
                    tos = at!(d).wrapping_add(v);
                }
                Op::CellsAdd => binary!(|a, b| a.wrapping_add(b.wrapping_mul(4))),
                Op::IAdd => {
                    need!(1);
                    rneed!(2);
                    tos = tos.wrapping_add(rat!(rp - 1));
                }
                Op::OverAdd => {
                    need!(2);
                    tos = tos.wrapping_add(at!(d - 1));
                }
                Op::FetchOff(n) => {
                    need!(1);
                    tos = mem!(self.mem.fetch(tos.wrapping_add(n)));
                }
                Op::CFetchOff(n) => {
                    need!(1);
                    tos = mem!(self.mem.cfetch(tos.wrapping_add(n)));
                }
                Op::StoreOff(n) => {
                    need!(2);
                    mem!(self.mem.store(tos.wrapping_add(n), at!(d - 1)));
                    d -= 2;
                    tos = at!(d);
                }
                Op::CStoreOff(n) => {
                    need!(2);
                    mem!(self.mem.cstore(tos.wrapping_add(n), at!(d - 1)));
                    d -= 2;
                    tos = at!(d);
                }
                Op::CellsLit(n) => {
                    need!(1);
                    tos = tos.wrapping_mul(4).wrapping_add(n);
                }
                Op::FetchCell(n) => {
                    need!(1);
                    tos = mem!(self.mem.fetch(tos.wrapping_mul(4).wrapping_add(n)));
                }
                Op::StoreCell(n) => {
                    need!(2);
                    mem!(self.mem.store(tos.wrapping_mul(4).wrapping_add(n), at!(d - 1)));
                    d -= 2;
                    tos = at!(d);
                }
                Op::ILit(n) => {
                    rneed!(2);
                    push!(rat!(rp - 1).wrapping_add(n))
                }
                Op::ICell(n) => {
                    rneed!(2);
                    push!(rat!(rp - 1).wrapping_mul(4).wrapping_add(n))
                }
                Op::IFetchCell(n) => {
                    rneed!(2);
                    push!(mem!(self.mem.fetch(rat!(rp - 1).wrapping_mul(4).wrapping_add(n))))
                }
                Op::IStoreCell(n) => {
                    need!(1);
                    rneed!(2);
                    mem!(self.mem.store(rat!(rp - 1).wrapping_mul(4).wrapping_add(n), tos));
                    pop!();
                }
                Op::ICFetch(n) => {
                    rneed!(2);
                    push!(mem!(self.mem.cfetch(rat!(rp - 1).wrapping_add(n))))
                }
                Op::ICStore(n) => {
                    need!(1);
                    rneed!(2);
                    mem!(self.mem.cstore(rat!(rp - 1).wrapping_add(n), tos));
                    pop!();
                }
                Op::JumpIfNonZero(t) => {
                    need!(1);
                    if pop!() != 0 {
                        jump!(t);
                    }
                }
                Op::JumpUnlessAnd(t) => compare_jump!(t, |a, b| a & b != 0),
                Op::JumpUnlessEq(t) => compare_jump!(t, |a, b| a == b),
                Op::JumpUnlessNe(t) => compare_jump!(t, |a, b| a != b),
                Op::JumpUnlessLt(t) => compare_jump!(t, |a, b| a < b),
                Op::JumpUnlessGt(t) => compare_jump!(t, |a, b| a > b),
                Op::JumpUnlessLe(t) => compare_jump!(t, |a, b| a <= b),
                Op::JumpUnlessGe(t) => compare_jump!(t, |a, b| a >= b),
                Op::JumpUnlessLitEq(n, t) => literal_jump!(t, |a| a == n as i32),
                Op::JumpUnlessLitNe(n, t) => literal_jump!(t, |a| a != n as i32),
                Op::JumpUnlessLitLt(n, t) => literal_jump!(t, |a| a < n as i32),
                Op::JumpUnlessLitGt(n, t) => literal_jump!(t, |a| a > n as i32),
                Op::JumpUnlessLitLe(n, t) => literal_jump!(t, |a| a <= n as i32),
                Op::JumpUnlessLitGe(n, t) => literal_jump!(t, |a| a >= n as i32),
                Op::DupJumpUnlessLitEq(n, t) => dup_literal_jump!(t, |a| a == n as i32),
                Op::DupJumpUnlessLitNe(n, t) => dup_literal_jump!(t, |a| a != n as i32),
                Op::DupJumpUnlessLitLt(n, t) => dup_literal_jump!(t, |a| a < n as i32),
                Op::DupJumpUnlessLitGt(n, t) => dup_literal_jump!(t, |a| a > n as i32),
                Op::DupJumpUnlessLitLe(n, t) => dup_literal_jump!(t, |a| a <= n as i32),
                Op::DupJumpUnlessLitGe(n, t) => dup_literal_jump!(t, |a| a >= n as i32),
            }
        };
        sync!();
        // In a tolerant frame, a data-stack underflow is not the end: the
        // missing cells read as zeros and the instruction runs again
        // (every instruction checks its depth before it changes anything).
        // In a tolerant frame a data-stack underflow is not the end: the
        // missing cells read as zeros and `run_frame` resumes at the same
        // instruction (every instruction checks its depth before it changes
        // anything). Kept out of this loop: a retry edge here costs every
        // instruction dearly.
        if let ErrorKind::StackUnderflow { needs, .. } = failure {
            if self.tolerant {
                return Err(self.underflow_resume(needs, (ip - 1) as Addr));
            }
        }
        Err(self.error_at((ip - 1) as Addr, VmError::new(failure)))
    }

    /// A query of a position off the board: the error, or in a tolerant
    /// frame an empty square (with a warning), as the original read.
    #[cold]
    #[inline(never)]
    fn off_board(&mut self, at: Addr, pos: i32) -> Result<i32, ErrorKind> {
        let kind = self.game.board.no_such_position(pos);
        if !self.tolerant {
            return Err(kind);
        }
        self.warn(at, kind, "read as an empty square off the board, as in the original Axiom");
        Ok(0)
    }

    /// Slides zeros under the frame for a tolerated underflow at `at` and
    /// answers `Resume` (run again from `at`), or the underflow error.
    #[cold]
    #[inline(never)]
    fn underflow_resume(&mut self, needs: u32, at: Addr) -> VmError {
        match self.tolerate_underflow(needs, at) {
            Ok(()) => {
                self.resume_at = at;
                VmError::new(ErrorKind::Resume)
            }
            Err(e) => self.error_at(at, e),
        }
    }
}

