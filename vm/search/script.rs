//! `{search-engine} word`: an engine written in ForthScript, and the words
//! it reports through. The engine runs in a stack frame of its own with
//! the player to move's list current; it must leave the move lists and
//! board clones balanced and name its choice with `BestMove!`.

use crate::error::{ErrorKind, VmResult};
use crate::vm::{direct, word, Vm};

/// Runs the engine, which must give way once its time per move is out
/// (`$Yield`, then `searching?` is false). One that does not is stopped
/// `ENGINE_GRACE` later, whatever it runs: the position is put back (the
/// board saved before it started, its lists and boards forgotten), and
/// the move it reported last is played, if any.
pub fn choose(vm: &mut Vm, engine: u32) -> VmResult<usize> {
    let name = vm.game.engine_names.get(engine as usize).cloned().unwrap_or_default();
    let xt = vm.find_or_fail(name.as_bytes())?;
    let name = vm.dict.word(xt).display_name();
    let before = vm.stack_marks();
    vm.push_board()?;
    vm.game.search.active = true;
    let mark = vm.stack_marks();
    vm.hard_deadline = vm.game.search.deadline.map(|d| d + crate::state::search::ENGINE_GRACE);
    let ran = vm.call_in_frame(xt, &[], &name, 0);
    vm.hard_deadline = None;
    vm.game.search.active = false;
    let stopped = matches!(&ran, Err(e) if matches!(e.kind, ErrorKind::OutOfTime { .. }));
    if stopped {
        vm.unwind_to(mark);
        vm.pop_board()?;
    } else {
        if let Err(e) = ran {
            vm.unwind_to(before);
            return Err(e);
        }
        vm.check_balanced(mark, &name)?;
        vm.unwind_to(before);
    }
    let ran = if stopped { ran.map(drop) } else { Ok(()) };
    // An empty report is no report (the buffer is kept between searches).
    let Some(text) = vm.game.search.info.best_move.clone().filter(|t| !t.is_empty()) else {
        // Stopped before it reported: its error says why.
        ran?;
        return Err(ErrorKind::Game(format!("the engine `{name}` chose no move (it must report one with BestMove!)")).into());
    };
    let text = String::from_utf8_lossy(&text).into_owned();
    vm.find_move(&text)
        .ok_or_else(|| ErrorKind::Game(format!("the engine `{name}` chose `{text}`, which is not a legal move")).into())
}


impl Vm {
    /// Copies the counted string on the stack into `slot`, reusing its
    /// buffer (engines report many times a search).
    fn counted_into(&mut self, slot: fn(&mut crate::search::Info) -> &mut Option<Vec<u8>>) -> VmResult<()> {
        let addr = self.pop()?;
        let text = self.mem.counted(addr)?;
        let buf = slot(&mut self.game.search.info).get_or_insert_with(Vec::new);
        buf.clear();
        buf.extend_from_slice(text);
        Ok(())
    }

    /// `--verbose`: one line per report, on stderr.
    fn report(&self, what: &str) {
        if !self.game.search.verbose {
            return;
        }
        let i = &self.game.search.info;
        let text = |t: &Option<Vec<u8>>| t.as_deref().map(String::from_utf8_lossy).unwrap_or_default().into_owned();
        let ms = self.game.search.started.map_or(0, |s| s.elapsed().as_millis());
        eprintln!(
            "info {what:<7} depth {} score {} nodes {} time {ms} ms currmove {} best {}",
            i.depth,
            i.score.map_or("-".into(), |s| s.to_string()),
            i.reported_nodes.max(i.nodes),
            text(&i.current_move),
            text(&i.best_move)
        );
    }
}

pub fn register(vm: &mut Vm) {
    let table = [
        // The time budget and stop requests: past either, the engine is
        // told through `searching?` and its best move so far stands.
        // Direct: a script engine asks at every node.
        direct("$Yield", "( -- )", |vm, _, _| {
            let s = &mut vm.game.search;
            if s.active && s.should_stop() {
                s.active = false;
                s.info.timed_out = !s.stop_requested();
            }
            Ok(0)
        }),
        direct("searching?", "( -- ? )", |vm, _, _| Ok(if vm.game.search.active { -1 } else { 0 })),
        word("BestMove!", "( str -- )", |vm| {
            vm.counted_into(|i| &mut i.best_move)?;
            vm.report("best");
            Ok(())
        }),
        word("CurrentMove!", "( str -- )", |vm| {
            vm.counted_into(|i| &mut i.current_move)
        }),
        word("Score!", "( n -- )", |vm| {
            vm.game.search.info.score = Some(vm.pop()?);
            Ok(())
        }),
        word("Depth!", "( n -- )", |vm| {
            vm.game.search.info.depth = vm.pop()?.max(0) as u32;
            vm.report("depth");
            Ok(())
        }),
        word("Nodes!", "( n -- )", |vm| {
            vm.game.search.info.reported_nodes = vm.pop()?.max(0) as u64;
            Ok(())
        }),
    ];
    for h in table {
        vm.add_host(h);
    }
}
