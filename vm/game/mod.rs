//! The Axiom game layer (AXIOM.md): declarations, move generation, turns.
//!
//! Module map:
//! - `declare`: the declaration blocks (`{board … board}`, `{pieces`, …)
//! - `generate`: running move words: the board queries and the recorded
//!   edits (`verify`, `add-move`, …)
//! - `play`: turns, applying moves, events, game over, the simple engines,
//!   perft, and the words engines call
//! - `kernel`: the native part of the original kernel vocabulary
//! - `probe`: probes for the attackers of a square, cut short by the
//!   reach table (`attacked?` and `checkmated` of translated Zillions
//!   rules)
//! - `reach_table`: a reach table written in a script (`{reach}`, as
//!   `axforth port` writes it), checked against the move words it holds for
//! - `royal`: royal pieces (`{royal}`, Zillions' `checkmated`): the moves
//!   that would leave one attacked are dropped from each list
//! - `maximal`: the moves a turn must take the most pieces with
//!   (`{maximal-captures}`, Zillions' `"maximal captures"`)
//! - `show`: the board as text for the CLI
//! - `mailbox`: a native Othello, the speed reference for the benchmark
//!
//! The data these work on is plain state one floor down (`state/`: the
//! board layout, the move store, the generation context, the turn state),
//! where the inner interpreter and native code read it too; this layer
//! is the behaviour that needs the `Vm` and registers the game words
//! (`Vm::new` in `assemble.rs` calls each `register`).
//!
//! The board is plain data inside the VM's data space: the board variables
//! and arrays a game declares, then one cell per position, all in one
//! contiguous region, so cloning a board is one `memcpy` of that region.
//! Everything else the game layer knows (names, links, turn order, the
//! move lists) lives in `Game`, outside the data space.
//!
//! What the language core needs from it: while a move word runs, the move
//! being built plays the role of HERE, so `COMPILE x` and
//! `n COMPILE-LITERAL` append to the move instead of the dictionary (the
//! compiler does it, `compile_into_move` in `compiler.rs`); and the game code an
//! instruction runs goes through `hooks` (`vm::GameHooks`).

pub mod chain;
pub mod declare;
pub mod generate;
pub mod kernel;
pub mod mailbox;
pub mod maximal;
pub mod play;
pub mod probe;
pub mod reach_table;
pub mod royal;
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
