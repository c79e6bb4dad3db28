//! The Axiom game layer (AXIOM.md): declarations, move generation, turns.
//!
//! What the language core needs from it: while a move word runs, the move
//! being built plays the role of HERE, so `COMPILE x` and
//! `n COMPILE-LITERAL` append to the move instead of the dictionary.

use crate::error::VmResult;
use crate::vm::Vm;

/// One step of a move's program, run in order when the move is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveAction {
    Lit(i32),
    Call(u32),
}

/// Appends to the move under construction, if one is; None otherwise (the
/// caller then compiles into the current definition).
pub fn compile_into_move(_vm: &mut Vm, _action: MoveAction) -> Option<VmResult<()>> {
    None
}
