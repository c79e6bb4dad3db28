//! Zillions Rules Files (`.zrf`): the reader and the declarations it finds.
//!
//! A `.zrf` is the half of an Axiom game that Zillions of Games read: the
//! variants and their titles, players, turn order, the board's picture and
//! grid geometry, piece images, options and, in many games, the only
//! start position (`board-setup`). This module reads the file as Zillions
//! did and hands out those declarations as plain data; it knows nothing of
//! the VM. Binding a variant to the `.4th` game it names is `crate::open`.
//!
//! Module map:
//! - `sexpr`: text → nodes (symbols, strings, numbers, lists), each with
//!   its place (`Span`), and the reader's errors; `;` comments; bytes in
//!   any 8-bit encoding
//! - `expand`: `(define …)` macros with `$1`…`$9`, `(include "file")`
//! - `model`: the declarations of each variant, inherited from the game
//!   block and overridden by the variant's own, as plain data
//! - this file: `Zrf::read`, the entry point, driving the three above
//! - `variants`: inheritance between game and variant blocks, and the
//!   reading of each declaration's shape
//! - `forth` (with `forth_names`, `forth_moves`, `forth_goals`,
//!   `forth_prelude.4th`): a
//!   plain Zillions variant (no engine line) translated into ForthScript
//!   in the Axiom vocabulary
//! - `reach`: where each piece type's moves can reach, for the probes of
//!   the `checkmated` goal

pub mod expand;
pub mod forth;
mod forth_goals;
mod forth_moves;
mod forth_names;
pub mod model;
mod reach;
pub mod sexpr;
pub mod variants;

pub use model::*;

use std::path::Path;

impl Zrf {
    /// Reads the `.zrf` at `path` and the files it includes.
    pub fn read(path: &Path) -> Result<Zrf, ZrfError> {
        let bytes = std::fs::read(path)
            .map_err(|e| ZrfError { message: format!("cannot read {}: {e}", path.display()), place: None })?;
        Zrf::parse(path, &bytes)
    }

    /// Reads `bytes` as the `.zrf` at `path`: `path` names it in errors,
    /// and includes are looked up beside it.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Zrf, ZrfError> {
        let mut files = Vec::new();
        let forms = expand::expand_file(path, bytes, &mut files)?;
        let variants = variants::build(&forms, &files)?;
        Ok(Zrf { path: path.to_path_buf(), files, variants })
    }

}
