//! The native part of the Axiom kernel vocabulary (the words the original
//! `axiom.4th` and `CORE.4TH` of versions 1.40, 1.50 and 1.51 defined)
//! that must touch the game state; the rest is `stdlib/kernel.4th`.
//!
//! axforth's game state is not the original's memory layout: names,
//! links, the turn order and the move lists live in Rust (`Game`). The
//! kernel's system variables that a game could read are therefore
//! *mirrors*: each is a cell in data space that the word refreshes with
//! the current value every time it is named, so `$rows @` reads what the
//! original read. Stores into a mirror are lost at its next use (the
//! kernel documented them as read-only to games).

use crate::dictionary::WordKind;
use crate::error::{ErrorKind, VmResult};
use crate::ops::Op;
use crate::vm::{word, HostWord, Vm};

// The kernel's state is plain data of `Game` (`state/mod.rs`).
pub use crate::state::KernelState;

/// The mirrored variables, in the order of their cells.
const MIRRORS: usize = 32;

fn mirror(vm: &mut Vm, slot: u32, value: i32) -> VmResult<()> {
    let addr = vm.game.kernel.mirrors as i32 + 4 * slot as i32;
    vm.mem.store(addr, value)?;
    vm.push(addr)
}

macro_rules! mirror {
    ($name:literal, $slot:expr, |$vm:ident| $value:expr) => {
        word($name, "( -- addr )", |$vm| {
            let v: i32 = $value;
            mirror($vm, $slot, v)
        })
    };
}

impl Vm {
    /// The text the game's script built with `^"`, `^string` and
    /// `^number` since the last `OnIsGameOver` began (the message the
    /// original showed when a game ended); None when it built none.
    /// Cleared when each new game starts and when each `OnIsGameOver`
    /// call begins, so after a game ends it holds the message of the
    /// final position's `OnIsGameOver`.
    pub fn game_over_message(&self) -> Option<String> {
        let t = &self.game.kernel.status_text;
        (!t.is_empty()).then(|| t.clone())
    }

    /// Empties the text `game_over_message` answers.
    pub fn clear_game_over_message(&mut self) {
        self.game.kernel.status_text.clear();
    }

    /// Records the default events stdlib just defined (called once, after
    /// `stdlib/kernel.4th` is loaded).
    pub(crate) fn record_default_events(&mut self) {
        let names = ["OnNewGame", "OnIsGameOver", "OnEvaluate", "OnMakeAMove", "OnNextTurn"];
        let found: Vec<u32> = names.iter().filter_map(|n| self.dict.find(n.as_bytes())).collect();
        self.game.kernel.default_events = found;
    }

    /// The counted string at `addr`, as bytes.
    fn counted_text(&self, addr: i32) -> VmResult<Vec<u8>> {
        Ok(self.mem.counted(addr)?.to_vec())
    }

    /// A position of the board, or the error that says it is none.
    fn board_position(&self, pos: i32, word: &str) -> VmResult<i32> {
        if pos < 0 || pos as usize >= self.game.board.positions {
            return Err(ErrorKind::Game(format!("`{word}`: {pos} is not a position of the board")).into());
        }
        Ok(pos)
    }

    /// Puts a value into a board cell outside move generation (the
    /// board editor's edits); the position keys are worked out again.
    fn edit_board(&mut self, pos: i32, value: i32, word: &str) -> VmResult<()> {
        let pos = self.board_position(pos, word)?;
        self.game.board.set(&mut self.mem, pos, value)?;
        self.game.search.keys.forget();
        Ok(())
    }

    /// `(FORGET)`: names of `xt` and every later word are hidden; older
    /// definitions of the same names become visible again. Their code and
    /// data space stay (nothing else may point into them safely).
    fn forget_from(&mut self, xt: u32) {
        let count = self.dict.words.len() as u32;
        for later in xt..count {
            let name = self.dict.word(later).name.clone();
            if name.is_empty() {
                continue;
            }
            let older = (0..xt).rev().find(|&o| self.dict.word(o).name == name);
            self.dict.forget_name(&name, older);
        }
        self.game.events = Default::default();
    }
}

fn game_error(msg: impl Into<String>) -> crate::error::VmError {
    ErrorKind::Game(msg.into()).into()
}

pub fn register(vm: &mut Vm) {
    vm.game.kernel.mirrors = vm.mem.allot_cells_zeroed((MIRRORS * 4) as i32).unwrap_or(0);
    let table = [
        // ---- the board (axiom.4th "Board positions") ----
        // `$board @` is the address of position 0's cell, so that
        // `$board @ pos CELLS +` is the cell of `pos` as in the original
        // (there the board variables came after the positions; here they
        // come before, and `{variable}`s keep their own addresses).
        mirror!("$board", 0, |vm| vm.game.board.cells as i32),
        mirror!("$rows", 1, |vm| vm.game.board.rows),
        mirror!("$columns", 2, |vm| vm.game.board.cols),
        mirror!("$positions", 3, |vm| vm.game.board.positions as i32),
        // `{position}`s declared besides the grid.
        mirror!("$posCount", 4, |vm| {
            let b = &vm.game.board;
            b.positions as i32 - b.rows * b.cols
        }),
        mirror!("$scanPositions", 5, |vm| vm.game.board.scan_positions() as i32),
        // The bytes a board clone copies (positions and board variables).
        mirror!("$boardSize", 6, |vm| vm.game.board.region_len as i32),
        mirror!("$directionCount", 7, |vm| vm.game.board.directions.len() as i32),
        mirror!("$pieceCount", 8, |vm| vm.game.pieces.len() as i32),
        mirror!("$scanPieceCount", 9, |vm| vm.game.piece_scan_limit.unwrap_or(vm.game.pieces.len()).min(vm.game.pieces.len()) as i32),
        mirror!("$playerCount", 10, |vm| vm.game.players.len() as i32),
        // ---- turns ----
        mirror!("$turnNumber", 11, |vm| vm.game.turn.number),
        // `turn-offset`'s index (axforth's turn offsets count turns, not
        // bytes; `$SetTurn` and `next-turn-offset` take the same index).
        mirror!("$turnOffset", 12, |vm| vm.game.turn.index as i32),
        mirror!("$turnLimit", 13, |vm| vm.game.turns.len() as i32),
        mirror!("$repeatOffset", 14, |vm| vm.game.repeat_from as i32),
        // ---- move generation: what `from`, `here`, … answer ----
        mirror!("$from", 15, |vm| vm.game.gen.from),
        mirror!("$pos", 16, |vm| vm.game.gen.here),
        mirror!("$piece", 17, |vm| vm.game.gen.piece),
        mirror!("$player", 18, |vm| vm.game.gen.player),
        mirror!("$forPlayer", 19, |vm| vm.game.gen.for_player),
        mirror!("$ofType", 20, |vm| vm.game.gen.of_type),
        mirror!("$partial", 21, |vm| if vm.game.gen.partial != crate::state::moves::NOT_PARTIAL && vm.game.gen.active { -1 } else { 0 }),
        mirror!("$passed", 22, |vm| if vm.game.gen.pass_added { -1 } else { 0 }),
        // ---- search ----
        mirror!("$searching", 23, |vm| if vm.game.search.active { -1 } else { 0 }),
        // Board clones outstanding: each ply of a search clones the board.
        mirror!("$ply", 24, |vm| vm.game.snapshot_count as i32),
        mirror!("$searchTime", 25, |vm| vm.game.search.limits.time.map_or(0, |t| t.as_millis().min(i32::MAX as u128) as i32)),
        // The engine's depth limit; #DepthLimit (3) when only time limits it.
        mirror!("$depthLimit", 26, |vm| vm.game.search.limits.depth.map_or(3, |d| d.min(i32::MAX as u32) as i32)),
        mirror!("$iterationDepth", 27, |vm| vm.game.search.info.depth.min(i32::MAX as u32) as i32),
        // axforth has no variety setting: always the lowest level, 1.
        mirror!("$variety", 28, |_vm| 1),
        mirror!("$rootMoveCount", 29, |vm| vm.game.store.lists.first().map_or(0, |&(a, b)| b.saturating_sub(a) as i32)),
        mirror!("$playerToMove", 30, |vm| player_to_move(vm)),
        // ---- the player for whom the search runs (1.51) ----
        word("player-to-move", "( -- player )", |vm| {
            let p = player_to_move(vm);
            vm.push(p)
        }),
        // ---- game-over / status text ----
        word("^string", "( str -- )", |vm| {
            let a = vm.pop()?;
            let text = vm.counted_text(a)?;
            vm.game.kernel.status_text.push_str(&String::from_utf8_lossy(&text));
            Ok(())
        }),
        word("^number", "( n -- )", |vm| {
            let n = vm.pop()?;
            let t = &mut vm.game.kernel.status_text;
            t.push_str(&n.to_string());
            Ok(())
        }),
        // `^" text"`: compiled, the text is appended to the status text
        // when the definition runs; interpreted, it is typed at once.
        HostWord { immediate: true, ..word("^\"", "( -- )", |vm| {
            let text = vm.parse_until(b'"').ok_or(ErrorKind::Unterminated("string: `^\"` without closing `\"`".into()))?;
            if vm.is_compiling() {
                let a = vm.mem.counted_string(&text)?;
                let pos = vm.token_pos();
                vm.emit(Op::Lit(a as i32), pos);
                let xt = vm.find_or_fail(b"^string")?;
                vm.compile_word(xt, pos)
            } else {
                vm.emit_bytes(&text);
                Ok(())
            }
        }) },
        // ---- floats (CORE.4TH): one cell each, IEEE-754 single bits, as
        // the original's `F,` = `,` and `FCELLS` = `CELLS` show ----
        word("FMIN", "( f1 f2 -- f )", |vm| float2(vm, |a, b| if a < b { a } else { b })),
        word("FMAX", "( f1 f2 -- f )", |vm| float2(vm, |a, b| if a > b { a } else { b })),
        word("FNEGATE", "( f -- -f )", |vm| float1(vm, |a| 0.0 - a)),
        word("FABS", "( f -- |f| )", |vm| float1(vm, |a| if a < 0.0 { 0.0 - a } else { a })),
        // ---- strings (CORE.4TH): counted strings, a count byte first ----
        word("\"APPEND", "( str1 str2 -- )", |vm| {
            let dst = vm.pop()?;
            let src = vm.pop()?;
            let tail = vm.counted_text(src)?;
            let len = vm.mem.cfetch(dst)?;
            let room = 255 - len.clamp(0, 255);
            let n = (tail.len() as i32).min(room);
            let to = vm.mem.slice_mut(dst.wrapping_add(1).wrapping_add(len), n)?;
            to.copy_from_slice(&tail[..n as usize]);
            vm.mem.cstore(dst, len + n)?;
            Ok(())
        }),
        // ---- board edits (the editor's events call these) ----
        word("(add-piece)", "( piece pos -- )", |vm| {
            let pos = vm.pop()?;
            let piece = vm.pop()?;
            vm.edit_board(pos, piece, "(add-piece)")
        }),
        word("(remove-piece)", "( pos -- )", |vm| {
            let pos = vm.pop()?;
            vm.edit_board(pos, 0, "(remove-piece)")
        }),
        // ---- internal events ----
        // The original erased the board and entered turn 0; the setup then
        // came from Zillions as edits. Here: the same, without `OnNewGame`.
        word("$NewGame", "( -- )", |vm| {
            for i in 0..vm.game.decl.board_parts.len() {
                let Some(&(start, bytes)) = vm.game.decl.board_parts.get(i) else { break };
                vm.mem.slice_mut(start, bytes)?.fill(0);
            }
            vm.game.turn = Default::default();
            vm.game.search.keys.forget();
            vm.enter_turn();
            Ok(())
        }),
        word("$SetTurn", "( turnOffset -- )", |vm| {
            let i = vm.pop()?;
            if i < 0 || i as usize >= vm.game.turns.len().max(1) {
                return Err(game_error(format!("`$SetTurn`: {i} is not a turn offset")));
            }
            vm.game.turn.index = i as usize;
            vm.enter_turn();
            Ok(())
        }),
        // ( playerXt -- ): the kernel passed the player word's CFA.
        word("$SetPlayer", "( playerXt -- )", |vm| {
            let xt = vm.pop()?;
            let Some(xt) = vm.dict.index_of(xt) else {
                return Err(ErrorKind::NotAnXt(xt).into());
            };
            vm.execute(xt)?;
            let p = vm.pop()?;
            if vm.game.player(p & crate::state::PLAYER_MASK).is_none() {
                return Err(game_error(format!("`$SetPlayer`: {p} is not a player")));
            }
            vm.game.gen.player = p;
            Ok(())
        }),
        // The engine of the player to move chooses a move of the current
        // list and reports it with `BestMove!` (the kernel's OnSearch ran
        // the engine `{players` assigned).
        word("OnSearch", "( -- )", |vm| {
            let engine = vm.engine_to_move();
            let m = vm.choose_move(engine)?;
            let text = crate::state::moves::move_text(&vm.game, &vm.mem, m);
            vm.game.search.info.best_move = Some(text.into_bytes());
            Ok(())
        }),
        // ---- declarations: directions ----
        // ( from to dirXt -- ): the kernel passed the direction's data
        // address; axforth's directions are words, so their xt.
        word("$Link", "( from to dirXt -- )", |vm| {
            let d = vm.pop()?;
            let to = vm.pop()?;
            let from = vm.pop()?;
            let dir = direction_of(vm, d, "$Link")?;
            vm.board_position(from, "$Link")?;
            if to != -1 {
                vm.board_position(to, "$Link")?;
            }
            vm.change_layout("$Link")?;
            vm.game.board.set_link(dir, from, to);
            Ok(())
        }),
        // A new direction without links, which `$Link`/`$MakeLinks` then
        // fill; `$currDirection` holds its token.
        word("$CreateDirection", "( \"name\" -- )", |vm| {
            let name = vm.read_name("$CreateDirection")?;
            new_direction(vm, &name)
        }),
        word("$CreateDirectionFromString", "( str -- )", |vm| {
            let a = vm.pop()?;
            let name = String::from_utf8_lossy(&vm.counted_text(a)?).into_owned();
            new_direction(vm, &name)
        }),
        // A plain cell the natives above write (the kernel's variable).
        word("$currDirection", "( -- addr )", |vm| {
            let a = vm.game.kernel.mirrors as i32 + 4 * CURR_DIRECTION as i32;
            vm.push(a)
        }),
        word("$DirectionCFAToIndex", "( dirXt -- index )", |vm| {
            let t = vm.pop()?;
            let d = direction_of(vm, t, "$DirectionCFAToIndex")?;
            vm.push(d as i32)
        }),
        // ( "name" -- type ): a move type, defined the first time.
        word("$DefineMoveType", "( \"name\" -- type )", |vm| {
            let name = vm.read_name("$DefineMoveType")?;
            let v = vm.move_type_value(&name)?;
            vm.push(v)
        }),
        // ( value str -- ): a constant named by a counted string.
        word("$MakeConstant", "( value str -- )", |vm| {
            let a = vm.pop()?;
            let v = vm.pop()?;
            let name = String::from_utf8_lossy(&vm.counted_text(a)?).into_owned();
            if name.is_empty() {
                return Err(game_error("`$MakeConstant`: the name is empty"));
            }
            vm.define_constant(&name, v);
            Ok(())
        }),
        // ---- dictionary (CORE.4TH) ----
        word("(FORGET)", "( xt -- )", |vm| {
            let t = vm.pop()?;
            let Some(xt) = vm.dict.index_of(t) else {
                return Err(ErrorKind::NotAnXt(t).into());
            };
            if xt < vm.game.kernel.fence {
                return Err(game_error("`FORGET`: the word is part of the kernel, which cannot be forgotten"));
            }
            vm.forget_from(xt);
            Ok(())
        }),
        word("(IS)", "( xt deferXt -- )", |vm| {
            let d = vm.pop()?;
            let t = vm.pop()?;
            let Some(dxt) = vm.dict.index_of(d) else {
                return Err(ErrorKind::NotAnXt(d).into());
            };
            let WordKind::Deferred(slot) = vm.dict.word(dxt).kind else {
                return Err(ErrorKind::NotDeferred(vm.dict.word(dxt).display_name()).into());
            };
            let Some(target) = vm.dict.index_of(t) else {
                return Err(ErrorKind::NotAnXt(t).into());
            };
            if slot as usize >= vm.defers.len() {
                return Err(ErrorKind::NotDeferred(vm.dict.word(dxt).display_name()).into());
            }
            vm.set_defer(slot as usize, target);
            Ok(())
        }),
        // The newest word's token: axforth has no name fields, so NFA, CFA
        // and LFA are all this token (see stdlib/kernel.4th).
        word("LATEST", "( -- nfa )", |vm| {
            let n = vm.dict.words.len() as u32;
            let xt = vm.latest.unwrap_or(n.saturating_sub(1));
            vm.push(crate::dictionary::token(xt))
        }),
    ];
    for h in table {
        vm.add_host(h);
    }
}

/// The mirror cell `$currDirection` uses (a plain variable).
const CURR_DIRECTION: usize = MIRRORS - 1;

fn new_direction(vm: &mut Vm, name: &str) -> VmResult<()> {
    if name.is_empty() {
        return Err(game_error("a direction needs a name"));
    }
    if !vm.game.board.complete && vm.game.board.positions == 0 {
        return Err(game_error("Error: board is not defined."));
    }
    vm.change_layout("$CreateDirection")?;
    let is_new = vm.game.board.direction_named(name).is_none();
    let d = vm.game.board.add_direction(name);
    if is_new {
        vm.define_direction(name, d);
    }
    let xt = vm.dict.find(name.as_bytes()).map_or(0, crate::dictionary::token);
    let a = vm.game.kernel.mirrors as i32 + 4 * CURR_DIRECTION as i32;
    vm.mem.store(a, xt)?;
    Ok(())
}

fn float1(vm: &mut Vm, f: fn(f32) -> f32) -> VmResult<()> {
    let a = f32::from_bits(vm.pop()? as u32);
    vm.push(f(a).to_bits() as i32)
}

fn float2(vm: &mut Vm, f: fn(f32, f32) -> f32) -> VmResult<()> {
    let b = f32::from_bits(vm.pop()? as u32);
    let a = f32::from_bits(vm.pop()? as u32);
    vm.push(f(a, b).to_bits() as i32)
}

/// `player-to-move`: the player the running search is for, else the
/// player to move.
fn player_to_move(vm: &Vm) -> i32 {
    match vm.game.kernel.root_player {
        0 => vm.player_to_move(),
        p => p,
    }
}

fn direction_of(vm: &Vm, token: i32, word: &str) -> VmResult<u32> {
    vm.dict
        .index_of(token)
        .and_then(|xt| vm.dict.word(xt).step)
        .ok_or_else(|| game_error(format!("`{word}`: {token} is not a direction word's token (`' North`)")))
}
