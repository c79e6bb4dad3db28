//! The dictionary: every word ever defined, and the name map that finds the
//! newest one.
//!
//! Owns `Word`, `WordKind` and `Dictionary`. Inside the VM a word is named
//! by its index in `words` (an `xt: u32`); scripts see that index plus
//! `XT_BASE` (a *token*: what `'` leaves and `EXECUTE` takes). Neither ever
//! changes, so compiled code and scripts may hold them. Names are byte strings and case-sensitive
//! (`DROP` and `drop` are different words). A definition is found only
//! after it is revealed (at `;`), so `: X ... X ... ;` calls the older X.

use crate::ops::{Addr, Op};
use indexmap::IndexMap;

/// Tokens start here, so no count a script computes (0, 3, 4, 100…) is a
/// token: `EXECUTE` of a leaked number fails cleanly ("not an execution
/// token") instead of running whichever primitive has that index. In the
/// original an xt was a code field address, never a small number.
pub const XT_BASE: i32 = 0x2000_0000;

/// The token scripts see for the word with this index.
pub fn token(xt: u32) -> i32 {
    XT_BASE.wrapping_add(xt as i32)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WordKind {
    Colon,
    Primitive(Op),
    /// A native word: index into the VM's host table.
    Host(u32),
    Constant(i32),
    Variable(u32),
    /// CREATE / <BUILDS: a data field, and the DOES> code once set.
    Created { body: u32, does: Option<Addr> },
    /// `n [] name`: ( i -- addr )
    Array { base: u32 },
    Deferred(u32),
}

#[derive(Clone, Debug)]
pub struct Word {
    pub name: Box<[u8]>,
    pub kind: WordKind,
    /// Where EXECUTE enters: a colon body, or a small thunk for other kinds.
    pub entry: Addr,
    /// For colon words: one past the last instruction (SEE, inlining).
    pub end: Addr,
    pub immediate: bool,
    pub compile_only: bool,
    /// Straight-line colon word short enough to be copied into callers.
    pub inline: bool,
    /// A direction word: `EXECUTE` steps in this direction without a call.
    pub step: Option<u32>,
}

impl Word {
    pub fn display_name(&self) -> String {
        crate::error::printable(&self.name)
    }

    /// `>BODY`: the data-field address, for words that have one.
    pub fn body(&self) -> Option<u32> {
        match self.kind {
            WordKind::Variable(a) | WordKind::Created { body: a, .. } | WordKind::Array { base: a } => Some(a),
            _ => None,
        }
    }
}

#[derive(Default)]
pub struct Dictionary {
    pub words: Vec<Word>,
    /// By name. Every token the outer interpreter reads is looked up
    /// here: a fast keyed hash (SipHash took 5% of loading a large rules
    /// file), seeded per process, so a file cannot choose names that
    /// collide.
    names: IndexMap<Box<[u8]>, u32, foldhash::fast::RandomState>,
    /// By xt, what `EXECUTE` does with it: `-1 - dir` for a direction
    /// word, else its entry. A flat copy of `step` and `entry` (neither
    /// changes once the word is made) that native code reads inline.
    targets: Vec<i32>,
}

impl Dictionary {
    /// Adds a word without making it findable; returns its xt.
    pub fn add(&mut self, word: Word) -> u32 {
        self.targets.push(match word.step {
            Some(dir) => -1 - dir as i32,
            None => word.entry as i32,
        });
        self.words.push(word);
        self.words.len() as u32 - 1
    }

    /// Makes `xt` a direction word: `EXECUTE` steps `here` along `dir`.
    pub fn set_step(&mut self, xt: u32, dir: u32) {
        self.words[xt as usize].step = Some(dir);
        self.targets[xt as usize] = -1 - dir as i32;
    }

    /// `targets`, for native code.
    pub fn targets(&self) -> &[i32] {
        &self.targets
    }

    /// Makes the word findable by its name; it shadows older ones.
    pub fn reveal(&mut self, xt: u32) {
        let name = self.words[xt as usize].name.clone();
        if !name.is_empty() {
            self.names.insert(name, xt);
        }
    }

    /// `FORGET`: `name` finds `older` from now on, or nothing.
    pub fn forget_name(&mut self, name: &[u8], older: Option<u32>) {
        match older {
            Some(xt) => {
                self.names.insert(name.into(), xt);
            }
            None => {
                self.names.shift_remove(name);
            }
        }
    }

    pub fn find(&self, name: &[u8]) -> Option<u32> {
        self.names.get(name).copied()
    }

    /// The index of the word a script's token names, if it names one.
    pub fn index_of(&self, token: i32) -> Option<u32> {
        let i = token.wrapping_sub(XT_BASE);
        (i >= 0 && (i as usize) < self.words.len()).then_some(i as u32)
    }

    /// The word a script's token names.
    pub fn get(&self, token: i32) -> Option<&Word> {
        self.index_of(token).map(|i| &self.words[i as usize])
    }

    pub fn word(&self, xt: u32) -> &Word {
        &self.words[xt as usize]
    }

    pub fn word_mut(&mut self, xt: u32) -> &mut Word {
        &mut self.words[xt as usize]
    }

    /// Names currently visible, newest definition first.
    pub fn visible_names(&self) -> Vec<String> {
        let mut xts: Vec<u32> = self.names.values().copied().collect();
        xts.sort_unstable_by(|a, b| b.cmp(a));
        xts.iter().map(|&xt| self.word(xt).display_name()).collect()
    }
}
