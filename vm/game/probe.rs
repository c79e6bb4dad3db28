//! Probes for the attackers of a square, cut short by the reach table
//! (`state/reach.rs`, made by the `.zrf` front end from the rules).
//!
//! Owns the words `$Reaches?` (a move of a generation ends on a square
//! or captures there: the probe of translated Zillions rules' `attacked?`
//! and `checkmated`), `$MayReach?` and `$MayReachPiece?` (whether any
//! enemy piece stands where its moves could reach a square, or the first
//! square holding a piece: when not, no probe is needed), and what they
//! ask of the table. Reads the game state and runs only the generation a
//! probe needs (`generate::generate_reaching`); the script that asks
//! keeps its own state around it.

use super::generate::generate_reaching;
use crate::error::VmResult;
use crate::state::reach::Asked;
use crate::state::{PIECE_TYPE_MASK, PLAYER_MASK};
use crate::vm::{word, Vm};

/// Whether some move of `player`'s (with `opp`: of the player after)
/// pieces may reach the first position holding `piece` (its content
/// masked by `mask`; false when none holds it), by the game's reach
/// table. Asked while moves are generated, of the board as it stands
/// then: the answer is kept for the generation (a probe of every move it
/// makes asks the same), and asked again it costs a compare.
fn may_reach_piece(vm: &mut Vm, player: i32, opp: bool, piece: i32, mask: i32) -> VmResult<bool> {
    let generation = if vm.game.gen.active { vm.game.generation } else { 0 };
    let asked = |a: &Asked| a.generation == generation && a.player == player && a.opp == opp && a.piece == piece && a.mask == mask;
    if let Some(a) = vm.game.reach_asked.filter(|a| generation != 0 && asked(a)) {
        return Ok(a.may);
    }
    let (_, for_player) = vm.generating_players(player, opp, "$MayReachPiece?")?;
    let cells = vm.game.board.cells(&vm.mem)?;
    let may = match cells.iter().take(vm.game.board.positions).position(|c| c & mask == piece) {
        Some(target) => may_be_reached(vm, for_player, target as i32)?,
        None => false,
    };
    if generation != 0 {
        vm.game.reach_asked = Some(Asked { generation, player, opp, piece, mask, may });
    }
    Ok(may)
}

/// Whether some move of `for_player`'s pieces (or drops) may reach
/// `target` by the game's reach table: false only when none can, so that
/// a probe need not generate at all.
pub fn may_be_reached(vm: &Vm, for_player: i32, target: i32) -> VmResult<bool> {
    let (Some(reach), Ok(target)) = (vm.game.reach.as_deref(), usize::try_from(target)) else { return Ok(true) };
    if !vm.game.priorities.is_empty() {
        return Ok(true);
    }
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

pub fn register(vm: &mut Vm) {
    let table = [
        // Not the original's: false when `$Reaches?` would be false
        // whatever the moves' tests say, by where the pieces stand and
        // where their moves can reach (true: it may not be).
        word("$MayReach?", "( player opp? type pos -- ? )", |vm| {
            let pos = vm.pop()?;
            let _move_type = vm.pop()?;
            let opp = vm.pop()? != 0;
            let player = vm.pop()?;
            let (_, for_player) = vm.generating_players(player, opp, "$MayReach?")?;
            let may = may_be_reached(vm, for_player, pos)?;
            vm.push(if may { -1 } else { 0 })
        }),
        // Not the original's: `$MayReach?` to the first position holding
        // piece (its content masked by mask), false when none does.
        word("$MayReachPiece?", "( player opp? piece mask -- ? )", |vm| {
            let mask = vm.pop()?;
            let piece = vm.pop()?;
            let opp = vm.pop()? != 0;
            let player = vm.pop()?;
            let may = may_reach_piece(vm, player, opp, piece, mask)?;
            vm.push(if may { -1 } else { 0 })
        }),
        word("$Reaches?", "( player opp? type pos -- ? )", |vm| {
            let pos = vm.pop()?;
            let t = vm.pop()?;
            let opp = vm.pop()? != 0;
            let player = vm.pop()?;
            let (player, for_player) = vm.generating_players(player, opp, "$Reaches?")?;
            if !may_be_reached(vm, for_player, pos)? {
                return vm.push(0);
            }
            vm.refresh_events();
            generate_reaching(vm, player, for_player, t, pos)?;
            let store = &vm.game.store;
            let hit = store.current().any(|m| store.move_reaches(m, pos));
            vm.game.store.pop_list();
            vm.push(if hit { -1 } else { 0 })
        }),
    ];
    for h in table {
        vm.add_host(h);
    }
}
