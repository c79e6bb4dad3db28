//! What the translator knows at translation time (`Known`): SSA variables
//! read and written through `var`/`set`, the constants they hold, values
//! folded from constants, and guesses read from tables at known addresses;
//! and how that knowledge carries into a block entered from one place only
//! (`known_carries`) or where split ways join (`split`, `rejoin`). Touches
//! nothing in memory.

use super::Translator;
use cranelift_codegen::entity::EntityRef;
use cranelift_codegen::ir::types::I32;
use cranelift_codegen::ir::{Block, InstBuilder, InstructionData, Opcode, Value};
use cranelift_frontend::Variable;

/// The constants the translator can see: the values `konst` made, and the
/// variables that hold one. What a variable holds is known only on the
/// path that defined it: in the block being filled, and in a block
/// entered from it alone with nothing redefined on the way (a guard's way
/// on, a direction step); any other block starts knowing nothing.
#[derive(Default)]
pub(super) struct Known {
    values: std::collections::HashMap<Value, i32>,
    /// By variable index.
    vars: std::collections::HashMap<usize, i32>,
    /// What a value read from a table at a known address held when the
    /// function was translated, and the variables holding such a value
    /// (a guess, checked where it is used).
    pub(super) guessed_values: std::collections::HashMap<Value, i32>,
    guessed_vars: std::collections::HashMap<usize, i32>,
    /// The block `vars` holds for.
    block: Option<Block>,
    /// Definitions made so far.
    defs: u64,
}

/// What held where an instruction split in ways that join again.
pub(super) struct Split {
    mark: KnownMark,
    known: bool,
    prepaid: bool,
    /// `here`, known on the board.
    here: Option<Value>,
}

/// Where knowledge stood before code that may create blocks.
#[derive(Clone, Copy)]
pub(super) struct KnownMark {
    block: Option<Block>,
    defs: u64,
}

impl Translator<'_> {
    pub(super) fn var(&mut self, v: Variable) -> Value {
        if let Some(n) = self.known_var(v) {
            return self.konst(n);
        }
        let x = self.b.use_var(v);
        if let Some(g) = self.guessed_var(v) {
            self.known.guessed_values.insert(x, g);
        }
        x
    }

    pub(super) fn set(&mut self, v: Variable, x: Value) {
        let here = self.b.current_block();
        if self.known.block != here {
            self.known.vars.clear();
            self.known.guessed_vars.clear();
            self.known.block = here;
        }
        match self.folded(x) {
            Some(n) => {
                self.known.values.insert(x, n);
                self.known.vars.insert(v.index(), n)
            }
            None => self.known.vars.remove(&v.index()),
        };
        match self.known.guessed_values.get(&x) {
            Some(&g) => self.known.guessed_vars.insert(v.index(), g),
            None => self.known.guessed_vars.remove(&v.index()),
        };
        self.known.defs += 1;
        self.b.def_var(v, x);
    }

    /// The constant `x` is: made by `konst`, or computed from such
    /// constants (an address in a table at a known index), as Cranelift
    /// computes it.
    pub(super) fn folded(&self, x: Value) -> Option<i32> {
        self.folded_within(x, 4)
    }

    /// `folded`, looking through at most `depth` instructions.
    fn folded_within(&self, x: Value, depth: u32) -> Option<i32> {
        if let Some(&n) = self.known.values.get(&x) {
            return Some(n);
        }
        let dfg = &self.b.func.dfg;
        if depth == 0 || dfg.value_type(x) != I32 {
            return None;
        }
        let known = |v: Value| self.folded_within(v, depth - 1);
        Some(match dfg.insts[dfg.value_def(x).inst()?] {
            InstructionData::UnaryImm { opcode: Opcode::Iconst, imm } => imm.bits() as i32,
            InstructionData::Binary { opcode, args: [a, b] } => {
                let (a, b) = (known(a)?, known(b)?);
                match opcode {
                    Opcode::Iadd => a.wrapping_add(b),
                    Opcode::Isub => a.wrapping_sub(b),
                    Opcode::Imul => a.wrapping_mul(b),
                    Opcode::Band => a & b,
                    Opcode::Bor => a | b,
                    Opcode::Bxor => a ^ b,
                    Opcode::Ishl => a.wrapping_shl(b as u32),
                    Opcode::Sshr => a.wrapping_shr(b as u32),
                    Opcode::Ushr => (a as u32).wrapping_shr(b as u32) as i32,
                    _ => return None,
                }
            }
            InstructionData::Unary { opcode: Opcode::Ineg, arg } => known(arg)?.wrapping_neg(),
            InstructionData::Unary { opcode: Opcode::Bnot, arg } => !known(arg)?,
            _ => return None,
        })
    }

    /// The guess `v` holds here (see `Known::guessed_values`).
    pub(super) fn guessed_var(&self, v: Variable) -> Option<i32> {
        (self.known.block == self.b.current_block()).then(|| self.known.guessed_vars.get(&v.index()).copied()).flatten()
    }

    pub(super) fn konst(&mut self, n: i32) -> Value {
        let x = self.b.ins().iconst(I32, n as i64);
        self.known.values.insert(x, n);
        x
    }

    /// The constant `v` holds here, when known.
    pub(super) fn known_var(&self, v: Variable) -> Option<i32> {
        (self.known.block == self.b.current_block()).then(|| self.known.vars.get(&v.index()).copied()).flatten()
    }

    pub(super) fn known_mark(&self) -> KnownMark {
        KnownMark { block: self.b.current_block(), defs: self.known.defs }
    }

    /// The block just entered follows the one marked on the only path
    /// that reaches it, and nothing was defined meanwhile: what was known
    /// there still holds.
    pub(super) fn known_carries(&mut self, mark: KnownMark) {
        if self.prepaid.block == mark.block {
            self.prepaid.block = self.b.current_block();
        }
        if self.known.block == mark.block && self.known.defs == mark.defs {
            self.known.block = self.b.current_block();
        }
        if let Some((here, block, calls)) = self.here_known {
            if Some(block) == mark.block {
                self.here_known = self.b.current_block().map(|now| (here, now, calls));
            }
        }
    }

    /// Marks where an instruction splits into ways that join again
    /// (`rejoin`), neither defining a variable, spending a step, or moving
    /// `here`.
    pub(super) fn split(&self) -> Split {
        let block = self.b.current_block();
        Split {
            mark: self.known_mark(),
            known: self.known.block == block,
            prepaid: self.prepaid.block == block,
            here: self.here_known.filter(|&(_, b, calls)| Some(b) == block && calls == self.calls).map(|(here, _, _)| here),
        }
    }

    /// The block just entered joins the ways split at `s`: what held
    /// there holds here (the ways' own checks carried nothing further).
    pub(super) fn rejoin(&mut self, s: Split) {
        let now = self.b.current_block();
        if s.known && self.known.defs == s.mark.defs {
            self.known.block = now;
        }
        if s.prepaid {
            self.prepaid.block = now;
        }
        if let (Some(here), Some(block)) = (s.here, now) {
            self.here_known = Some((here, block, self.calls));
        }
    }
}
