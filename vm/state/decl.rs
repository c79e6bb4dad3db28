//! The declaration blocks open while a game's file loads, with what each
//! has collected, and the `{setup}` lines kept as names: the plain data
//! `game/declare.rs` fills and a new game reads.
//!
//! May touch the state floor and the floor below.

use super::{MoveListDecl, PlayerDecl, Turn};

/// Declaration blocks that are open, with what they have collected.
#[derive(Clone, Default)]
pub struct OpenBlocks {
    pub(crate) board: bool,
    pub(crate) directions: bool,
    pub(crate) symmetries_depth: Option<u32>,
    pub(crate) players: Option<Vec<PlayerDecl>>,
    pub(crate) turns: Option<(Vec<Turn>, Option<usize>)>,
    pub(crate) moves: Option<MoveListDecl>,
    pub(crate) priorities: Option<Vec<i32>>,
    pub(crate) pieces: bool,
    pub(crate) setup: Option<Vec<SetupLine>>,
    /// The parts of the board region that are the board's own: its
    /// variables and arrays and its cells, (address, bytes). A new game
    /// zeroes them, as the original's `$NewGame` erased the board; other
    /// data allotted inside `{board … board}` keeps its load-time value.
    pub board_parts: Vec<(i32, i32)>,
    /// The blocks open now, outermost first, and where each opened.
    pub(crate) open: Vec<(&'static str, crate::lexer::Pos)>,
}

/// One `{setup} Player Piece pos…` line, kept as the names it gave. The
/// original recorded the names and resolved them when a game starts, so a
/// variant may `IS` a `DEFER`red piece word after LOADing the base game.
#[derive(Clone, Debug)]
pub struct SetupLine {
    pub player: String,
    pub piece: String,
    pub positions: Vec<String>,
    /// Where the line is, for errors.
    pub at: crate::lexer::Pos,
}
