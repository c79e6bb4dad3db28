//! Source text: files as bytes, the `logos` tokenizer, and positions.
//!
//! Owns: `SourceFile` (a loaded file's bytes and line table), `Pos`
//! (file + byte offset, turned into line:col only when an error is shown),
//! and the two ways of reading input: whole tokens (`next_token`) and raw
//! text for parsing words like `(`, `."` and `\` (`take_until`).
//! Touches nothing else.

use logos::Logos;
use std::path::PathBuf;

/// A token is any run of non-whitespace bytes; bytes > 127 are ordinary
/// word characters, so Latin-1 comments and odd encodings never fail.
#[derive(Logos, Debug, Clone, Copy, PartialEq)]
#[logos(source = [u8])]
#[logos(skip br"[ \t\r\n\x0C]+")]
enum Token {
    #[regex(br"[^ \t\r\n\x0C]+")]
    Word,
}

pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0C)
}

/// The next token at or after `pos`, as a byte range.
pub fn next_token(text: &[u8], pos: usize) -> Option<(usize, usize)> {
    let rest = text.get(pos..)?;
    let mut lexer = Token::lexer(rest);
    match lexer.next() {
        Some(Ok(Token::Word)) => {
            let span = lexer.span();
            Some((pos + span.start, pos + span.end))
        }
        _ => None,
    }
}

/// A place in the source: which file and which byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub file: u32,
    pub offset: u32,
}

impl Pos {
    /// For code that has no source (primitive thunks, native words).
    pub const NONE: Pos = Pos { file: u32::MAX, offset: 0 };
    pub fn is_none(self) -> bool {
        self.file == u32::MAX
    }
}

pub struct SourceFile {
    /// The name shown in messages (as the user or the LOAD gave it).
    pub name: String,
    /// Canonical path for LOAD cycle detection and relative LOADs.
    pub path: Option<PathBuf>,
    pub text: std::rc::Rc<[u8]>,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: String, path: Option<PathBuf>, text: Vec<u8>) -> SourceFile {
        let mut line_starts = vec![0u32];
        for (i, &b) in text.iter().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile { name, path, text: text.into(), line_starts }
    }

    /// 1-based line and column (columns count bytes).
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        (line as u32 + 1, offset - self.line_starts[line] + 1)
    }
}

/// Position as the user sees it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_split_on_all_whitespace_and_keep_high_bytes() {
        let text = b"  : foo\t\r\nbar\xe9 \x0c(x) ";
        let mut pos = 0;
        let mut words = Vec::new();
        while let Some((s, e)) = next_token(text, pos) {
            words.push(text[s..e].to_vec());
            pos = e;
        }
        assert_eq!(words, vec![b":".to_vec(), b"foo".to_vec(), b"bar\xe9".to_vec(), b"(x)".to_vec()]);
    }

    #[test]
    fn line_and_column_are_one_based() {
        let f = SourceFile::new("t".into(), None, b"ab\r\ncd\nef".to_vec());
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(4), (2, 1));
        assert_eq!(f.line_col(8), (3, 2));
    }
}
