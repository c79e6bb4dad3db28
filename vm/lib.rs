//! axforth: a Forth VM that runs Axiom `.4th` board games and the search
//! engines their authors wrote in ForthScript.
//!
//! # Floors
//!
//! The modules stand on floors: a module may import its own floor and the
//! floors below, never one above (`tests/layers.rs` reads this table and
//! fails on any import that climbs). Each file's `//!` doc says what it
//! owns; this is the map.
//!
//! | floor | name | modules | what they own |
//! |-------|------|---------|---------------|
//! | 1 | source | `lexer` `ops` `code` `error` `suggest` `memory` `dictionary` | source text and positions, the instruction set, code space, errors as values, "did you mean", the bounds-checked data space, words and name lookup |
//! | 2 | state | `state` | the game's plain state: `Game` (board layout, move store, generation context, turn state, declarations, the search's limits, clock and tables), the AXIOM.md encodings, pure queries over them |
//! | 3 | machine | `vm` `interp` `outer` `compiler` `words` `see` `jit` `snapshot` | the VM and its limits, the inner and outer interpreters, the compiler and optimizer, the language core's words, SEE, native code (Cranelift), a VM put back as loaded |
//! | 4 | game | `game` | the Axiom game layer's behaviour: declaration blocks, move generation, turns and moves played, the kernel words, the board as text |
//! | 5 | search | `search` | the engines: alpha-beta, max^n, UCT, ForthScript engines |
//! | 6 | assembly | `assemble` `open` `zrf` | `Vm::new` (the machine with the game's and engines' words and the standard library), a game as users name it (`.4th` or a `.zrf` variant), the Zillions reader |
//! | 7 | tournament | `tournament` | autoplay: schedules, games between variants, records, statistics |
//! | 8 | view | `view` | pictures: the board as SVG, HTML pages that replay games |
//! | 9 | cli | `cli` `main` `lib` | the command line (the binary's own modules) and this crate root |
//!
//! Where a lower floor needs what a higher one does, the higher one hands
//! it down: the game layer's words and engines are registered by
//! `Vm::new` (`assemble`), and the few game actions an instruction runs
//! (playing a move's token, `OnFriends?`) go through `vm::GameHooks`,
//! which `Vm::new` installs. `game` and `search` re-export the plain types
//! that moved to `state`, so `game::Game` and `search::Limits` still name
//! them from above the machine.

pub mod assemble;
pub mod code;
pub mod compiler;
pub mod dictionary;
pub mod error;
pub mod game;
pub mod interp;
pub mod jit;
pub mod lexer;
pub mod memory;
pub mod ops;
pub mod open;
pub mod outer;
pub mod search;
pub mod tournament;
pub mod view;
pub mod see;
pub mod snapshot;
pub mod state;
pub mod suggest;
pub mod vm;
pub mod zrf;
pub mod words;

pub use error::{ErrorKind, VmError, VmResult};
pub use vm::{Config, Vm};

pub use assemble::{STDLIB_AXIOM, STDLIB_CORE, STDLIB_KERNEL};
