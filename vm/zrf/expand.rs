//! `(define …)` macros and `(include "file")`: the top-level forms of a
//! `.zrf` as Zillions saw them once every macro was used and every
//! included file read.
//!
//! Owns `expand_file`, the limits that keep hostile input (a macro that
//! uses itself, a macro bomb, an include cycle) a clean error, and the
//! lookup of included files on a case-sensitive file system.
//!
//! `define` and `include` are read at top level only, where every real
//! file writes them; inside another form they stay as written.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::model::{SourceFile, Span, ZrfError};
use super::sexpr::{self, Kind, Node, MAX_NESTING};

/// Macros used inside macros, deeper than this, are taken for a macro
/// that uses itself. Real files go three or four deep.
pub const MAX_MACRO_DEPTH: usize = 64;
/// Nodes the expanded forms hold, over all files, counting a shared list
/// once per use (what a walk over the forms visits). Macro-heavy real
/// files make up to 3.1 million (`Dakon.zrf`, `Focus.zrf`: 100 KB of
/// text); a macro bomb stops here, in under a second and a few hundred MB
/// at most, before its nodes could fill memory or make a walk over them
/// endless. Two and a half times the largest real file.
pub const MAX_NODES: usize = 8_000_000;
/// Bytes of symbol and string text made by substitution (`$1$1$1…`).
pub const MAX_TEXT_BYTES: usize = 64 << 20;
/// Files including files. Real games include one file, once.
pub const MAX_INCLUDE_DEPTH: usize = 16;

/// Reads the file `path` holds as `bytes`, adds it (and each file it
/// includes) to `files`, and returns its top-level forms with every
/// macro expanded and every include spliced in. `define` forms are
/// consumed; everything else stays in file order.
pub fn expand_file(path: &Path, bytes: &[u8], files: &mut Vec<SourceFile>) -> Result<Vec<Node>, ZrfError> {
    let mut ex = Expander { files, macros: HashMap::new(), later: HashMap::new(), nodes: 0, text: 0, including: Vec::new() };
    ex.file(path, bytes)
}

struct Expander<'f> {
    files: &'f mut Vec<SourceFile>,
    /// By lower-cased name: the body of the definition in force.
    macros: HashMap<String, Arc<[Node]>>,
    /// By lower-cased name: the first definition further down a file, for
    /// a macro used before it is defined (Zillions read every `define`
    /// first: `CheckersCollection.zrf` uses one 1,500 lines early).
    later: HashMap<String, Arc<[Node]>>,
    nodes: usize,
    text: usize,
    /// The files being read, outermost first, to refuse a cycle.
    including: Vec<PathBuf>,
}

impl Expander<'_> {
    fn file(&mut self, path: &Path, bytes: &[u8]) -> Result<Vec<Node>, ZrfError> {
        let index = u32::try_from(self.files.len()).map_err(|_| bare("too many files"))?;
        let text = sexpr::decode(bytes);
        let forms = sexpr::parse(&text, index, path)?;
        self.files.push(SourceFile { path: path.to_path_buf(), text });
        self.including.push(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()));
        for form in forms.iter().filter(|f| f.is_form("define")) {
            if let Some(name) = form.args().first().and_then(Node::text) {
                let body: Arc<[Node]> = form.args().get(1..).unwrap_or(&[]).into();
                self.later.entry(name.to_lowercase()).or_insert(body);
            }
        }
        let mut out = Vec::new();
        for form in forms {
            if form.is_form("define") {
                let Some(name) = form.args().first().and_then(Node::text) else {
                    return Err(self.error("`define` needs a name: (define NAME …)", form.at));
                };
                let body: Arc<[Node]> = form.args().get(1..).unwrap_or(&[]).into();
                self.macros.insert(name.to_lowercase(), body);
            } else if form.is_form("include") {
                out.extend(self.include(path, &form)?);
            } else {
                self.item(form, &mut out, 0, 0, &[])?;
            }
        }
        self.including.pop();
        Ok(out)
    }

    fn include(&mut self, from: &Path, form: &Node) -> Result<Vec<Node>, ZrfError> {
        let Some(name) = form.args().first().and_then(Node::text) else {
            return Err(self.error("`include` needs a file name: (include \"file\")", form.at));
        };
        if self.including.len() >= MAX_INCLUDE_DEPTH {
            return Err(self.error(format!("files include each other more than {MAX_INCLUDE_DEPTH} deep"), form.at));
        }
        let dir = from.parent().unwrap_or(Path::new(""));
        let Some(path) = find_file(dir, name) else {
            return Err(self.error(format!("included file \"{name}\" not found in {}", dir.display()), form.at));
        };
        let canonical = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if self.including.contains(&canonical) {
            let chain: Vec<String> = self.including.iter().chain([&canonical]).map(|p| p.display().to_string()).collect();
            return Err(self.error(format!("include cycle: {}", chain.join(" includes ")), form.at));
        }
        let bytes = std::fs::read(&path)
            .map_err(|e| self.error(format!("cannot read included file {}: {e}", path.display()), form.at))?;
        self.file(&path, &bytes)
    }

    /// The macro in force under this name. Keywords are nearly always
    /// written in lower case, so the lower-cased copy is made only when
    /// needed: this runs for every list of the largest files.
    fn lookup(&self, name: &str) -> Option<&Arc<[Node]>> {
        let find = |key: &str| self.macros.get(key).or_else(|| self.later.get(key));
        if name.bytes().any(|b| b.is_ascii_uppercase() || !b.is_ascii()) {
            find(&name.to_lowercase())
        } else {
            find(name)
        }
    }

    /// How many nodes `n` holds when no macro is used anywhere in it
    /// (`None` when one is), so that it can be kept as it is instead of
    /// rebuilt; an error when it nests deeper than `room`.
    fn scan(&self, n: &Node, room: usize) -> Result<Option<usize>, ZrfError> {
        let Kind::List(items) = &n.kind else { return Ok(Some(1)) };
        if room == 0 {
            return Err(self.error(format!("lists nested deeper than {MAX_NESTING} once macros are used"), n.at));
        }
        if n.head().and_then(|h| self.lookup(h)).is_some() {
            return Ok(None);
        }
        let mut total = 1usize;
        for it in items.iter() {
            match self.scan(it, room - 1)? {
                Some(c) => total = total.saturating_add(c),
                None => return Ok(None),
            }
        }
        Ok(Some(total))
    }

    /// Appends `node` to `out`, expanded: a macro use is replaced by the
    /// body's items (spliced, so one use may give none or several), a
    /// list by the list of its expanded items.
    ///
    /// `outer` holds the arguments of the macro use whose body `node`
    /// came from: a macro used inside another with fewer arguments than
    /// its body names takes the missing ones from there, as Zillions
    /// did. Real files rely on it: `pasang.zrf`'s `(common-slide)` uses
    /// `$2`…`$4` of the `slide-N` it is written in.
    fn item(&mut self, node: Node, out: &mut Vec<Node>, nesting: usize, depth: usize, outer: &[Node]) -> Result<(), ZrfError> {
        if let Some(count) = self.scan(&node, MAX_NESTING.saturating_sub(nesting))? {
            self.charge(count, 0, node.at)?;
            out.push(node);
            return Ok(());
        }
        let body = node.head().and_then(|h| self.lookup(h)).cloned();
        match (node.kind, body) {
            (Kind::List(items), Some(body)) => {
                if depth >= MAX_MACRO_DEPTH {
                    let name = items.first().and_then(Node::sym).unwrap_or("");
                    let msg = format!("macro `{name}` used {MAX_MACRO_DEPTH} deep inside macros: does it use itself?");
                    return Err(self.error(msg, node.at));
                }
                let own = items.get(1..).unwrap_or(&[]);
                let mut args = own.to_vec();
                args.extend(outer.iter().skip(own.len()).cloned());
                for b in body.iter() {
                    if let Some(n) = self.subst(b, &args)? {
                        self.item(n, out, nesting, depth + 1, &args)?;
                    }
                }
            }
            (Kind::List(items), None) => {
                let mut inner = Vec::with_capacity(items.len());
                for it in items.iter() {
                    self.item(it.clone(), &mut inner, nesting + 1, depth, outer)?;
                }
                self.charge(1, 0, node.at)?;
                out.push(Node { kind: Kind::List(inner.into()), at: node.at });
            }
            (kind, _) => {
                self.charge(1, 0, node.at)?;
                out.push(Node { kind, at: node.at });
            }
        }
        Ok(())
    }

    /// A copy of the macro body's node `b` with `$1`…`$9` replaced by the
    /// arguments. A symbol that is just `$N` becomes the argument itself
    /// (a list stays a list) and vanishes when the use gave no N-th
    /// argument; inside longer symbols and strings `$N` is replaced by the
    /// argument's text (`$1$2` with `t s` gives `ts`).
    fn subst(&mut self, b: &Node, args: &[Node]) -> Result<Option<Node>, ZrfError> {
        Ok(match self.subst_changed(b, args)? {
            Subst::Same => Some(b.clone()),
            Subst::New(n) => Some(n),
            Subst::Gone => None,
        })
    }

    /// `subst`, telling a node with no `$N` inside (kept shared, not
    /// copied) from a new one.
    fn subst_changed(&mut self, b: &Node, args: &[Node]) -> Result<Subst, ZrfError> {
        match &b.kind {
            Kind::Sym(s) if s.contains('$') => {
                if let Some(n) = whole_param(s) {
                    return match args.get(n) {
                        Some(a) => {
                            self.charge(count(a), 0, b.at)?;
                            Ok(Subst::New(a.clone()))
                        }
                        None => Ok(Subst::Gone),
                    };
                }
                let t = self.splice_text(s, args, b.at)?;
                Ok(Subst::New(Node { kind: Kind::Sym(t.into()), at: b.at }))
            }
            Kind::Str(s) if s.contains('$') => {
                let t = self.splice_text(s, args, b.at)?;
                Ok(Subst::New(Node { kind: Kind::Str(t.into()), at: b.at }))
            }
            Kind::List(v) => {
                let mut changed: Option<Vec<Node>> = None;
                for (i, it) in v.iter().enumerate() {
                    let r = self.subst_changed(it, args)?;
                    if let (None, Subst::Same) = (&changed, &r) {
                        continue;
                    }
                    let items = changed.get_or_insert_with(|| v.get(..i).unwrap_or(&[]).to_vec());
                    match r {
                        Subst::Same => items.push(it.clone()),
                        Subst::New(n) => items.push(n),
                        Subst::Gone => {}
                    }
                }
                Ok(match changed {
                    None => Subst::Same,
                    Some(items) => Subst::New(Node { kind: Kind::List(items.into()), at: b.at }),
                })
            }
            _ => Ok(Subst::Same),
        }
    }

    /// `s` with each `$N` replaced by argument N's text; the length is
    /// charged before the text is built, so `$1$1$1…` nested in macros
    /// cannot allocate past the budget.
    fn splice_text(&mut self, s: &str, args: &[Node], at: Span) -> Result<String, ZrfError> {
        let mut len = 0usize;
        for_parts(s, |part| {
            len = len.saturating_add(match part {
                Part::Lit(l) => l.len(),
                Part::Param(n) => args.get(n).map_or(0, text_len),
            })
        });
        self.charge(1, len, at)?;
        let mut out = String::with_capacity(len);
        for_parts(s, |part| match part {
            Part::Lit(l) => out.push_str(l),
            Part::Param(n) => {
                if let Some(a) = args.get(n) {
                    render(a, &mut out);
                }
            }
        });
        Ok(out)
    }

    fn charge(&mut self, nodes: usize, text: usize, at: Span) -> Result<(), ZrfError> {
        self.nodes = self.nodes.saturating_add(nodes);
        self.text = self.text.saturating_add(text);
        if self.nodes > MAX_NODES {
            return Err(self.error(format!("macros make more than {MAX_NODES} nodes: a macro that multiplies itself?"), at));
        }
        if self.text > MAX_TEXT_BYTES {
            return Err(self.error(format!("macros make more than {MAX_TEXT_BYTES} bytes of text"), at));
        }
        Ok(())
    }

    fn error(&self, message: impl Into<String>, at: Span) -> ZrfError {
        let place = usize::try_from(at.file)
            .ok()
            .and_then(|i| self.files.get(i))
            .map(|f| sexpr::place(&f.path, &f.text, at.offset as usize));
        ZrfError { message: message.into(), place }
    }
}

fn bare(message: &str) -> ZrfError {
    ZrfError { message: message.into(), place: None }
}

/// `$N` (N from 1, as many digits as follow: Ragnarok's macros use
/// `$10`) alone: the index of the argument it stands for.
fn whole_param(s: &str) -> Option<usize> {
    match param_at(s.as_bytes(), 0) {
        Some((n, len)) if len == s.len() => Some(n),
        _ => None,
    }
}

/// The parameter `$N` starting at byte `i`: its argument's index and its
/// length in bytes. `$0` and `$` without a digit are text; a number too
/// long for any use is one no use has an argument for.
fn param_at(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    if bytes.get(i) != Some(&b'$') {
        return None;
    }
    let digits = bytes.get(i + 1..)?.iter().take_while(|b| b.is_ascii_digit()).count();
    let text = std::str::from_utf8(bytes.get(i + 1..i + 1 + digits)?).ok()?;
    match text.parse::<usize>() {
        Ok(0) => None,
        Ok(n) => Some((n - 1, digits + 1)),
        Err(_) if digits > 0 && !text.bytes().all(|b| b == b'0') => Some((usize::MAX, digits + 1)),
        Err(_) => None,
    }
}

enum Subst {
    Same,
    New(Node),
    /// `$N` with no N-th argument.
    Gone,
}

enum Part<'a> {
    Lit(&'a str),
    Param(usize),
}

/// Splits text into literal runs and `$N` (`param_at`); any other `$`
/// is text.
fn for_parts<'a>(s: &'a str, mut f: impl FnMut(Part<'a>)) {
    let mut lit_start = 0;
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if let Some((n, len)) = param_at(bytes, i) {
            f(Part::Lit(s.get(lit_start..i).unwrap_or("")));
            f(Part::Param(n));
            i += len;
            lit_start = i;
        } else {
            i += 1;
        }
    }
    f(Part::Lit(s.get(lit_start..).unwrap_or("")));
}

/// A node as text, for a list argument pasted into a symbol or string.
fn render(n: &Node, out: &mut String) {
    match &n.kind {
        Kind::Sym(s) | Kind::Str(s) => out.push_str(s),
        Kind::List(v) => {
            out.push('(');
            for (i, it) in v.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                render(it, out);
            }
            out.push(')');
        }
    }
}

fn text_len(n: &Node) -> usize {
    match &n.kind {
        Kind::Sym(s) | Kind::Str(s) => s.len(),
        Kind::List(v) => v.iter().map(text_len).fold(v.len() + 1, usize::saturating_add),
    }
}

fn count(n: &Node) -> usize {
    match &n.kind {
        Kind::List(v) => v.iter().map(count).fold(1, usize::saturating_add),
        _ => 1,
    }
}

/// `name` as written in an include (backslashes or slashes, any case)
/// found under `dir`: Zillions ran on Windows, where file names ignore
/// case, and the games were copied to systems where they do not.
fn find_file(dir: &Path, name: &str) -> Option<PathBuf> {
    let mut path = dir.to_path_buf();
    for part in name.split(['/', '\\']) {
        match part {
            "" | "." => continue,
            ".." => {
                path.push("..");
                continue;
            }
            _ => {}
        }
        let exact = path.join(part);
        if exact.exists() {
            path = exact;
            continue;
        }
        let found = std::fs::read_dir(&path)
            .ok()?
            .filter_map(Result::ok)
            .find(|e| e.file_name().to_str().is_some_and(|n| n.eq_ignore_ascii_case(part)))?;
        path = found.path();
    }
    path.is_file().then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn show(nodes: &[Node]) -> String {
        let mut s = String::new();
        for (i, n) in nodes.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            match &n.kind {
                Kind::Str(t) => s.push_str(&format!("{t:?}")),
                Kind::List(v) => s.push_str(&format!("({})", show(v))),
                Kind::Sym(t) => s.push_str(t),
            }
        }
        s
    }

    fn run(text: &str) -> Result<String, ZrfError> {
        let mut files = Vec::new();
        expand_file(Path::new("t.zrf"), text.as_bytes(), &mut files).map(|n| show(&n))
    }

    #[test]
    fn concatenation_in_symbols_and_strings() {
        let t = r#"(define tile (name $1$2) (image W "../Images/margo/$3.bmp" B "../Images/margo/$4.bmp"))
                   (game (piece (tile t s wtsw btsw)))"#;
        assert_eq!(
            run(t).unwrap(),
            r#"(game (piece (name ts) (image W "../Images/margo/wtsw.bmp" B "../Images/margo/btsw.bmp")))"#
        );
    }

    #[test]
    fn list_arguments_splicing_and_missing_arguments() {
        let t = "(define step ($1 (verify empty?) add)) (define two a b) (define none)
                 (moves (step n) (step (opposite n)) (two) (none) x (step))";
        assert_eq!(run(t).unwrap(), "(moves (n (verify empty?) add) ((opposite n) (verify empty?) add) a b x ((verify empty?) add))");
        // `$` not followed by a digit, and `$0`, are text.
        assert_eq!(run("(define m ($1 $ $0 a$x)) (m q)").unwrap(), "(q $ $0 a$x)");
        // Past nine arguments: `$10` is the tenth, in symbols too.
        assert_eq!(run("(define m ($10 x$10 $1)) (m a b c d e f g h i j)").unwrap(), "(j xj a)");
    }

    #[test]
    fn a_macro_inside_a_macro_takes_missing_arguments_from_its_user() {
        let t = "(define inner ($2 (verify $3?))) (define outer ($1 (inner) (inner x))) (moves (outer n e empty) (inner))";
        // `(inner x)` keeps its own first argument and takes the second and
        // third from `outer`'s use; at top level what is missing is gone.
        assert_eq!(run(t).unwrap(), "(moves (n (e (verify empty?)) (e (verify empty?))) ((verify ?)))");
    }

    #[test]
    fn a_macro_may_be_used_before_its_definition() {
        // The first definition below serves uses above it; from there on,
        // the definition in force.
        let t = "(x (b)) (define b 1) (x (b)) (define b 2) (x (b))";
        assert_eq!(run(t).unwrap(), "(x 1) (x 1) (x 2)");
    }

    #[test]
    fn redefinition_nesting_case_and_placement() {
        let t = "(define a 1) (x (a)) (define A 2) (x (a))
                 (define inner (i $1)) (define outer (o (INNER $1$1)))
                 (game (outer z)) (define late (l)) (variant (late))";
        assert_eq!(run(t).unwrap(), "(x 1) (x 2) (game (o (i zz))) (variant (l))");
    }

    #[test]
    fn self_use_stops_at_depth() {
        let e = run("(define a (a)) (game (a))").unwrap_err();
        assert!(e.message.contains("deep inside macros"), "{e}");
        assert_eq!(e.place.as_deref(), Some("t.zrf:1:11"));
    }

    #[test]
    fn macro_bomb_is_a_quick_clean_error() {
        let mut t = String::new();
        for (a, b) in ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"].iter().zip(["b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]) {
            t.push_str(&format!("(define {a} {})\n", format!("({b}) ").repeat(10)));
        }
        t.push_str("(game (a))");
        let start = Instant::now();
        let e = run(&t).unwrap_err();
        assert!(e.message.contains("nodes"), "{e}");
        assert!(start.elapsed().as_secs() < 10);
        // Text doubling through concatenation is stopped too.
        let mut t = String::from("(define t0 $1$1)\n");
        for i in 1..40 {
            t.push_str(&format!("(define t{i} (t{} $1$1))\n", i - 1));
        }
        t.push_str("(game (t39 \"xxxxxxxxxxxxxxxx\"))");
        let e = run(&t).unwrap_err();
        assert!(e.message.contains("bytes"), "{e}");
    }

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("axforth-zrf-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(d.join("Sub")).unwrap();
        d
    }

    #[test]
    fn include_relative_any_case_backslashes() {
        let d = temp_dir("inc");
        std::fs::write(d.join("Sub").join("Common.INC"), "(define grid-common (start-rectangle 0 0 $1 $1))\n(game-part)").unwrap();
        let main = d.join("main.zrf");
        let text = "(include \"sub\\common.inc\")\n(game (grid (grid-common 9)))";
        std::fs::write(&main, text).unwrap();
        let mut files = Vec::new();
        let nodes = expand_file(&main, text.as_bytes(), &mut files).unwrap();
        assert_eq!(show(&nodes), "(game-part) (game (grid (start-rectangle 0 0 9 9)))");
        assert_eq!(files.len(), 2);
        assert!(files[1].path.ends_with("Common.INC"));
        // Spans of included nodes name the included file.
        assert_eq!(nodes[0].at.file, 1);
        let missing = "(include \"nothere.inc\")";
        let e = expand_file(&main, missing.as_bytes(), &mut Vec::new()).unwrap_err();
        assert!(e.message.contains("not found"), "{e}");
        assert_eq!(e.place.as_deref(), Some(format!("{}:1:1", main.display()).as_str()));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn include_cycle_is_an_error() {
        let d = temp_dir("cycle");
        std::fs::write(d.join("a.inc"), "(include \"b.inc\")").unwrap();
        std::fs::write(d.join("b.inc"), "(x)\n(include \"A.inc\")").unwrap();
        let main = d.join("main.zrf");
        let text = "(include \"a.inc\")";
        std::fs::write(&main, text).unwrap();
        let e = expand_file(&main, text.as_bytes(), &mut Vec::new()).unwrap_err();
        assert!(e.message.contains("cycle"), "{e}");
        assert!(e.place.as_deref().unwrap().ends_with("b.inc:2:1"), "{e}");
        // A file including itself.
        std::fs::write(&main, "(include \"main.zrf\")").unwrap();
        let e = expand_file(&main, b"(include \"main.zrf\")", &mut Vec::new()).unwrap_err();
        assert!(e.message.contains("cycle"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }
}
