//! `SEE name`: shows a word's compiled code, one instruction a line, with
//! jump targets as offsets inside the definition and calls by name.

use crate::dictionary::WordKind;
use crate::ops::{Op, PRIMITIVES};
use crate::vm::Vm;

pub fn decompile(vm: &Vm, xt: u32) -> String {
    let w = vm.dict.word(xt);
    let name = w.display_name();
    let body = match w.kind {
        WordKind::Colon => None,
        WordKind::Primitive(_) | WordKind::Host(_) => return format!("{name} is native\n"),
        WordKind::Constant(v) => return format!("{v} CONSTANT {name}\n"),
        WordKind::Variable(a) => return format!("VARIABLE {name} \\ at {a}\n"),
        WordKind::Array { base } => return format!("[] {name} \\ cells at {base}\n"),
        WordKind::Deferred(slot) => {
            let action = vm.defers[slot as usize].map_or("(unset)".to_string(), |x| vm.dict.word(x).display_name());
            return format!("DEFER {name} \\ is {action}\n");
        }
        WordKind::Created { body, does } => match does {
            None => return format!("CREATE {name} \\ data at {body}\n"),
            Some(code) => Some(code),
        },
    };
    let (start, end) = match body {
        Some(code) => (code, find_end(vm, code)),
        None => (w.entry, w.end.max(w.entry)),
    };
    let mut s = format!(": {name}{}\n", if w.immediate { "  \\ IMMEDIATE" } else { "" });
    for a in start..end {
        let op = vm.code.op(a);
        s.push_str(&format!("  {:4}  {}\n", a - start, show(vm, op, start)));
    }
    s.push_str(";\n");
    s
}

/// The end of DOES> code: the first Exit that no jump skips over.
fn find_end(vm: &Vm, start: u32) -> u32 {
    let mut furthest = start;
    let mut a = start;
    while a < vm.code.next_addr() {
        let op = vm.code.op(a);
        if let Some(t) = op.target() {
            furthest = furthest.max(t);
        }
        if op == Op::Exit && a >= furthest {
            return a + 1;
        }
        a += 1;
    }
    a
}

fn word_at(vm: &Vm, entry: u32) -> String {
    vm.dict
        .words
        .iter()
        .rev()
        .find(|w| w.entry == entry && matches!(w.kind, WordKind::Colon))
        .map_or(format!("<code {entry}>"), |w| w.display_name())
}

fn show(vm: &Vm, op: Op, start: u32) -> String {
    let rel = |t: u32| t as i64 - start as i64;
    if let Some(p) = PRIMITIVES.iter().find(|p| p.op == op) {
        return p.name.to_string();
    }
    match op {
        Op::Lit(n) => n.to_string(),
        Op::Call(a) => word_at(vm, a),
        Op::Exit => "EXIT".into(),
        Op::Jump(t) => format!("BRANCH -> {}", rel(t)),
        Op::JumpIfZero(t) => format!("0BRANCH -> {}", rel(t)),
        Op::DupJumpIfZero(t) => format!("DUP 0BRANCH -> {}", rel(t)),
        Op::Deferred(slot) => vm.dict.word(vm.defer_owner[slot as usize]).display_name(),
        Op::SetDefer(slot) => format!("IS {}", vm.dict.word(vm.defer_owner[slot as usize]).display_name()),
        Op::Host(id) => vm.host_name(id).to_string(),
        Op::DoesSet(_) => "DOES>".into(),
        Op::CompileXt(xt) => format!("COMPILE {}", vm.dict.word(xt).display_name()),
        Op::DotQuote(a) => format!(".\" {}\"", String::from_utf8_lossy(vm.mem.counted(a as i32).unwrap_or(b"?"))),
        Op::AbortQuote(a) => format!("ABORT\" {}\"", String::from_utf8_lossy(vm.mem.counted(a as i32).unwrap_or(b"?"))),
        Op::GStep(d) => vm.game.board.directions.get(d as usize).cloned().unwrap_or_else(|| format!("<direction {d}>")),
        Op::GStepVerify(d) => format!("{} verify", show(vm, Op::GStep(d), start)),
        Op::GEmptyVerify => "empty? verify".into(),
        Op::GNotEmptyVerify => "not-empty? verify".into(),
        Op::GFriendVerify => "friend? verify".into(),
        Op::GEnemyVerify => "enemy? verify".into(),
        Op::QDo(t) => format!("?DO (exit -> {})", rel(t)),
        Op::Loop(t) => format!("LOOP -> {}", rel(t)),
        Op::PlusLoop(t) => format!("+LOOP -> {}", rel(t)),
        Op::Leave(t) => format!("LEAVE -> {}", rel(t)),
        Op::LitAdd(n) => format!("{n} +"),
        Op::LitMul(n) => format!("{n} *"),
        Op::LitMulAdd(n) => format!("{n} * +"),
        Op::LitDiv(n) => format!("{n} /"),
        Op::LitMod(n) => format!("{n} MOD"),
        Op::AddAt(n, a) => format!("{a} @ {n} + {a} !"),
        Op::LitEq(n) => format!("{n} ="),
        Op::LitNe(n) => format!("{n} <>"),
        Op::LitLt(n) => format!("{n} <"),
        Op::LitGt(n) => format!("{n} >"),
        Op::FetchAt(a) => format!("{a} @"),
        Op::StoreAt(a) => format!("{a} !"),
        Op::IncAt(a) => format!("{a} ++"),
        Op::FetchAdd => "@ +".into(),
        Op::CellsAdd => "CELLS +".into(),
        Op::IAdd => "I +".into(),
        Op::CellsLit(n) => format!("CELLS {n} +"),
        Op::FetchCell(n) => format!("CELLS {n} + @"),
        Op::StoreCell(n) => format!("CELLS {n} + !"),
        Op::ILit(n) => format!("I {n} +"),
        Op::ICell(n) => format!("I CELLS {n} +"),
        Op::IFetchCell(n) => format!("I CELLS {n} + @"),
        Op::IStoreCell(n) => format!("I CELLS {n} + !"),
        Op::ICFetch(n) => format!("I {n} + C@"),
        Op::ICStore(n) => format!("I {n} + C!"),
        Op::OverAdd => "OVER +".into(),
        other => match other.target() {
            Some(t) => {
                let name = format!("{other:?}");
                let name = name.split('(').next().unwrap_or("?");
                match other {
                    Op::JumpUnlessLitEq(n, _) | Op::JumpUnlessLitNe(n, _) | Op::JumpUnlessLitLt(n, _)
                    | Op::JumpUnlessLitGt(n, _) | Op::JumpUnlessLitLe(n, _) | Op::JumpUnlessLitGe(n, _)
                    | Op::DupJumpUnlessLitEq(n, _) | Op::DupJumpUnlessLitNe(n, _) | Op::DupJumpUnlessLitLt(n, _)
                    | Op::DupJumpUnlessLitGt(n, _) | Op::DupJumpUnlessLitLe(n, _) | Op::DupJumpUnlessLitGe(n, _) => {
                        format!("{n} {name} -> {}", rel(t))
                    }
                    _ => format!("{name} -> {}", rel(t)),
                }
            }
            None => format!("{other:?}"),
        },
    }
}
