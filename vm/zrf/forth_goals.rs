//! ZRF's goals → the game's `OnIsGameOver`.
//!
//! Owns `win-condition`, `loss-condition`, `draw-condition` and
//! `count-condition` (met: the player with more pieces on the board
//! wins, equal counts draw) with
//! `stalemated`, `(pieces-remaining N [Type])`, `(total-piece-count N
//! [Type])`, `(captured Type)`, `repetition` (the third time a
//! position of the game stands), `(checkmated Type)`, `(absolute-config Types Places)`,
//! `(relative-config Type dir Type …)` and `and`/`or`/`not` of them.
//!
//! A goal is tested for a player (`zrf-who`). After each move the goals
//! of the player who moved are tested first (a line just made wins), then
//! those of the player to move (`stalemated`, which only the player to
//! move can be, since only its moves are known); the first goal met, in
//! the order written, decides. No goal met and no move: a draw, as in
//! Zillions when the rules name no `stalemated` goal.

use super::forth::Writer;
use super::model::*;
use super::sexpr::{Kind, Node};

pub(crate) fn goals(w: &mut Writer, v: &Variant) -> Result<(), ZrfError> {
    let all_players = w.names.players.clone();
    let mut words: Vec<(String, u8)> = Vec::new();
    let mut k = 0;
    for n in &v.raw {
        let kind = match n.head().map(str::to_lowercase).as_deref() {
            Some("win-condition") => 1,
            Some("loss-condition") => 2,
            Some("draw-condition") => 3,
            Some("count-condition") => 4,
            _ => continue,
        };
        let Some((who, conds)) = n.args().split_first() else { continue };
        let mut players = Vec::new();
        let listed: Vec<&Node> = match &who.kind {
            Kind::List(items) => items.iter().collect(),
            _ => vec![who],
        };
        for p in listed {
            let s = p.text().unwrap_or("");
            players.push(w.names.player(s).ok_or_else(|| w.err(p.at, format!("`{s}` is not a player of this game")))?.to_string());
        }
        for c in conds {
            k += 1;
            let mut helpers = Vec::new();
            let expr = goal_cond(w, c, k, &mut helpers)?;
            for (i, body) in helpers.iter().enumerate() {
                w.line(0, &format!(": zrf-goal-{k}-{} ( -- ? )", i + 1), None);
                for l in body {
                    w.line(1, l, None);
                }
                w.line(0, ";", None);
            }
            let name = format!("zrf-goal-{k}");
            w.line(0, &format!(": {name} ( player -- ? )"), Some(n.at));
            let all = all_players.iter().all(|p| players.contains(p));
            if all {
                w.line(1, &format!("zrf-who !  {expr}"), Some(c.at));
            } else {
                let test = players.iter().map(|p| format!("zrf-who @ {p} =")).collect::<Vec<_>>().join(" ") + &" OR".repeat(players.len().saturating_sub(1));
                w.line(1, &format!("zrf-who !  {test} IF {expr} ELSE FALSE THEN"), Some(c.at));
            }
            w.line(0, ";", None);
            words.push((name, kind));
        }
    }
    w.line(0, "\\ zrf-goals-of ( player -- kind )  the first goal the player meets: 1 win, 2 loss, 3 draw, 0 none", None);
    w.line(0, ": zrf-goals-of ( player -- kind )", None);
    for (name, kind) in &words {
        if *kind == 4 {
            w.line(1, &format!("DUP {name} IF zrf-by-count EXIT THEN"), None);
        } else {
            w.line(1, &format!("DUP {name} IF DROP {kind} EXIT THEN"), None);
        }
    }
    w.line(1, "DROP 0 ;", None);
    w.out.text.push('\n');
    w.line(0, ": OnIsGameOver ( -- score )", None);
    w.line(1, "zrf-mover @ DUP current-player <> OVER 0<> AND IF", None);
    w.line(2, "DUP zrf-goals-of ?DUP IF SWAP zrf-verdict EXIT THEN", None);
    w.line(1, "THEN DROP", None);
    w.line(1, "current-player zrf-goals-of ?DUP IF current-player zrf-verdict EXIT THEN", None);
    w.line(1, "stalemate? IF #DrawScore EXIT THEN", None);
    w.line(1, "#UnknownScore ;", None);
    Ok(())
}

/// A goal's condition as code leaving a flag (the player in `zrf-who`);
/// conditions that loop get a word of their own in `helpers`.
fn goal_cond(w: &Writer, n: &Node, k: usize, helpers: &mut Vec<Vec<String>>) -> Result<String, ZrfError> {
    let (head, args): (String, &[Node]) = match &n.kind {
        Kind::Sym(s) => (s.to_lowercase(), &[]),
        Kind::List(_) => (n.head().unwrap_or("").to_lowercase(), n.args()),
        Kind::Str(_) => return Err(w.err(n.at, "a string is not a goal")),
    };
    let count = |a: &Node| -> Result<i64, ZrfError> { a.int().ok_or_else(|| w.err(a.at, "a number of pieces")) };
    let ty = |a: Option<&Node>| -> Result<String, ZrfError> {
        match a {
            None => Ok("0".into()),
            Some(a) => a.sym().and_then(|s| w.names.piece(s)).map(str::to_string).ok_or_else(|| w.err(a.at, format!("`{}` is not a piece type of this game", a.text().unwrap_or("(…)")))),
        }
    };
    Ok(match head.as_str() {
        "stalemated" => "current-player zrf-who @ = stalemate? AND".into(),
        "pieces-remaining" => {
            let n0 = count(args.first().ok_or_else(|| w.err(n.at, "(pieces-remaining N [TYPE])"))?)?;
            format!("zrf-who @ {} zrf-count {n0} =", ty(args.get(1))?)
        }
        "total-piece-count" => {
            let n0 = count(args.first().ok_or_else(|| w.err(n.at, "(total-piece-count N [TYPE])"))?)?;
            format!("0 {} zrf-count {n0} =", ty(args.get(1))?)
        }
        "captured" => format!("zrf-who @ {} zrf-count 0=", ty(Some(args.first().ok_or_else(|| w.err(n.at, "(captured TYPE)"))?))?),
        "and" | "or" => {
            let op = if head == "and" { "AND" } else { "OR" };
            let mut parts = Vec::new();
            for a in args {
                parts.push(goal_cond(w, a, k, helpers)?);
            }
            let Some((first, rest)) = parts.split_first() else { return Ok(if op == "AND" { "TRUE" } else { "FALSE" }.into()) };
            rest.iter().fold(first.clone(), |s, p| format!("{s} {p} {op}"))
        }
        "not" => {
            let [c] = args else { return Err(w.err(n.at, "(not GOAL)")) };
            format!("{} 0=", goal_cond(w, c, k, helpers)?)
        }
        "absolute-config" => {
            // The piece types (names, or lists of names) first, then the
            // places (zones, positions, or lists of them).
            let is_types = |a: &Node| match a.list() {
                Some(items) => !items.is_empty() && items.iter().all(|i| i.sym().is_some_and(|s| w.names.piece(s).is_some())),
                None => a.sym().is_some_and(|s| w.names.piece(s).is_some()),
            };
            let split = args.iter().position(|a| !is_types(a)).unwrap_or(args.len());
            if split == 0 {
                return Err(w.err(n.at, "(absolute-config TYPES PLACES): no piece type"));
            }
            let (types, places) = args.split_at(split);
            let mut names = Vec::new();
            for t in types {
                match t.list() {
                    Some(items) => names.extend(items.iter().cloned()),
                    None => names.push(t.clone()),
                }
            }
            let list = Node { kind: Kind::List(names.into()), at: types[0].at };
            let test = piece_test(w, &list)?;
            let mut inside = Vec::new();
            let mut flat: Vec<&Node> = Vec::new();
            for p in places {
                match p.list() {
                    Some(items) => flat.extend(items.iter()),
                    None => flat.push(p),
                }
            }
            for p in flat {
                let s = p.sym().unwrap_or("");
                if let Some(z) = w.names.zone(s) {
                    inside.push(format!("I zrf-who @ zone-{}-of?", w.names.zones[z]));
                } else if let Some(pos) = w.names.position(s) {
                    inside.push(format!("I {pos} ="));
                } else {
                    return Err(w.err(p.at, format!("`{s}` is neither a zone nor a position of this board")));
                }
            }
            let cond = inside.join(" ") + &" OR".repeat(inside.len().saturating_sub(1));
            helpers.push(vec!["zrf-#positions 0 ?DO".into(), format!("\t{cond} IF I {test} IF UNLOOP TRUE EXIT THEN THEN"), "LOOP FALSE".into()]);
            format!("zrf-goal-{k}-{}", helpers.len())
        }
        "relative-config" => {
            // Type dir Type dir … Type: from some position.
            let mut code = String::from("I");
            let mut depth = 0;
            let mut i = 0;
            while i < args.len() {
                let test = piece_test(w, &args[i])?;
                code.push_str(&format!(" DUP {test} IF"));
                depth += 1;
                match args.get(i + 1) {
                    Some(d) => {
                        let dn = d.sym().and_then(|s| w.names.direction(s)).ok_or_else(|| w.err(d.at, format!("`{}` is not a direction of this board", d.text().unwrap_or("(…)"))))?;
                        code.push_str(&format!(" ['] {dn} zrf-step"));
                    }
                    None => code.push_str(" DROP UNLOOP TRUE EXIT"),
                }
                i += 2;
            }
            code.push_str(&" THEN".repeat(depth));
            code.push_str(" DROP");
            helpers.push(vec!["zrf-#positions 0 ?DO".into(), format!("\t{code}"), "LOOP FALSE".into()]);
            format!("zrf-goal-{k}-{}", helpers.len())
        }
        // The position of the game has now stood three times.
        "repetition" => "repetition-count 3 >=".into(),
        // No move, and the royal piece attacked (only the player to move
        // can be: only its moves are known).
        "checkmated" => "current-player zrf-who @ = stalemate? AND DUP IF DROP $RoyalAttacked? THEN".into(),
        _ => return Err(w.err(n.at, format!("`{head}` is not a goal Zillions knows"))),
    })
}

/// A test ( pos -- ? ): zrf-who has a piece of this type (or of one of
/// this list of types) on pos.
fn piece_test(w: &Writer, n: &Node) -> Result<String, ZrfError> {
    let names: Vec<&Node> = match n.list() {
        Some(items) => items.iter().collect(),
        None => vec![n],
    };
    let mut types = Vec::new();
    for t in names {
        let s = t.sym().unwrap_or("");
        types.push(w.names.piece(s).ok_or_else(|| w.err(t.at, format!("`{s}` is not a piece type of this game")))?.to_string());
    }
    Ok(match types.as_slice() {
        [] => return Err(w.err(n.at, "no piece type")),
        [t] => format!("{t} zrf-own?"),
        [first, rest @ ..] => {
            let mut s = format!("DUP {first} zrf-own?");
            for t in rest {
                s.push_str(&format!(" OVER {t} zrf-own? OR"));
            }
            s + " NIP"
        }
    })
}
