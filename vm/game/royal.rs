//! Royal pieces: Zillions' rule that with a `(checkmated T)` goal no move
//! may leave a royal piece of the mover's attacked, kept by the game
//! layer. With several, each is kept safe (in Zillions checkmating any
//! one wins).
//!
//! Owns the declaration `{royal}` ( type -- ), the words `$Probing?` and
//! `$RoyalAttacked?`, and `keep_royal_safe`, which move generation
//! (`generate.rs`) runs over each list it fills for a game with royal
//! pieces: a move after which an enemy move could end on a royal piece
//! of the mover's or capture it is dropped.
//!
//! Why here and not in the translated rules: the test runs once per move
//! offered, and most moves need no look at the board after them. Here it
//! is a walk of the move's edits; in ForthScript (as it was) it cost as
//! much as generating the moves. A move is kept without a probe when
//! - it only moves one piece of the mover's that is not royal, and
//!   captures (the other edits a move runs are words: attributes,
//!   clocks, reserves), and
//! - no enemy piece stands where its moves could reach a royal piece,
//!   by the reach table (`state/reach.rs`; without one, every piece may).
//!
//! Otherwise its edits are written on the board, the enemy's moves that
//! could reach the royal pieces are generated (`probe::reaches`, with
//! `Game::probing` set: the rules' own tests of attacks answer false
//! then, as Zillions does not look two moves ahead), and the board is put
//! back. Words a move runs when played (literals and calls) are not run:
//! a probe sees the board, not the clocks and counters.
//!
//! Reads and writes the board cells in data space (put back before it
//! returns, on error too) and the current move list; nothing else.

use super::probe::{may_be_reached, reaches};
use crate::error::{ErrorKind, VmResult};
use crate::state::moves::Action;
use crate::state::{PIECE_TYPE_MASK, PLAYER_NUMBER_MASK};
use crate::vm::{word, Vm};

/// Drops from the current list the moves of `player` after which an
/// enemy move could reach one of `player`'s royal pieces. Pass moves stay.
pub(crate) fn keep_royal_safe(vm: &mut Vm, player: i32) -> VmResult<()> {
    // The probes below see boards after each move, written in place: no
    // answer of the generation's board holds for them.
    let memo = vm.game.attack_memo.current.take();
    let result = drop_unsafe_moves(vm, player);
    vm.game.attack_memo.current = memo;
    result
}

fn drop_unsafe_moves(vm: &mut Vm, player: i32) -> VmResult<()> {
    let range = vm.game.store.current();
    if range.is_empty() {
        return Ok(());
    }
    let (enemy, enemy_for) = vm.generating_players(player, true, "{royal}")?;
    let mine = player & PLAYER_NUMBER_MASK;
    // The board stands still while the list is walked: whether any enemy
    // piece could reach a royal piece now is asked once.
    let mut unreachable = true;
    for k in royal_squares(vm, mine)? {
        if may_be_reached(vm, enemy_for, k)? {
            unreachable = false;
            break;
        }
    }
    let mut keep = range.start;
    for m in range {
        let rec = vm.game.store.moves[m];
        let legal = rec.pass || (unreachable && moves_no_royal(vm, m, mine)?) || !attacked_after(vm, m, mine, enemy, enemy_for)?;
        if legal {
            vm.game.store.moves[keep] = rec;
            keep += 1;
        }
    }
    vm.game.store.moves.truncate(keep);
    Ok(())
}

/// The positions holding a royal piece of player number `mine`.
fn royal_squares(vm: &Vm, mine: i32) -> VmResult<Vec<i32>> {
    let cells = vm.game.board.cells(&vm.mem)?;
    let royal = &vm.game.royal;
    let found = cells.iter().take(vm.game.board.positions).enumerate().filter(|&(_, c)| c & PLAYER_NUMBER_MASK == mine && royal.contains(&(c & PIECE_TYPE_MASK)));
    Ok(found.map(|(p, _)| p as i32).collect())
}

/// Whether a move of `enemy`'s (moving `enemy_for`'s pieces) could end
/// on a royal piece of `mine` or capture it, on the board as it stands.
fn royal_attacked(vm: &mut Vm, mine: i32, enemy: i32, enemy_for: i32) -> VmResult<bool> {
    for k in royal_squares(vm, mine)? {
        if reaches(vm, enemy, enemy_for, 0, k)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Move `m` moves at most one piece, one of `mine` and not royal, and
/// captures: the royal pieces stay where they stand and no enemy piece
/// appears or moves.
fn moves_no_royal(vm: &Vm, m: usize, mine: i32) -> VmResult<bool> {
    let mut moved = false;
    for &a in vm.game.store.actions_of(m) {
        match a {
            Action::Move { from, .. } => {
                let piece = vm.game.board.get(&vm.mem, from)?;
                if moved || piece & PLAYER_NUMBER_MASK != mine || vm.game.royal.contains(&(piece & PIECE_TYPE_MASK)) {
                    return Ok(false);
                }
                moved = true;
            }
            Action::Capture(_) | Action::Lit(_) | Action::Call(_) => {}
            Action::Place { .. } | Action::ChangeType { .. } | Action::ChangeOwner { .. } | Action::Cascade { .. } => return Ok(false),
        }
    }
    Ok(true)
}

/// Whether, on the board after move `m`'s edits, a move of `enemy`
/// (moving `enemy_for`'s pieces) could end on `mine`'s royal piece or
/// capture it.
fn attacked_after(vm: &mut Vm, m: usize, mine: i32, enemy: i32, enemy_for: i32) -> VmResult<bool> {
    let mut saved: Vec<(i32, i32)> = Vec::new();
    let result = write_edits(vm, m, &mut saved).and_then(|()| royal_attacked(vm, mine, enemy, enemy_for));
    for &(pos, old) in saved.iter().rev() {
        vm.game.board.set(&mut vm.mem, pos, old)?;
    }
    result
}

/// Writes move `m`'s board edits, keeping each square's old content.
fn write_edits(vm: &mut Vm, m: usize, saved: &mut Vec<(i32, i32)>) -> VmResult<()> {
    fn set(vm: &mut Vm, saved: &mut Vec<(i32, i32)>, pos: i32, value: i32) -> VmResult<()> {
        let old = vm.game.board.get(&vm.mem, pos)?;
        saved.push((pos, old));
        vm.game.board.set(&mut vm.mem, pos, value)
    }
    let edits = vm.game.store.actions_of(m).len();
    for i in 0..edits {
        let a = vm.game.store.actions_of(m)[i];
        let cell = |vm: &Vm, pos: i32| vm.game.board.get(&vm.mem, pos);
        match a {
            Action::Move { from, to } => {
                let c = cell(vm, from)?;
                set(vm, saved, from, 0)?;
                set(vm, saved, to, c)?;
            }
            // What `from` held before the move (`saved` keeps each
            // square's first content); emptied unless this move put a
            // piece there.
            Action::Cascade { from, to } => {
                let c = match saved.iter().find(|&&(p, _)| p == from) {
                    Some(&(_, c)) => c,
                    None => {
                        let c = cell(vm, from)?;
                        set(vm, saved, from, 0)?;
                        c
                    }
                };
                set(vm, saved, to, c)?;
            }
            Action::Capture(pos) => set(vm, saved, pos, 0)?,
            Action::Place { pos, content } => set(vm, saved, pos, content)?,
            Action::ChangeType { pos, piece_type } => {
                let c = cell(vm, pos)?;
                if c != 0 {
                    set(vm, saved, pos, (c & !PIECE_TYPE_MASK) | (piece_type & PIECE_TYPE_MASK))?;
                }
            }
            Action::ChangeOwner { pos, player } => {
                let c = cell(vm, pos)?;
                if c != 0 {
                    set(vm, saved, pos, (c & !crate::state::PLAYER_MASK) | (player & crate::state::PLAYER_MASK))?;
                }
            }
            Action::Lit(_) | Action::Call(_) => {}
        }
    }
    Ok(())
}

pub fn register(vm: &mut Vm) {
    let table = [
        // Not the original's: pieces of this type are royal (Zillions'
        // `checkmated`): no move is offered that leaves a royal piece of
        // the mover's where an enemy move could reach it.
        word("{royal}", "( type -- )", |vm| {
            let t = vm.pop()?;
            if vm.game.pieces.is_empty() {
                return Err(ErrorKind::Game("`{royal}` names a piece type: declare the pieces first (`{pieces … pieces}`)".into()).into());
            }
            if t < 1 || t as usize > vm.game.pieces.len() {
                return Err(ErrorKind::Game(format!("`{{royal}}` takes a piece type (1 to {}), not {t}", vm.game.pieces.len())).into());
            }
            if !vm.game.royal.contains(&t) {
                vm.game.royal.push(t);
            }
            Ok(())
        }),
        // Not the original's: a royal piece of the player to move could
        // be taken by the next player's move (Zillions' check, for the
        // `checkmated` goal).
        word("$RoyalAttacked?", "( -- ? )", |vm| {
            let player = vm.current_turn().player;
            let (enemy, enemy_for) = vm.generating_players(player, true, "$RoyalAttacked?")?;
            vm.refresh_events();
            let attacked = royal_attacked(vm, player & PLAYER_NUMBER_MASK, enemy, enemy_for)?;
            vm.push(if attacked { -1 } else { 0 })
        }),
        // Not the original's: true while a probe for the attackers of a
        // square generates moves (`$Reaches?`, the royal pieces' test):
        // a test of attacks inside those moves answers false.
        word("$Probing?", "( -- ? )", |vm| {
            let probing = vm.game.probing;
            vm.push(if probing { -1 } else { 0 })
        }),
    ];
    for h in table {
        vm.add_host(h);
    }
}
