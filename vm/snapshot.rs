//! A VM put back as it stood after loading a game, so that a tournament
//! loads (and compiles) each variant once per worker, not once per game.
//!
//! Owns `Snapshot`: what a game can change in a `Vm` — the data space
//! below `Memory::written`, the game layer's state, the stacks' scalars,
//! the deferred words, the step budget, the warnings given — taken once,
//! and put back before each game. What a game cannot change is left as
//! it is: the code, the dictionary, the board's layout (checked: a game
//! that changed them is loaded afresh instead), and what was made from
//! them and is worth keeping: native code, the move generator's plans,
//! the search's allocations (emptied).
//!
//! The contract: a game played in a VM put back is the game a freshly
//! loaded VM plays under the same seed. Loading must therefore not have
//! drawn from the random streams (a game whose loading did is loaded
//! afresh for every game: `restore` says no).

use crate::state::Game;
use crate::memory;
use crate::vm::Vm;

pub struct Snapshot {
    mem: memory::Snapshot,
    /// The game layer as loaded (its search empty).
    game: Box<Game>,
    defers: Vec<Option<u32>>,
    defer_owner: Vec<u32>,
    warnings: crate::error::Warnings,
    steps_left: u64,
    steps_reserve: u64,
    /// What must not have changed for the snapshot to apply.
    code_len: u32,
    words: usize,
    files: usize,
    hosts: usize,
    layout: u32,
    /// Loading drew no random number: a seed set afresh is the seed's
    /// stream from its start, as in a fresh VM.
    random_untouched: bool,
}

impl Vm {
    /// The VM as it stands: call it after loading, before `new_game`.
    pub fn snapshot(&mut self) -> Snapshot {
        let search = std::mem::take(&mut self.game.search);
        let game = Box::new((*self.game).clone());
        self.game.search = search;
        Snapshot {
            mem: self.mem.snapshot(),
            game,
            defers: self.defers.clone(),
            defer_owner: self.defer_owner.clone(),
            warnings: self.warnings.clone(),
            steps_left: self.steps_left,
            steps_reserve: self.steps_reserve,
            code_len: self.code.next_addr(),
            words: self.dict.words.len(),
            files: self.files.len(),
            hosts: self.hosts.len(),
            layout: self.game.board.layout,
            random_untouched: self.config.seed.is_some_and(|s| self.random_state() == crate::vm::seeded_streams(s)),
        }
    }

    /// Puts the VM back as `s` found it, its random streams seeded with
    /// `seed`; false (and the VM unusable for a game) when it cannot be:
    /// the game changed what a snapshot leaves alone, or loading drew
    /// random numbers. Load the game afresh then.
    pub fn restore(&mut self, s: &Snapshot, seed: u64) -> bool {
        let same = s.random_untouched
            && s.code_len == self.code.next_addr()
            && s.words == self.dict.words.len()
            && s.files == self.files.len()
            && s.hosts == self.hosts.len()
            && s.layout == self.game.board.layout
            && self.def.is_none()
            && self.inputs.is_empty();
        if !same {
            return false;
        }
        self.mem.restore(&s.mem);
        self.game.restore(&s.game);
        // Native code that called the deferred words' targets directly
        // stays good when they are the ones it was made with.
        if self.defers != s.defers {
            self.defers.clone_from(&s.defers);
            self.defer_epoch = self.defer_epoch.wrapping_add(1);
        }
        self.defer_owner.clone_from(&s.defer_owner);
        self.warnings.clone_from(&s.warnings);
        self.steps_left = s.steps_left;
        self.steps_reserve = s.steps_reserve;
        self.depth = 0;
        self.tos = 0;
        self.rdepth = 0;
        self.fp = 0;
        self.ds_base = 0;
        self.tolerant = false;
        self.run_nesting = 0;
        self.bye = false;
        self.timers.clear();
        self.take_output();
        self.config.seed = Some(seed);
        self.set_random_state(crate::vm::seeded_streams(seed));
        true
    }
}

impl Game {
    /// Back to `loaded`, keeping what was built from the code and the
    /// layout (the board's tables, which native code may have built in)
    /// and the search's allocations. The generator's plans are the JIT's
    /// (`jit/plan.rs`), which a restore leaves alone.
    fn restore(&mut self, loaded: &Game) {
        let board = std::mem::take(&mut self.board);
        let mut search = std::mem::take(&mut self.search);
        self.clone_from(loaded);
        self.board = board;
        search.forget_games(&loaded.search);
        self.search = search;
    }
}
