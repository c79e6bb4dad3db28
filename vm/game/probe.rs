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

use super::generate::generate_reaching;
use crate::error::VmResult;
use crate::state::{PIECE_TYPE_MASK, PLAYER_MASK};
use crate::vm::{word, Vm};

/// Whether some move of `for_player`'s pieces (or drops) may reach
/// `target` by the game's reach table: false only when none can, so that
/// a probe need not generate at all (move priorities only drop moves:
/// when none may reach, none of those kept does).
pub fn may_be_reached(vm: &Vm, for_player: i32, target: i32) -> VmResult<bool> {
    let (Some(reach), Ok(target)) = (vm.game.reach.as_deref(), usize::try_from(target)) else { return Ok(true) };
    let types = vm.game.piece_scan_limit.unwrap_or(usize::MAX).min(vm.game.pieces.len());
    if target >= reach.positions() {
        return Ok(true);
    }
    let cells = vm.game.board.cells(&vm.mem)?;
    let piece_may = cells.iter().take(vm.game.board.scan_positions()).enumerate().any(|(pos, content)| {
        let t = (content & PIECE_TYPE_MASK) as usize;
        content & PLAYER_MASK == for_player && t != 0 && t <= types && reach.move_may_reach(t, pos, target)
    });
    Ok(piece_may || (1..=types).any(|t| vm.game.pieces.get(t - 1).is_some_and(|p| !p.drops.is_empty()) && reach.drop_may_reach(t, target)))
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
        return generate_and_look(vm, player, for_player, move_type, target);
    };
    if memo.serial != serial {
        memo.serial = serial;
        memo.answers.clear();
    } else if let Some(&(_, hit)) = memo.answers.iter().find(|(k, _)| *k == key) {
        return Ok(hit);
    }
    let hit = generate_and_look(vm, player, for_player, move_type, target)?;
    // A nested generation (a move word's own) may have taken the memo.
    let memo = &mut vm.game.attack_memo;
    if memo.serial == serial && memo.current == Some((serial, boards)) {
        memo.answers.push((key, hit));
    }
    Ok(hit)
}

fn generate_and_look(vm: &mut Vm, player: i32, for_player: i32, move_type: i32, target: i32) -> VmResult<bool> {
    vm.refresh_events();
    generate_reaching(vm, player, for_player, move_type, target)?;
    let store = &vm.game.store;
    let hit = store.current().any(|m| store.move_reaches(m, target));
    vm.game.store.pop_list();
    Ok(hit)
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
