//! Where the game is in its turn order, and the event words the game
//! defines: the plain data `game/play.rs` advances and the inner
//! interpreter reads (`OnFriends?` decides `friend?`).
//!
//! May touch the state floor and the floor below.

use super::moves::NOT_PARTIAL;

/// Where the game is in its turn order.
#[derive(Clone, Copy, Debug)]
pub struct TurnState {
    /// Index into the turn order (`turn-offset`).
    pub index: usize,
    /// Turns completed so far, plus one.
    pub number: i32,
    /// Within a chain of partial moves: the move type the next step is
    /// restricted to (0: any); `NOT_PARTIAL` otherwise.
    pub partial: i32,
    /// Partial moves played in this turn so far.
    pub chain: u32,
    /// The contestant the last move served (`Game::side_of`; None before
    /// the first move, or after a chance player's): a game result reads
    /// it (`search::alphabeta::settle`).
    pub by: Option<i32>,
}

/// A turn of more partial moves than this is a script bug (a move that
/// marks itself partial whatever happens), reported instead of looping.
pub const MAX_CHAIN: u32 = 128;

impl Default for TurnState {
    fn default() -> TurnState {
        TurnState { index: 0, number: 1, partial: NOT_PARTIAL, chain: 0, by: None }
    }
}

/// The event words the game defines, looked up again whenever the
/// dictionary has grown (events always call the newest definition).
#[derive(Clone, Default)]
pub struct Events {
    /// The dictionary's size when they were found.
    pub stamp: usize,
    pub new_game: Option<u32>,
    pub is_game_over: Option<u32>,
    pub evaluate: Option<u32>,
    pub make_a_move: Option<u32>,
    pub next_turn: Option<u32>,
    pub friends: Option<u32>,
    /// `friends.is_some()`, where native code can read it.
    pub has_friends: bool,
}

/// Execution tokens at and above this value stand for moves: `.moveCFA`
/// answers one, and `EXECUTE` of it applies the move.
pub const MOVE_XT_BASE: i32 = 0x4000_0000;
