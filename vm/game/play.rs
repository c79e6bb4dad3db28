//! Playing a game (AXIOM.md §4–5): setup, turns along the turn order,
//! applying moves, the events, game over, the simple engines, perft, and
//! the native words search engines call (`$CloneBoard`, `$GenerateMoves`,
//! `$FirstMove`, …).
//!
//! Owns the move application; the turn state it advances is plain data
//! (`state/turn.rs`). Touches the board only through `Board`'s cell
//! addresses in the data space.

use super::generate::{fill, finish};
use crate::state::moves::{move_text, write_move_text, Action, NOT_PARTIAL};
use crate::state::{Engine, Turn, DRAW_SCORE, PIECE_TYPE_MASK, PLAYER_MASK, UNKNOWN_SCORE};
use crate::error::{ErrorKind, VmError, VmResult};
use crate::vm::{direct, word, StackFrame, Vm};

// The turn state and the events found are plain data (`state/turn.rs`).
pub use crate::state::turn::{TurnState, MAX_CHAIN, MOVE_XT_BASE};

/// Text handed out by `$MoveString` (counted strings, a small ring).
const MOVE_STRING_BYTES: u32 = 256;
const MOVE_STRING_RING: u32 = 4;
const MOVE_TYPE_RING: u32 = 16;
/// `$movesList` headers: one per nesting depth of the move lists (deeper
/// lists share them round the ring).
const MOVES_LIST_HEADERS: u32 = 64;

/// An error from inside event `name`, which its backtrace names.
#[cold]
#[inline(never)]
fn in_event(mut e: VmError, name: &str) -> VmError {
    if !e.is_control() {
        e.trace.push(format!("in the event `{name}`"));
    }
    e
}

/// The outcome of a game, from nobody's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This player has won.
    Win(i32),
    Draw,
}

impl Vm {
    /// Runs script the host calls for the game (an event, `OnFriends?`)
    /// in a frame of its own, with `args` on its stack; answers its top
    /// cell when it declares `results` = 1. A depth other than `results`
    /// at the end is an error, or (tolerant) a warning, the top cell
    /// counting as the result, as in the original; nothing it leaves
    /// reaches the caller.
    pub fn call_in_frame(&mut self, xt: u32, args: &[i32], name: &str, results: u32) -> VmResult<i32> {
        if self.run_nesting == 0 {
            self.refill_steps();
        }
        let frame = self.enter_frame()?;
        let result = (|| -> VmResult<i32> {
            for &a in args {
                self.push(a)?;
            }
            self.execute_hot(xt)?;
            self.event_result(xt, name, results)
        })();
        self.leave_frame(frame);
        result.map_err(|e| in_event(e, name))
    }

    /// `call_in_frame` of an event without arguments, entering its native
    /// code at once when it has some (the host runs one or two events at
    /// every node of a search).
    #[inline]
    fn call_event(&mut self, xt: u32, name: &str, results: u32) -> VmResult<i32> {
        let Some(f) = self.event_native(xt) else {
            return self.call_in_frame(xt, &[], name, results);
        };
        self.refill_steps();
        let frame = self.enter_frame()?;
        let result = self.run_native_event(xt, f).and_then(|()| self.event_result(xt, name, results));
        self.leave_frame(frame);
        result.map_err(|e| in_event(e, name))
    }

    /// What an event left: its result (the top cell when it declares one).
    #[inline]
    fn event_result(&mut self, xt: u32, name: &str, results: u32) -> VmResult<i32> {
        if self.depth() != results {
            self.left_other_depth(xt, name, results)?;
        }
        Ok(if results > 0 && self.depth() > 0 { self.tos } else { 0 })
    }

    /// An event left other than `results` cells: an error, or (tolerant)
    /// a warning.
    #[cold]
    #[inline(never)]
    fn left_other_depth(&mut self, xt: u32, name: &str, results: u32) -> VmResult<()> {
        let kind = ErrorKind::Game(format!(
            "`{name}` left {} cell(s) on the stack, where it should leave {results}{}",
            self.depth(),
            if results == 1 { " (its result)" } else { "" }
        ));
        if !self.tolerant {
            return Err(kind.into());
        }
        let entry = self.dict.word(xt).entry;
        self.warn(entry, kind, "the top cell is taken as the result, as in the original Axiom");
        Ok(())
    }

    /// An event with no result, if the game defines it.
    fn run_event(&mut self, xt: Option<u32>, name: &str) -> VmResult<()> {
        match xt {
            Some(xt) => self.call_event(xt, name, 0).map(drop),
            None => Ok(()),
        }
    }

    /// Setup, then `OnNewGame`.
    pub fn new_game(&mut self) -> VmResult<()> {
        if !self.game.ready {
            self.finish_game()?;
        }
        self.refresh_events();
        let g = &mut self.game;
        g.store.clear();
        g.kernel.status_text.clear();
        g.snapshots.clear();
        g.snapshot_count = 0;
        g.search.keys.clear_saved();
        g.turn = TurnState::default();
        // The board starts empty, its variables zeroed (the original's
        // `$NewGame` erased the board); then the setup.
        for i in 0..self.game.decl.board_parts.len() {
            let (start, bytes) = self.game.decl.board_parts[i];
            self.mem.slice_mut(start, bytes)?.fill(0);
        }
        for (player, piece, pos) in self.resolve_setup()? {
            self.game.board.set(&mut self.mem, pos, piece | player)?;
        }
        self.game.search.keys.forget();
        self.enter_turn();
        self.game.history.clear();
        let xt = self.game.events.new_game;
        self.run_event(xt, "OnNewGame")
    }

    /// The turn in progress. Before the game has a turn order (or after a
    /// script declared a shorter one) it is the current player's.
    pub fn current_turn(&self) -> Turn {
        let g = &self.game;
        g.turns.get(g.turn.index).copied().unwrap_or(Turn { player: g.gen.player, of_type: 0, for_player: g.gen.player })
    }

    /// `current-player` and friends follow the turn.
    pub(crate) fn enter_turn(&mut self) {
        let t = self.current_turn();
        self.game.gen.player = t.player;
        self.game.gen.for_player = t.for_player;
        self.game.gen.of_type = t.of_type;
    }

    pub fn next_turn_index(&self, index: usize) -> usize {
        if index + 1 < self.game.turns.len() {
            index + 1
        } else {
            self.game.repeat_from
        }
    }

    pub fn player_to_move(&self) -> i32 {
        self.current_turn().player
    }

    /// The contestant the move to make serves (`Game::side_of`).
    /// Whose moves `$GenerateMoves player opp?` generates, and whose
    /// pieces they move: `player`'s, or with `opp?` the player of the
    /// turn after `player`'s first turn.
    pub(crate) fn generating_players(&self, player: i32, opp: bool, word: &str) -> VmResult<(i32, i32)> {
        if self.game.player(player & PLAYER_MASK).is_none() {
            return Err(game_error(format!("`{word}`: {player} is not a player")));
        }
        if !opp {
            return Ok((player, player));
        }
        let from = if self.current_turn().player == player {
            self.game.turn.index
        } else {
            self.game.turns.iter().position(|t| t.player == player).unwrap_or(self.game.turn.index)
        };
        let next = self.game.turns.get(self.next_turn_index(from)).copied().unwrap_or(self.current_turn());
        Ok((next.player, next.for_player))
    }

    pub fn side_to_move(&self) -> Option<i32> {
        self.game.side_of(self.current_turn())
    }

    /// Pushes the move list of the player to move. A chain of partial moves
    /// with no continuation ends, and the turn passes on.
    pub fn generate_turn(&mut self) -> VmResult<()> {
        self.refresh_events();
        loop {
            let turn = self.game.turn;
            let t = self.current_turn();
            self.enter_turn();
            if turn.partial == NOT_PARTIAL {
                generate(self, t.player, t.for_player, t.of_type, true)?;
                return self.keep_maximal_captures();
            }
            generate(self, t.player, t.for_player, turn.partial, false)?;
            self.drop_returning_steps()?;
            if self.game.store.count() > 0 {
                return self.keep_maximal_captures();
            }
            self.game.store.pop_list();
            self.game.turn.partial = NOT_PARTIAL;
            self.advance_turn()?;
        }
    }

    /// `OnIsGameOver` for the player to move, the current list generated.
    /// A game's `OnIsGameOver` that plays on with no legal move leaves the
    /// player to move without a move: that player has lost (this is what
    /// `$passTurnForced` exists to prevent).
    pub fn game_result(&mut self) -> VmResult<i32> {
        self.refresh_events();
        // The message is the one this call's `OnIsGameOver` builds.
        self.game.kernel.status_text.clear();
        let result = match self.game.events.is_game_over {
            Some(xt) => {
                let mark = self.stack_marks();
                let score = self.call_event(xt, "OnIsGameOver", 1)?;
                self.check_balanced(mark, "OnIsGameOver")?;
                score
            }
            None if self.game.store.count() == 0 => DRAW_SCORE,
            None => UNKNOWN_SCORE,
        };
        if result == UNKNOWN_SCORE && self.game.store.count() == 0 {
            return Ok(crate::state::LOSS_SCORE);
        }
        Ok(result)
    }

    /// Applies the board edits and runs the move's words, in order, in a
    /// stack frame of their own (the literals a move pushes are for the
    /// words it calls), opened at its first literal or word: most moves
    /// are edits alone.
    pub fn apply_move(&mut self, m: usize) -> VmResult<()> {
        let mut frame = None;
        let result = self.apply_move_actions(m, &mut frame);
        if let Some(frame) = frame {
            self.leave_frame(frame);
        }
        result
    }

    fn apply_move_actions(&mut self, m: usize, frame: &mut Option<StackFrame>) -> VmResult<()> {
        let rec = self.game.store.moves[m];
        // A move with cascades (`$Cascade`) reads what squares held when
        // it began: each square's content before its first edit is kept.
        let mut before = self.game.store.actions_of(m).iter().any(|a| matches!(a, Action::Cascade { .. })).then(Vec::new);
        for i in rec.actions..rec.actions + rec.len {
            // A word the move runs may pop the move's own list.
            let Some(&action) = self.game.store.actions.get(i as usize) else {
                return Err(ErrorKind::Game("the move's list was deallocated while the move was being played".into()).into());
            };
            if matches!(action, Action::Lit(_) | Action::Call(_)) && frame.is_none() {
                *frame = Some(self.enter_frame()?);
            }
            match (action, before.as_mut()) {
                (Action::Lit(n), _) => self.push(n)?,
                (Action::Call(xt), _) => self.execute_hot(xt)?,
                (Action::Cascade { from, to }, Some(before)) => self.apply_cascade(from, to, before)?,
                (edit, Some(before)) => {
                    for p in edit.positions().into_iter().flatten() {
                        self.keep_before(before, p)?;
                    }
                    self.apply_edit(edit)?;
                }
                (edit, None) => self.apply_edit(edit)?,
            }
        }
        Ok(())
    }

    /// `$Cascade` within a move: what `from` held when the move began goes
    /// to `to`; `from` is emptied unless an earlier edit put a piece there.
    #[cold]
    fn apply_cascade(&mut self, from: i32, to: i32, before: &mut Vec<(i32, i32)>) -> VmResult<()> {
        let content = match before.iter().find(|&&(p, _)| p == from) {
            Some(&(_, c)) => c,
            None => {
                self.keep_before(before, from)?;
                let c = self.cell(from)?;
                self.set_cell(from, 0)?;
                c
            }
        };
        self.keep_before(before, to)?;
        self.set_cell(to, content)
    }

    /// Keeps what `pos` holds now, unless kept already.
    fn keep_before(&self, before: &mut Vec<(i32, i32)>, pos: i32) -> VmResult<()> {
        if !before.iter().any(|&(p, _)| p == pos) {
            before.push((pos, self.cell(pos)?));
        }
        Ok(())
    }

    /// Records the position reached in the game being played (the game
    /// loop calls this after each move; searches do not).
    pub fn remember_position(&mut self) {
        let key = self.position_key();
        self.game.history.push(key);
    }

    /// Plays move m of the current list: apply it, `OnMakeAMove`, and move
    /// the turn on unless the move was partial.
    pub fn make_move(&mut self, m: usize) -> VmResult<()> {
        self.moves_to_check -= 1;
        if self.moves_to_check == 0 {
            self.moves_to_check = crate::outer::MOVES_BETWEEN_CHECKS;
            self.check_limits()?;
        }
        self.game.turn.by = self.side_to_move();
        self.apply_move(m)?;
        self.refresh_events();
        let xt = self.game.events.make_a_move;
        self.run_event(xt, "OnMakeAMove")?;
        let rec = self.game.store.moves[m];
        if rec.is_partial() {
            self.game.turn.partial = rec.partial;
            self.game.turn.chain += 1;
            if self.game.turn.chain > MAX_CHAIN {
                return Err(ErrorKind::Game(format!(
                    "more than {MAX_CHAIN} partial moves in one turn: does every step say `partial`, even when nothing can follow?"
                ))
                .into());
            }
            Ok(())
        } else {
            self.game.turn.partial = NOT_PARTIAL;
            self.advance_turn()
        }
    }

    fn advance_turn(&mut self) -> VmResult<()> {
        self.game.turn.chain = 0;
        self.game.turn.index = self.next_turn_index(self.game.turn.index);
        self.game.turn.number += 1;
        self.enter_turn();
        let xt = self.game.events.next_turn;
        self.run_event(xt, "OnNextTurn")
    }

    /// (move lists, board clones) now, to check a script word left them
    /// as it found them.
    pub(crate) fn stack_marks(&self) -> (usize, u32) {
        (self.game.store.lists.len(), self.game.snapshot_count)
    }

    /// Forgets the move lists generated and the boards saved since `marks`
    /// (`stack_marks`), by script that was stopped before it could.
    pub(crate) fn unwind_to(&mut self, (lists, boards): (usize, u32)) {
        while self.game.store.lists.len() > lists {
            self.game.store.pop_list();
            self.game.script_lists = self.game.script_lists.saturating_sub(1);
        }
        while self.game.snapshot_count > boards {
            self.drop_board();
        }
    }

    pub(crate) fn check_balanced(&mut self, (lists, boards): (usize, u32), word: &str) -> VmResult<()> {
        let (now_lists, now_boards) = self.stack_marks();
        if now_lists > lists {
            return Err(ErrorKind::Game(format!(
                "`{word}` left {} move list(s) it generated: each `$GenerateMoves` needs a `$DeallocateMoves`",
                now_lists - lists
            ))
            .into());
        }
        if now_boards > boards {
            return Err(ErrorKind::Game(format!(
                "`{word}` left {} board(s) it cloned: each `$CloneBoard` needs a `$DeallocateBoard`",
                now_boards - boards
            ))
            .into());
        }
        Ok(())
    }

    // ---- saving and restoring the board ----------------------------------

    pub fn push_board(&mut self) -> VmResult<()> {
        let (region, len) = (self.game.board.region as i32, self.game.board.region_len as i32);
        let saved = &self.game.snapshots;
        if saved.capacity() - saved.len() < len.max(0) as usize {
            let grown = (saved.len() + len.max(0) as usize).max(2 * saved.capacity());
            let more = grown - saved.len();
            self.memory_room(grown - saved.capacity(), "saved boards ($CloneBoard)")?;
            self.game.snapshots.try_reserve_exact(more).map_err(|_| self.out_of_memory(more, "saved boards ($CloneBoard)"))?;
        }
        let bytes = self.mem.slice(region, len)?;
        self.game.snapshots.extend_from_slice(bytes);
        self.game.snapshot_count += 1;
        self.game.search.keys.save();
        Ok(())
    }

    pub fn pop_board(&mut self) -> VmResult<()> {
        self.reset_board()?;
        self.drop_board();
        Ok(())
    }

    /// Puts back the board saved last, which stays saved.
    #[inline]
    pub(crate) fn reset_board(&mut self) -> VmResult<()> {
        if self.game.snapshot_count == 0 {
            return Err(ErrorKind::Game("`$DeallocateBoard` without a matching `$CloneBoard`".into()).into());
        }
        let (region, len) = (self.game.board.region as i32, self.game.board.region_len as usize);
        let start = self.game.snapshots.len() - len;
        put_back(self.mem.slice_mut(region, len as i32)?, &self.game.snapshots[start..]);
        self.game.search.keys.reset();
        Ok(())
    }

    /// Forgets the board saved last (if any), as it is now.
    pub(crate) fn drop_board(&mut self) {
        if self.game.snapshot_count == 0 {
            return;
        }
        let start = self.game.snapshots.len() - self.game.board.region_len as usize;
        self.game.snapshots.truncate(start);
        self.game.snapshot_count -= 1;
        self.game.search.keys.restore();
    }

    // ---- perft -------------------------------------------------------------

    /// The number of move sequences of `depth` plies from here (a chain of
    /// partial moves is one ply; no sequence continues past a finished game).
    pub fn perft(&mut self, depth: u32) -> VmResult<u64> {
        if depth == 0 {
            return Ok(1);
        }
        self.generate_turn()?;
        let result = self.perft_moves(depth);
        self.game.store.pop_list();
        result
    }

    /// Perft of every move of the current list (generated, game not over),
    /// each with its count, for `--divide`; `done(k, of)` after each (a
    /// progress bar's tick).
    pub fn perft_divide(&mut self, depth: u32, done: &mut dyn FnMut(usize, usize)) -> VmResult<Vec<(String, u64)>> {
        self.generate_turn()?;
        let mut out = Vec::new();
        if depth > 0 && self.game_result()? == UNKNOWN_SCORE {
            let moves = self.game.store.current();
            for m in moves.clone() {
                let text = move_text(&self.game, &self.mem, m);
                let n = self.perft_each(m..m + 1, depth)?;
                out.push((text, n));
                done(out.len(), moves.len());
            }
        }
        self.game.store.pop_list();
        Ok(out)
    }

    fn perft_moves(&mut self, depth: u32) -> VmResult<u64> {
        if self.game_result()? != UNKNOWN_SCORE {
            return Ok(0);
        }
        let range = self.game.store.current();
        if depth == 1 && !self.game.store.moves[range.clone()].iter().any(|m| m.is_partial()) {
            return Ok(range.len() as u64);
        }
        self.perft_each(range, depth)
    }

    /// The sum of perft below each move of `moves` (of the current list),
    /// each played from the board as it is now: saved once, put back
    /// after each.
    fn perft_each(&mut self, moves: std::ops::Range<usize>, depth: u32) -> VmResult<u64> {
        let turn = self.game.turn;
        self.push_board()?;
        let mut total = 0;
        let mut result = Ok(());
        for m in moves {
            let n = self.perft_after(m, depth).and_then(|n| self.reset_board().map(|()| n));
            self.game.turn = turn;
            self.enter_turn();
            match n {
                Ok(n) => total += n,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.drop_board();
        result.map(|()| total)
    }

    /// Perft below move m of the current list (the board saved, for the
    /// caller to put back); m's ply is part of `depth`.
    fn perft_after(&mut self, m: usize, depth: u32) -> VmResult<u64> {
        self.make_move(m)?;
        if self.game.turn.partial != NOT_PARTIAL {
            // Mid-chain: the steps that follow belong to the same ply.
            let index = self.game.turn.index;
            self.generate_turn()?;
            let n = if self.game.turn.index == index && self.game.turn.partial != NOT_PARTIAL {
                let steps = self.game.store.current();
                self.perft_each(steps, depth)
            } else if depth == 1 {
                // The chain had no continuation and the turn moved on: the
                // ply is complete.
                Ok(1)
            } else {
                self.perft_moves(depth - 1)
            };
            self.game.store.pop_list();
            n
        } else {
            self.perft(depth - 1)
        }
    }

    // ---- choosing and playing moves ------------------------------------

    /// The move of the current list with exactly this text; failing that,
    /// the move that matches it loosely, in this order: ignoring case and
    /// spacing; then also without the names of pieces and players, and
    /// with `x` and `-` alike (`f3 - f4` for `Man f3 x f4`, `Disc d3` for
    /// `Black Disc d3`; the type after `=` counts); then as the end of
    /// that loose text (`f4`, `d3`). A loose form must single out one
    /// move (moves with the same text count as one: the first is taken).
    pub fn find_move(&self, text: &str) -> Option<usize> {
        self.match_move(text).ok()
    }

    /// The move `text` names (see `find_move`), or the moves it could
    /// name: none, or several whose texts differ (ambiguous).
    pub fn match_move(&self, text: &str) -> Result<usize, Vec<usize>> {
        let texts: Vec<(usize, String)> = self.game.store.current().map(|m| (m, move_text(&self.game, &self.mem, m))).collect();
        if let Some(&(m, _)) = texts.iter().find(|(_, t)| t == text) {
            return Ok(m);
        }
        let is_name = |w: &str| {
            self.game.pieces.iter().any(|p| p.name.eq_ignore_ascii_case(w)) || self.game.players.iter().any(|p| p.name.eq_ignore_ascii_case(w))
        };
        let loose = |t: &str| -> String {
            let words: Vec<String> = normalize(t).split(' ').map(str::to_string).collect();
            let mut kept: Vec<&str> = Vec::new();
            for (i, w) in words.iter().enumerate() {
                let after_equals = i > 0 && words[i - 1] == "=";
                if after_equals || !is_name(w) {
                    kept.push(if w == "x" { "-" } else { w });
                }
            }
            kept.join(" ")
        };
        // The move all matches agree on, if they are one text; else all.
        let pick = |matches: Vec<&(usize, String)>| -> Result<usize, Vec<usize>> {
            match matches.first() {
                Some(first) if matches.iter().all(|(_, t)| normalize(t) == normalize(&first.1)) => Ok(first.0),
                _ => Err(matches.iter().map(|(m, _)| *m).collect()),
            }
        };
        let want = normalize(text);
        if want.is_empty() {
            return Err(Vec::new());
        }
        if let Ok(m) = pick(texts.iter().filter(|(_, t)| normalize(t) == want).collect()) {
            return Ok(m);
        }
        let want = loose(text);
        if want.is_empty() {
            return Err(Vec::new());
        }
        let loose_texts: Vec<String> = texts.iter().map(|(_, t)| loose(t)).collect();
        let equal: Vec<&(usize, String)> = texts.iter().zip(&loose_texts).filter(|(_, l)| **l == want).map(|(t, _)| t).collect();
        if !equal.is_empty() {
            return pick(equal);
        }
        let suffix = format!(" {want}");
        match pick(texts.iter().zip(&loose_texts).filter(|(_, l)| l.ends_with(&suffix) || **l == want).map(|(t, _)| t).collect()) {
            Err(none) if none.is_empty() => {}
            found => return found,
        }
        // Zillions writes a move's parts in another order and adds what
        // axforth does not show (`Checker d4 - f2 x e3` for `x e3 Checker
        // d4 - f2`; `@ e5 0 1`, an attribute set): the same parts in any
        // order; then the same squares, each as often, then as a set.
        let want_parts = self.move_parts(text);
        if want_parts.is_empty() {
            return Err(Vec::new());
        }
        // Moves with the same parts differ only in the order of their
        // edits, which the record does not tell: the first is taken.
        if let Some(&(m, _)) = texts.iter().find(|(_, t)| self.move_parts(t) == want_parts) {
            return Ok(m);
        }
        // What axforth's text says must be in the record; the record may
        // say more (Zillions writes changes away from the move's squares,
        // `= Za on g1`, that axforth's text leaves out).
        let (want_squares, want_types) = self.square_list(text);
        if want_squares.is_empty() {
            return Err(Vec::new());
        }
        let agrees = |t: &str, sets: bool| {
            let (squares, types) = self.square_list(t);
            let same = if sets { squares.iter().collect::<std::collections::BTreeSet<_>>() == want_squares.iter().collect() } else { squares == want_squares };
            same && types.is_subset(&want_types)
        };
        // Moves on the same squares told apart by the pieces they name
        // (`NKaze IVc - 1b …` beside `WKaze IVb - 1b …`).
        let want_names = self.names_in(text);
        let pick_named = |matches: Vec<&(usize, String)>| -> Result<usize, Vec<usize>> {
            match pick(matches.clone()) {
                Err(many) if many.len() > 1 => {
                    let named: Vec<&(usize, String)> = matches.into_iter().filter(|(_, t)| self.names_in(t) == want_names).collect();
                    if named.is_empty() { Err(many) } else { pick(named) }
                }
                found => found,
            }
        };
        match pick_named(texts.iter().filter(|(_, t)| agrees(t, false)).collect()) {
            Err(none) if none.is_empty() => {}
            found => return found,
        }
        match pick_named(texts.iter().filter(|(_, t)| agrees(t, true)).collect()) {
            Err(none) if none.is_empty() => {}
            found => return found,
        }
        // Zillions writes every change of owner (`= South on b13`), which
        // axforth's text leaves out beside a step: with them.
        let owned: Vec<(usize, String)> = texts.iter().map(|(m, t)| (*m, self.with_owner_changes(*m, t))).collect();
        pick_named(owned.iter().filter(|(m, t)| texts.iter().any(|(n, u)| n == m && u != t) && agrees(t, false)).collect())
    }

    /// Move m's text with its changes of owner on squares the text does
    /// not name, as Zillions writes them (`= South on b13`).
    fn with_owner_changes(&self, m: usize, text: &str) -> String {
        let mut out = text.to_string();
        for a in self.game.store.actions_of(m) {
            if let Action::ChangeOwner { pos, player } = *a {
                let square = self.game.board.name(pos);
                if !self.move_words(&out).iter().any(|w| w.eq_ignore_ascii_case(&square)) {
                    out.push_str(&format!(" = {} on {square}", self.game.player_name(player)));
                }
            }
        }
        out
    }

    /// The names of pieces and players a move's text gives, each as often,
    /// sorted (without case).
    fn names_in(&self, text: &str) -> Vec<String> {
        let is_name = |w: &str| self.game.pieces.iter().any(|p| p.name.eq_ignore_ascii_case(w)) || self.game.players.iter().any(|p| p.name.eq_ignore_ascii_case(w));
        let mut names: Vec<String> = normalize(text).split(' ').filter(|w| is_name(w)).map(str::to_lowercase).collect();
        names.sort();
        names
    }

    /// The squares a move's text names, each as often, sorted; and the
    /// types after its `=`s.
    fn square_list(&self, text: &str) -> (Vec<String>, std::collections::BTreeSet<String>) {
        let words = self.move_words(text);
        let mut squares: Vec<String> = words.iter().filter(|w| self.is_square(w)).cloned().collect();
        squares.sort();
        let types = words.iter().enumerate().filter(|(i, w)| *i > 0 && words[i - 1] == "=" && !self.is_square(w)).map(|(_, w)| w.clone()).collect();
        (squares, types)
    }

    /// A move's text as a set of parts, for `match_move`: each step
    /// `from - to` or `from x to` one part, each other word one, without
    /// the names of pieces and players (but the type after `=`), `on`,
    /// and Zillions' attribute settings `@ pos n n`.
    fn move_parts(&self, text: &str) -> std::collections::BTreeSet<String> {
        let words = self.move_words(text);
        let mut parts = std::collections::BTreeSet::new();
        let mut i = 0;
        while i < words.len() {
            let step = words.get(i + 1).is_some_and(|w| w == "-" || w == "x");
            if step && self.is_square(&words[i]) && words.get(i + 2).is_some_and(|w| self.is_square(w)) {
                parts.insert(format!("{}>{}", words[i], words[i + 2]));
                i += 3;
            } else {
                parts.insert(words[i].clone());
                i += 1;
            }
        }
        parts
    }

    /// `move_parts`' words, in order.
    fn move_words(&self, text: &str) -> Vec<String> {
        let is_name = |w: &str| self.game.pieces.iter().any(|p| p.name.eq_ignore_ascii_case(w)) || self.game.players.iter().any(|p| p.name.eq_ignore_ascii_case(w));
        let all: Vec<String> = normalize(text).split(' ').map(str::to_string).collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < all.len() {
            let w = &all[i];
            let number = |k: usize| all.get(k).is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
            if w == "@" && number(i + 2) && number(i + 3) {
                i += 4;
                continue;
            }
            let after_equals = i > 0 && all[i - 1] == "=";
            if w != "on" && (after_equals || !is_name(w)) {
                out.push(w.clone());
            }
            i += 1;
        }
        out
    }

    fn is_square(&self, w: &str) -> bool {
        self.game.board.position_named(w).is_some() || (0..self.game.board.positions as i32).any(|p| self.game.board.name(p).eq_ignore_ascii_case(w))
    }

    /// The texts of the current list.
    pub fn move_texts(&self) -> Vec<String> {
        self.game.store.current().map(|m| move_text(&self.game, &self.mem, m)).collect()
    }

    /// The engine of the player to move.
    pub fn engine_to_move(&self) -> Engine {
        let p = self.player_to_move();
        self.game.player(p).map_or(Engine::Default, |d| d.engine)
    }

    /// Evaluation from the point of view of the player to move:
    /// `OnEvaluate`, or with none the material balance between the
    /// contestants: the `{value}`s of the player's pieces on the board
    /// less the other contestants'. It is the one measure every game
    /// declares (and Zillions' own default); the pieces of neutral and
    /// chance players count for no one, since no one gains by them.
    pub fn evaluate(&mut self) -> VmResult<i32> {
        self.refresh_events();
        match self.game.events.evaluate {
            Some(xt) => self.call_in_frame(xt, &[], "OnEvaluate", 1),
            None => {
                let me = self.game.gen.player & PLAYER_MASK;
                let mut sum = 0i32;
                for pos in 0..self.game.board.positions as i32 {
                    let c = self.content(pos)?;
                    let owner = c & PLAYER_MASK;
                    if c != 0 && (owner == me || self.game.is_contestant(owner)) {
                        let v = crate::state::piece_value(&self.game, c);
                        sum = sum.wrapping_add(if owner == me { v } else { -v });
                    }
                }
                Ok(sum)
            }
        }
    }
}

impl Vm {
    /// Evaluation from `player`'s point of view, whoever is to move: the
    /// generation context (`current-player`, `friend?`) says `player`
    /// while `OnEvaluate` runs.
    pub fn evaluate_as(&mut self, player: i32) -> VmResult<i32> {
        let saved = (self.game.gen.player, self.game.gen.for_player);
        (self.game.gen.player, self.game.gen.for_player) = (player, player);
        let e = self.evaluate();
        (self.game.gen.player, self.game.gen.for_player) = saved;
        e
    }
}

/// Compares move texts loosely: case and spacing do not matter, nor
/// spaces around `-` and `=` (`c3-d4` is `c3 - d4`).
pub fn normalize(text: &str) -> String {
    let spaced = text.replace('-', " - ").replace('=', " = ");
    spaced.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_lowercase()
}

/// Pushes the list of the moves of `player`, moving the pieces of
/// `for_player`, restricted to `of_type` (0: all), and makes it current:
/// what its move words add (`generate::fill`), less the moves that leave
/// a royal piece attacked (`royal.rs`), then the rules of the list as a
/// whole (`generate::finish`: priorities, a forced pass).
pub(crate) fn generate(vm: &mut Vm, player: i32, for_player: i32, of_type: i32, forced_pass: bool) -> VmResult<()> {
    fill(vm, player, for_player, of_type, None)?;
    if !vm.game.royal.is_empty() && !vm.game.probing {
        super::royal::keep_royal_safe(vm, player)?;
    }
    finish(vm, forced_pass);
    Ok(())
}

impl Vm {
    /// One board edit, applied now; the position's Zobrist key follows it.
    pub fn apply_edit(&mut self, a: Action) -> VmResult<()> {
        match a {
            // Alone (outside a move), what `from` holds now.
            Action::Move { from, to } | Action::Cascade { from, to } => {
                let c = self.cell(from)?;
                self.set_cell(from, 0)?;
                self.set_cell(to, c)
            }
            Action::Capture(pos) => self.set_cell(pos, 0),
            Action::Place { pos, content } => self.set_cell(pos, content),
            Action::ChangeType { pos, piece_type } => {
                let c = self.cell(pos)?;
                if c != 0 {
                    self.set_cell(pos, (c & !PIECE_TYPE_MASK) | (piece_type & PIECE_TYPE_MASK))?;
                }
                Ok(())
            }
            Action::ChangeOwner { pos, player } => {
                let c = self.cell(pos)?;
                if c != 0 {
                    self.set_cell(pos, (c & !PLAYER_MASK) | (player & PLAYER_MASK))?;
                }
                Ok(())
            }
            Action::Lit(_) | Action::Call(_) => Ok(()),
        }
    }

    fn cell(&self, pos: i32) -> VmResult<i32> {
        self.game.board.get(&self.mem, pos)
    }

    fn set_cell(&mut self, pos: i32, value: i32) -> VmResult<()> {
        let old = self.cell(pos)?;
        self.game.board.set(&mut self.mem, pos, value)?;
        self.game.search.keys.cell_changed(pos, old, value);
        Ok(())
    }
}

fn game_error(msg: impl Into<String>) -> VmError {
    ErrorKind::Game(msg.into()).into()
}


impl Vm {
    /// A move handle from a script: its index in the move arena.
    fn move_index(&self, handle: i32, word: &str) -> VmResult<usize> {
        let i = handle.wrapping_sub(1);
        if i < 0 || i as usize >= self.game.store.moves.len() {
            return Err(game_error(format!("`{word}`: {handle} is not a move (use $FirstMove / $NextMove)")));
        }
        Ok(i as usize)
    }

    /// `EXECUTE` of a token made by `.moveCFA`.
    pub fn execute_move_xt(&mut self, xt: i32) -> VmResult<()> {
        let i = xt.wrapping_sub(MOVE_XT_BASE);
        if i < 0 || i as usize >= self.game.store.moves.len() {
            // The value as the script had it: neither a word nor the token
            // of a move (`.moveCFA` of `$FirstMove` / `$NextMove`).
            return Err(game_error(format!("EXECUTE of {xt} (${xt:X}): not a word, nor a move's token from `.moveCFA`")));
        }
        let m = i as usize;
        self.game.search.info.nodes += 1;
        self.apply_move(m)
    }

    /// Reserves the data space the engine words answer with.
    fn reserve_game_cells(&mut self) {
        let strings = self.mem.allot_cells_zeroed((MOVE_STRING_BYTES * MOVE_STRING_RING) as i32).unwrap_or(0);
        let types = self.mem.allot_cells_zeroed((MOVE_TYPE_RING * 4) as i32).unwrap_or(0);
        let moves_list = self.mem.allot_cells_zeroed((4 + MOVES_LIST_HEADERS * 16) as i32).unwrap_or(0);
        self.game.move_string_cells = strings;
        self.game.move_type_cells = types;
        self.game.moves_list_cells = moves_list;
    }
}

/// The game set up for `.board` and `.moves`: loaded files leave it
/// declared but not started.
fn started(vm: &mut Vm) -> VmResult<()> {
    if vm.game.players.is_empty() {
        return Err(ErrorKind::Game("no game is loaded: LOAD a game's file first (one that declares {players)".into()).into());
    }
    if !vm.game.ready {
        vm.new_game()?;
    }
    Ok(())
}

pub fn register(vm: &mut Vm) {
    vm.reserve_game_cells();
    let table = [
        // ---- the move list ----
        direct("move-count", "( -- n )", |vm, _, _| Ok(vm.game.store.count() as i32)),
        direct("$FirstMove", "( -- m )", |vm, _, _| {
            let r = vm.game.store.current();
            Ok(if r.is_empty() { 0 } else { r.start as i32 + 1 })
        }),
        direct("$NextMove", "( m -- m' )", |vm, m, _| Ok(vm.game.store.next_handle(m))),
        // Not the original's: move m puts a piece on pos or captures there
        // (the translated Zillions rules ask it for `attacked?`).
        direct("$MoveReaches?", "( m pos -- ? )", |vm, m, pos| {
            let m = vm.move_index(m, "$MoveReaches?")?;
            Ok(if vm.game.store.move_reaches(m, pos) { -1 } else { 0 })
        }),
        // The original's variable: `$movesList @` is the current list's
        // header, cell 1 its move count, cell 2 its first move. Each
        // nesting depth has a header of its own, so a header an engine
        // kept still describes its list after a nested `$GenerateMoves`.
        word("$movesList", "( -- addr )", |vm| {
            let var = vm.game.moves_list_cells as i32;
            let r = vm.game.store.current();
            let first = if r.is_empty() { 0 } else { r.start as i32 + 1 };
            let depth = vm.game.store.lists.len().saturating_sub(1) as u32 % MOVES_LIST_HEADERS;
            let header = var + 4 + (depth * 16) as i32;
            vm.mem.store(var, header)?;
            vm.mem.store(header, 0)?;
            vm.mem.store(header + 4, r.len() as i32)?;
            vm.mem.store(header + 8, first)?;
            vm.push(var)
        }),
        word("$MoveString", "( m -- str )", |vm| {
            let m = vm.pop()?;
            let m = vm.move_index(m, "$MoveString")?;
            // The text is built in buffers kept for the next call: engines
            // ask for texts all search long.
            let (mut text, mut placed) = std::mem::take(&mut vm.game.text_scratch);
            write_move_text(&vm.game, &vm.mem, m, &mut text, &mut placed);
            let bytes = &text.as_bytes()[..text.len().min(MOVE_STRING_BYTES as usize - 1)];
            let g = &mut vm.game;
            let addr = g.move_string_cells + (g.move_string_next % MOVE_STRING_RING) * MOVE_STRING_BYTES;
            g.move_string_next = g.move_string_next.wrapping_add(1);
            let stored = vm.mem.slice_mut(addr as i32, bytes.len() as i32 + 1).map(|slot| {
                slot[0] = bytes.len() as u8;
                slot[1..].copy_from_slice(bytes);
            });
            vm.game.text_scratch = (text, placed);
            stored?;
            vm.push(addr as i32)
        }),
        // ---- looking at the game from the REPL ----
        word(".board", "( -- )", |vm| {
            started(vm)?;
            let text = super::show::render(vm, false);
            vm.emit_bytes(text.as_bytes());
            Ok(())
        }),
        word(".moves", "( -- )", |vm| {
            started(vm)?;
            vm.generate_turn()?;
            let texts = vm.move_texts();
            vm.game.store.pop_list();
            let mut out = format!("{} to move: {} move(s)\n", vm.game.player_name(vm.player_to_move()), texts.len());
            for (i, t) in texts.iter().enumerate() {
                out += &format!("  {:>3}. {t}\n", i + 1);
            }
            vm.emit_bytes(out.as_bytes());
            Ok(())
        }),
        word(".player", "( player -- )", |vm| {
            let p = vm.pop()?;
            let name = vm.game.player_name(p);
            vm.emit_bytes(format!("{name} ").as_bytes());
            Ok(())
        }),
        direct(".moveCFA", "( m -- xt )", |vm, m, _| {
            let i = vm.move_index(m, ".moveCFA")?;
            Ok(MOVE_XT_BASE + i as i32)
        }),
        direct(".moveType", "( m -- addr )", |vm, m, _| {
            let i = vm.move_index(m, ".moveType")?;
            let t = vm.game.store.moves[i].move_type;
            let g = &mut vm.game;
            let addr = g.move_type_cells + (g.move_type_next % MOVE_TYPE_RING) * 4;
            vm.mem.store(addr as i32, t)?;
            vm.game.move_type_next = vm.game.move_type_next.wrapping_add(1);
            Ok(addr as i32)
        }),
        word("$GenerateMoves", "( player opp? type -- )", |vm| {
            let t = vm.pop()?;
            let opp = vm.pop()? != 0;
            let player = vm.pop()?;
            let (player, for_player) = vm.generating_players(player, opp, "$GenerateMoves")?;
            vm.refresh_events();
            generate(vm, player, for_player, t, true)?;
            vm.game.script_lists += 1;
            Ok(())
        }),
        // Not the original's: whether a move `$GenerateMoves` would give
        // ends on pos or captures there (the translated Zillions rules ask
        // it for `attacked?`), running only the pieces that could.
        word("$DeallocateMoves", "( -- )", |vm| {
            if vm.game.script_lists == 0 {
                return Err(game_error("`$DeallocateMoves` without a matching `$GenerateMoves`"));
            }
            vm.game.script_lists -= 1;
            vm.game.store.pop_list();
            Ok(())
        }),
        word("$CloneBoard", "( -- )", |vm| vm.push_board()),
        word("$DeallocateBoard", "( -- )", |vm| vm.pop_board()),
        // ---- the turn order (direct: a script engine asks at every node) ----
        direct("turn-offset", "( -- n )", |vm, _, _| Ok(vm.game.turn.index as i32)),
        direct("next-turn-offset", "( n -- n' )", |vm, n, _| {
            let i = (n.max(0) as usize).min(vm.game.turns.len().saturating_sub(1));
            Ok(vm.next_turn_index(i) as i32)
        }),
        direct("turn-offset-to-player", "( n -- player )", |vm, n, _| match vm.game.turns.get(n.max(0) as usize) {
            Some(t) => Ok(t.player),
            None => Err(game_error(format!("`turn-offset-to-player`: {n} is not a turn offset"))),
        }),
        direct("next-player", "( -- player )", |vm, _, _| {
            let i = vm.next_turn_index(vm.game.turn.index);
            Ok(vm.game.turns.get(i).map_or(0, |t| t.player))
        }),
        direct("turn-number", "( -- n )", |vm, _, _| Ok(vm.game.turn.number)),
        // ---- the positions of the game so far ----
        word("repetition-reset", "( -- )", |vm| {
            vm.game.history.clear();
            Ok(())
        }),
        word("repetition-count", "( -- n )", |vm| {
            let key = vm.position_key();
            let n = vm.game.history.iter().filter(|&&k| k == key).count();
            vm.push(n as i32)
        }),
    ];
    for h in table {
        vm.add_host(h);
    }
}

/// Copies `from` into `to` (of the same length). Native code reads the
/// board cell by cell right after a board is put back, and `memcpy`
/// copies a short region with two overlapping vector stores: a cell both
/// cover cannot take its value from them, and its read waits for both to
/// retire. A short region is copied in 8-byte words, each stored on its
/// own; a long one is mostly past that overlap, and `memcpy` is faster.
fn put_back(to: &mut [u8], from: &[u8]) {
    const SHORT: usize = 64;
    if to.len() > SHORT {
        to.copy_from_slice(from);
        return;
    }
    let mut to_words = to.chunks_exact_mut(8);
    let mut from_words = from.chunks_exact(8);
    for (t, f) in (&mut to_words).zip(&mut from_words) {
        let word: [u8; 8] = f.try_into().unwrap_or_default();
        // SAFETY: `t` is 8 bytes, valid for writes, of any alignment.
        unsafe { std::ptr::write_volatile(t.as_mut_ptr() as *mut [u8; 8], word) };
    }
    // Byte by byte: `copy_from_slice` of a length unknown here is a call
    // of `memmove` (2 % of tic-tac-toe's perft, whose board is 36 bytes).
    for (t, f) in to_words.into_remainder().iter_mut().zip(from_words.remainder()) {
        *t = *f;
    }
}
