//! Probes for the attackers of a square, cut short by the reach table
//! (`state/reach.rs`, made by the `.zrf` front end from the rules).
//!
//! Owns the word `$Reaches?` (a move of a generation ends on a square or
//! captures there: the probe of translated Zillions rules' `attacked?`)
//! and `may_be_reached` (whether any enemy piece stands where its moves
//! could reach a square: when not, no probe is needed; royal pieces ask
//! it too, `royal.rs`). Reads the game state and runs only the generation a
//! probe needs (`generate::generate_reaching`); the script that asks
//! keeps its own state around it.

use super::generate::{fill, generate_reaching, Probe};
use crate::error::VmResult;
use crate::state::reach::Reach;
use crate::state::{PIECE_TYPE_MASK, PLAYER_MASK};
use crate::vm::{word, Vm};

/// Whether some move of `for_player`'s pieces (or drops) may reach
/// `target` by the game's reach table: false only when none can, so that
/// a probe need not generate at all (move priorities only drop moves:
/// when none may reach, none of those kept does).
pub fn may_be_reached(vm: &Vm, for_player: i32, target: i32) -> VmResult<bool> {
    let (Some(reach), Ok(target)) = (vm.game.reach.as_deref(), usize::try_from(target)) else { return Ok(true) };
    let types = scanned_types(vm);
    if target >= reach.positions() {
        return Ok(true);
    }
    let cells = vm.game.board.cells(&vm.mem)?;
    let piece_may = cells.iter().take(vm.game.board.scan_positions()).enumerate().any(|(pos, content)| moves_may_reach(reach, types, for_player, content, pos, target));
    Ok(piece_may || drop_may_be_reached(vm, reach, types, target))
}

/// The piece types whose moves are generated (`{dummy-pieces}` aside).
fn scanned_types(vm: &Vm) -> usize {
    vm.game.piece_scan_limit.unwrap_or(usize::MAX).min(vm.game.pieces.len())
}

/// Whether `content`, standing on `pos`, is a piece of `for_player`'s
/// (of the first `types`) whose moves may reach `target` by the table.
#[inline]
fn moves_may_reach(reach: &Reach, types: usize, for_player: i32, content: i32, pos: usize, target: usize) -> bool {
    let t = (content & PIECE_TYPE_MASK) as usize;
    content & PLAYER_MASK == for_player && t != 0 && t <= types && reach.move_may_reach(t, pos, target)
}

/// Whether a move of `player`'s (moving `for_player`'s pieces; of move
/// type `move_type`, 0 any) ends on `target` or captures there: only the
/// pieces that could are run, none when the table rules them all out.
pub fn reaches(vm: &mut Vm, player: i32, for_player: i32, move_type: i32, target: i32) -> VmResult<bool> {
    if !may_be_reached(vm, for_player, target)? {
        return Ok(false);
    }
    let key = [player, for_player, move_type, target];
    let memo = &mut vm.game.attack_memo;
    let Some((serial, boards)) = memo.current.filter(|&(_, boards)| boards == vm.game.snapshot_count) else {
        return generate_and_look(vm, player, for_player, move_type, Probe { target, starts: None, unranked: false });
    };
    if memo.serial != serial {
        memo.serial = serial;
        memo.answers.clear();
    } else if let Some(&(_, hit)) = memo.answers.iter().find(|(k, _)| *k == key) {
        return Ok(hit);
    }
    let hit = generate_and_look(vm, player, for_player, move_type, Probe { target, starts: None, unranked: false })?;
    // A nested generation (a move word's own) may have taken the memo.
    let memo = &mut vm.game.attack_memo;
    if memo.serial == serial && memo.current == Some((serial, boards)) {
        memo.answers.push((key, hit));
    }
    Ok(hit)
}

/// Whether a move of `player`'s (moving `for_player`'s pieces) ends on
/// `target` or captures there, for a caller that knows which pieces may:
/// `starts`, the positions of `for_player`'s pieces whose moves may reach
/// it by the reach table, and `drops`, whether a drop may. The royal
/// pieces' test keeps them up to date from move to move.
pub fn reaches_from(vm: &mut Vm, player: i32, for_player: i32, target: i32, starts: &[i32], drops: bool) -> VmResult<bool> {
    if starts.is_empty() && !drops {
        return Ok(false);
    }
    generate_and_look(vm, player, for_player, 0, Probe { target, starts: Some(starts), unranked: false })
}

/// The pieces of `for_player`'s whose moves may reach `target` (their
/// positions, into `starts`), and whether a drop may: `None` without a
/// reach table, or for a square it does not cover.
pub fn reaching_pieces(vm: &Vm, for_player: i32, target: i32, starts: &mut Vec<i32>) -> VmResult<Option<bool>> {
    let (Some(reach), Ok(target)) = (vm.game.reach.as_deref(), usize::try_from(target)) else { return Ok(None) };
    if target >= reach.positions() {
        return Ok(None);
    }
    let types = scanned_types(vm);
    let cells = vm.game.board.cells(&vm.mem)?;
    starts.clear();
    starts.extend(cells.iter().take(vm.game.board.scan_positions()).enumerate().filter(|&(pos, content)| moves_may_reach(reach, types, for_player, content, pos, target)).map(|(pos, _)| pos as i32));
    Ok(Some(drop_may_be_reached(vm, reach, types, target)))
}

/// Whether a drop of some piece type may reach `target`.
fn drop_may_be_reached(vm: &Vm, reach: &Reach, types: usize, target: usize) -> bool {
    (1..=types).any(|t| vm.game.pieces.get(t - 1).is_some_and(|p| !p.drops.is_empty()) && reach.drop_may_reach(t, target))
}

/// Whether the piece on `pos` now is one of `for_player`'s whose moves
/// may reach `target` by the table.
pub fn piece_may_reach(vm: &Vm, for_player: i32, pos: i32, target: i32) -> VmResult<bool> {
    let (Some(reach), Ok(target), Ok(from)) = (vm.game.reach.as_deref(), usize::try_from(target), usize::try_from(pos)) else { return Ok(true) };
    let content = vm.game.board.get(&vm.mem, pos)?;
    Ok(from < vm.game.board.scan_positions() && moves_may_reach(reach, scanned_types(vm), for_player, content, from, target))
}

fn generate_and_look(vm: &mut Vm, player: i32, for_player: i32, move_type: i32, probe: Probe) -> VmResult<bool> {
    vm.refresh_events();
    if !vm.game.priorities.is_empty() && move_type == 0 && vm.game.reach.is_some() {
        return look_ranked(vm, player, for_player, probe);
    }
    let target = probe.target;
    generate_reaching(vm, player, for_player, move_type, probe)?;
    let store = &vm.game.store;
    let hit = store.current().any(|m| store.move_reaches(m, target));
    vm.game.store.pop_list();
    Ok(hit)
}

/// `generate_and_look` in a game whose move priorities drop every move
/// ranked below the best present: a move reaching the target counts if
/// no move at all is ranked above it. So the moves that may reach are
/// run first (a few pieces), and only when the best of those that do is
/// not of the best rank, the moves of the types ranked above it (each
/// type a list of its own, every piece run): one present drops it.
/// Before, every move of every piece was generated for each probe.
fn look_ranked(vm: &mut Vm, player: i32, for_player: i32, probe: Probe) -> VmResult<bool> {
    let target = probe.target;
    fill(vm, player, for_player, 0, Some(Probe { unranked: true, ..probe }))?;
    let store = &vm.game.store;
    let best = store.current().filter(|&m| store.move_reaches(m, target)).map(|m| vm.game.priorities.rank(store.moves[m].move_type)).min();
    vm.game.store.pop_list();
    let Some(best) = best else { return Ok(false) };
    let above = vm.game.priorities.above(best).to_vec();
    for t in above {
        // A list of one type: nothing in it is ranked away.
        fill(vm, player, for_player, t, Some(Probe { target, starts: None, unranked: false }))?;
        let present = vm.game.store.count() > 0;
        vm.game.store.pop_list();
        if present {
            return Ok(false);
        }
    }
    Ok(true)
}

pub fn register(vm: &mut Vm) {
    let table = [
        word("$Reaches?", "( player opp? type pos -- ? )", |vm| {
            let pos = vm.pop()?;
            let t = vm.pop()?;
            let opp = vm.pop()? != 0;
            let player = vm.pop()?;
            let (player, for_player) = vm.generating_players(player, opp, "$Reaches?")?;
            let hit = reaches(vm, player, for_player, t, pos)?;
            vm.push(if hit { -1 } else { 0 })
        }),
    ];
    for h in table {
        vm.add_host(h);
    }
}
