//! A reach table written in a game script (`{reach}`): from each
//! position, where each piece type's moves (and drops) may end or
//! capture, for the probes of `{royal}` (`state/reach.rs`, `probe.rs`).
//! `axforth port` writes the table the `.zrf` front end works out from
//! the rules (`zrf/reach.rs`), so that a ported game's probes run only the
//! enemy pieces that could reach a royal piece, as the `.zrf`'s do:
//! without it a ported Genesis Chess counted `perft 3` in 121 s against
//! the `.zrf`'s 2.8 s.
//!
//! A table holds only for the move words it was made from. It carries a
//! fingerprint of their code — and of every definition they call or push
//! the token of, through any depth — which is checked when the game has
//! loaded: a table whose move words changed is dropped, with a warning,
//! and every probe runs every piece (slower, never wrong). A word reached
//! only through a token kept in data is not covered.
//!
//! Owns the words `{reach}`, `{reach-moves}`, `{reach-drops}`, the
//! fingerprint (`move_words_fingerprint`) and the text `render` writes.
//! Reads the dictionary, the code and the game's declarations.

use crate::dictionary::WordKind;
use crate::error::{ErrorKind, VmError, VmResult};
use crate::ops::{Addr, Op};
use crate::state::reach::{Reach, ReachClaim, Sweep};
use crate::vm::{word, Vm};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// FNV-1a over 64 bits: a fingerprint written in a file must come out the
/// same in every later run (Rust's default hasher is keyed per process).
/// A later axforth whose instructions are numbered otherwise computes
/// another one, and drops the table with the warning: port again.
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
}

fn fnv() -> Fnv {
    Fnv(0xcbf2_9ce4_8422_2325)
}

/// The fingerprint of the game's move and drop words, by piece type in
/// order: each word's instructions (jumps relative to its entry), with
/// each definition it calls or pushes the token of taken in whole.
pub fn move_words_fingerprint(vm: &Vm) -> u64 {
    let by_entry: HashMap<Addr, u32> =
        vm.dict.words.iter().enumerate().filter(|(_, w)| w.kind == WordKind::Colon).map(|(xt, w)| (w.entry, xt as u32)).collect();
    let mut prints = Prints { vm, by_entry, memo: HashMap::new() };
    let mut h = fnv();
    for piece in &vm.game.pieces {
        piece.name.hash(&mut h);
        for (kind, lists) in [(0u8, &piece.moves), (1, &piece.drops)] {
            kind.hash(&mut h);
            for &list in lists {
                for &(xt, move_type) in vm.game.move_lists.get(list).map_or(&[][..], |l| &l.entries) {
                    prints.of_xt(xt).hash(&mut h);
                    move_type.hash(&mut h);
                }
            }
        }
    }
    h.finish()
}

struct Prints<'a> {
    vm: &'a Vm,
    by_entry: HashMap<Addr, u32>,
    /// By xt; 0 while its definition is being taken (a call back into
    /// it, RECURSE, hashes as that).
    memo: HashMap<u32, u64>,
}

impl Prints<'_> {
    fn is_colon(&self, xt: u32) -> bool {
        self.vm.dict.words.get(xt as usize).is_some_and(|w| w.kind == WordKind::Colon)
    }

    fn of_xt(&mut self, xt: u32) -> u64 {
        if let Some(&p) = self.memo.get(&xt) {
            return p;
        }
        let Some(w) = self.vm.dict.words.get(xt as usize) else { return 0 };
        let mut h = fnv();
        w.name.hash(&mut h);
        if w.kind != WordKind::Colon {
            // A primitive, a native word, a constant or variable: the
            // same in any script that names it the same.
            format!("{:?}", w.kind).hash(&mut h);
            return h.finish();
        }
        self.memo.insert(xt, 0);
        let (entry, end) = (w.entry, w.end);
        for a in entry..end {
            let op = self.vm.code.op(a);
            std::mem::discriminant(&op).hash(&mut h);
            match op {
                Op::Call(to) => match self.by_entry.get(&to) {
                    Some(&callee) => self.of_xt(callee).hash(&mut h),
                    None => to.hash(&mut h),
                },
                // A token pushed (`['] word`) may be executed, one
                // compiled into a move (`COMPILE word`) is run when the
                // move is played: the definition counts, not its number,
                // which a word added above it changes.
                Op::Lit(v) => match u32::try_from(v).ok().filter(|&xt| self.is_colon(xt)) {
                    Some(xt) => self.of_xt(xt).hash(&mut h),
                    None => v.hash(&mut h),
                },
                Op::CompileXt(xt) => self.of_xt(xt).hash(&mut h),
                _ => match op.target() {
                    Some(t) => op.with_target(t.wrapping_sub(entry)).hash(&mut h),
                    None => op.hash(&mut h),
                },
            }
        }
        let p = h.finish();
        self.memo.insert(xt, p);
        p
    }
}

/// The table as script, for the end of a game file: `{reach}` with the
/// fingerprint of `vm`'s move words, then a line per piece type and
/// position that reaches anything (`*`: every position).
pub fn render(vm: &Vm, reach: &Reach) -> String {
    let mut s = String::new();
    s.push_str("\n\\ ---- where each piece's moves may reach --------------------------------\n");
    s.push_str("\\ For the probes of `{royal}`: from each position, the positions a piece\n");
    s.push_str("\\ type's moves (or drops) may end on or capture at, worked out from the\n");
    s.push_str("\\ rules by `axforth port`, so that a probe runs only the enemy pieces\n");
    s.push_str("\\ that could reach a royal piece. It holds for the move words as written:\n");
    s.push_str("\\ the number after `{reach}` is their fingerprint, and when they change\n");
    s.push_str("\\ the table is dropped (with a warning) and probes run every piece.\n");
    s.push_str(&format!("{{reach}} {:016x}\n", move_words_fingerprint(vm)));
    let board = &vm.game.board;
    let positions = reach.positions();
    for (sweep, word) in [(Sweep::Moves, "{reach-moves}"), (Sweep::Drops, "{reach-drops}")] {
        for (i, piece) in vm.game.pieces.iter().enumerate() {
            for from in 0..positions {
                let Some(set) = reach.set(sweep, i + 1, from) else { continue };
                let targets: Vec<usize> = (0..positions).filter(|&p| set.get(p / 64).is_some_and(|w| w >> (p % 64) & 1 != 0)).collect();
                if targets.is_empty() {
                    continue;
                }
                let names = if targets.len() == positions {
                    "*".to_string()
                } else {
                    targets.iter().map(|&p| board.name(p as i32)).collect::<Vec<_>>().join(" ")
                };
                s.push_str(&format!("{} {word} {}  {names} ;\n", piece.name, board.name(from as i32)));
            }
        }
    }
    s
}

/// After loading: a table whose fingerprint matches the move words is the
/// game's; another is dropped with a warning.
pub fn settle(vm: &mut Vm) {
    let Some(claim) = vm.game.reach_claim.take() else { return };
    if claim.fingerprint == move_words_fingerprint(vm) {
        vm.game.reach = Some(std::sync::Arc::new(claim.table));
        return;
    }
    let mut e = VmError::new(ErrorKind::Game(
        "the reach table does not match the move words (they changed since it was written)".into(),
    ));
    e.location = vm.location(claim.at);
    e.word = Some("{reach}".into());
    vm.warn_error(&e, "it is dropped: every probe runs every piece (`axforth port` writes it again for the rules as they are)");
}

fn game_error(s: String) -> VmError {
    ErrorKind::Game(s).into()
}

/// `{reach-moves}` and `{reach-drops}`: the piece type from the stack,
/// then a position and the positions reached, up to `;`.
fn reach_row(vm: &mut Vm, sweep: Sweep, what: &str) -> VmResult<()> {
    let t = vm.pop()?;
    if vm.game.reach_claim.is_none() {
        return Err(game_error(format!("`{what}` belongs after `{{reach}}`")));
    }
    let (from, _) = vm.parse_name(what)?;
    let from = position(vm, &from, what)?;
    // The positions reached, as bits (however many times a line names
    // them): the claim's table is borrowed only once the line is read.
    let positions = vm.game.board.positions;
    let mut reached = vec![0u64; positions.div_ceil(64).max(1)];
    let mut everywhere = false;
    loop {
        let (name, _) = vm.next_token().ok_or_else(|| game_error(format!("`{what}` ends at `;`, which is missing")))?;
        match name.as_slice() {
            b";" => break,
            b"*" => everywhere = true,
            _ => {
                let p = position(vm, &name, what)?;
                set_bit(&mut reached, p);
            }
        }
    }
    if everywhere {
        (0..positions).for_each(|p| set_bit(&mut reached, p));
    }
    let claim = vm.game.reach_claim.as_mut().ok_or_else(|| game_error(format!("`{what}` belongs after `{{reach}}`")))?;
    let set = usize::try_from(t).ok().and_then(|t| claim.table.set_mut(sweep, t, from)).ok_or_else(|| game_error(format!("`{what}` takes a piece type, not {t}")))?;
    for (w, r) in set.iter_mut().zip(reached) {
        *w |= r;
    }
    Ok(())
}

fn set_bit(bits: &mut [u64], p: usize) {
    if let Some(w) = bits.get_mut(p / 64) {
        *w |= 1 << (p % 64);
    }
}

fn position(vm: &Vm, name: &[u8], what: &str) -> VmResult<usize> {
    let text = String::from_utf8_lossy(name);
    vm.game.board.position_named(&text).and_then(|p| usize::try_from(p).ok()).ok_or_else(|| game_error(format!("`{what}`: no position named `{text}`")))
}

pub fn register(vm: &mut Vm) {
    let table = [
        // Not the original's: a reach table follows, for the move words
        // whose fingerprint is the hexadecimal number after it.
        word("{reach}", "( \"fingerprint\" -- )", |vm| {
            let (text, at) = vm.parse_name("{reach}")?;
            let fingerprint = u64::from_str_radix(&String::from_utf8_lossy(&text), 16)
                .map_err(|_| game_error("`{reach}` is followed by the move words' fingerprint, a hexadecimal number".into()))?;
            if !vm.game.board.complete || vm.game.pieces.is_empty() {
                return Err(game_error("`{reach}` comes after the board and the pieces".into()));
            }
            let (positions, types) = (vm.game.board.positions, vm.game.pieces.len());
            if Reach::bytes(positions, types) > Reach::MAX_BYTES {
                return Err(game_error(format!("`{{reach}}`: a table for {positions} positions and {types} piece types is too large")));
            }
            vm.memory_room(Reach::bytes(positions, types), "the reach table")?;
            let table = Reach::new(positions, types);
            vm.game.reach_claim = Some(ReachClaim { fingerprint, at, table });
            Ok(())
        }),
        word("{reach-moves}", "( type \"from\" \"to…\" \";\" -- )", |vm| reach_row(vm, Sweep::Moves, "{reach-moves}")),
        word("{reach-drops}", "( type \"at\" \"to…\" \";\" -- )", |vm| reach_row(vm, Sweep::Drops, "{reach-drops}")),
    ];
    for h in table {
        vm.add_host(h);
    }
}
