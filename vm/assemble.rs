//! The VM every caller wants: the machine (`Vm::bare`) with the game
//! layer's words, the script engines' words and the ForthScript standard
//! library loaded.
//!
//! Owns `Vm::new` and the standard library's text. It stands above the
//! game layer and the engines because it registers both: the machine
//! below cannot name them (see the floors in `lib.rs`). May touch every
//! floor up to the engines (`search/`).

use crate::error::VmResult;
use crate::vm::{Config, Vm};

/// The ForthScript standard library, loaded into every VM first.
pub const STDLIB_CORE: &str = include_str!("../stdlib/core.4th");

/// The Axiom vocabulary written in ForthScript (encodings, directives).
pub const STDLIB_AXIOM: &str = include_str!("../stdlib/axiom.4th");

/// The rest of the Axiom kernel vocabulary (the words of the original
/// `axiom.4th` and `CORE.4TH` that are plain Forth), loaded last.
pub const STDLIB_KERNEL: &str = include_str!("../stdlib/kernel.4th");

impl Vm {
    /// A VM with the primitives, native words and the ForthScript standard
    /// library loaded. Output goes to stdout.
    pub fn new(config: Config) -> VmResult<Vm> {
        let mut vm = Vm::bare(config);
        vm.hooks = crate::game::hooks();
        // In this order: words get their execution tokens as registered.
        crate::game::declare::register(&mut vm);
        crate::game::generate::register(&mut vm);
        crate::game::play::register(&mut vm);
        crate::game::probe::register(&mut vm);
        crate::game::royal::register(&mut vm);
        crate::game::reach_table::register(&mut vm);
        crate::search::script::register(&mut vm);
        crate::game::kernel::register(&mut vm);
        vm.interpret_text("stdlib/core.4th", STDLIB_CORE.as_bytes())?;
        vm.interpret_text("stdlib/axiom.4th", STDLIB_AXIOM.as_bytes())?;
        vm.interpret_text("stdlib/kernel.4th", STDLIB_KERNEL.as_bytes())?;
        vm.record_default_events();
        vm.game.kernel.fence = vm.dict.words.len() as u32;
        Ok(vm)
    }
}
