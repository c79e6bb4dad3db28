//! The declarations of a `.zrf`, variant by variant, as plain data.
//!
//! Every name keeps the place it was written (`Span`), so that an error
//! about it (a piece the `.4th` does not know) can point into the `.zrf`.
//! Names are kept as written; Zillions compared them without case.

use std::collections::HashSet;
use std::path::PathBuf;

use super::sexpr::{self, Node};
pub use super::sexpr::{Span, ZrfError};

/// A name as written, and where.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Name {
    pub text: String,
    pub at: Span,
}

impl Name {
    /// Zillions compared names without case.
    pub fn is(&self, other: &str) -> bool {
        self.text.eq_ignore_ascii_case(other)
    }
}

/// A file read: the `.zrf` itself is `files[0]`.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub path: PathBuf,
    /// Decoded text (UTF-8 as is; other bytes read as Windows code pages).
    pub text: String,
}

/// A whole `.zrf`: its files and its variants in menu order.
#[derive(Clone, Debug)]
pub struct Zrf {
    pub path: PathBuf,
    pub files: Vec<SourceFile>,
    /// The playable variants in the order Zillions' menu listed them (the
    /// `(game …)` block where it stands among the `(variant …)` blocks);
    /// separators (`(title "-")`) are left out.
    pub variants: Vec<Variant>,
}

impl Zrf {
    /// "file:line:col" of a span in one of the files read.
    pub fn place(&self, at: Span) -> String {
        match usize::try_from(at.file).ok().and_then(|i| self.files.get(i)) {
            Some(f) => sexpr::place(&f.path, &f.text, at.offset as usize),
            None => format!("{}:?", self.path.display()),
        }
    }

    /// The variant of that title, compared without case.
    pub fn variant(&self, title: &str) -> Option<&Variant> {
        self.variants.iter().find(|v| v.title.is(title))
    }

    /// The variant Zillions opened first: the one marked `(default)`,
    /// else the first.
    pub fn default_variant(&self) -> Option<&Variant> {
        self.variants.iter().find(|v| v.default).or_else(|| self.variants.first())
    }
}

/// One playable variant: the game block's declarations, with those the
/// variant repeats replaced by its own.
#[derive(Clone, Debug, Default)]
pub struct Variant {
    pub title: Name,
    /// `(default)`: the variant Zillions opened first.
    pub default: bool,
    /// `(engine "…/axiom.dll")` as written: an Axiom game.
    pub engine: Option<Name>,
    pub description: Option<String>,
    pub players: Vec<Name>,
    pub turn_order: TurnOrder,
    pub board: Option<BoardDecl>,
    pub board_setup: Vec<SetupEntry>,
    pub pieces: Vec<PieceDecl>,
    /// `(option "name" value)`, value as written (`true`, `forced`, `2`).
    pub options: Vec<(Name, String)>,
    /// The variant's declarations after inheritance, macros expanded, in
    /// the game block's order: what the shapes above do not read (moves,
    /// goals, `move-priorities`) is read from here.
    pub raw: Vec<Node>,
}

#[derive(Clone, Debug, Default)]
pub struct TurnOrder {
    pub turns: Vec<TurnEntry>,
    /// Index into `turns` where `(repeat)` stands: the order loops back there.
    pub repeat_from: Option<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct TurnEntry {
    pub player: Name,
    /// `(White Black)`: White moves Black's pieces.
    pub for_player: Option<Name>,
    /// `(White move-type)`.
    pub move_type: Option<Name>,
}

/// `(White (Pawn a2 b2) (Queen off 3))`: one piece type of one player.
#[derive(Clone, Debug, Default)]
pub struct SetupEntry {
    pub player: Name,
    pub piece: Name,
    pub positions: Vec<Name>,
    /// `off N`: N pieces in reserve.
    pub off: Option<Name>,
}

#[derive(Clone, Debug, Default)]
pub struct PieceDecl {
    pub name: Name,
    /// (player, image file as written): `(image White "w.bmp" Black "b.bmp")`.
    pub images: Vec<(Name, String)>,
    /// `(dummy)`: a piece Zillions needs and no one plays.
    pub dummy: bool,
}

/// A rectangle in the board picture's pixels: left, top, right, bottom.
pub type Rect = [i32; 4];

#[derive(Clone, Debug, Default)]
pub struct BoardDecl {
    /// `(image "a.bmp" "b.bmp")`: the first is the default picture.
    pub images: Vec<String>,
    pub grids: Vec<Grid>,
    /// `(positions (a1 x1 y1 x2 y2) …)`.
    pub positions: Vec<(Name, Rect)>,
    /// `(links dir (p q) …)`.
    pub links: Vec<(Name, Vec<(Name, Name)>)>,
    /// `(unlink p q …)` or `(unlink (p dir) …)`: kept as the names given.
    pub unlinks: Vec<Vec<Name>>,
    pub kill_positions: Vec<Name>,
    pub dummies: Vec<Name>,
    pub zones: Vec<Zone>,
    /// `(symmetry Player (n s) (s n) …)`.
    pub symmetries: Vec<(Name, Vec<(Name, Name)>)>,
}

#[derive(Clone, Debug, Default)]
pub struct Grid {
    pub start_rectangle: Rect,
    pub dimensions: Vec<Dimension>,
    /// `(directions (n 0 -1) …)`: a step per dimension.
    pub directions: Vec<(Name, Vec<i32>)>,
}

/// `("a/b/c" (50 0))`: the names along one dimension and the pixel step.
#[derive(Clone, Debug, Default)]
pub struct Dimension {
    pub names: Vec<Name>,
    pub step: [i32; 2],
}

#[derive(Clone, Debug, Default)]
pub struct Zone {
    pub name: Name,
    pub players: Vec<Name>,
    pub positions: Vec<Name>,
}

impl BoardDecl {
    /// Every position of the board and its rectangle in the picture: the
    /// grids' positions (names are the dimensions' names joined, first
    /// dimension first; each step adds its pixel offset to the start
    /// rectangle), then the explicit `positions`; `kill-positions` left out.
    pub fn places(&self) -> Vec<(String, Rect)> {
        let mut out = Vec::new();
        for grid in &self.grids {
            let mut names = vec![(String::new(), grid.start_rectangle)];
            for dim in &grid.dimensions {
                let mut next = Vec::with_capacity(names.len() * dim.names.len());
                for (prefix, rect) in &names {
                    for (k, n) in dim.names.iter().enumerate() {
                        let k = k as i32;
                        let (dx, dy) = (dim.step[0].saturating_mul(k), dim.step[1].saturating_mul(k));
                        let r = [rect[0].saturating_add(dx), rect[1].saturating_add(dy), rect[2].saturating_add(dx), rect[3].saturating_add(dy)];
                        next.push((format!("{prefix}{}", n.text), r));
                    }
                }
                names = next;
            }
            if !grid.dimensions.is_empty() {
                out.extend(names);
            }
        }
        out.extend(self.positions.iter().map(|(n, r)| (n.text.clone(), *r)));
        let killed: HashSet<String> = self.kill_positions.iter().map(|k| k.text.to_ascii_lowercase()).collect();
        if !killed.is_empty() {
            out.retain(|(n, _)| !killed.contains(&n.to_ascii_lowercase()));
        }
        out
    }
}
