//! The Axiom game layer (AXIOM.md): declarations, move generation, turns.
//!
//! Module map:
//! - `buf`: the arrays of edits and moves native code appends to
//! - `board`: the board layout (positions, names, direction links,
//!   symmetries) and where the board lives in data space
//! - `declare`: the declaration blocks (`{board … board}`, `{pieces`, …)
//! - `moves`: moves as ordered action lists, the nested move lists, move
//!   text in Zillions notation
//! - `generate`: running move words: the generation context, the board
//!   queries and the recorded edits (`verify`, `add-move`, …)
//! - `play`: turns, applying moves, events, game over, the simple engines,
//!   perft, and the words engines call
//! - `show`: the board as text for the CLI
//! - `mailbox`: a native Othello, the speed reference for the benchmark
//!
//! The board is plain data inside the VM's data space: the board variables
//! and arrays a game declares, then one cell per position, all in one
//! contiguous region, so cloning a board is one `memcpy` of that region.
//! Everything else the game layer knows (names, links, turn order, the
//! move lists) lives in `Game`, outside the data space.
//!
//! What the language core needs from it: while a move word runs, the move
//! being built plays the role of HERE, so `COMPILE x` and
//! `n COMPILE-LITERAL` append to the move instead of the dictionary.

pub mod declare;
pub mod generate;
pub mod kernel;
pub mod mailbox;
pub mod play;
pub mod show;

// The plain data moved down to `state/`; these names keep the paths code
// above the machine (search, tournament, the CLI) and the tests use.
pub use crate::state::{board, buf, moves};
pub use crate::state::{
    Action, Board, Engine, Game, MoveListDecl, MoveStore, PieceDecl, PlayerDecl, Turn, TurnState, DRAW_SCORE, LOSS_SCORE, NEUTRAL, NOBODY, PIECE_TYPE_MASK,
    PLAYER_BASE, PLAYER_MASK, PLAYER_NUMBER_MASK, UNKNOWN_SCORE, WIN_SCORE,
};

/// The game layer's behaviour the machine's instructions call
/// (`vm::GameHooks`), installed when the VM is assembled.
pub fn hooks() -> crate::vm::GameHooks {
    crate::vm::GameHooks { execute_move: |vm, xt| vm.execute_move_xt(xt), friend_or_enemy: generate::friend_or_enemy, friend_or_enemy_of: generate::friend_or_enemy_of }
}
