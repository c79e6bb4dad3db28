//! The declaration blocks of AXIOM.md §2: `{board … board}`,
//! `{directions`, `{symmetries`, `{players`, `{turn-order`, `{moves`,
//! `{move-priorities`, `{pieces`, `{board-setup`.
//!
//! Each `{item}` word reads the names that follow it from the input, like
//! any parsing word, and defines the constants and words the game's code
//! uses (positions, directions, players, pieces, move types). A variant
//! file may declare `{players` and `{turn-order` again: the latest wins.

use crate::state::decl::SetupLine;
use crate::state::{Engine, MoveListDecl, PieceDecl, PlayerDecl, Turn, NEUTRAL, PLAYER_BASE};
use crate::dictionary::WordKind;
use crate::error::{ErrorKind, VmError, VmResult};
use crate::ops::Op;
use crate::vm::{word, Vm};

/// " (did you mean `ne`?)" among the board's directions, or nothing.
fn direction_hint(board: &crate::state::Board, name: &str) -> String {
    crate::suggest::did_you_mean(name, board.directions.iter().map(String::as_str)).map_or(String::new(), |h| format!(" ({h})"))
}

fn err(msg: impl Into<String>) -> VmError {
    ErrorKind::Game(msg.into()).into()
}


impl Vm {
    pub(crate) fn read_name(&mut self, after: &str) -> VmResult<String> {
        let (name, _) = self.parse_name(after)?;
        Ok(String::from_utf8_lossy(&name).into_owned())
    }

    /// The value of a name read from the input: a position, a number, or
    /// any word that leaves one value (constants: players, pieces, types).
    fn read_value(&mut self, after: &str) -> VmResult<i32> {
        let (name, _) = self.parse_name(after)?;
        self.value_of(&name)
    }

    fn value_of(&mut self, name: &[u8]) -> VmResult<i32> {
        let text = String::from_utf8_lossy(name);
        if let Some(pos) = self.game.board.position_named(&text) {
            return Ok(pos);
        }
        if let Some(n) = self.parse_number(name)? {
            return Ok(n);
        }
        let xt = self.find_or_fail(name)?;
        if let WordKind::Constant(v) = self.dict.word(xt).kind {
            return Ok(v);
        }
        let depth = self.depth();
        self.execute(xt)?;
        if self.depth() != depth + 1 {
            return Err(err(format!("`{text}` does not name a value (a position, player, piece or number)")));
        }
        self.pop()
    }

    fn read_position(&mut self, after: &str) -> VmResult<i32> {
        let pos = self.read_value(after)?;
        self.game.board.check(pos)?;
        Ok(pos)
    }

    pub(crate) fn define_constant(&mut self, name: &str, value: i32) {
        self.add_thunk_word(name.as_bytes(), WordKind::Constant(value), &[Op::Lit(value), Op::Exit]);
    }

    pub(crate) fn define_direction(&mut self, name: &str, dir: u32) {
        let xt = self.add_thunk_word(name.as_bytes(), WordKind::Colon, &[Op::GStep(dir), Op::Exit]);
        self.dict.word_mut(xt).inline = true;
        self.dict.set_step(xt, dir);
    }

    /// Called before each change of the board's layout. The positions and
    /// directions stay as they are while moves are generated (the
    /// generator reads its tables through the whole generation): an
    /// error then; else native code built on the layout is thrown away.
    pub(crate) fn change_layout(&mut self, word: &str) -> VmResult<()> {
        if self.game.gen.active {
            return Err(err(format!("`{word}` changes the board's layout, which cannot change while moves are being generated")));
        }
        self.jit_layout_changed();
        Ok(())
    }

    fn add_position(&mut self, name: String) -> VmResult<()> {
        self.change_layout("{position}")?;
        let b = &mut self.game.board;
        let pos = b.positions as i32;
        b.positions += 1;
        b.layout += 1;
        b.names.push(name.clone());
        self.define_constant(&name, pos);
        Ok(())
    }

    /// The value of a move type, defining it the first time it is seen. A
    /// name the script already made a CONSTANT keeps its value (move words
    /// often use a type before the `{moves` block that declares it).
    pub(crate) fn move_type_value(&mut self, name: &str) -> VmResult<i32> {
        if let Some(&(_, v)) = self.game.move_types.iter().find(|(n, _)| n == name) {
            return Ok(v);
        }
        if let Some(WordKind::Constant(v)) = self.dict.find(name.as_bytes()).map(|xt| self.dict.word(xt).kind) {
            self.game.move_types.push((name.to_string(), v));
            return Ok(v);
        }
        let value = self.game.move_types.iter().map(|&(_, v)| v).max().unwrap_or(0) + 1;
        self.game.move_types.push((name.to_string(), value));
        self.define_constant(name, value);
        Ok(value)
    }

    fn player_value(&mut self, after: &str) -> VmResult<i32> {
        let v = self.read_value(after)?;
        if v & !crate::state::PLAYER_MASK != 0 || v == 0 {
            return Err(err(format!("`{after}` needs a player name, got the value {v}")));
        }
        Ok(v)
    }

    fn open_board(&self, word: &str) -> VmResult<()> {
        if self.game.decl.board {
            Ok(())
        } else {
            Err(err(format!("`{word}` belongs inside `{{board … board}}`")))
        }
    }

    fn last_player(&mut self, word: &str) -> VmResult<&mut PlayerDecl> {
        match self.game.decl.players.as_mut().and_then(|p| p.last_mut()) {
            Some(p) => Ok(p),
            None => Err(err(format!("`{word}` must follow a `{{player}} Name` inside `{{players`"))),
        }
    }

    fn last_turn(&mut self, word: &str) -> VmResult<&mut Turn> {
        match self.game.decl.turns.as_mut().and_then(|t| t.0.last_mut()) {
            Some(t) => Ok(t),
            None => Err(err(format!("`{word}` must follow a `{{turn}} Player` inside `{{turn-order`"))),
        }
    }

    fn last_piece(&mut self, word: &str) -> VmResult<&mut PieceDecl> {
        if !self.game.decl.pieces {
            return Err(err(format!("`{word}` belongs inside `{{pieces … pieces}}`")));
        }
        match self.game.pieces.last_mut() {
            Some(p) => Ok(p),
            None => Err(err(format!("`{word}` must follow a `{{piece}} Name`"))),
        }
    }

    /// The move list a piece names. One declared later (a `{pieces` block
    /// before its `{moves` blocks) is filled in when it comes.
    fn move_list_named(&mut self, after: &str) -> VmResult<usize> {
        let name = self.read_name(after)?;
        let named_at = self.inputs.last().map_or(crate::lexer::Pos::NONE, |i| i.token);
        let lists = &mut self.game.move_lists;
        Ok(match lists.iter().rposition(|l| l.name == name) {
            Some(i) => i,
            None => {
                lists.push(MoveListDecl { name, entries: Vec::new(), pending: true, named_at });
                lists.len() - 1
            }
        })
    }

    fn add_player(&mut self, neutral: bool, after: &str) -> VmResult<()> {
        let name = self.read_name(after)?;
        let Some(list) = self.game.decl.players.as_mut() else {
            return Err(err(format!("`{after}` belongs inside `{{players … players}}`")));
        };
        let k = list.len() as i32 + 1;
        let value = (k * PLAYER_BASE) | if neutral { NEUTRAL } else { 0 };
        list.push(PlayerDecl { name: name.clone(), value, neutral, chance: false, bystander: false, engine: Engine::Default });
        self.define_constant(&name, value);
        Ok(())
    }

    fn set_engine(&mut self, word: &str, engine: Engine) -> VmResult<()> {
        self.last_player(word)?.engine = engine;
        Ok(())
    }

    /// A block opens: it must not be open already (its closing word was
    /// forgotten, and the new block would overwrite it).
    fn open_block(&mut self, block: &'static str) -> VmResult<()> {
        // Declarations do not nest: the one still open is what is wrong,
        // not the one after it.
        if let Some(&(open, at)) = self.game.decl.open.last() {
            return Err(err(format!("{} before this `{block}`", self.unclosed(open, at))));
        }
        let pos = self.inputs.last().map_or(crate::lexer::Pos::NONE, |i| i.token);
        self.game.decl.open.push((block, pos));
        Ok(())
    }

    fn close_block(&mut self, block: &'static str) {
        if let Some(i) = self.game.decl.open.iter().rposition(|(b, _)| *b == block) {
            self.game.decl.open.remove(i);
        }
    }

    /// "`{board` opened at f:3:1 is still open: `board}` missing".
    fn unclosed(&self, block: &str, at: crate::lexer::Pos) -> String {
        let opened = self.location(at).map_or(String::new(), |l| format!(" opened at {l}"));
        format!("`{block}`{opened} is still open: `{}}}` missing", &block[1..])
    }

    /// Everything loaded: the names declarations used before their
    /// definitions must exist now (a piece's move lists, the players'
    /// search engines). Every verb runs this after loading, `run` too.
    pub fn check_loaded(&self) -> VmResult<()> {
        let g = &self.game;
        if let Some(&(block, at)) = g.decl.open.first() {
            let mut e = err(format!("{} at the end of loading", self.unclosed(block, at)));
            e.location = self.location(at);
            return Err(e);
        }
        if let Some(l) = g.move_lists.iter().find(|l| l.pending) {
            let declared = g.move_lists.iter().filter(|d| !d.pending).map(|d| d.name.as_str());
            let hint = match crate::suggest::did_you_mean(&l.name, declared) {
                Some(h) => format!("; {h}"),
                None => format!("; declare it with `{{moves {} … moves}}`", l.name),
            };
            let mut e = err(format!("no move list named `{}` (a piece uses it{hint})", l.name));
            e.location = self.location(l.named_at);
            e.word = Some("{moves}".into());
            return Err(e);
        }
        for p in &g.players {
            if let Engine::Script(i) = p.engine {
                let name = g.engine_names.get(i as usize).map_or("", String::as_str);
                if self.dict.find(name.as_bytes()).is_none() {
                    let words = self.dict.visible_names();
                    let hint = crate::suggest::did_you_mean(name, words.iter().map(String::as_str)).map_or(String::new(), |h| format!(" ({h})"));
                    let mut e = err(format!("the search engine of {} is `{name}`, which is not defined{hint}", p.name));
                    e.location = g.engine_named_at.get(i as usize).and_then(|&at| self.location(at));
                    e.word = Some("{search-engine}".into());
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// The game has finished loading: check it and remember the start.
    pub fn finish_game(&mut self) -> VmResult<()> {
        let g = &mut self.game;
        if !g.board.complete {
            return Err(err("the game declares no board: it needs `{board … board}`"));
        }
        if g.players.is_empty() {
            return Err(err("the game declares no players: it needs `{players {player} Name … players}`"));
        }
        if g.turns.is_empty() {
            g.turns = g.players.iter().filter(|p| !p.neutral).map(|p| Turn { player: p.value, of_type: 0, for_player: p.value }).collect();
            g.repeat_from = 0;
        }
        if g.turns.is_empty() {
            return Err(err("the game has no turns: every player is neutral"));
        }
        self.check_loaded()?;
        super::reach_table::settle(self);
        self.game.classify_players();
        self.game.ready = true;
        Ok(())
    }
}

pub fn register(vm: &mut Vm) {
    let table = [
        // ---- the board ----
        word("{board", "( -- )", |vm| {
            vm.open_block("{board")?;
            if vm.game.board.complete || vm.game.decl.board {
                return Err(err("the board is declared twice (one `{board … board}` per game)"));
            }
            vm.mem.align();
            vm.game.decl.board = true;
            vm.game.board.region = vm.mem.here;
            Ok(())
        }),
        word("{grid}", "( rows cols -- )", |vm| {
            vm.open_board("{grid}")?;
            let cols = vm.pop()?;
            let rows = vm.pop()?;
            if vm.game.board.rows != 0 {
                return Err(err("`{grid}` used twice in one board"));
            }
            if !(1..=1000).contains(&rows) || !(1..=1000).contains(&cols) {
                return Err(err(format!("`{{grid}}` of {rows} x {cols}: rows and columns must be 1..1000")));
            }
            let flipped = vm.directive("$flipGrid");
            let b = &mut vm.game.board;
            b.rows = rows;
            b.cols = cols;
            b.flipped = flipped;
            let first = b.positions as i32;
            if first != 0 {
                return Err(err("`{grid}` must come before any `{position}`"));
            }
            for r in 0..rows {
                for c in 0..cols {
                    let name = vm.game.board.grid_name(r, c);
                    vm.add_position(name)?;
                }
            }
            Ok(())
        }),
        word("{position}", "( \"name\" -- )", |vm| {
            vm.open_board("{position}")?;
            let name = vm.read_name("{position}")?;
            vm.add_position(name)
        }),
        word("{dummy-positions}", "( -- )", |vm| {
            vm.game.board.scan_limit = Some(vm.game.board.positions);
            Ok(())
        }),
        word("{variable}", "( \"name\" -- )", |vm| {
            vm.open_board("{variable}")?;
            let (name, _) = vm.parse_name("{variable}")?;
            let a = vm.mem.allot_cells_zeroed(4)?;
            vm.game.decl.board_parts.push((a as i32, 4));
            vm.add_thunk_word(&name, WordKind::Variable(a), &[Op::Lit(a as i32), Op::Exit]);
            Ok(())
        }),
        // A board variable that does not tell positions apart: cloned and
        // restored with the board, zeroed by a new game, but left out of
        // the position's key, so a counter (plies since the last capture)
        // does not make every position new to repetitions and the
        // transposition table.
        word("{clock}", "( \"name\" -- )", |vm| {
            vm.open_board("{clock}")?;
            let (name, _) = vm.parse_name("{clock}")?;
            let a = vm.mem.allot_cells_zeroed(4)?;
            vm.game.decl.board_parts.push((a as i32, 4));
            vm.game.board.unkeyed.push(a);
            vm.add_thunk_word(&name, WordKind::Variable(a), &[Op::Lit(a as i32), Op::Exit]);
            Ok(())
        }),
        word("{array}", "( n \"name\" -- )", |vm| {
            vm.open_board("{array}")?;
            let (name, _) = vm.parse_name("{array}")?;
            let n = vm.pop()?;
            let start = vm.mem.here as i32;
            vm.add_cell_array(&name, n)?;
            vm.game.decl.board_parts.push((start, vm.mem.here as i32 - start));
            Ok(())
        }),
        word("{carray}", "( n \"name\" -- )", |vm| {
            vm.open_board("{carray}")?;
            let (name, _) = vm.parse_name("{carray}")?;
            let n = vm.pop()?;
            let base = vm.mem.allot_cells_zeroed(n.max(0).saturating_add(3) & !3)?;
            if n < 0 {
                return Err(ErrorKind::DataSpaceExhausted { wanted: n as i64, free: 0 }.into());
            }
            vm.game.decl.board_parts.push((base as i32, n.saturating_add(3) & !3));
            let xt = vm.add_thunk_word(&name, WordKind::Colon, &[Op::LitAdd(base as i32), Op::Exit]);
            vm.dict.word_mut(xt).inline = true;
            Ok(())
        }),
        word("board}", "( -- )", |vm| {
            vm.close_block("{board");
            vm.open_board("board}")?;
            vm.mem.align();
            let n = vm.game.board.positions as i32;
            if n == 0 {
                return Err(err("the board has no positions: use `R C {grid}` or `{position} name`"));
            }
            let cells = vm.mem.allot_cells_zeroed(n * 4)?;
            vm.game.decl.board_parts.push((cells as i32, n * 4));
            vm.jit_layout_changed();
            let b = &mut vm.game.board;
            b.cells = cells;
            b.region_len = vm.mem.here - b.region;
            b.complete = true;
            b.layout += 1;
            vm.game.decl.board = false;
            Ok(())
        }),
        // ---- directions ----
        word("{directions", "( -- )", |vm| {
            vm.open_block("{directions")?;
            if !vm.game.board.complete {
                return Err(err("`{directions` needs the board first: declare `{board … board}` before it"));
            }
            vm.game.decl.directions = true;
            Ok(())
        }),
        word("{direction}", "( dr dc \"name\" -- )", |vm| {
            let name = vm.read_name("{direction}")?;
            let dc = vm.pop()?;
            let dr = vm.pop()?;
            let b = &vm.game.board;
            if !vm.game.decl.directions || b.rows == 0 {
                return Err(err("`{direction}` needs a `{grid}` board and belongs inside `{directions … directions}`"));
            }
            let is_new = b.direction_named(&name).is_none();
            vm.change_layout("{direction}")?;
            let d = vm.game.board.add_direction(&name);
            let b = &mut vm.game.board;
            for r in 0..b.rows {
                for c in 0..b.cols {
                    let from = r * b.cols + c;
                    let to = b.grid_index(r + dr, c + dc).unwrap_or(-1);
                    b.set_link(d, from, to);
                }
            }
            if is_new {
                vm.define_direction(&name, d);
            }
            Ok(())
        }),
        word("{link}", "( \"name\" \"from\" \"to\" -- )", |vm| {
            let name = vm.read_name("{link}")?;
            let from = vm.read_position("{link}")?;
            let to = vm.read_position("{link}")?;
            let is_new = vm.game.board.direction_named(&name).is_none();
            vm.change_layout("{link}")?;
            let d = vm.game.board.add_direction(&name);
            vm.game.board.set_link(d, from, to);
            if is_new {
                vm.define_direction(&name, d);
            }
            Ok(())
        }),
        word("{unlink}", "( \"name\" \"pos\" -- )", |vm| {
            let name = vm.read_name("{unlink}")?;
            let pos = vm.read_position("{unlink}")?;
            let d = vm.game.board.direction_named(&name).ok_or_else(|| err(format!("`{{unlink}}`: no direction named `{name}`{}", direction_hint(&vm.game.board, &name))))?;
            vm.change_layout("{unlink}")?;
            vm.game.board.set_link(d, pos, -1);
            Ok(())
        }),
        word("directions}", "( -- )", |vm| {
            vm.close_block("{directions");
            vm.game.decl.directions = false;
            Ok(())
        }),
        // ---- symmetries ----
        word("{symmetries", "( -- )", |vm| {
            vm.open_block("{symmetries")?;
            vm.game.decl.symmetries_depth = Some(vm.depth());
            Ok(())
        }),
        word("{symmetry}", "( player \"d1\" \"d2\" -- player )", |vm| symmetry(vm, true)),
        word("{asymmetry}", "( player \"d1\" \"d2\" -- player )", |vm| symmetry(vm, false)),
        word("symmetries}", "( player... -- )", |vm| {
            vm.close_block("{symmetries");
            if let Some(d) = vm.game.decl.symmetries_depth.take() {
                vm.set_depth(d);
            }
            Ok(())
        }),
        // ---- players ----
        word("{players", "( -- )", |vm| {
            vm.open_block("{players")?;
            vm.game.decl.players = Some(Vec::new());
            Ok(())
        }),
        word("{player}", "( \"name\" -- )", |vm| vm.add_player(false, "{player}")),
        word("{neutral}", "( \"name\" -- )", |vm| vm.add_player(true, "{neutral}")),
        word("{random}", "( -- )", |vm| vm.set_engine("{random}", Engine::Random)),
        word("{first}", "( -- )", |vm| vm.set_engine("{first}", Engine::First)),
        word("{UCT}", "( -- )", |vm| vm.set_engine("{UCT}", Engine::Uct)),
        word("{search-engine}", "( \"word\" -- )", |vm| {
            // The engine word may be defined later: it is looked up (the
            // newest definition) each time it has to move.
            let name = vm.read_name("{search-engine}")?;
            let at = vm.inputs.last().map_or(crate::lexer::Pos::NONE, |i| i.token);
            let g = &mut vm.game;
            let i = g.engine_names.iter().position(|n| *n == name).unwrap_or_else(|| {
                g.engine_names.push(name);
                g.engine_named_at.push(at);
                g.engine_names.len() - 1
            });
            vm.set_engine("{search-engine}", Engine::Script(i as u32))
        }),
        word("players}", "( -- )", |vm| {
            vm.close_block("{players");
            let list = vm.game.decl.players.take().ok_or_else(|| err("`players}` without `{players`"))?;
            if list.is_empty() {
                return Err(err("`{players … players}` declares no player"));
            }
            vm.define_constant("player-count", list.len() as i32);
            vm.game.players = list;
            if vm.game.gen.player == 0 {
                let first = vm.game.players[0].value;
                vm.game.gen.player = first;
                vm.game.gen.for_player = first;
            }
            Ok(())
        }),
        // ---- turn order ----
        word("{turn-order", "( -- )", |vm| {
            vm.open_block("{turn-order")?;
            vm.game.decl.turns = Some((Vec::new(), None));
            Ok(())
        }),
        word("{turn}", "( \"player\" -- )", |vm| {
            let player = vm.player_value("{turn}")?;
            let (list, _) = vm.game.decl.turns.as_mut().ok_or_else(|| err("`{turn}` belongs inside `{turn-order … turn-order}`"))?;
            list.push(Turn { player, of_type: 0, for_player: player });
            Ok(())
        }),
        word("{of-type}", "( \"type\" -- )", |vm| {
            let name = vm.read_name("{of-type}")?;
            let t = vm.move_type_value(&name)?;
            vm.last_turn("{of-type}")?.of_type = t;
            Ok(())
        }),
        word("{for-player}", "( \"player\" -- )", |vm| {
            let p = vm.player_value("{for-player}")?;
            vm.last_turn("{for-player}")?.for_player = p;
            Ok(())
        }),
        word("{repeat}", "( -- )", |vm| {
            let (list, repeat) = vm.game.decl.turns.as_mut().ok_or_else(|| err("`{repeat}` belongs inside `{turn-order … turn-order}`"))?;
            *repeat = Some(list.len());
            Ok(())
        }),
        word("turn-order}", "( -- )", |vm| {
            vm.close_block("{turn-order");
            let (list, repeat) = vm.game.decl.turns.take().ok_or_else(|| err("`turn-order}` without `{turn-order`"))?;
            if list.is_empty() {
                return Err(err("`{turn-order … turn-order}` has no `{turn}`"));
            }
            let repeat = repeat.unwrap_or(0);
            if repeat >= list.len() {
                return Err(err("`{repeat}` after the last `{turn}`: nothing to repeat"));
            }
            vm.game.turns = list;
            vm.game.repeat_from = repeat;
            Ok(())
        }),
        // ---- move lists ----
        word("{moves", "( \"name\" -- )", |vm| {
            vm.open_block("{moves")?;
            let name = vm.read_name("{moves")?;
            vm.game.decl.moves = Some(MoveListDecl { name, entries: Vec::new(), pending: false, named_at: crate::lexer::Pos::NONE });
            Ok(())
        }),
        word("{move}", "( \"word\" -- )", |vm| {
            let (name, _) = vm.parse_name("{move}")?;
            let xt = vm.find_or_fail(&name)?;
            let list = vm.game.decl.moves.as_mut().ok_or_else(|| err("`{move}` belongs inside `{moves name … moves}`"))?;
            list.entries.push((xt, 0));
            Ok(())
        }),
        word("{move-type}", "( \"type\" -- )", |vm| {
            let name = vm.read_name("{move-type}")?;
            let t = vm.move_type_value(&name)?;
            match vm.game.decl.moves.as_mut().and_then(|l| l.entries.last_mut()) {
                Some(e) => e.1 = t,
                None => return Err(err("`{move-type}` must follow a `{move} word` inside `{moves`")),
            }
            Ok(())
        }),
        word("moves}", "( -- )", |vm| {
            vm.close_block("{moves");
            let list = vm.game.decl.moves.take().ok_or_else(|| err("`moves}` without `{moves`"))?;
            match vm.game.move_lists.iter_mut().find(|l| l.pending && l.name == list.name) {
                Some(slot) => *slot = list,
                None => vm.game.move_lists.push(list),
            }
            Ok(())
        }),
        word("{move-priorities", "( -- )", |vm| {
            vm.open_block("{move-priorities")?;
            vm.game.decl.priorities = Some(Vec::new());
            Ok(())
        }),
        word("{move-priority}", "( \"type\" -- )", |vm| {
            let name = vm.read_name("{move-priority}")?;
            let t = vm.move_type_value(&name)?;
            let list = vm.game.decl.priorities.as_mut().ok_or_else(|| err("`{move-priority}` belongs inside `{move-priorities`"))?;
            list.push(t);
            Ok(())
        }),
        word("move-priorities}", "( -- )", |vm| {
            vm.close_block("{move-priorities");
            let list = vm.game.decl.priorities.take().ok_or_else(|| err("`move-priorities}` without `{move-priorities`"))?;
            vm.game.priorities = crate::state::moves::Priorities::new(list);
            Ok(())
        }),
        word("{maximal-captures}", "( level -- )", |vm| {
            let level = vm.pop()?;
            if !(0..=2).contains(&level) {
                return Err(err(format!("`{{maximal-captures}}` takes 0 (off), 1 (the most pieces) or 2 (then the most worth), not {level}")));
            }
            vm.game.maximal_captures = level as u8;
            Ok(())
        }),
        // ---- pieces ----
        word("{pieces", "( -- )", |vm| {
            vm.open_block("{pieces")?;
            vm.game.decl.pieces = true;
            Ok(())
        }),
        word("{piece}", "( \"name\" -- )", |vm| {
            if !vm.game.decl.pieces {
                return Err(err("`{piece}` belongs inside `{pieces … pieces}`"));
            }
            let name = vm.read_name("{piece}")?;
            let t = match vm.game.pieces.iter().position(|p| p.name == name) {
                // Declared again: start over, keeping the type number.
                Some(i) => {
                    vm.game.pieces[i] = PieceDecl { name: name.clone(), value: 1, ..PieceDecl::default() };
                    i as i32 + 1
                }
                None => {
                    vm.game.pieces.push(PieceDecl { name: name.clone(), value: 1, ..PieceDecl::default() });
                    vm.game.pieces.len() as i32
                }
            };
            if t > crate::state::PIECE_TYPE_MASK {
                return Err(err("more than 1023 piece types"));
            }
            // The block's later items apply to the piece just named.
            vm.game.decl_piece = (t - 1) as usize;
            vm.define_constant(&name, t);
            Ok(())
        }),
        word("{moves}", "( \"list\" -- )", |vm| {
            let list = vm.move_list_named("{moves}")?;
            vm.current_piece("{moves}")?.moves.push(list);
            Ok(())
        }),
        word("{drops}", "( \"list\" -- )", |vm| {
            let list = vm.move_list_named("{drops}")?;
            vm.current_piece("{drops}")?.drops.push(list);
            Ok(())
        }),
        word("{value}", "( n -- )", |vm| {
            let n = vm.pop()?;
            vm.current_piece("{value}")?.value = n;
            Ok(())
        }),
        word("{dummy-pieces}", "( -- )", |vm| {
            vm.game.piece_scan_limit = Some(vm.game.pieces.len());
            Ok(())
        }),
        word("pieces}", "( -- )", |vm| {
            vm.close_block("{pieces");
            vm.game.decl.pieces = false;
            Ok(())
        }),
        // ---- setup ----
        word("{board-setup", "( -- )", |vm| {
            vm.open_block("{board-setup")?;
            vm.game.decl.setup = Some(Vec::new());
            Ok(())
        }),
        word("{setup}", "( \"player\" \"piece\" \"pos\"... -- )", |vm| {
            if vm.game.decl.setup.is_none() {
                return Err(err("`{setup}` belongs inside `{board-setup … board-setup}`"));
            }
            let at = vm.token_pos();
            let player = vm.read_name("{setup}")?;
            let piece = vm.read_name("{setup}")?;
            let mut positions = vec![vm.read_name("{setup}")?];
            // More positions may follow: `{setup} White Man a1 c1 e1`.
            while let Some(pos) = vm.peek_position() {
                positions.push(pos);
            }
            let list = vm.game.decl.setup.as_mut().ok_or_else(|| err("`{setup}` belongs inside `{board-setup … board-setup}`"))?;
            list.push(SetupLine { player, piece, positions, at });
            Ok(())
        }),
        word("board-setup}", "( -- )", |vm| {
            vm.close_block("{board-setup");
            let list = vm.game.decl.setup.take().ok_or_else(|| err("`board-setup}` without `{board-setup`"))?;
            vm.game.setup = list;
            Ok(())
        }),
    ];
    for h in table {
        vm.add_host(h);
    }
}

fn symmetry(vm: &mut Vm, both: bool) -> VmResult<()> {
    let word = if both { "{symmetry}" } else { "{asymmetry}" };
    let Some(base) = vm.game.decl.symmetries_depth else {
        return Err(err(format!("`{word}` belongs inside `{{symmetries Player … symmetries}}`")));
    };
    if vm.depth() <= base {
        return Err(err(format!("`{word}` needs the player first: `{{symmetries Black {word} n s … symmetries}}`")));
    }
    let player = vm.pop()?;
    vm.push(player)?;
    let d1 = read_direction(vm, word)?;
    let d2 = read_direction(vm, word)?;
    let p = crate::state::player_index(player);
    vm.change_layout(word)?;
    vm.game.board.set_symmetry(p, d1, d2);
    if both {
        vm.game.board.set_symmetry(p, d2, d1);
    }
    Ok(())
}

fn read_direction(vm: &mut Vm, after: &str) -> VmResult<u32> {
    let name = vm.read_name(after)?;
    vm.game.board.direction_named(&name).ok_or_else(|| err(format!("`{after}`: no direction named `{name}`{}", direction_hint(&vm.game.board, &name))))
}

impl Vm {
    fn current_piece(&mut self, word: &str) -> VmResult<&mut PieceDecl> {
        self.last_piece(word)?;
        let i = self.game.decl_piece;
        Ok(&mut self.game.pieces[i])
    }

    /// The board's contents the `{setup}` lines give, resolving their
    /// names now (a game is starting): (player, piece type, position).
    pub fn resolve_setup(&mut self) -> VmResult<Vec<(i32, i32, i32)>> {
        let mut placed = Vec::new();
        for line in self.game.setup.clone() {
            let r = (|| -> VmResult<()> {
                let player = self.value_of(line.player.as_bytes())?;
                if player & !crate::state::PLAYER_MASK != 0 || player == 0 {
                    return Err(err(format!("`{}` is not a player (its value is {player})", line.player)));
                }
                let piece = self.value_of(line.piece.as_bytes())?;
                if piece <= 0 || piece as usize > self.game.pieces.len() {
                    return Err(err(format!("`{}` is not a piece type (its value is {piece})", line.piece)));
                }
                for name in &line.positions {
                    let pos = self.value_of(name.as_bytes())?;
                    self.game.board.check(pos)?;
                    placed.push((player, piece, pos));
                }
                Ok(())
            })();
            if let Err(mut e) = r {
                if e.location.is_none() {
                    e.location = self.location(line.at);
                    e.word = Some("{setup}".into());
                }
                e.trace.push("in `{board-setup`, resolved as the game starts".to_string());
                return Err(e);
            }
        }
        Ok(placed)
    }

    /// Reads the next name if it is a position; leaves the input alone if not.
    fn peek_position(&mut self) -> Option<String> {
        let saved = self.inputs.last()?.pos;
        let (name, _) = self.next_token()?;
        let name = String::from_utf8_lossy(&name).into_owned();
        match self.game.board.position_named(&name) {
            Some(_) => Some(name),
            None => {
                if let Some(input) = self.inputs.last_mut() {
                    input.pos = saved;
                }
                None
            }
        }
    }
}
