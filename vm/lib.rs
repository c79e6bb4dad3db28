//! axforth: a Forth VM that runs Axiom `.4th` board games and the search
//! engines their authors wrote in ForthScript.
//!
//! Module map (each file says what it owns):
//! - `lexer`      source bytes, tokens, positions
//! - `error`      errors as values, with location and backtrace
//! - `ops`        the instruction set and the primitive table
//! - `code`       code space (instructions + source positions)
//! - `dictionary` words and name lookup
//! - `memory`     the bounds-checked data space
//! - `vm`         the VM state and limits
//! - `snapshot`   a VM put back as loaded, for the next game of a tournament
//! - `interp`     the inner interpreter (dispatch loop)
//! - `jit`        native code for hot definitions (Cranelift), behind the interpreter
//! - `outer`      the outer interpreter and LOAD
//! - `zrf`        Zillions Rules Files: the reader and each variant's declarations
//! - `open`       a game as users name it: a `.4th`, or a `.zrf` variant; beside
//!   `outer`, it runs the `.4th` and adds what the `.zrf` carries
//! - `compiler`   colon definitions into instructions, and the optimizer
//! - `words`      native words of the language core
//! - `see`        the decompiler behind SEE
//! - `game`       the Axiom game layer
//! - `search`     the engines: alpha-beta, UCT, ForthScript engines
//! - `tournament` autoplay: schedules, games between variants, records, statistics
//! - `view`       pictures: the board as SVG, HTML pages that replay games

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
