//! The game's plain state: the data the inner interpreter, the JIT's
//! native code and the game layer's words all read and write, with no
//! behaviour that needs a `Vm`.
//!
//! Owns `Game` and its parts: the board layout (`board`), the move store
//! (`moves`, `buf`), the generation context and the edits native code
//! records (`context`), where pieces can reach (`reach`), the turn state and the events found (`turn`), the
//! open declaration blocks (`decl`), the kernel's state, the search's
//! state (`search`: limits, clock, reports, the table, the keys), the
//! AXIOM.md encodings (masks, scores, `MOVE_XT_BASE`), and the queries
//! that are pure functions of this data (`player_index`, `piece_value`,
//! `Game::player`, `contestants`, `side_of`, …).
//!
//! May touch the source-and-instructions floor (`lexer`, `error`,
//! `memory`, …) and nothing above: the machine (`vm`, `interp`, `jit`)
//! reads this state, and the game layer (`game/`) gives it behaviour, so
//! neither may be needed here. Behaviour over `Game` that runs script or
//! needs the `Vm` lives in `game/` (an `impl Game` or `impl Vm` there).

pub mod board;
pub mod buf;
pub mod context;
pub mod decl;
pub mod moves;
pub mod reach;
pub mod search;
pub mod turn;

pub use board::Board;
pub use context::{Context, Recorded};
pub use moves::{Action, MoveStore};
pub use turn::{Events, TurnState, MOVE_XT_BASE};

/// Encodings of AXIOM.md §1 (scripts do arithmetic on these).
pub const PIECE_TYPE_MASK: i32 = 0x03FF;
pub const PLAYER_BASE: i32 = 2048;
pub const NEUTRAL: i32 = 1024;
pub const PLAYER_MASK: i32 = 0xFC00;
pub const PLAYER_NUMBER_MASK: i32 = 0xF800;
pub const WIN_SCORE: i32 = 2_130_000_000;
pub const LOSS_SCORE: i32 = -2_130_000_000;
pub const DRAW_SCORE: i32 = 0;
pub const UNKNOWN_SCORE: i32 = -2_140_000_000;
/// The seat opposite a solitaire's player (`Game::seats`): no player has
/// this value, so it never moves.
pub const NOBODY: i32 = i32::MIN;

/// Who chooses the moves of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The built-in negamax search.
    Default,
    Random,
    First,
    Uct,
    /// `{search-engine} word`: a ForthScript engine (index into
    /// `Game::engine_names`; the newest definition of the name plays).
    Script(u32),
}

#[derive(Clone, Debug)]
pub struct PlayerDecl {
    pub name: String,
    /// `k * 2048`, `| 1024` for a neutral player.
    pub value: i32,
    pub neutral: bool,
    /// A chance player (`Game::is_contestant`), decided when the game
    /// finishes loading.
    pub chance: bool,
    /// Has no turn in the turn order, and no neutral player moves for
    /// it (pasang.zrf's `N`, owner of the stones both sides place and
    /// take): it never plays, so it never wins or loses.
    pub bystander: bool,
    pub engine: Engine,
}

impl PlayerDecl {
    /// Plays to win: not neutral, not chance, has a turn.
    pub fn contests(&self) -> bool {
        !self.neutral && !self.chance && !self.bystander
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Turn {
    pub player: i32,
    /// Only moves of this type on this turn (0: all).
    pub of_type: i32,
    /// The player whose pieces move (usually `player`).
    pub for_player: i32,
}

#[derive(Clone, Debug)]
pub struct MoveListDecl {
    pub name: String,
    /// (move word xt, move type)
    pub entries: Vec<(u32, i32)>,
    /// Named by a piece but not declared yet.
    pub pending: bool,
    /// Where a piece first named it (for the error if it never comes).
    pub named_at: crate::lexer::Pos,
}

#[derive(Clone, Debug, Default)]
pub struct PieceDecl {
    pub name: String,
    pub moves: Vec<usize>,
    pub drops: Vec<usize>,
    pub value: i32,
}

/// The probes' answers within one generation: the board stands still
/// while a list is filled, so a square's attackers, asked by many move
/// words (a king's safety tested before each move), are worked out once.
/// `current` names the generation being filled, with the number of saved
/// boards it began with (a move word that clones the board and edits it
/// is not on that board: no answer is kept or read then); answers of
/// another generation are dropped when first read.
#[derive(Clone, Default)]
pub struct AttackMemo {
    pub current: Option<(u64, u32)>,
    pub last_serial: u64,
    pub serial: u64,
    /// (player, for_player, move type, position) → reached
    pub answers: Vec<([i32; 4], bool)>,
}

/// Everything the game layer knows about the loaded game.
#[derive(Clone, Default)]
pub struct Game {
    pub board: Board,
    pub players: Vec<PlayerDecl>,
    pub turns: Vec<Turn>,
    /// Where the turn order loops back to after its last entry.
    pub repeat_from: usize,
    pub move_lists: Vec<MoveListDecl>,
    /// Move types: (name, value).
    pub move_types: Vec<(String, i32)>,
    pub priorities: moves::Priorities,
    /// `{maximal-captures}`: 0 off, 1 the most pieces, 2 then the most
    /// worth (`game/maximal.rs`).
    pub maximal_captures: u8,
    /// Where each piece type's moves can reach (`reach.rs`), when the
    /// rules were read by something that could tell: a probe for a
    /// square's attackers runs only the pieces that could.
    pub reach: Option<std::sync::Arc<reach::Reach>>,
    /// A table read from the script (`{reach}`), checked when loading ends.
    pub reach_claim: Option<reach::ReachClaim>,
    /// Royal piece types (`{royal}`, Zillions' `checkmated`): no move
    /// may leave the mover's first royal piece where an enemy move could
    /// reach it (`game/royal.rs`).
    pub royal: Vec<i32>,
    /// A probe for the attackers of a square is generating moves: tests
    /// of attacks inside them answer false (`$Probing?`).
    pub probing: bool,
    /// The answers of the probes asked while one list is being filled
    /// (`game/probe.rs`).
    pub attack_memo: AttackMemo,
    /// The positions a probe runs pieces from (kept for its buffer).
    pub probe_starts: Vec<i32>,
    /// A list's chains are being counted: the lists below are not cut.
    pub counting_captures: bool,
    pub pieces: Vec<PieceDecl>,
    /// Piece types above this are not generated (`{dummy-pieces}`).
    pub piece_scan_limit: Option<usize>,
    /// The `{setup}` lines, as names: resolved when each game starts.
    pub setup: Vec<decl::SetupLine>,
    /// State of open declaration blocks.
    pub decl: decl::OpenBlocks,
    pub gen: context::Context,
    pub store: MoveStore,
    pub turn: TurnState,
    /// The keys of the positions the partial moves of the turn under way
    /// reached, the i-th after its (i+1)-th step (`game/chain.rs`); only
    /// the first `turn.chain` are this chain's.
    pub chain_keys: Vec<u64>,
    /// `$CloneBoard` snapshots, back to back.
    pub snapshots: Vec<u8>,
    pub snapshot_count: u32,
    pub ready: bool,
    pub events: turn::Events,
    /// `.moveType` answers with one of these cells (ring), so that a few
    /// moves' types can be read side by side.
    pub move_type_cells: u32,
    pub move_type_next: u32,
    /// `$MoveString`'s text and scratch buffers, kept between calls.
    pub text_scratch: (String, Vec<(i32, i32)>),
    /// `$MoveString` answers with one of these counted strings (ring).
    pub move_string_cells: u32,
    pub move_string_next: u32,
    /// `$movesList`'s variable, then the list header it points at.
    pub moves_list_cells: u32,
    /// Move lists pushed by `$GenerateMoves` and not yet popped.
    pub script_lists: u32,
    /// The `{piece}` the items of a `{pieces` block apply to.
    pub decl_piece: usize,
    /// Keys of the positions the game has passed through since the last
    /// `repetition-reset` (the game loop records them, searches do not).
    pub history: Vec<u64>,
    /// Names of the `{search-engine}` words.
    pub engine_names: Vec<String>,
    /// Where each engine name was first given (for the error if the word
    /// never comes).
    pub engine_named_at: Vec<crate::lexer::Pos>,
    /// The engines' limits, clock and reports, and the transposition table.
    pub search: search::Search,
    /// The kernel vocabulary's state (`game/kernel.rs`): the status text, the
    /// default events, the mirrored variables' cells.
    pub kernel: KernelState,
}

impl Game {
    pub fn player(&self, value: i32) -> Option<&PlayerDecl> {
        self.players.iter().find(|p| p.value == value)
    }

    /// A contestant plays to win. The others have no side: neutral
    /// players, and chance players, whose moves are the throw of the dice:
    /// Zillions' `?Name` players (`?Dice`, `?Cleaner`). A `{random}`
    /// player without the `?` is a contestant that plays at random.
    pub fn is_contestant(&self, value: i32) -> bool {
        self.player(value).is_some_and(PlayerDecl::contests)
    }

    /// The contestants, in `{players}` order.
    pub fn contestants(&self) -> impl Iterator<Item = &PlayerDecl> {
        self.players.iter().filter(|p| p.contests())
    }

    /// The two players a tournament seats: the first two contestants. A
    /// puzzle for one contestant seats opposite it the first chance player
    /// (the dice it plays against), or, in a solitaire, `NOBODY`: either
    /// seat wins when the contestant loses, so each variant's score is
    /// what it scored at the puzzle against what the other scored.
    pub fn seats(&self) -> Vec<i32> {
        let chance = self.players.iter().filter(|p| p.chance);
        self.contestants().chain(chance).map(|p| p.value).chain([NOBODY]).take(2).collect()
    }

    /// The contestant a turn's moves serve: its player, if a contestant;
    /// a neutral player moving a contestant's pieces (`{for-player}`)
    /// serves that contestant; a chance player serves no one, whosever
    /// pieces it moves (its moves are the dice: Chase's `?R {for-player}
    /// White` is White's bookkeeping, not White's choice).
    pub fn side_of(&self, turn: Turn) -> Option<i32> {
        if self.is_contestant(turn.player) {
            return Some(turn.player);
        }
        let neutral = self.player(turn.player).is_some_and(|p| p.neutral);
        (neutral && self.is_contestant(turn.for_player)).then_some(turn.for_player)
    }

    /// Decides which players are chance players (`is_contestant`).
    pub(crate) fn classify_players(&mut self) {
        // A player moves on its turns, or is served by a neutral player
        // moving for it (`side_of`); moving its pieces is not its turn
        // (pasang's `(Blue N setup-blue-phase)`: Blue places N's stones).
        let neutral: Vec<i32> = self.players.iter().filter(|p| p.neutral).map(|p| p.value).collect();
        let served: Vec<i32> = self.turns.iter().flat_map(|t| {
            let mover = t.player & PLAYER_MASK;
            [Some(mover), neutral.contains(&mover).then_some(t.for_player & PLAYER_MASK)]
        }).flatten().collect();
        for p in &mut self.players {
            p.chance = !p.neutral && p.name.starts_with('?');
            p.bystander = !served.contains(&p.value);
        }
    }

    pub fn player_name(&self, value: i32) -> String {
        match self.player(value & PLAYER_MASK) {
            Some(p) => p.name.clone(),
            None => format!("player {value}"),
        }
    }

    pub fn piece_name(&self, piece_type: i32) -> String {
        match self.pieces.get((piece_type - 1) as usize) {
            Some(p) => p.name.clone(),
            None => format!("piece {piece_type}"),
        }
    }

    pub fn move_type_name(&self, t: i32) -> String {
        match self.move_types.iter().find(|&&(_, v)| v == t) {
            Some((n, _)) => n.clone(),
            None => t.to_string(),
        }
    }
}

/// Kernel state the rest of the game layer does not need.
#[derive(Clone, Default)]
pub struct KernelState {
    /// The text `^string` and `^number` built (the original inserted it
    /// into the status line; axforth keeps it for `game_over_message`).
    pub status_text: String,
    /// The xts of the default events `stdlib/kernel.4th` defines: the
    /// game layer treats finding one of these as "the game defines no
    /// such event", so the defaults change no game's behaviour or speed.
    pub default_events: Vec<u32>,
    /// The mirror cells (one per mirrored variable).
    pub mirrors: u32,
    /// The player the running search is for (`player-to-move`); 0 when
    /// no search runs.
    pub root_player: i32,
    /// Words below this xt are the stdlib's: `FORGET` leaves them.
    pub fence: u32,
}

/// A player's place in the players' tables (its number less one; 0 for no
/// player and for the neutral bit alone).
#[inline]
pub fn player_index(player: i32) -> usize {
    (((player & PLAYER_NUMBER_MASK) >> 11) - 1).max(0) as usize
}

/// The `{value}` of a piece's type (0 for an empty square or an unknown type).
pub fn piece_value(game: &Game, piece: i32) -> i32 {
    let t = piece & PIECE_TYPE_MASK;
    game.pieces.get((t - 1).max(0) as usize).filter(|_| t > 0).map_or(0, |p| p.value)
}
