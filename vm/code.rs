//! Code space: the compiled instructions of every word, and beside each
//! the source position used only to explain errors.
//!
//! Invariant (what makes unchecked instruction fetch sound): the vector
//! always ends with an `Exit` that is never overwritten, and every address
//! stored anywhere (word entries, jump and call targets) was at most
//! `next_addr()` when it was made. Code only shrinks through `remove`,
//! which the compiler uses only after its fuse barrier, where no entry or
//! jump target points; the inner loop checks return addresses and clamps
//! its `ip` after anything that may have compiled. So any address reached
//! is in bounds, and falling off the end of code still being compiled
//! hits the sentinel `Exit` instead of running past the end.

use crate::lexer::Pos;
use crate::ops::{Addr, Op};

/// Side information for each instruction, used only to explain errors.
#[derive(Clone, Copy, Debug)]
pub struct OpInfo {
    pub pos: Pos,
    /// The word whose source this instruction came from.
    pub word: u32,
    /// When the instruction was inlined from `word`: the innermost of the
    /// chain of call sites it was copied through (index into `sites`).
    pub inlined: Option<u32>,
}

/// One level of inlining: the word the code was copied into, the call
/// site there, and the next outer level.
#[derive(Clone, Copy, Debug)]
pub struct InlineSite {
    pub caller: u32,
    pub pos: Pos,
    pub outer: Option<u32>,
}

const SENTINEL_INFO: OpInfo = OpInfo { pos: Pos::NONE, word: 0, inlined: None };

pub struct Code {
    ops: Vec<Op>,
    info: Vec<OpInfo>,
    sites: Vec<InlineSite>,
}

impl Default for Code {
    fn default() -> Code {
        let mut ops = Vec::with_capacity(1 << 16);
        ops.push(Op::Exit);
        Code { ops, info: vec![SENTINEL_INFO], sites: Vec::new() }
    }
}

impl Code {
    /// The address the next instruction will get.
    pub fn next_addr(&self) -> Addr {
        self.ops.len() as Addr - 1
    }

    pub fn push(&mut self, op: Op, info: OpInfo) -> Addr {
        let at = self.next_addr();
        self.ops[at as usize] = op;
        self.info[at as usize] = info;
        self.ops.push(Op::Exit);
        self.info.push(SENTINEL_INFO);
        at
    }

    /// The bytes the instructions and their source positions hold room for.
    pub fn reserved_bytes(&self) -> usize {
        self.ops.capacity() * std::mem::size_of::<Op>() + self.info.capacity() * std::mem::size_of::<OpInfo>()
    }

    /// The bytes the next instruction adds by growing the tables (0 while
    /// they have room; a growth at least doubles them).
    pub fn growth_bytes(&self) -> usize {
        if self.ops.len() < self.ops.capacity() && self.info.len() < self.info.capacity() {
            return 0;
        }
        self.reserved_bytes()
    }

    /// The instruction at `a`; the sentinel `Exit` for any address past
    /// the end.
    pub fn op(&self, a: Addr) -> Op {
        self.ops.get(a as usize).copied().unwrap_or(Op::Exit)
    }

    /// The instructions from `start` to `end`, if they are all there.
    pub fn ops(&self, start: Addr, end: Addr) -> Option<&[Op]> {
        self.ops.get(start as usize..end as usize)
    }

    pub fn info(&self, a: Addr) -> Option<&OpInfo> {
        self.info.get(a as usize)
    }

    pub fn set_info(&mut self, a: Addr, info: OpInfo) {
        if a < self.next_addr() {
            self.info[a as usize] = info;
        }
    }

    /// The chain `inner` (may be none) extended by one outer level.
    pub fn inline_chain(&mut self, inner: Option<u32>, caller: u32, pos: Pos) -> u32 {
        let outer = match inner {
            None => None,
            Some(i) => {
                let Some(&site) = self.sites.get(i as usize) else {
                    return self.inline_chain(None, caller, pos);
                };
                return {
                    let rest = self.inline_chain(site.outer, caller, pos);
                    self.sites.push(InlineSite { outer: Some(rest), ..site });
                    self.sites.len() as u32 - 1
                };
            }
        };
        self.sites.push(InlineSite { caller, pos, outer });
        self.sites.len() as u32 - 1
    }

    /// The call sites an inlined instruction was copied through, innermost
    /// first.
    pub fn inline_sites(&self, mut at: Option<u32>) -> Vec<InlineSite> {
        let mut v = Vec::new();
        while let Some(i) = at {
            let Some(&site) = self.sites.get(i as usize) else { break };
            v.push(site);
            at = site.outer;
        }
        v
    }

    /// Removes `n` instructions at `at`, moving the ones after them down.
    /// Only for code no address has been taken of (after the compiler's
    /// fuse barrier); the sentinel `Exit` stays last.
    pub fn remove(&mut self, at: Addr, n: u32) {
        let (at, end) = (at as usize, (at + n) as usize);
        if end < self.ops.len() {
            self.ops.drain(at..end);
            self.info.drain(at..end);
        }
    }

    /// Replaces an instruction. Jump targets must satisfy the invariant.
    pub fn set(&mut self, a: Addr, op: Op) {
        debug_assert!(op.target().is_none_or(|t| t <= self.next_addr()));
        if a < self.next_addr() {
            self.ops[a as usize] = op;
        }
    }

    /// Where the instructions start, for the inner loop (valid until the
    /// next `push`).
    #[inline(always)]
    pub fn ops_ptr(&self) -> *const Op {
        self.ops.as_ptr()
    }
}
