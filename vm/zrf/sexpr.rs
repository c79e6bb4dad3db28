//! Text → nodes: the s-expression reader as Zillions read it, and the
//! decoding of a `.zrf`'s bytes into text.
//!
//! Owns: `Span` and `ZrfError` (a place in the files read, and what went
//! wrong there), `Node` (symbol, string, list, each with its `Span`), `decode`
//! (bytes in any encoding → text), `parse` (text → top-level nodes) and
//! `place` (a byte offset → "file:line:col").

use std::fmt;
use std::path::Path;
use std::sync::Arc;

/// A place in one of the files read (the `.zrf` and what it includes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    /// Index into `Zrf::files`.
    pub file: u32,
    /// Byte offset in that file's decoded text.
    pub offset: u32,
}

/// What went wrong reading a `.zrf`, and where (`FORTHSCRIPT.md` §4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZrfError {
    pub message: String,
    /// "file:line:col", when the error has a place.
    pub place: Option<String>,
}

impl fmt::Display for ZrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error: {}", self.message)?;
        if let Some(p) = &self.place {
            write!(f, "\n  --> {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ZrfError {}

/// Deepest list nesting read or produced. Real files nest about 20 deep;
/// the bound keeps every recursive walk over nodes (expansion, the model,
/// `Drop`) far from the end of a thread's stack on hostile input.
pub const MAX_NESTING: usize = 256;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Any run of other characters: `a1`, `?C`, `-`, `$1$2`, `-1`.
    /// Numbers are symbols that parse as integers (see `Node::int`).
    /// Text is shared (`Arc`, so a `Zrf` can go to other threads): macros copy the same symbols millions of
    /// times in the largest real files.
    Sym(Arc<str>),
    /// `"…"` as written: no escapes (`"images\Chess\a.bmp"` keeps its
    /// backslashes, and a description's `\\` line break stays as text).
    Str(Arc<str>),
    /// Shared (`Arc`): a variant's declarations are the game block's,
    /// and a macro body's lists without `$N` are the same in every use,
    /// so copies cost nothing.
    List(Arc<[Node]>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    pub kind: Kind,
    pub at: Span,
}

impl Node {
    pub fn sym(&self) -> Option<&str> {
        match &self.kind {
            Kind::Sym(s) => Some(s),
            _ => None,
        }
    }

    pub fn string(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A symbol's or a string's text: many forms accept either
    /// (`(title Chess)` as well as `(title "Chess")`).
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Sym(s) | Kind::Str(s) => Some(s),
            Kind::List(_) => None,
        }
    }

    pub fn int(&self) -> Option<i64> {
        self.sym().and_then(|s| s.parse().ok())
    }

    pub fn list(&self) -> Option<&[Node]> {
        match &self.kind {
            Kind::List(v) => Some(v.as_ref()),
            _ => None,
        }
    }

    /// The symbol a list starts with (`piece` for `(piece …)`).
    pub fn head(&self) -> Option<&str> {
        self.list()?.first()?.sym()
    }

    /// Whether this is a list headed by `keyword`, without case as
    /// Zillions compared keywords.
    pub fn is_form(&self, keyword: &str) -> bool {
        self.head().is_some_and(|h| h.eq_ignore_ascii_case(keyword))
    }

    /// A list's items after its head; empty for anything else.
    pub fn args(&self) -> &[Node] {
        self.list().and_then(|v| v.get(1..)).unwrap_or(&[])
    }
}

/// Bytes → text. Valid UTF-8 is taken as is (a BOM dropped). Otherwise the
/// file was written in a Windows code page, and which one is not recorded:
/// Russian authors wrote CP1251, everyone else CP1252. Cyrillic words are
/// runs of letters that CP1251 puts in 0xC0..=0xFF (plus Ё/ё at 0xA8/0xB8),
/// so in a Russian file nearly every high byte has a high-letter
/// neighbour; Western text has an accented letter here and there between
/// ASCII ones (`shôgi`), and stray bytes such as 0xA0 (no-break space)
/// stand alone. So: CP1251 when most high bytes sit next to another
/// high letter. Both tables cover every byte, so decoding never fails.
pub fn decode(bytes: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return s.strip_prefix('\u{feff}').unwrap_or(s).to_owned();
    }
    let table = if looks_cyrillic(bytes) { decode_1251 } else { decode_1252 };
    bytes.iter().map(|&b| table(b)).collect()
}

fn looks_cyrillic(bytes: &[u8]) -> bool {
    let letter = |b: u8| b >= 0xC0 || b == 0xA8 || b == 0xB8;
    let (mut high, mut paired) = (0usize, 0usize);
    for (i, &b) in bytes.iter().enumerate() {
        if b < 0x80 {
            continue;
        }
        high += 1;
        let prev = i.checked_sub(1).and_then(|j| bytes.get(j)).copied();
        let next = bytes.get(i + 1).copied();
        if letter(b) && (prev.is_some_and(letter) || next.is_some_and(letter)) {
            paired += 1;
        }
    }
    paired * 2 > high
}

/// CP1251 0x80..=0xBF; 0xC0..=0xFF are А..я in order. Bytes the code page
/// leaves undefined map to the same code point, as Windows did.
const CP1251_80: [u16; 64] = [
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021, 0x20AC, 0x2030, 0x0409, 0x2039,
    0x040A, 0x040C, 0x040B, 0x040F, 0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x0098, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F, 0x00A0, 0x040E, 0x045E, 0x0408,
    0x00A4, 0x0490, 0x00A6, 0x00A7, 0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
    0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7, 0x0451, 0x2116, 0x0454, 0x00BB,
    0x0458, 0x0405, 0x0455, 0x0457,
];

/// CP1252 0x80..=0x9F; 0xA0..=0xFF are Latin-1.
const CP1252_80: [u16; 32] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
];

fn from_u16(u: u16) -> char {
    char::from_u32(u32::from(u)).unwrap_or('\u{fffd}')
}

fn decode_1251(b: u8) -> char {
    match b {
        0..=0x7F => char::from(b),
        0xC0..=0xFF => from_u16(0x0410 + u16::from(b - 0xC0)),
        _ => CP1251_80.get(usize::from(b - 0x80)).map_or('\u{fffd}', |&u| from_u16(u)),
    }
}

fn decode_1252(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_80.get(usize::from(b - 0x80)).map_or('\u{fffd}', |&u| from_u16(u)),
        _ => char::from(b),
    }
}

/// Line and column (1-based; the column counts characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = text.get(..end).unwrap_or("");
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
    (line, col)
}

/// Where each line of a text starts, for `line_col` over many offsets
/// of one text (each a search, not a scan from the start).
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        LineIndex { starts: std::iter::once(0).chain(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1)).collect() }
    }

    /// `line_col(text, offset)`, for the text this indexes.
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let mut end = offset.min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= end).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        (line, text.get(start..end).map_or(0, |s| s.chars().count()) + 1)
    }
}

/// "file:line:col" for a byte offset in `text`, read from `path`.
pub fn place(path: &Path, text: &str, offset: usize) -> String {
    let (line, col) = line_col(text, offset);
    format!("{}:{line}:{col}", path.display())
}

/// Zillions ran on Windows, where text can hold the no-break space and
/// stray control characters; both separate tokens like a space does.
fn is_space(c: char) -> bool {
    c.is_whitespace() || c.is_control()
}

/// Reads every top-level node of `text` (file number `file` in
/// `Zrf::files`; `path` names it in errors). Iterative, so the nesting
/// bound is the only limit on depth.
pub fn parse(text: &str, file: u32, path: &Path) -> Result<Vec<Node>, ZrfError> {
    let err = |message: String, offset: usize| ZrfError {
        message,
        place: Some(place(path, text, offset)),
    };
    let span = |offset: usize| Span {
        file,
        offset: u32::try_from(offset).unwrap_or(u32::MAX),
    };
    if u32::try_from(text.len()).is_err() {
        return Err(ZrfError { message: format!("{} is larger than 4 GB", path.display()), place: None });
    }
    // (offset of the open paren, items so far); frame 0 is the top level.
    let mut frames: Vec<(usize, Vec<Node>)> = vec![(0, Vec::new())];
    let mut pos = 0;
    while let Some(c) = text.get(pos..).and_then(|s| s.chars().next()) {
        let start = pos;
        pos += c.len_utf8();
        match c {
            ';' => pos = text.get(pos..).and_then(|s| s.find('\n')).map_or(text.len(), |i| pos + i),
            '(' => {
                if frames.len() > MAX_NESTING {
                    return Err(err(format!("lists nested deeper than {MAX_NESTING}"), start));
                }
                frames.push((start, Vec::new()));
            }
            ')' => {
                if frames.len() < 2 {
                    return Err(err("`)` with no `(` to close".into(), start));
                }
                let (open, items) = frames.pop().unwrap_or_default();
                let node = Node { kind: Kind::List(items.into()), at: span(open) };
                if let Some((_, parent)) = frames.last_mut() {
                    parent.push(node);
                }
            }
            '"' => {
                let Some(len) = text.get(pos..).and_then(|s| s.find('"')) else {
                    return Err(err("string not closed: no `\"` before the end of the file".into(), start));
                };
                let s: Arc<str> = text.get(pos..pos + len).unwrap_or("").into();
                pos += len + 1;
                if let Some((_, items)) = frames.last_mut() {
                    items.push(Node { kind: Kind::Str(s), at: span(start) });
                }
            }
            c if is_space(c) => {}
            _ => {
                let rest = text.get(start..).unwrap_or("");
                let len = rest
                    .find(|c: char| is_space(c) || matches!(c, '(' | ')' | '"' | ';'))
                    .unwrap_or(rest.len());
                pos = start + len;
                if let Some((_, items)) = frames.last_mut() {
                    items.push(Node { kind: Kind::Sym(rest.get(..len).unwrap_or("").into()), at: span(start) });
                }
            }
        }
    }
    if frames.len() > 1 {
        let open = frames.last().map_or(0, |f| f.0);
        return Err(err("`(` not closed before the end of the file".into(), open));
    }
    Ok(frames.pop().map(|f| f.1).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_index_finds_every_offset_as_a_scan_does() {
        let text = "(a b)\n; é comment\n\n  (c \"d\")\r\nlast";
        let index = LineIndex::new(text);
        for offset in 0..=text.len() + 2 {
            assert_eq!(index.line_col(text, offset), line_col(text, offset), "offset {offset}");
        }
    }

    fn read(text: &str) -> Result<Vec<Node>, ZrfError> {
        parse(text, 0, Path::new("t.zrf"))
    }

    fn show(nodes: &[Node]) -> String {
        nodes.iter().map(show1).collect::<Vec<_>>().join(" ")
    }

    fn show1(n: &Node) -> String {
        match &n.kind {
            Kind::Sym(s) => s.to_string(),
            Kind::Str(s) => format!("{s:?}"),
            Kind::List(v) => format!("({})", show(v)),
        }
    }

    #[test]
    fn symbols_strings_lists_and_comments() {
        let t = "; header\n(game (title \"A b\") ; note\n (players ?C a1 - $1$2 -1 off)\n)";
        let n = read(t).unwrap();
        assert_eq!(show(&n), r#"(game (title "A b") (players ?C a1 - $1$2 -1 off))"#);
        let players = &n[0].list().unwrap()[2];
        assert_eq!(players.args()[4].int(), Some(-1));
        assert_eq!(players.args()[0].int(), None);
        assert!(n[0].is_form("GAME"));
    }

    #[test]
    fn strings_are_raw_and_span_lines() {
        let t = "(image \"images\\Chess\\a.bmp\") (description \"one\\\\\n two\")";
        let n = read(t).unwrap();
        assert_eq!(n[0].args()[0].string(), Some(r"images\Chess\a.bmp"));
        assert_eq!(n[1].args()[0].string(), Some("one\\\\\n two"));
        // `;` inside a string is text, not a comment.
        let n = read("(a \"x ; y\" b)").unwrap();
        assert_eq!(show(&n), r#"(a "x ; y" b)"#);
    }

    #[test]
    fn spans_point_at_each_node() {
        let t = "(a\n  (bc d))";
        let n = read(t).unwrap();
        let inner = &n[0].list().unwrap()[1];
        assert_eq!(inner.at.offset, 5);
        assert_eq!(line_col(t, inner.at.offset as usize), (2, 3));
        assert_eq!(line_col(t, inner.list().unwrap()[1].at.offset as usize), (2, 7));
    }

    #[test]
    fn errors_have_line_and_column() {
        let e = read("(a\n  (b)\n  (c").unwrap_err();
        assert_eq!(e.place.as_deref(), Some("t.zrf:3:3"));
        let e = read("(a)\n é )").unwrap_err();
        assert!(e.message.contains("`)`"), "{e}");
        assert_eq!(e.place.as_deref(), Some("t.zrf:2:4"));
        let e = read("(a \"bc\n").unwrap_err();
        assert!(e.message.contains("string"), "{e}");
        assert_eq!(e.place.as_deref(), Some("t.zrf:1:4"));
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let t = "(".repeat(100_000);
        let e = read(&t).unwrap_err();
        assert!(e.message.contains("nested"), "{e}");
        let ok = format!("{}{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
        assert!(read(&ok).is_ok());
    }

    #[test]
    fn cp1251_and_cp1252_and_utf8() {
        // "Волки" in CP1251.
        let bytes = b"(title \"\xc2\xee\xeb\xea\xe8\")";
        assert_eq!(decode(bytes), "(title \"Волки\")");
        // "shôgi" and a no-break space: Western.
        assert_eq!(decode(b"sh\xf4gi\xa0x"), "shôgi\u{a0}x");
        assert_eq!(decode(b"\x80 \x93q\x94"), "€ \u{201c}q\u{201d}");
        assert_eq!(decode("Волки é".as_bytes()), "Волки é");
        assert_eq!(decode(b"\xef\xbb\xbf(a)"), "(a)");
        // Every byte decodes, in both tables.
        let all: Vec<u8> = (0..=255u8).collect();
        assert_eq!(decode(&all).chars().count(), 256);
        assert_eq!(all.iter().map(|&b| decode_1251(b)).filter(|&c| c == '\u{fffd}').count(), 0);
    }

    #[test]
    fn no_break_space_separates_tokens() {
        let n = read("(a\u{a0}b)").unwrap();
        assert_eq!(n[0].list().unwrap().len(), 2);
    }
}
