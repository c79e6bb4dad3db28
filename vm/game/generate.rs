//! Move generation (AXIOM.md §3): running the move words of the player to
//! move, the board queries they ask and the edits they record.
//!
//! Owns `fill`, which fills one new move list: it runs the plan's move
//! words (`jit/plan.rs`) in the generation context (`from`, `here`, the
//! current piece and player, the move being built: `state/context.rs`).
//! Queries read the board in data space and never change it; edits are
//! recorded into the move being built. Outside move generation (in
//! `OnNewGame`, or in words a move runs when it is played) an edit is
//! applied to the board at once. Also `finish` (the rules of a list as a
//! whole) and `generate_reaching` (a probe's list); a turn's list, which
//! also drops the moves that leave a royal piece attacked, is
//! `play::generate`.

use crate::error::{ErrorKind, VmError, VmResult};
use crate::jit::{guard_checks, Drive, DriveEnd, MoveWordCode, MoveWordEnd, MoveWords, Plan, PlanKey, PlanLoop, Plans, KEPT_PLANS};
use crate::state::moves::{Action, NOT_PARTIAL};
use crate::state::reach::{Reach, Sweep};
use crate::state::{NEUTRAL, PIECE_TYPE_MASK, PLAYER_MASK};
use crate::vm::{direct, word, Vm};

// The generation context and the recorded edits are plain data
// (`state/context.rs`); these names keep the paths above working.
pub use crate::state::context::{Context, Recorded};
pub use crate::state::{piece_value, player_index};

/// Pushes a new move list with the moves the move words of `player` add,
/// moving the pieces of `for_player`, restricted to `of_type` (0: all),
/// and makes it current: the list before the rules that keep or drop
/// moves of it as a whole (royal pieces, `play.rs`; then `finish`). With
/// `probe`, a probe's list (`generate_reaching`).
pub fn fill(vm: &mut Vm, player: i32, for_player: i32, of_type: i32, probe: Option<Probe>) -> VmResult<()> {
    let saved = vm.game.save_generation();
    let probing = vm.game.probing;
    vm.game.probing |= probe.is_some();
    vm.game.store.push_list();
    let g = &mut vm.game.gen;
    g.player = player;
    g.for_player = for_player;
    g.of_type = of_type;
    g.pass_added = false;
    let boards = vm.game.snapshot_count;
    let memo = &mut vm.game.attack_memo;
    let outer = memo.current;
    memo.current = if vm.game.probing {
        None
    } else {
        memo.last_serial += 1;
        Some((memo.last_serial, boards))
    };
    let result = run_move_words(vm, probe);
    vm.game.attack_memo.current = outer;
    vm.game.probing = probing;
    vm.game.restore_generation(saved);
    result?;
    if vm.game.snapshot_count > boards {
        boards_left(vm, boards)?;
    }
    Ok(())
}

/// The rules of the current list as a whole: only the moves of the best
/// move priority present stay; with `forced_pass`, an empty list gets a
/// Pass when `$passTurnForced` is ON (not for the next step of a partial
/// chain: the chain just ends).
pub fn finish(vm: &mut Vm, forced_pass: bool) {
    let game = &mut vm.game;
    game.store.apply_priorities(&game.priorities);
    if forced_pass && game.store.count() == 0 && vm.directive("$passTurnForced") {
        vm.game.store.add_empty(true);
    }
}

/// A list as `generate` (`play.rs`) makes it, leaving out moves that
/// cannot end on `target` or capture
/// there: with the game's reach table (`state/reach.rs`) only the pieces
/// (and drops) that could are run, so a probe for the attackers of a
/// square runs a few move words instead of all. The moves left include
/// every one that reaches `target` (and may include others). Without a
/// table, or with move priorities (which rank a move against all the
/// others), every move is generated.
pub fn generate_reaching(vm: &mut Vm, player: i32, for_player: i32, of_type: i32, probe: Probe) -> VmResult<()> {
    fill(vm, player, for_player, of_type, Some(probe))?;
    finish(vm, true);
    Ok(())
}

/// A probe's list (`generate_reaching`): the square its moves must end
/// on or capture at, and, when the caller knows them, the positions of
/// the pieces whose moves may (by the reach table; drops are looked for
/// as ever). The royal pieces' test finds them once per list and keeps
/// them up to date move by move, instead of a scan of the board for
/// each move it tries.
#[derive(Clone, Copy)]
pub struct Probe<'a> {
    pub target: i32,
    pub starts: Option<&'a [i32]>,
    /// Run only what may reach `target` even when the game ranks its
    /// moves: the caller applies the priorities itself (`probe.rs`).
    pub unranked: bool,
}

/// Move words cloned boards (`$CloneBoard`) and left them: at every
/// generation they would pile up. They are dropped, with a warning (what
/// the original did is unknown: it kept them), or under `--strict` an
/// error, as an engine that leaves one gets.
#[cold]
fn boards_left(vm: &mut Vm, boards: u32) -> VmResult<()> {
    let left = vm.game.snapshot_count - boards;
    let lists = vm.game.store.lists.len();
    vm.unwind_to((lists, boards));
    let e: VmError = ErrorKind::Game(format!("move generation left {left} board(s) cloned: each `$CloneBoard` in a move word needs a `$DeallocateBoard`")).into();
    if vm.config.strict {
        return Err(e);
    }
    vm.warn_error(&e, "the boards were dropped");
    Ok(())
}

fn run_move_words(vm: &mut Vm, probe: Option<Probe>) -> VmResult<()> {
    let g = &vm.game;
    let types = g.piece_scan_limit.unwrap_or(usize::MAX).min(g.pieces.len());
    let key = PlanKey {
        words: vm.dict.words.len(),
        code: vm.code.next_addr(),
        jit_epoch: vm.jit.epoch,
        natives: vm.jit.compiled,
        pieces: g.pieces.len(),
        lists: g.move_lists.len(),
        of_type: g.gen.of_type,
        types,
    };
    // A kept plan is shared, not moved: a nested generation may keep
    // others meanwhile.
    if let Some(plan) = vm.jit.plans.kept.iter().find(|(k, _)| *k == key).map(|(_, p)| p.clone()) {
        if plan.guards {
            plan.own_loop.note_use(vm, &plan.words, [&plan.moves, &plan.drops], &plan.checks);
        }
        return run_batch(vm, &plan, probe);
    }
    let plan = make_plan(vm, key);
    let result = run_batch(vm, &plan, probe);
    keep_plan(&mut vm.jit.plans, plan);
    result
}

fn run_batch(vm: &mut Vm, plan: &Plan, probe: Option<Probe>) -> VmResult<()> {
    let mut batch = MoveWords::begin(vm);
    // The table is taken (a reference count) only by a probe.
    // Move priorities rank a move against all the others: all are run.
    let reach = probe.filter(|p| p.unranked || vm.game.priorities.is_empty()).and_then(|p| Some((p, vm.game.reach.clone()?)));
    let result = match reach {
        Some((probe, reach)) => run_plan_reaching(vm, &mut batch, plan, &reach, probe),
        None => run_plan(vm, &mut batch, plan),
    };
    batch.end(vm);
    result
}

/// The move words of each piece type, flat, so the scans read one slice
/// instead of walking pieces, lists and entries at every square; with
/// the native code they have. (A word without is counted as it is tried,
/// `interpret_move_word`, so a word never tried, such as the moves of a
/// piece not on the board yet, is never compiled.)
fn make_plan(vm: &mut Vm, key: PlanKey) -> Plan {
    let mut plan = vm.jit.plans.spare.pop().unwrap_or_default();
    let g = &mut vm.game;
    plan.moves.push([0, 0]);
    plan.drops.push([0, 0]);
    for piece in &g.pieces[..key.types] {
        for (lists, drops) in [(&piece.moves, false), (&piece.drops, true)] {
            let start = plan.words.len() as u32;
            for &list in lists.iter() {
                let entries = g.move_lists[list].entries.iter().filter(|&&(_, t)| key.of_type == 0 || t == key.of_type);
                let entry = |xt: u32| vm.dict.words.get(xt as usize).map_or(0, |w| w.entry);
                plan.words.extend(entries.map(|&(xt, move_type)| MoveWordCode { native: 0, xt, entry: entry(xt), move_type, guard: Default::default(), drop_scan: 0 }));
            }
            let span = [start, plan.words.len() as u32];
            if drops { &mut plan.drops } else { &mut plan.moves }.push(span);
        }
    }
    for w in plan.words.iter_mut() {
        if let Some(entry) = vm.dict.words.get(w.xt as usize).map(|w| w.entry) {
            w.native = vm.jit_move_word_made(entry);
            if w.native != 0 {
                w.guard = vm.move_word_guard(entry);
                w.drop_scan = w.guard.drop_scan();
            }
        }
    }
    plan.native = plan.words.iter().any(|w| w.native != 0);
    plan.guards = plan.words.iter().enumerate().any(|(i, w)| w.guard.len > 0 && !scan_covers(&plan, i));
    if plan.guards {
        plan.checks = guard_checks(&plan.words, &plan.drops);
        plan.max_dir = plan.words.iter().flat_map(|w| w.guard.steps()).max();
    }
    if plan.moves.iter().any(|[start, end]| start < end) {
        plan.sweeps.push(None);
    }
    for t in 1..=key.types {
        let span = plan.drops.get(t).copied().unwrap_or_default();
        if span[0] < span[1] {
            plan.sweeps.push(Some((span, t as i32)));
        }
    }
    plan.key = Some(key);
    plan
}

/// Whether word `i` of the plan is the one drop word of its piece type,
/// whose guard is only the test of its square a drop sweep's scan makes.
fn scan_covers(plan: &Plan, i: usize) -> bool {
    let alone = plan.drops.iter().any(|&[start, end]| start as usize == i && end as usize == i + 1);
    alone && plan.words.get(i).is_some_and(|w| w.guard.scanned())
}

/// Keeps a plan as it is, in place of any made from other code, pieces
/// or native code (never to be found again), or from the same things and
/// filter; and the buffers of a plan not kept.
fn keep_plan(plans: &mut Plans, mut plan: Plan) {
    if let Some(key) = plan.key {
        plans.kept.retain(|(k, _)| *k != key && PlanKey { of_type: k.of_type, ..key } == *k);
        if plans.kept.len() < KEPT_PLANS {
            plans.kept.push((key, std::rc::Rc::new(plan)));
            return;
        }
    }
    plan.words.clear();
    plan.moves.clear();
    plan.drops.clear();
    plan.key = None;
    plan.native = false;
    plan.guards = false;
    plan.checks.iter_mut().for_each(Vec::clear);
    plan.max_dir = None;
    plan.own_loop = PlanLoop::default();
    plan.sweeps.clear();
    plans.spare.push(plan);
}

/// Runs the sweeps of `plan`: the moves of the pieces on the board, read
/// as the scan reaches them (a move word may have stored into the board;
/// no scan when no piece type has a move word, a game of drops), then
/// the drops of every piece type at every position.
fn run_plan(vm: &mut Vm, batch: &mut MoveWords, plan: &Plan) -> VmResult<()> {
    let positions = vm.game.board.scan_positions() as i32;
    let for_player = vm.game.gen.for_player;
    for &sweep_of in &plan.sweeps {
        let mut d = Drive::new(&plan.words, &plan.moves, for_player, 0, positions);
        let drop = sweep_of.is_some();
        if let Some((span, piece_type)) = sweep_of {
            d = d.drops(&plan.words, span, piece_type | for_player);
        }
        if plan.guards {
            batch.prepare_guards(vm, &mut d, &plan.checks, plan.max_dir, &plan.own_loop);
        }
        sweep(vm, batch, plan, &mut d, drop)?;
    }
    Ok(())
}

/// `run_plan` for the moves that may reach `target`: each sweep runs
/// only at the positions whose piece (or drop) the table says could, a
/// square at a time.
fn run_plan_reaching(vm: &mut Vm, batch: &mut MoveWords, plan: &Plan, reach: &Reach, probe: Probe) -> VmResult<()> {
    let positions = vm.game.board.scan_positions();
    let for_player = vm.game.gen.for_player;
    let types = plan.moves.len().saturating_sub(1);
    let Ok(target) = usize::try_from(probe.target) else { return run_plan(vm, batch, plan) };
    // The starts are found in one pass over the board before any runs: a
    // probe runs a few pieces of a board of dozens of squares, asked for
    // each move a royal piece's safety is checked after. (A move word
    // does not move pieces while moves are generated; one that stores
    // into the board itself is read again by the drive at its start.)
    let mut starts = std::mem::take(&mut vm.game.probe_starts);
    let mut result = Ok(());
    for &sweep_of in &plan.sweeps {
        starts.clear();
        match sweep_of {
            Some((_, t)) => starts.extend((0..positions).filter(|&p| reach.may_reach(Sweep::Drops, t as usize, p, target)).map(|p| p as i32)),
            None if probe.starts.is_some() => starts.extend(probe.starts.into_iter().flatten()),
            None => {
                let cells = vm.game.board.cells(&vm.mem)?;
                starts.extend(cells.iter().take(positions).enumerate().filter_map(|(pos, content)| {
                    let t = (content & PIECE_TYPE_MASK) as usize;
                    let mine = content & PLAYER_MASK == for_player && t != 0 && t <= types;
                    (mine && reach.may_reach(Sweep::Moves, t, pos, target)).then_some(pos as i32)
                }));
            }
        }
        for &pos in &starts {
            let mut d = Drive::new(&plan.words, &plan.moves, for_player, pos, pos + 1);
            if let Some((span, piece_type)) = sweep_of {
                d = d.drops(&plan.words, span, piece_type | for_player);
            }
            if plan.guards {
                batch.prepare_guards(vm, &mut d, &plan.checks, plan.max_dir, &plan.own_loop);
            }
            result = sweep(vm, batch, plan, &mut d, sweep_of.is_some());
            if result.is_err() {
                break;
            }
        }
        if result.is_err() {
            break;
        }
    }
    vm.game.probe_starts = starts;
    result
}

/// Runs the attempts of sweep `d`: natively in one go where it can, each
/// attempt the native loop stops at finished here.
///
/// A word without native code stops the native loop, and the attempts
/// after it are run here, the batch left suspended, until one whose word
/// has native code: entering and leaving the native loop around each
/// interpreted attempt (its frame, the context filled again) cost a
/// Zillions game whose large move words wait to be compiled more than
/// native code saved it: Ragnarok.zrf's `check` under `auto` spent 1.8×
/// the time `off` does in `sweep`, and 2% more on its main thread in all;
/// now 1.14× and the same as `off` (`perf`, samples of the main thread).
fn sweep(vm: &mut Vm, batch: &mut MoveWords, plan: &Plan, d: &mut Drive, drop: bool) -> VmResult<()> {
    let open = batch.is_open();
    let result = sweep_attempts(vm, batch, plan, d, drop);
    if open && !batch.is_open() {
        batch.resume(vm);
    }
    result
}

fn sweep_attempts(vm: &mut Vm, batch: &mut MoveWords, plan: &Plan, d: &mut Drive, drop: bool) -> VmResult<()> {
    // Whether the native loop runs the attempts (else this loop does);
    // once it is not there at all, it is not looked for again in this
    // sweep (it comes from the compiler thread, or not at all). Without a
    // native move word it is not asked for: it would run none of them (a
    // short `check` of a Zillions variant compiled it, and started the
    // compiler thread, for nothing).
    let mut native = plan.native;
    let mut no_loop = false;
    loop {
        let stopped = if native {
            vm.game.gen.active = true;
            let stopped = batch.drive(vm, d);
            vm.game.gen.active = false;
            stopped
        } else {
            DriveEnd::Unavailable
        };
        let (end, tolerant) = match stopped {
            DriveEnd::Finished => return Ok(()),
            DriveEnd::Advance => {
                if !advance(vm, plan, d)? {
                    return Ok(());
                }
                continue;
            }
            // No native loop (or not now): the generator moves the cursor
            // itself.
            DriveEnd::Unavailable => {
                no_loop |= native;
                native = false;
                if !advance(vm, plan, d)? {
                    return Ok(());
                }
                let has_native = plan.words.get(d.word as usize).is_some_and(|w| w.native != 0);
                if has_native && !no_loop {
                    batch.resume(vm);
                    native = true;
                    continue;
                }
                (MoveWordEnd::NotNative, false)
            }
            DriveEnd::Stopped { end, tolerant } => {
                if matches!(end, MoveWordEnd::NotNative) {
                    native = false;
                }
                (end, tolerant)
            }
        };
        // The loop stops only at an attempt, a word of the plan.
        let Some(&code) = plan.words.get(d.word as usize) else {
            return Err(ErrorKind::ControlFlow("the native move generator stopped outside its words".into()).into());
        };
        let (pos, piece) = (d.pos, d.piece);
        let (result, tolerant) = match end {
            MoveWordEnd::Done | MoveWordEnd::Verify => (Ok(()), tolerant),
            MoveWordEnd::Left(n) => (cells_left(vm, code.xt, n), tolerant),
            MoveWordEnd::Failed(e) => (Err(e), tolerant),
            MoveWordEnd::NotNative => interpret_move_word(vm, batch, code, pos, piece)?,
        };
        vm.game.clear_actions();
        if let Err(e) = result {
            move_word_failed(vm, e, tolerant, code.xt, pos, piece, drop)?;
        }
        d.word += 1;
    }
}

/// Moves the cursor of `d` to its next attempt, as the native loop does:
/// false when there is none left.
fn advance(vm: &Vm, plan: &Plan, d: &mut Drive) -> VmResult<bool> {
    while d.word >= d.word_end {
        d.pos += 1;
        if d.pos >= d.pos_end {
            return Ok(false);
        }
        if d.scan == 0 {
            (d.word, d.word_end) = (d.first, d.first_end);
            continue;
        }
        let content = vm.game.board.get(&vm.mem, d.pos)?;
        let t = (content & PIECE_TYPE_MASK) as usize;
        let mine = content & PLAYER_MASK == d.for_player && t != 0 && t <= d.types as usize;
        let [start, end] = if mine { plan.moves.get(t).copied().unwrap_or_default() } else { [0, 0] };
        (d.word, d.word_end, d.piece) = (start, end, content);
    }
    Ok(true)
}

/// Runs a move word the native loop cannot (it has no native code, or the
/// JIT is off): as `execute`, in a frame of its own.
fn interpret_move_word(vm: &mut Vm, batch: &mut MoveWords, code: MoveWordCode, pos: i32, piece: i32) -> VmResult<(VmResult<()>, bool)> {
    let attempt = vm.jit_move_word_tried(code.xt, code.entry);
    let g = &mut vm.game.gen;
    g.active = true;
    g.from = pos;
    g.here = pos;
    g.piece = piece;
    g.move_type = code.move_type;
    g.partial = NOT_PARTIAL;
    vm.game.clear_actions();
    // Left suspended: the sweep resumes it when the native loop runs again.
    batch.suspend(vm);
    // `--max-steps` bounds each move word the host runs: a runaway one is
    // caught without limiting how long a whole perft or game may run.
    // Script that generates moves itself shares its caller's budget.
    if vm.run_nesting == 0 {
        vm.refill_steps();
    }
    // Its own stack frame: whatever the word leaves (or takes from below
    // its base, which reads as zeros) stays out of its caller's stack.
    let frame = vm.enter_frame()?;
    let mut result = if attempt.asked { vm.execute(code.xt) } else { vm.run_interpreted(code.entry) };
    if let Some(timer) = attempt.timer {
        vm.jit_move_word_ran(timer);
    }
    if result.is_ok() && vm.depth > 0 {
        result = cells_left(vm, code.xt, vm.depth);
    }
    let tolerant = vm.tolerant;
    vm.leave_frame(frame);
    vm.game.gen.active = false;
    Ok((result, tolerant))
}

/// Move word `xt` ended leaving `n` cells on its stack (`add-move 42 ;`):
/// its stack effect is `( -- )`, and what it left is dropped. A warning,
/// or under `--strict` an error, as an underflow is.
#[cold]
fn cells_left(vm: &mut Vm, xt: u32, n: u32) -> VmResult<()> {
    vm.warn_word(xt, "cells-left", "the cells were dropped", |vm| {
        let name = vm.dict.words.get(xt as usize).map_or_else(|| format!("xt {xt}"), |w| w.display_name());
        let mut e: VmError = ErrorKind::Game(format!("move word `{name}` left {n} cell(s) on the stack: a move word takes and leaves nothing `( -- )`")).into();
        e.word = Some(name);
        // Its `;`: where it ends with them.
        let end = vm.dict.words.get(xt as usize).map(|w| w.end.saturating_sub(1));
        e.location = end.and_then(|a| vm.code.info(a)).and_then(|i| vm.location(i.pos));
        e
    })
}

/// A move word ended with an error: a failed `verify` is how most end;
/// others get the move word's place in their backtrace and are forgiven
/// (with a warning) where the original was tolerant.
#[cold]
fn move_word_failed(vm: &mut Vm, mut e: VmError, tolerant: bool, xt: u32, pos: i32, piece: i32, drop: bool) -> VmResult<()> {
    if matches!(e.kind, ErrorKind::Verify) {
        return Ok(());
    }
    if e.is_control() {
        return Err(e);
    }
    let forgiven = tolerant && !e.kind.is_resource_limit();
    if forgiven && vm.error_warned(&e) {
        // Said once already: a search meets it at every node.
        return Ok(());
    }
    let what = if drop { "drop" } else { "move" };
    e.trace.push(format!(
        "in {what} word `{}` for {}'s {} at {} (generating the moves of {})",
        vm.dict.word(xt).display_name(),
        vm.game.player_name(piece),
        vm.game.piece_name(piece & PIECE_TYPE_MASK),
        vm.game.board.name(pos),
        vm.game.player_name(vm.game.gen.player),
    ));
    // Limits on runaway code (the step budget, stack depths, nesting) are
    // never a sloppiness of the original's to forgive.
    if !forgiven {
        return Err(e);
    }
    // The original ran on past such errors; the word ends as a failed
    // `verify` would.
    vm.warn_error(&e, "the move word ends as a failed `verify` would: the moves it added stay, as in the original Axiom");
    Ok(())
}

impl Vm {
    /// Is the directive variable with this name ON?
    pub fn directive(&self, name: &str) -> bool {
        match self.dict.find(name.as_bytes()).and_then(|xt| self.dict.word(xt).body()) {
            Some(addr) => self.mem.fetch(addr as i32).unwrap_or(0) != 0,
            None => false,
        }
    }

    /// `OnFriends? ( p1 p2 -- ? )` when the game defines it (in a frame of
    /// its own); the same player (neutral bit included) otherwise.
    pub fn friends(&mut self, a: i32, b: i32) -> VmResult<bool> {
        match self.game.events.friends {
            Some(xt) => Ok(self.call_in_frame(xt, &[a, b], "OnFriends?", 1)? != 0),
            None => Ok(a == b),
        }
    }

    /// The content of a position; off the board, an error or (tolerant)
    /// an empty square, as the original read whatever lay there.
    pub(crate) fn content(&mut self, pos: i32) -> VmResult<i32> {
        if self.game.board.valid(pos) {
            return self.game.board.get(&self.mem, pos);
        }
        let kind = self.game.board.no_such_position(pos);
        self.tolerate(kind, "read as an empty square off the board, as in the original Axiom")?;
        Ok(0)
    }

    /// The original's `friend-of?`: `OnFriends?` of the owner there and
    /// `player`, asked of empty squares too (owner 0).
    fn is_friend_at(&mut self, pos: i32, player: i32) -> VmResult<bool> {
        let c = self.content(pos)?;
        self.friends(c & PLAYER_MASK, player)
    }

    /// The original's `enemy-of?`: any piece that is not a friend, neutral
    /// pieces included.
    fn is_enemy_at(&mut self, pos: i32, player: i32) -> VmResult<bool> {
        let c = self.content(pos)?;
        Ok(c != 0 && !self.friends(c & PLAYER_MASK, player)?)
    }

    /// Records an edit while a move is being built; applies it otherwise.
    /// An edit of a position off the board is an error, or (tolerant)
    /// dropped with a warning. Answers 0, as a direct word.
    fn edit(&mut self, a: Action) -> VmResult<i32> {
        let positions = a.positions().unwrap_or_default();
        if let Some(&bad) = positions.iter().find(|&&p| !self.game.board.valid(p)) {
            let kind = self.game.board.no_such_position(bad);
            self.tolerate(kind, "the edit is dropped, as the original wrote off the board")?;
            return Ok(0);
        }
        if self.game.gen.active {
            self.store_room()?;
            self.game.record(a);
        } else {
            self.apply_edit(a)?;
        }
        Ok(0)
    }


}

fn flag(b: bool) -> i32 {
    if b {
        -1
    } else {
        0
    }
}


fn here(vm: &Vm) -> i32 {
    vm.game.gen.here
}

fn game_error(msg: impl Into<String>) -> VmError {
    ErrorKind::Game(msg.into()).into()
}

pub fn register(vm: &mut Vm) {
    let table = [
        // ---- where we are ----
        direct("home", "( pos -- )", |vm, pos, _| {
            vm.game.gen.from = vm.position_arg(pos)?;
            Ok(0)
        }),
        direct("on-board?", "( pos -- ? )", |vm, pos, _| Ok(flag(vm.game.board.valid(pos)))),
        // ---- queries at `here` ----
        direct("neutral-piece?", "( -- ? )", |vm, _, _| {
            let c = vm.content(here(vm))?;
            Ok(flag(c != 0 && c & NEUTRAL != 0))
        }),
        direct("not-piece-type?", "( type -- ? )", |vm, t, _| {
            let c = vm.content(here(vm))?;
            Ok(flag(c & PIECE_TYPE_MASK != t))
        }),
        // ---- queries at a position ----
        direct("neutral-piece-at?", "( pos -- ? )", |vm, pos, _| {
            let c = vm.content(pos)?;
            Ok(flag(c != 0 && c & NEUTRAL != 0))
        }),
        direct("piece-type-at", "( pos -- type )", |vm, pos, _| Ok(vm.content(pos)? & PIECE_TYPE_MASK)),
        // Not the original's: the first position whose content, masked,
        // is piece (-1: none), as a loop over the board would find it.
        direct("$FindPiece", "( piece mask -- pos )", |vm, piece, mask| {
            let cells = vm.game.board.cells(&vm.mem)?;
            Ok((0..vm.game.board.positions).find(|&p| cells.get(p) & mask == piece).map_or(-1, |p| p as i32))
        }),
        direct("not-piece-type-at?", "( pos type -- ? )", |vm, pos, t| {
            let c = vm.content(pos)?;
            Ok(flag(c & PIECE_TYPE_MASK != t))
        }),
        // ---- who and what ----
        direct("current-piece", "( -- piece )", |vm, _, _| Ok(vm.game.gen.piece)),
        direct("for-player", "( -- player )", |vm, _, _| Ok(vm.game.gen.for_player)),
        direct("of-type", "( -- type )", |vm, _, _| Ok(vm.game.gen.of_type)),
        word("material-balance", "( player -- n )", |vm| {
            let player = vm.pop()? & PLAYER_MASK;
            let mut sum = 0i32;
            for pos in 0..vm.game.board.positions as i32 {
                let c = vm.content(pos)?;
                if c != 0 {
                    let v = piece_value(&vm.game, c);
                    sum = sum.wrapping_add(if c & PLAYER_MASK == player { v } else { -v });
                }
            }
            vm.push(sum)
        }),
        // ---- edits ----
        direct("move", "( from to -- )", |vm, from, to| vm.edit(Action::Move { from, to })).recording(Recorded::Move),
        // Not the original's: `move`, of what `from` held when the move
        // began (a piece this move put there stays): pieces pushing each
        // other round a ring (ZRF's `cascade`) move as one.
        direct("$Cascade", "( from to -- )", |vm, from, to| vm.edit(Action::Cascade { from, to })),
        direct("capture", "( -- )", |vm, _, _| vm.edit(Action::Capture(here(vm)))).recording(Recorded::Capture),
        direct("capture-at", "( pos -- )", |vm, pos, _| vm.edit(Action::Capture(pos))).recording(Recorded::CaptureAt),
        direct("drop", "( -- )", place_current).recording(Recorded::PlaceCurrent),
        direct("create", "( -- )", place_current).recording(Recorded::PlaceCurrent),
        direct("create-at", "( pos -- )", |vm, pos, _| vm.edit(Action::Place { pos, content: vm.game.gen.piece })),
        direct("drop-piece", "( type -- )", place_type),
        direct("create-piece-type", "( type -- )", place_type),
        direct("drop-piece-at", "( type pos -- )", place_type_at),
        direct("create-piece-type-at", "( type pos -- )", place_type_at),
        direct("create-player", "( player -- )", |vm, p, _| {
            let t = vm.game.gen.piece & PIECE_TYPE_MASK;
            vm.edit(Action::Place { pos: here(vm), content: t | p })
        }),
        direct("create-player-at", "( player pos -- )", |vm, p, pos| {
            let t = vm.game.gen.piece & PIECE_TYPE_MASK;
            vm.edit(Action::Place { pos, content: t | p })
        }),
        direct("create-player-piece-type", "( player type -- )", |vm, p, t| vm.edit(Action::Place { pos: here(vm), content: t | p })),
        word("create-player-piece-type-at", "( player type pos -- )", |vm| {
            let pos = vm.pop()?;
            let t = vm.pop()?;
            let p = vm.pop()?;
            vm.edit(Action::Place { pos, content: t | p })?;
            Ok(())
        }),
        direct("change-type", "( type -- )", |vm, t, _| vm.edit(Action::ChangeType { pos: here(vm), piece_type: t })).recording(Recorded::ChangeType),
        direct("change-type-at", "( type pos -- )", |vm, t, pos| vm.edit(Action::ChangeType { pos, piece_type: t })).recording(Recorded::ChangeTypeAt),
        direct("change-owner", "( player -- )", |vm, p, _| vm.edit(Action::ChangeOwner { pos: here(vm), player: p })).recording(Recorded::ChangeOwner),
        direct("change-owner-at", "( player pos -- )", |vm, p, pos| vm.edit(Action::ChangeOwner { pos, player: p })).recording(Recorded::ChangeOwnerAt),
        // ---- building the move list ----
        direct("add-move", "( -- )", |vm, _, _| {
            add_move(vm, "add-move", false)?;
            Ok(0)
        })
        .recording(Recorded::AddMove),
        direct("partial", "( -- )", |vm, _, _| {
            vm.game.gen.partial = 0;
            Ok(0)
        }),
        direct("partial-move-type", "( type -- )", |vm, t, _| {
            vm.game.gen.partial = t.max(0);
            Ok(0)
        }),
        // The original's `Pass`: `add-move` of the move built so far
        // (usually nothing; a `COMPILE`d word runs when it is played), at
        // most once per generation, with the move word's `{move-type}`, so
        // `{move-priorities}` rank it like any other move.
        word("Pass", "( -- )", pass),
        // The original's `PassNoPartial`: `Pass`, but not in the middle
        // of a chain of partial moves.
        word("PassNoPartial", "( -- )", |vm| {
            if vm.game.turn.partial != NOT_PARTIAL {
                return Ok(());
            }
            pass(vm)
        }),
    ];
    for h in table {
        vm.add_host(h);
    }
}

/// `Pass`: the move built so far, as a pass, once per generation.
fn pass(vm: &mut Vm) -> VmResult<()> {
    if vm.game.gen.pass_added && vm.game.gen.active {
        return Ok(());
    }
    add_move(vm, "Pass", true)?;
    vm.game.gen.pass_added = true;
    Ok(())
}

/// Appends the move built so far (its edits, type and partial flag) to
/// the list and starts a fresh one.
fn add_move(vm: &mut Vm, word: &str, pass: bool) -> VmResult<()> {
    if !vm.game.gen.active {
        return Err(game_error(format!("`{word}` outside move generation (only move words may use it)")));
    }
    vm.store_room()?;
    vm.game.commit_move(pass);
    Ok(())
}

/// `drop` / `create`: the current piece at `here`.
fn place_current(vm: &mut Vm, _: i32, _: i32) -> VmResult<i32> {
    vm.edit(Action::Place { pos: here(vm), content: vm.game.gen.piece })
}

/// `drop-piece` / `create-piece-type ( type -- )`: a piece of the moving
/// side at `here`.
fn place_type(vm: &mut Vm, t: i32, _: i32) -> VmResult<i32> {
    vm.edit(Action::Place { pos: here(vm), content: t | vm.game.gen.for_player })
}

/// `drop-piece-at` / `create-piece-type-at ( type pos -- )`.
fn place_type_at(vm: &mut Vm, t: i32, pos: i32) -> VmResult<i32> {
    vm.edit(Action::Place { pos, content: t | vm.game.gen.for_player })
}

/// `friend?` / `enemy?` when the game defines `OnFriends?`.
pub fn friend_or_enemy(vm: &mut Vm, enemy: bool) -> VmResult<()> {
    let (here, player) = (vm.game.gen.here, vm.game.gen.player);
    let yes = if enemy { vm.is_enemy_at(here, player)? } else { vm.is_friend_at(here, player)? };
    vm.push(flag(yes))
}

/// `friend-of?` (or `enemy-of?`) ( pos player -- ? ) when the game
/// defines `OnFriends?`.
pub fn friend_or_enemy_of(vm: &mut Vm, enemy: bool) -> VmResult<()> {
    let player = vm.pop()?;
    let pos = vm.pop()?;
    let yes = if enemy { vm.is_enemy_at(pos, player)? } else { vm.is_friend_at(pos, player)? };
    vm.push(flag(yes))
}
