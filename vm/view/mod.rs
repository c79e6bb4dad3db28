//! Pictures of a game: the board as SVG (`show --svg`) and a
//! self-contained HTML page that replays a game (`view`, `autoplay --html`).
//!
//! Module map:
//! - this file: what a picture is made of, read off a loaded game — the
//!   `Scene` (where every position is drawn, how every player's pieces
//!   look) and a `Frame` per position of the game (which piece stands where)
//! - `svg`: a scene and one frame as an SVG document
//! - `html`: a scene and every frame of a game as one HTML page with its
//!   move list and controls, and the index page of a tournament
//! - `charts`: the index page's pictures of a tournament's results (Elo,
//!   score over games, W/D/L, crosstable)
//! - `replay`: the frames of a recorded game or of `--after` moves
//! - `artwork`: a scene drawn with a Zillions game's own pictures
//!
//! Reads the game layer (and the tournament's numbers); never changes
//! them, and nothing in the game layer or the interpreter knows about
//! pictures.

pub mod artwork;
pub mod charts;
pub mod html;
pub mod replay;
pub mod svg;

use crate::game::{generate::player_index, Game, PIECE_TYPE_MASK, PLAYER_MASK};
use crate::vm::Vm;
use std::collections::HashMap;

pub use artwork::Artwork;

/// The side of a square, in SVG user units.
pub const SQUARE: f64 = 100.0;
/// The margin for the coordinates around the grid.
const MARGIN: f64 = 40.0;
/// The gap between the grid and the strip of off-grid positions.
const GAP: f64 = 30.0;

/// A drawn position: a square of the grid or a slot of the off-grid strip.
#[derive(Clone, Debug)]
pub struct Place {
    pub pos: i32,
    pub name: String,
    /// Top-left corner.
    pub x: f64,
    pub y: f64,
    /// Width and height: a square's side, or a rectangle of the board picture.
    pub w: f64,
    pub h: f64,
    pub shade: Shade,
}

/// How a position's ground is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shade {
    Light,
    Dark,
    /// A grid square cut out of the board (linked to nothing): drawn pale,
    /// since bookkeeping pieces may still stand there.
    Cut,
    /// An off-grid `{position}`, in the strip below the grid.
    Slot,
    /// A position the board picture draws: its rectangle is left unpainted.
    Picture,
}

impl Place {
    pub fn centre(&self) -> (f64, f64) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }
}

/// How the pieces of one player and one type look.
#[derive(Clone, Debug)]
pub struct Style {
    /// "White Man": what the piece is, for people and for tests.
    pub name: String,
    pub fill: &'static str,
    pub ink: &'static str,
    pub label: String,
    /// Drawn with an inner ring: a crowned piece (King).
    pub ring: bool,
    /// Drawn as this picture of the scene's `pictures` instead of a disc.
    pub picture: Option<usize>,
}

/// A picture embedded in the drawing, at its natural size in pixels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    /// A `data:image/png;base64,…` URI.
    pub href: String,
}

/// Everything about a game's picture that does not change during a game.
#[derive(Clone, Debug)]
pub struct Scene {
    pub width: f64,
    pub height: f64,
    pub squares: Vec<Place>,
    pub strip: Vec<Place>,
    /// Coordinate labels: text and centre.
    pub labels: Vec<(String, f64, f64)>,
    pub styles: Vec<Style>,
    /// The size of a position, which discs and strip slots are scaled to:
    /// `SQUARE`, or a typical rectangle of the board picture.
    pub unit: f64,
    /// The board picture, drawn under the positions.
    pub backdrop: Option<Picture>,
    /// The pieces' pictures, each embedded once (`Style::picture`).
    pub pictures: Vec<Picture>,
    /// Pictures that could not be drawn, and how they are drawn instead:
    /// one line each, for the caller to print.
    pub warnings: Vec<String>,
    /// Board content (player | type) to its style.
    style_of: HashMap<i32, usize>,
    /// Indexed by position: where its piece is drawn.
    centres: Vec<Option<(f64, f64)>>,
}

/// The pieces on the board at one moment: (position, style), in
/// position order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame(pub Vec<(i32, usize)>);

/// Piece names that say nothing a colour does not: drawn without a letter.
const PLAIN: &[&str] = &["stone", "disc", "disk", "man", "mark", "checker", "piece", "counter", "seed", "ball", "marble", "pebble", "token", "bead"];

/// Colours by player name, then by seat for other names.
const NAMED: &[(&str, &str)] = &[
    ("white", "#f7f3e8"),
    ("light", "#f7f3e8"),
    ("black", "#262626"),
    ("dark", "#262626"),
    ("red", "#c0392b"),
    ("blue", "#2e6fba"),
    ("green", "#2e8b57"),
    ("yellow", "#f2c12e"),
    ("orange", "#e67e22"),
    ("purple", "#8e44ad"),
    ("brown", "#7b4a2a"),
];
const BY_SEAT: &[&str] = &["#f7f3e8", "#262626", "#c0392b", "#2e6fba", "#2e8b57", "#f2c12e"];
const NEUTRAL_FILL: &str = "#8c8c8c";
pub const LIGHT_SQUARE: &str = "#f0d9b5";
pub const DARK_SQUARE: &str = "#b58863";
pub const CUT_SQUARE: &str = "#ecebe7";
pub const SLOT_SQUARE: &str = "#e4e9ee";

fn player_fill(name: &str, seat: usize, neutral: bool) -> &'static str {
    let lower = name.to_lowercase();
    if let Some((_, c)) = NAMED.iter().find(|(word, _)| lower.contains(word)) {
        return c;
    }
    if neutral {
        return NEUTRAL_FILL;
    }
    BY_SEAT[seat % BY_SEAT.len()]
}

/// Dark ink on a light disc, light ink on a dark one.
fn ink_for(fill: &str) -> &'static str {
    let hex = |i: usize| u8::from_str_radix(fill.get(i..i + 2).unwrap_or("80"), 16).unwrap_or(128) as f64;
    let luminance = 0.299 * hex(1) + 0.587 * hex(3) + 0.114 * hex(5);
    if luminance > 150.0 {
        "#1a1a1a"
    } else {
        "#fafafa"
    }
}

fn style(game: &Game, seat: usize, piece: usize) -> Style {
    let player = &game.players[seat];
    let piece_name = &game.pieces[piece].name;
    let fill = player_fill(&player.name, seat, player.neutral);
    let lower = piece_name.to_lowercase();
    // A plain piece shows its owner's name when that is one letter (X, O).
    let label = if PLAIN.contains(&lower.as_str()) {
        if player.name.chars().count() == 1 {
            player.name.clone()
        } else {
            String::new()
        }
    } else {
        // The letter the terminal board uses: chess's Knight is N beside the King's K.
        crate::game::show::letters(game).get(piece).map(|c| c.to_string()).unwrap_or_default()
    };
    Style { name: format!("{} {}", player.name, piece_name), fill, ink: ink_for(fill), label, ring: lower == "king", picture: None }
}

impl Scene {
    /// The scene of the game loaded in `vm`; its board now decides which
    /// squares are in play (see `playable`).
    pub fn of(vm: &Vm) -> Scene {
        let game = &vm.game;
        let b = &game.board;
        let grid = (b.rows * b.cols).max(0) as usize;
        let on_board = playable(vm);
        let mut squares = Vec::new();
        let mut labels = Vec::new();
        for r in 0..b.rows {
            for c in 0..b.cols {
                let pos = r * b.cols + c;
                let x = MARGIN + c as f64 * SQUARE;
                let y = MARGIN + r as f64 * SQUARE;
                // a1 is dark, as on a chess board, whichever way up.
                let from_a1 = (b.rows - 1 - r) + c;
                let shade = match (on_board.get(pos as usize).copied().unwrap_or(true), from_a1 % 2 == 0) {
                    (false, _) => Shade::Cut,
                    (true, true) => Shade::Dark,
                    (true, false) => Shade::Light,
                };
                squares.push(Place { pos, name: b.name(pos), x, y, w: SQUARE, h: SQUARE, shade });
            }
        }
        let grid_bottom = MARGIN + b.rows.max(0) as f64 * SQUARE;
        for c in 0..b.cols {
            let file = b.grid_name(0, c).trim_end_matches(|ch: char| ch.is_ascii_digit()).to_string();
            labels.push((file, MARGIN + (c as f64 + 0.5) * SQUARE, grid_bottom + MARGIN / 2.0));
        }
        for r in 0..b.rows {
            let rank = if b.flipped { r + 1 } else { b.rows - r };
            labels.push((rank.to_string(), MARGIN / 2.0, MARGIN + (r as f64 + 0.5) * SQUARE));
        }
        // Off-grid positions in rows as wide as the grid (at least four).
        let per_row = (b.cols.max(4)) as usize;
        let strip_top = if grid > 0 { grid_bottom + MARGIN + GAP } else { MARGIN };
        let mut strip = Vec::new();
        for (i, pos) in (grid..b.positions).enumerate() {
            let x = MARGIN + (i % per_row) as f64 * SQUARE;
            let y = strip_top + (i / per_row) as f64 * (SQUARE + MARGIN);
            strip.push(Place { pos: pos as i32, name: b.name(pos as i32), x, y, w: SQUARE, h: SQUARE, shade: Shade::Slot });
        }
        let strip_rows = strip.len().div_ceil(per_row);
        let width = 2.0 * MARGIN + b.cols.max(if strip.is_empty() { 1 } else { per_row as i32 }) as f64 * SQUARE;
        let height = if strip.is_empty() { grid_bottom + MARGIN } else { strip_top + strip_rows as f64 * (SQUARE + MARGIN) };
        let mut styles = Vec::new();
        let mut style_of = HashMap::new();
        for (seat, p) in game.players.iter().enumerate() {
            for piece in 0..game.pieces.len() {
                style_of.insert(p.value | (piece as i32 + 1), styles.len());
                styles.push(style(game, seat, piece));
            }
        }
        let mut centres = vec![None; b.positions];
        for place in squares.iter().chain(&strip) {
            centres[place.pos as usize] = Some(place.centre());
        }
        Scene { width, height, squares, strip, labels, styles, unit: SQUARE, backdrop: None, pictures: Vec::new(), warnings: Vec::new(), style_of, centres }
    }

    pub fn centre(&self, pos: i32) -> Option<(f64, f64)> {
        self.centres.get(pos as usize).copied().flatten()
    }

    /// Every position's centre (or none), for the page's script.
    pub fn centres(&self) -> &[Option<(f64, f64)>] {
        &self.centres
    }

    /// The pieces on the board of `vm` now. A content no player and type
    /// explain (a script wrote a raw number) is left out of the picture.
    pub fn frame(&self, vm: &Vm) -> Frame {
        let b = &vm.game.board;
        let mut pieces = Vec::new();
        for pos in 0..b.positions as i32 {
            let content = b.get(&vm.mem, pos).unwrap_or(0);
            if content == 0 || self.centre(pos).is_none() {
                continue;
            }
            let key = (content & PLAYER_MASK) | (content & PIECE_TYPE_MASK);
            if let Some(&s) = self.style_of.get(&key) {
                pieces.push((pos, s));
            }
        }
        Frame(pieces)
    }
}

/// Which squares belong to the board: those the directions lead to from
/// where pieces stand; on an empty board, the largest group of squares
/// the directions link together. The rest were cut out of the grid (a
/// diamond or a cross board unlinks them). A game without directions
/// keeps every square.
fn playable(vm: &Vm) -> Vec<bool> {
    let b = &vm.game.board;
    let n = b.positions;
    let dirs = b.directions.len() as u32;
    let next = |pos: usize| (0..dirs).map(move |d| b.link(d, pos as i32)).filter(move |&to| to >= 0 && (to as usize) < n).map(|to| to as usize);
    if (0..n).all(|pos| next(pos).next().is_none()) {
        return vec![true; n];
    }
    let mut keep = vec![false; n];
    let mut queue: Vec<usize> = (0..n).filter(|&pos| b.get(&vm.mem, pos as i32).unwrap_or(0) != 0).collect();
    if queue.is_empty() {
        // Empty: grow groups along links both ways; keep the largest.
        let mut group: Vec<usize> = (0..n).collect();
        fn root(group: &mut [usize], mut i: usize) -> usize {
            while group[i] != i {
                group[i] = group[group[i]];
                i = group[i];
            }
            i
        }
        for pos in 0..n {
            for to in next(pos) {
                let (a, c) = (root(&mut group, pos), root(&mut group, to));
                group[a] = c;
            }
        }
        let roots: Vec<usize> = (0..n).map(|i| root(&mut group, i)).collect();
        let mut size = vec![0usize; n];
        for &r in &roots {
            size[r] += 1;
        }
        let largest = (0..n).max_by_key(|&r| size[r]).unwrap_or(0);
        return roots.iter().map(|&r| r == largest).collect();
    }
    for &pos in &queue {
        keep[pos] = true;
    }
    while let Some(pos) = queue.pop() {
        for to in next(pos) {
            if !keep[to] {
                keep[to] = true;
                queue.push(to);
            }
        }
    }
    keep
}

/// The seat (0, 1, …) of a board content's owner.
pub fn seat_of(content: i32) -> usize {
    player_index(content & PLAYER_MASK)
}
