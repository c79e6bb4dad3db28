//! ZRF's move language → the body of an Axiom move word.
//!
//! Owns the instructions (direction steps, `from`/`to`, `mark`/`back`,
//! `go`, `verify`, `if`/`else`, `while`, `add` and its promotion choices,
//! `add-partial`, `capture`, `change-type`, `change-owner`, `flip`,
//! `create`, `cascade`, `opposite`, `set-flag`, `set-position-flag`,
//! `set-attribute`) and the conditions (`empty? friend? enemy? neutral?
//! piece? marked? position? in-zone? on-board? last-from? last-to?
//! attacked? flag? position-flag?`, piece attributes, their
//! `not-` forms, a position or direction argument, `and`/`or`/`not`).
//! Edits go to the runtime's log (`zrf-log!`) and `add` turns the log into
//! an Axiom move (`zrf-add`, in `forth_prelude.4th`); a direction step off
//! the board ends the block, as in Zillions (`verify`).

use super::forth::Writer;
use super::model::*;
use super::sexpr::{Kind, Node};

/// A sequence of instructions, one line each.
///
/// A test of attacks (`(verify not-attacked?)` of the square the cursor
/// is on) generates moves of the other side: many times the cost of the
/// direction steps and square tests that usually follow it, as in
/// castling (`(verify not-attacked?) e (verify empty?) …`). So it is
/// made after them: its square is kept on the stack where it stands, and
/// the test runs before the next instruction that is neither a step nor
/// a test of the board (or at the block's end). Tests change nothing, so
/// a move fails or goes on exactly as written; it only fails sooner.
pub(crate) fn block(w: &mut Writer, items: &[Node], indent: usize, drop: bool) -> Result<(), ZrfError> {
    let mut later: Vec<(String, Span)> = Vec::new();
    for n in items {
        match deferrable(w, n)? {
            Some(Step::Costly(rest)) => {
                w.line(indent, "here", Some(n.at));
                later.push((rest, n.at));
                continue;
            }
            Some(Step::Cheap) => {}
            None => flush(w, &mut later, indent),
        }
        instr(w, n, indent, drop)?;
    }
    flush(w, &mut later, indent);
    Ok(())
}

/// An instruction that leaves everything as it was but the cursor
/// (`Cheap`: a direction step, a test of the board), or a test of attacks
/// of the cursor's square (`Costly`: its code after `here`).
enum Step {
    Cheap,
    Costly(String),
}

fn deferrable(w: &mut Writer, n: &Node) -> Result<Option<Step>, ZrfError> {
    if let Some(s) = n.sym() {
        return Ok(w.names.as_direction(s, true).map(|_| Step::Cheap));
    }
    if !n.is_form("verify") {
        return Ok(None);
    }
    let [c] = n.args() else { return Ok(None) };
    let code = cond(w, c)?;
    let costly = code.contains("zrf-attacked?") || code.contains("zrf-defended?");
    Ok(match code.strip_prefix("here ") {
        Some(rest) if costly && !rest.contains("here") => Some(Step::Costly(rest.to_string())),
        _ if costly => None,
        _ => Some(Step::Cheap),
    })
}

/// The tests of attacks put off so far, the last first (each takes its
/// square from the top of the stack).
fn flush(w: &mut Writer, later: &mut Vec<(String, Span)>, indent: usize) {
    while let Some((rest, at)) = later.pop() {
        w.line(indent, &format!("{rest} verify"), Some(at));
    }
}

/// Instructions that the ZRF Language Reference lists and this does not
/// translate yet: named in the error.
const NOT_YET: &[&str] = &["move-type"];

fn instr(w: &mut Writer, n: &Node, indent: usize, drop: bool) -> Result<(), ZrfError> {
    let at = Some(n.at);
    match &n.kind {
        Kind::Str(s) => Err(w.err(n.at, format!("a string (\"{s}\") is not an instruction of a move"))),
        Kind::Sym(s) => {
            if let Some(d) = w.names.as_direction(s, true) {
                let code = format!("{d} verify");
                w.line(indent, &code, at);
                return Ok(());
            }
            // A position's name: the cursor goes there.
            if let Some(p) = w.names.position(s) {
                w.line(indent, &format!("{p} to"), at);
                return Ok(());
            }
            let code = match s.to_lowercase().as_str() {
                "add" => "0 -1 zrf-add".to_string(),
                "add-partial" => "0 0 zrf-add".to_string(),
                "add-copy" => "0 -1 zrf-add-copy".to_string(),
                "add-copy-partial" => "0 0 zrf-add-copy".to_string(),
                "capture" => "here zrf-capture".to_string(),
                "flip" => "here player-at zrf-other here 3 zrf-log!".to_string(),
                "change-owner" => "current-player here 3 zrf-log!".to_string(),
                "from" => "here home".to_string(),
                "to" => "here zrf-dest !".to_string(),
                "mark" => "here zrf-mark !".to_string(),
                "back" => "zrf-mark @ to".to_string(),
                // The piece moving goes where it is bound (`to`, else
                // here) as a part of the move; the piece standing here
                // (before the move) moves on from here, bound nowhere yet.
                "cascade" => "from zrf-to-pos 6 zrf-log!  -1 zrf-dest !  here home".to_string(),
                other if NOT_YET.contains(&other) => return Err(w.err(n.at, format!("`{s}` is not supported yet"))),
                _ => return Err(w.err(n.at, format!("`{s}` is neither an instruction of the move language nor a direction of this board"))),
            };
            w.line(indent, &code, at);
            Ok(())
        }
        Kind::List(items) => {
            let Some(head) = n.head() else {
                // `((verify empty?) add)`: a block inside a block.
                return block(w, items, indent, drop);
            };
            let args = n.args();
            let lower = head.to_lowercase();
            match lower.as_str() {
                "verify" => {
                    let [c] = args else { return Err(w.err(n.at, "(verify CONDITION): one condition")) };
                    let c = cond(w, c)?;
                    w.line(indent, &format!("{c} verify"), at);
                }
                "if" => {
                    let Some((c, rest)) = args.split_first() else { return Err(w.err(n.at, "(if CONDITION …)")) };
                    let c = cond(w, c)?;
                    let split = rest.iter().position(|x| x.sym().is_some_and(|s| s.eq_ignore_ascii_case("else")));
                    let (then, otherwise) = match split {
                        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
                        None => (rest, None),
                    };
                    w.line(indent, &format!("{c} IF"), at);
                    block(w, then, indent + 1, drop)?;
                    if let Some(o) = otherwise {
                        w.line(indent, "ELSE", None);
                        block(w, o, indent + 1, drop)?;
                    }
                    w.line(indent, "THEN", None);
                }
                "while" => {
                    let Some((c, body)) = args.split_first() else { return Err(w.err(n.at, "(while CONDITION …)")) };
                    let c = cond(w, c)?;
                    w.line(indent, "BEGIN", at);
                    w.line(indent + 1, &format!("{c} WHILE"), None);
                    block(w, body, indent + 1, drop)?;
                    w.line(indent, "REPEAT", None);
                }
                "add" | "add-partial" | "add-copy" | "add-copy-partial" if args.iter().all(|a| a.sym().is_some_and(|s| w.names.piece(s).is_some() || w.names.move_type(s).is_some())) => {
                    let partial = lower.ends_with("-partial");
                    let add = if lower.starts_with("add-copy") { "zrf-add-copy" } else { "zrf-add" };
                    let mut types = Vec::new();
                    let mut move_type = None;
                    for a in args {
                        let s = a.sym().unwrap_or("");
                        match (w.names.piece(s), w.names.move_type(s)) {
                            (Some(p), _) => types.push(p.to_string()),
                            (None, Some(t)) if partial => move_type = Some(t.to_string()),
                            _ => return Err(w.err(a.at, format!("`{s}`: `add` takes the piece types the piece may turn into"))),
                        }
                    }
                    let how = match (partial, move_type) {
                        (false, _) => "-1".to_string(),
                        (true, None) => "0".to_string(),
                        (true, Some(t)) => t,
                    };
                    if types.is_empty() {
                        w.line(indent, &format!("0 {how} {add}"), at);
                    }
                    for t in types {
                        w.line(indent, &format!("{t} {how} {add}"), at);
                    }
                }
                "capture" | "flip" | "change-owner" | "mark" | "from" | "to" | "back" | "go" if args.len() <= 1 && args.iter().all(|a| is_place(w, a, &lower)) => {
                    let pos = match args.first() {
                        Some(a) => place(w, a)?,
                        None => "here".to_string(),
                    };
                    let code = match lower.as_str() {
                        "capture" => format!("{pos} zrf-capture"),
                        "flip" => format!("{pos} DUP 0< IF DROP ELSE DUP player-at zrf-other SWAP 3 zrf-log! THEN"),
                        "change-owner" => format!("{pos} DUP 0< IF DROP ELSE current-player SWAP 3 zrf-log! THEN"),
                        "mark" => format!("{pos} DUP 0< NOT verify zrf-mark !"),
                        "from" => format!("{pos} DUP 0< NOT verify home"),
                        "to" => format!("{pos} DUP 0< NOT verify zrf-dest !"),
                        "back" => "zrf-mark @ to".to_string(),
                        _ => format!("{pos} DUP 0< NOT verify to"),
                    };
                    w.line(indent, &code, at);
                }
                "change-type" => {
                    let Some(t) = args.first() else { return Err(w.err(n.at, "(change-type TYPE [POSITION])")) };
                    let ty = piece(w, t)?;
                    let pos = match args.get(1) {
                        Some(a) => place(w, a)?,
                        None => "here".to_string(),
                    };
                    w.line(indent, &format!("{ty} {pos} DUP 0< IF 2DROP ELSE 2 zrf-log! THEN"), at);
                }
                "create" => {
                    // (create [Player] [Type] [position]): the moving
                    // piece's player and type when not given.
                    let mut player = "current-player".to_string();
                    let mut ty = "current-piece-type".to_string();
                    let mut pos = "here".to_string();
                    for a in args {
                        let s = a.sym().unwrap_or("");
                        if let Some(p) = w.names.player(s) {
                            player = p.to_string();
                        } else if let Some(t) = w.names.piece(s) {
                            ty = t.to_string();
                        } else {
                            pos = place(w, a)?;
                        }
                    }
                    w.line(indent, &format!("{player} {ty} OR {pos} DUP 0< IF 2DROP ELSE 5 zrf-log! THEN"), at);
                }
                "opposite" => {
                    let d = args.first().and_then(Node::sym).and_then(|s| w.names.direction_of.get(&s.to_lowercase()).copied());
                    let Some(d) = d else { return Err(w.err(n.at, "(opposite DIRECTION)")) };
                    let Some(o) = w.names.opposite[d] else {
                        return Err(w.err(n.at, format!("direction `{}` has no opposite on this board (no direction undoes its links)", w.names.directions[d])));
                    };
                    w.line(indent, &format!("{} verify", w.names.directions[o]), at);
                }
                "set-attribute" => {
                    let name = args.first().and_then(Node::sym).unwrap_or("");
                    let Some(bit) = w.names.attribute(name) else {
                        return Err(w.err(n.at, format!("`{name}` is not an attribute of any piece (`(attribute {name} false)` in a piece declares one)")));
                    };
                    let k = bit.trailing_zeros() - 16;
                    let value = match args.get(1) {
                        Some(v) => cond(w, v)?,
                        None => return Err(w.err(n.at, "(set-attribute NAME VALUE [POSITION])")),
                    };
                    let pos = match args.get(2) {
                        Some(a) => place(w, a)?,
                        None => "here".to_string(),
                    };
                    w.line(indent, &format!("{value} 0<> 1 AND {} + {pos} DUP 0< IF 2DROP ELSE 7 zrf-log! THEN", k * 2), at);
                }
                "set-flag" | "set-position-flag" => {
                    let name = args.first().and_then(Node::sym).unwrap_or("");
                    // No value (a macro's empty argument): false.
                    let value = match args.get(1) {
                        Some(v) => cond(w, v)?,
                        None => "FALSE".to_string(),
                    };
                    let code = if lower == "set-flag" {
                        let k = w.names.flag(name).unwrap_or(0);
                        format!("{value} {k} zrf-flag !")
                    } else {
                        let k = w.names.position_flag(name).unwrap_or(0);
                        let pos = match args.get(2) {
                            Some(a) => place(w, a)?,
                            None => "here".to_string(),
                        };
                        format!("{value} 0<> 1 AND {pos} DUP 0< IF 2DROP ELSE {k} zrf-pflag C! THEN")
                    };
                    w.line(indent, &code, at);
                }
                other if NOT_YET.contains(&other) => return Err(w.err(n.at, format!("`({head} …)` is not supported yet"))),
                // `(n (verify empty?) add)`: a block, as a macro leaves it.
                _ if w.names.direction(head).is_some() || BARE.contains(&lower.as_str()) => return block(w, items, indent, drop),
                _ => return Err(w.err(n.at, format!("`({head} …)` is neither an instruction of the move language nor a block of them"))),
            }
            Ok(())
        }
    }
}

/// Instructions written alone, which may start a block.
pub(crate) const BARE: &[&str] = &["add", "add-partial", "add-copy", "add-copy-partial", "capture", "flip", "change-owner", "from", "to", "mark", "back", "cascade"];

/// A name that can stand for a place: a position, a direction, or (for
/// `go`) `from`, `to`, `mark`, `last-from`, `last-to`.
fn is_place(w: &Writer, n: &Node, keyword: &str) -> bool {
    let Some(s) = n.sym() else { return false };
    w.names.position(s).is_some() || w.names.direction(s).is_some() || (keyword == "go" && GO_TARGETS.contains(&s.to_lowercase().as_str()))
}

const GO_TARGETS: &[&str] = &["from", "to", "mark", "last-from", "last-to"];

/// The position one step along direction word `d` from here (-1: none);
/// here does not move. Written out rather than a word taking the
/// direction's xt, so that the step is a direct call the JIT inlines.
fn dir_pos(d: &str) -> String {
    format!("here >R {d} IF here ELSE -1 THEN R> to")
}

/// The code that leaves a position (-1: no such position) for a name.
fn place(w: &Writer, n: &Node) -> Result<String, ZrfError> {
    let s = n.sym().ok_or_else(|| w.err(n.at, "a position or a direction"))?;
    if let Some(p) = w.names.as_position(s, false) {
        return Ok(p.to_string());
    }
    if let Some(d) = w.names.direction(s) {
        return Ok(dir_pos(d));
    }
    Ok(match s.to_lowercase().as_str() {
        "from" => "from".into(),
        "to" => "zrf-to-pos".into(),
        "mark" => "zrf-mark @".into(),
        "last-from" => "zrf-last-from @".into(),
        "last-to" => "zrf-last-to @".into(),
        _ => return Err(w.err(n.at, format!("`{s}` is neither a position nor a direction of this board"))),
    })
}

fn piece(w: &Writer, n: &Node) -> Result<String, ZrfError> {
    n.sym().and_then(|s| w.names.piece(s)).map(str::to_string).ok_or_else(|| w.err(n.at, format!("`{}` is not a piece type of this game", n.text().unwrap_or("(…)"))))
}

/// Conditions not translated yet.
const COND_NOT_YET: &[&str] = &["goal-position?"];

/// A condition: code that leaves a flag.
pub(crate) fn cond(w: &Writer, n: &Node) -> Result<String, ZrfError> {
    match &n.kind {
        Kind::Str(_) => Err(w.err(n.at, "a string is not a condition")),
        Kind::Sym(s) => query(w, n, s, &[]),
        Kind::List(_) => {
            let Some(head) = n.head() else { return Err(w.err(n.at, "a condition is a name or a list headed by one")) };
            let args = n.args();
            match head.to_lowercase().as_str() {
                "and" | "or" => {
                    let op = if head.eq_ignore_ascii_case("and") { "AND" } else { "OR" };
                    let mut parts = Vec::new();
                    for a in args {
                        parts.push(cond(w, a)?);
                    }
                    match parts.len() {
                        0 => Ok(if op == "AND" { "TRUE" } else { "FALSE" }.into()),
                        _ => {
                            let mut s = parts[0].clone();
                            for p in &parts[1..] {
                                s = format!("{s} {p} {op}");
                            }
                            Ok(s)
                        }
                    }
                }
                "not" => {
                    let [c] = args else { return Err(w.err(n.at, "(not CONDITION)")) };
                    Ok(format!("{} 0=", cond(w, c)?))
                }
                _ => query(w, n, head, args),
            }
        }
    }
}

/// `empty?`, `(friend? n)`, `(piece? King a1)`, `(not-in-zone? promotion)`…
fn query(w: &Writer, n: &Node, name: &str, args: &[Node]) -> Result<String, ZrfError> {
    let lower = name.to_lowercase();
    match lower.as_str() {
        "true" => return Ok("TRUE".into()),
        "false" => return Ok("FALSE".into()),
        _ => {}
    }
    // An attribute may itself be named `not-…?` (Luzhanqi's `not-locked?`).
    let (negate, base) = match lower.strip_prefix("not-") {
        Some(b) if w.names.attribute(&lower).is_none() => (true, b.to_string()),
        _ => (false, lower.clone()),
    };
    if COND_NOT_YET.contains(&base.as_str()) {
        return Err(w.err(n.at, format!("the condition `{name}` is not supported yet")));
    }
    // The test at a position on the stack ( pos -- ? ), and the argument
    // that names the position, if any.
    let for_others = if w.moves_for_others { "zrf-" } else { "" };
    let (test, pos_arg): (String, Option<&Node>) = match base.as_str() {
        "empty?" => ("empty-at?".into(), args.first()),
        "friend?" => (format!("{for_others}friend-at?"), args.first()),
        "enemy?" => (format!("{for_others}enemy-at?"), args.first()),
        "neutral?" => ("neutral-piece-at?".into(), args.first()),
        "marked?" => ("zrf-mark @ =".into(), args.first()),
        "last-from?" => ("zrf-last-from @ =".into(), args.first()),
        "last-to?" => ("zrf-last-to @ =".into(), args.first()),
        "on-board?" => ("DROP TRUE".into(), args.first()),
        // `(attacked? no-king)`: by the moves of one move type only.
        "attacked?" | "defended?" => {
            let word = if base == "attacked?" { "zrf-attacked?" } else { "zrf-defended?" };
            w.probes.set(true);
            match args.first().and_then(Node::sym).and_then(|s| w.names.move_type(s)) {
                Some(t) => (format!("{t} {word}-by"), args.get(1)),
                None => (format!("0 {word}-by"), args.first()),
            }
        }
        // An enemy one step away in any of the board's directions: `here`
        // goes to the position for the look and comes back.
        "adjacent-to-enemy?" => {
            let looks: String = w.names.directions.iter().map(|d| format!(" {} DUP 0< IF DROP ELSE enemy-at? OR THEN", dir_pos(d))).collect();
            (format!("here >R to FALSE{looks} R> to"), args.first())
        }
        // `(piece?)`, a macro's empty argument: any piece.
        "piece?" if args.is_empty() => ("empty-at? 0=".into(), None),
        "piece?" => {
            let t = &args[0];
            (format!("{} zrf-type-at?", piece(w, t)?), args.get(1))
        }
        "in-zone?" => {
            let z = args.first().and_then(Node::sym).ok_or_else(|| w.err(n.at, "(in-zone? ZONE [POSITION])"))?;
            let zi = w.names.zone(z).ok_or_else(|| w.err(args[0].at, format!("`{z}` is not a zone of this board")))?;
            (format!("zone-{}?", w.names.zones[zi]), args.get(1))
        }
        "flag?" => {
            let f = args.first().and_then(Node::sym).and_then(|s| w.names.flag(s)).ok_or_else(|| w.err(n.at, "(flag? NAME)"))?;
            return Ok(format!("{f} zrf-flag @ 0<>{}", if negate { " 0=" } else { "" }));
        }
        "position-flag?" => {
            let f = args.first().and_then(Node::sym).and_then(|s| w.names.position_flag(s)).ok_or_else(|| w.err(n.at, "(position-flag? NAME [POSITION])"))?;
            (format!("{f} zrf-pflag C@ 0<>"), args.get(1))
        }
        "position?" => {
            let p = args.first().and_then(Node::sym).and_then(|s| w.names.position(s)).ok_or_else(|| w.err(n.at, "(position? POSITION)"))?;
            (format!("{p} ="), None)
        }
        _ => match w.names.attribute(&base) {
            // A piece's attribute: `never-moved?`.
            Some(bit) => (format!("piece-at {bit} AND 0<>"), args.first()),
            None => return Err(w.err(n.at, format!("`{name}` is neither a condition of the move language nor an attribute of a piece"))),
        },
    };
    let not = if negate { " 0=" } else { "" };
    // Without an argument: here (always on the board); the plain forms
    // have words of their own.
    let Some(arg) = pos_arg else {
        let plain = match (base.as_str(), negate, w.moves_for_others) {
            ("empty?", false, _) => Some("empty?"),
            ("friend?", false, false) => Some("friend?"),
            ("enemy?", false, false) => Some("enemy?"),
            _ => None,
        };
        return Ok(match plain {
            Some(p) => p.to_string(),
            None => format!("here {test}{not}"),
        });
    };
    let s = arg.sym().ok_or_else(|| w.err(arg.at, "a position or a direction"))?;
    if let Some(p) = w.names.as_position(s, false) {
        return Ok(format!("{p} {test}{not}"));
    }
    if let Some(d) = w.names.direction(s) {
        if base == "on-board?" {
            return Ok(format!("here >R {d} R> to{}", if negate { " 0=" } else { "" }));
        }
        // Off the board, a test and its not- form are both false.
        return Ok(format!("{} DUP 0< IF DROP FALSE ELSE {test}{not} THEN", dir_pos(d)));
    }
    Err(w.err(arg.at, format!("`{s}` is neither a position nor a direction of this board")))
}
