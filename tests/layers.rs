//! The floors of `vm/lib.rs`'s doc hold: no module imports a module of a
//! higher floor, and every module stands on a floor.
//!
//! The floors are read from the table in `vm/lib.rs` (the one source of
//! truth); every `vm/**/*.rs` is scanned for the paths it names through
//! `crate::`, `super::` (and `use crate::{…}` / `use super::{…}` groups).
//! A path is charged to the top-level module it lands in. A lexical
//! scan, not the compiler's view: comments and string literals are
//! skipped, and inline modules (`mod tests { … }`) are followed so that
//! their `super::` means the file's own module.
//!
//! `AXFORTH_LAYERS_VM=/other/vm` scans another tree against this table
//! (to see the test fail on code from before the floors).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

struct Floor {
    number: u32,
    name: String,
}

/// The floors table: module -> floor.
fn floors(lib: &str) -> BTreeMap<String, Floor> {
    let mut map = BTreeMap::new();
    for line in lib.lines() {
        let Some(row) = line.strip_prefix("//! |") else { continue };
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let Some(Ok(number)) = cells.first().map(|c| c.parse::<u32>()) else { continue };
        let (name, modules) = (cells[1].to_string(), cells[2]);
        for m in modules.split_whitespace() {
            let m = m.trim_matches('`').to_string();
            let prev = map.insert(m.clone(), Floor { number, name: name.clone() });
            assert!(prev.is_none(), "vm/lib.rs: `{m}` stands on two floors");
        }
    }
    assert!(!map.is_empty(), "vm/lib.rs has no floors table (rows `//! | n | name | `modules` | … |`)");
    map
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file: `a.rs` -> [a], `a/mod.rs` -> [a],
/// `a/b.rs` -> [a, b]; the crate roots are [lib] and [main].
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs").to_string();
    if stem != "mod" {
        parts.push(stem);
    }
    parts
}

/// The line with comments and the insides of string and char literals
/// blanked (block comments carried across lines in `in_block`).
fn code_of(line: &str, in_block: &mut bool) -> String {
    let b: Vec<char> = line.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if *in_block {
            if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                *in_block = false;
                i += 1;
            }
        } else if b[i] == '/' && b.get(i + 1) == Some(&'/') {
            break;
        } else if b[i] == '/' && b.get(i + 1) == Some(&'*') {
            *in_block = true;
            i += 1;
        } else if b[i] == '"' {
            i += 1;
            while i < b.len() && b[i] != '"' {
                i += if b[i] == '\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
        } else if b[i] == '\'' && b.get(i + 2) == Some(&'\'') {
            i += 2;
            out.push_str("' '");
        } else if b[i] == '\'' && b.get(i + 1) == Some(&'\\') {
            while i + 1 < b.len() && b[i + 1] != '\'' {
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(b[i]);
        }
        i += 1;
    }
    out
}

fn ident_at(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// The first names of the items of a `{a, b::c, d::{e, f}}` group that
/// starts right after `{` in `s`.
fn group_heads(s: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 1;
    let mut expect = true;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => expect = true,
            c if expect && depth == 1 && (c.is_alphabetic() || c == '_') => {
                heads.push(ident_at(&s[i..]).to_string());
                expect = false;
            }
            _ => {}
        }
    }
    heads
}

struct Import {
    line: usize,
    path: String,
    target: String,
}

/// What the crate root re-exports (`pub use vm::{Config, Vm};`): name ->
/// the module it comes from, so `crate::Vm` is charged to `vm`.
fn root_exports(lib: &str) -> BTreeMap<String, String> {
    let mut map = BTreeMap::new();
    for line in lib.lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else { continue };
        let module = ident_at(rest).to_string();
        let items = rest[module.len()..].trim_start_matches("::");
        let names = match items.strip_prefix('{') {
            Some(g) => group_heads(g),
            None => vec![items.trim_end_matches(';').rsplit("::").next().unwrap_or("").to_string()],
        };
        for n in names {
            map.insert(n, module.clone());
        }
    }
    map
}

/// The top-level modules a file's paths land in (`root`: the crate
/// root's re-exports).
fn imports(src: &str, module: &[String], known: &BTreeSet<String>, root: &BTreeMap<String, String>) -> Vec<Import> {
    let mut found = Vec::new();
    let mut in_block = false;
    // Inline modules open on this file (their `super` is one level less
    // far), by the brace depth they opened at.
    let mut inline: Vec<i32> = Vec::new();
    let mut depth = 0i32;
    // A `use crate::{` / `use super::{` group spanning lines: its base.
    let mut group: Option<(Vec<String>, String, usize)> = None;
    let land = |base: &[String], first: &str| -> String {
        let top = base.first().map(String::as_str).unwrap_or(first);
        if known.contains(top) {
            top.to_string()
        } else if let Some(m) = root.get(top).filter(|_| base.is_empty()) {
            m.clone()
        } else {
            "lib".to_string()
        }
    };
    for (n, raw) in src.lines().enumerate() {
        let line = code_of(raw, &mut in_block);
        if let Some((base, mut text, at)) = group.take() {
            text.push_str(&line);
            if text.matches('{').count() <= text.matches('}').count() {
                for head in group_heads(&text) {
                    let target = land(&base, &head);
                    found.push(Import { line: at, path: format!("{}::{head}", base.join("::")), target });
                }
            } else {
                group = Some((base, text, at));
            }
            continue;
        }
        let mut here: Vec<String> = module.to_vec();
        here.extend(inline.iter().map(|_| "<inline>".to_string()));
        let mut rest = line.as_str();
        while let Some(i) = rest.find(['c', 's']) {
            let s = &rest[i..];
            let boundary = i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$');
            let (base, after) = if boundary && s.starts_with("crate::") {
                (Vec::new(), &s["crate::".len()..])
            } else if boundary && s.starts_with("super::") {
                let mut after = s;
                let mut base = here.clone();
                while let Some(a) = after.strip_prefix("super::") {
                    base.pop();
                    after = a;
                }
                (base, after)
            } else {
                rest = &s[1..];
                continue;
            };
            let whole: String = s[..s.len() - after.len()].to_string();
            if let Some(g) = after.strip_prefix('{') {
                let text = g.to_string();
                if text.matches('{').count() < text.matches('}').count() {
                    for head in group_heads(&text) {
                        let target = land(&base, &head);
                        found.push(Import { line: n + 1, path: format!("{whole}{head}"), target });
                    }
                } else {
                    group = Some((base, text, n + 1));
                }
                break;
            }
            let first = ident_at(after);
            let target = land(&base, first);
            found.push(Import { line: n + 1, path: format!("{whole}{first}"), target });
            rest = &after[first.len()..];
        }
        let t = line.trim_start();
        let opens_mod = (t.starts_with("mod ") || t.starts_with("pub mod ")) && t.trim_end().ends_with('{');
        if opens_mod {
            inline.push(depth);
        }
        depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
        while inline.last().is_some_and(|&d| depth <= d) && !(opens_mod && inline.last() == Some(&depth)) {
            inline.pop();
        }
    }
    found
}

/// Every upward import and every module without a floor, as lines.
fn violations(vm_dir: &Path, lib_doc: &str) -> Vec<String> {
    let floors = floors(lib_doc);
    let root = root_exports(lib_doc);
    let mut files = Vec::new();
    rust_files(vm_dir, &mut files);
    let modules: BTreeSet<String> = files.iter().map(|f| module_path(f.strip_prefix(vm_dir).unwrap())[0].clone()).collect();
    let mut bad = Vec::new();
    for m in &modules {
        if !floors.contains_key(m) {
            bad.push(format!("module `{m}` stands on no floor: add it to the floors table in vm/lib.rs"));
        }
    }
    for m in floors.keys() {
        if !modules.contains(m) {
            bad.push(format!("the floors table in vm/lib.rs names `{m}`, which is no module of vm/"));
        }
    }
    for f in &files {
        let rel = f.strip_prefix(vm_dir).unwrap();
        let module = module_path(rel);
        let Some(from) = floors.get(&module[0]) else { continue };
        let src = std::fs::read_to_string(f).unwrap();
        for imp in imports(&src, &module, &modules, &root) {
            let Some(to) = floors.get(&imp.target) else { continue };
            if to.number > from.number {
                bad.push(format!(
                    "vm/{}:{}: `{}` (floor {} {}) imports `{}` (floor {} {})",
                    rel.display(),
                    imp.line,
                    module[0],
                    from.number,
                    from.name,
                    imp.path,
                    to.number,
                    to.name
                ));
            }
        }
    }
    bad
}

#[test]
fn no_module_imports_a_higher_floor() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib_doc = std::fs::read_to_string(root.join("vm/lib.rs")).unwrap();
    let vm_dir = std::env::var_os("AXFORTH_LAYERS_VM").map_or_else(|| root.join("vm"), PathBuf::from);
    let bad = violations(&vm_dir, &lib_doc);
    assert!(bad.is_empty(), "{} import(s) against the floors of vm/lib.rs:\n{}", bad.len(), bad.join("\n"));
}

/// The scanner itself: an upward path, a group, `super` out of a folder,
/// a test module's `super`, and paths in comments and strings.
#[test]
fn the_scan_sees_what_climbs() {
    let known: BTreeSet<String> = ["game", "vm", "state", "lib"].iter().map(|s| s.to_string()).collect();
    let root = root_exports("pub use vm::{Config, Vm};\n");
    let src = "use crate::{state::Game,\n  vm::Vm};\n// crate::game::x\nlet s = \"crate::game\";\nfn f() { super::game::g(); }\nmod tests {\n    use super::*;\n}\nuse crate::Config;\n";
    let found = imports(src, &["vm".to_string()], &known, &root);
    let got: Vec<(usize, &str)> = found.iter().map(|i| (i.line, i.target.as_str())).collect();
    assert_eq!(got, vec![(1, "state"), (1, "vm"), (5, "game"), (7, "vm"), (9, "vm")]);
    let lib = "//! | 1 | low | `state` |\n//! | 2 | high | `vm` `game` |\n";
    let dir = std::env::temp_dir().join(format!("axforth-layers-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("state")).unwrap();
    std::fs::write(dir.join("state/mod.rs"), "use crate::vm::Vm;\n").unwrap();
    std::fs::write(dir.join("vm.rs"), "use crate::state::Game;\n").unwrap();
    std::fs::write(dir.join("stray.rs"), "").unwrap();
    let bad = violations(&dir, lib);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(bad.len(), 3, "{bad:#?}");
    assert!(bad[0].contains("`stray` stands on no floor"));
    assert!(bad[1].contains("`game`, which is no module"));
    assert!(bad[2].starts_with("vm/state/mod.rs:1: `state` (floor 1 low) imports `crate::vm` (floor 2 high)"));
}
