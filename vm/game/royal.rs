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
//! a probe sees the board, not the clocks and counters. Where the royal
//! pieces stand, and which enemy pieces may reach each, is found once on
//! the list's board and brought up to date from each move's edits
//! (`after_edits`): a scan of the board per move offered was most of
//! Xiangqi's perft (1.75 s against 0.87 s at depth 4).
//!
//! Reads and writes the board cells in data space (put back before it
//! returns, on error too) and the current move list; nothing else.

use super::probe::{piece_may_reach, reaches, reaches_from, reaching_pieces};
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
    // The board stands still while the list is walked: where the royal
    // pieces stand, and which enemy pieces could reach each, is found
    // once; after each move, only the squares it edits can differ.
    let royal = royal_squares(vm, mine)?;
    let mut reaching = Some(Vec::with_capacity(royal.len()));
    for &k in &royal {
        let mut starts = Vec::new();
        match reaching_pieces(vm, enemy_for, k, &mut starts)? {
            Some(drops) => reaching.as_mut().map_or((), |r: &mut Vec<Reaching>| r.push(Reaching { square: k, starts, drops })),
            None => {
                reaching = None;
                break;
            }
        }
    }
    let unreachable = reaching.as_ref().is_some_and(|r| r.iter().all(|k| k.starts.is_empty() && !k.drops));
    let mut buffers = Buffers::default();
    let mut keep = range.start;
    for m in range {
        let rec = vm.game.store.moves[m];
        let legal = rec.pass || (unreachable && moves_no_royal(vm, m, mine)?) || !attacked_after(vm, m, mine, &royal, reaching.as_deref(), &mut buffers, enemy, enemy_for)?;
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

/// A royal square, and what may reach it on the board of the list:
/// the positions of the enemy pieces whose moves may by the reach table,
/// and whether a drop may.
struct Reaching {
    square: i32,
    starts: Vec<i32>,
    drops: bool,
}

/// The buffers of `attacked_after`, kept from move to move.
#[derive(Default)]
struct Buffers {
    saved: Vec<(i32, i32)>,
    after: Vec<i32>,
    starts: Vec<i32>,
}

/// Whether, on the board after move `m`'s edits, a move of `enemy`
/// (moving `enemy_for`'s pieces) could end on `mine`'s royal piece or
/// capture it. `royal`: where they stand before the move; `reaching`,
/// what may reach each there (`None`: the game has no reach table).
#[allow(clippy::too_many_arguments)]
fn attacked_after(vm: &mut Vm, m: usize, mine: i32, royal: &[i32], reaching: Option<&[Reaching]>, b: &mut Buffers, enemy: i32, enemy_for: i32) -> VmResult<bool> {
    b.saved.clear();
    let result = write_edits(vm, m, &mut b.saved).and_then(|()| {
        royal_after(vm, mine, royal, &b.saved, &mut b.after)?;
        for &k in b.after.iter() {
            let hit = match reaching {
                None => reaches(vm, enemy, enemy_for, 0, k)?,
                Some(reaching) => {
                    let drops = match reaching.iter().find(|r| r.square == k) {
                        // The pieces that stood where the move left alone
                        // are those of the list's board; those on the
                        // squares it edited are looked at again.
                        Some(r) => {
                            after_edits(&r.starts, &b.saved, &mut b.starts, |pos| piece_may_reach(vm, enemy_for, pos, k))?;
                            Some(r.drops)
                        }
                        None => reaching_pieces(vm, enemy_for, k, &mut b.starts)?,
                    };
                    match drops {
                        Some(drops) => reaches_from(vm, enemy, enemy_for, k, &b.starts, drops)?,
                        // A square the table does not cover.
                        None => reaches(vm, enemy, enemy_for, 0, k)?,
                    }
                }
            };
            if hit {
                return Ok(true);
            }
        }
        Ok(false)
    });
    for &(pos, old) in b.saved.iter().rev() {
        vm.game.board.set(&mut vm.mem, pos, old)?;
    }
    result
}

/// Where `mine`'s royal pieces stand after edits (`saved`: each edited
/// square, with what it held) to a board where they stood on `royal`.
fn royal_after(vm: &Vm, mine: i32, royal: &[i32], saved: &[(i32, i32)], after: &mut Vec<i32>) -> VmResult<()> {
    after_edits(royal, saved, after, |pos| {
        let c = vm.game.board.get(&vm.mem, pos)?;
        Ok(c & PLAYER_NUMBER_MASK == mine && vm.game.royal.contains(&(c & PIECE_TYPE_MASK)))
    })
}

/// Squares that held something on the board before edits (`base`),
/// brought up to date after them (`saved`: each edited square, with what
/// it held): those of `base` the edits left alone, and each edited square
/// for which `holds` now, in board order (as a scan finds them).
fn after_edits(base: &[i32], saved: &[(i32, i32)], out: &mut Vec<i32>, mut holds: impl FnMut(i32) -> VmResult<bool>) -> VmResult<()> {
    out.clear();
    out.extend(base.iter().copied().filter(|p| !saved.iter().any(|&(e, _)| e == *p)));
    for (i, &(pos, _)) in saved.iter().enumerate() {
        if !saved[..i].iter().any(|&(e, _)| e == pos) && holds(pos)? {
            out.push(pos);
        }
    }
    out.sort_unstable();
    Ok(())
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
