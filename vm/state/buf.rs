//! `Buf`: a growable array of plain values whose end native code can
//! append to without a call.
//!
//! A `Vec`'s fields sit where the compiler puts them, so native code
//! cannot bump one. A `Buf` keeps its start, length and capacity in
//! `repr(C)` fields at fixed offsets, and its storage initialized up to
//! the capacity: an append is a store at `start + len` and `len + 1`,
//! when `len < cap`. Growing (and everything else) stays in Rust. The
//! move generator's edits and move lists live in `Buf`s (`moves.rs`,
//! `context.rs`), which the translator appends to (`jit/translate`).
//!
//! Owns its storage; touches nothing else.

use std::ops::{Deref, DerefMut};

#[repr(C)]
pub struct Buf<T: Copy + Default> {
    /// `storage`'s start, for native code (it moves only as `storage` grows).
    start: *mut T,
    len: usize,
    /// `storage.len()`.
    cap: usize,
    /// Every slot initialized: `..len` the values, the rest spare.
    storage: Vec<T>,
}

impl<T: Copy + Default> Default for Buf<T> {
    fn default() -> Self {
        let mut storage = Vec::new();
        Buf { start: storage.as_mut_ptr(), len: 0, cap: 0, storage }
    }
}

impl<T: Copy + Default> Clone for Buf<T> {
    fn clone(&self) -> Self {
        let mut storage = self.storage.clone();
        Buf { start: storage.as_mut_ptr(), len: self.len, cap: storage.len(), storage }
    }
}

impl<T: Copy + Default> Buf<T> {
    /// Where the fields native code reads lie in a `Buf`.
    pub const START: usize = std::mem::offset_of!(Buf<T>, start);
    pub const LEN: usize = std::mem::offset_of!(Buf<T>, len);
    pub const CAP: usize = std::mem::offset_of!(Buf<T>, cap);

    #[inline]
    pub fn push(&mut self, x: T) {
        if self.len == self.cap {
            self.grow(1);
        }
        // SAFETY: `len < cap == storage.len()`.
        unsafe { *self.storage.get_unchecked_mut(self.len) = x };
        self.len += 1;
    }

    /// Appends a copy of its own values at `range`.
    pub fn extend_from_within(&mut self, range: std::ops::Range<usize>) {
        let Some(n) = range.end.checked_sub(range.start).filter(|_| range.end <= self.len) else { return };
        if self.cap - self.len < n {
            self.grow(n);
        }
        self.storage.copy_within(range, self.len);
        self.len += n;
    }

    /// Values it holds room for without growing.
    #[inline]
    pub fn capacity(&self) -> usize {
        self.cap
    }

    /// Bytes the next growth adds (`grow` at least doubles).
    pub fn growth_bytes(&self) -> usize {
        self.cap.max(8) * std::mem::size_of::<T>()
    }

    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Room for `more` values past `len`, at least doubling.
    #[cold]
    #[inline(never)]
    fn grow(&mut self, more: usize) {
        let cap = (self.len + more).max(2 * self.cap).max(8);
        self.storage.resize(cap, T::default());
        self.cap = cap;
        self.start = self.storage.as_mut_ptr();
    }
}

impl<T: Copy + Default> Deref for Buf<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        // SAFETY: `len <= cap == storage.len()`.
        unsafe { self.storage.get_unchecked(..self.len) }
    }
}

impl<T: Copy + Default> DerefMut for Buf<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as `deref`.
        unsafe { self.storage.get_unchecked_mut(..self.len) }
    }
}

impl<T: Copy + Default + std::fmt::Debug> std::fmt::Debug for Buf<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::Buf;

    #[test]
    fn grows_and_keeps_what_it_holds() {
        let mut b: Buf<u32> = Buf::default();
        for i in 0..100 {
            b.push(i);
        }
        b.extend_from_within(90..100);
        assert_eq!(b.len(), 110);
        assert_eq!((b[99], b[100], b[109]), (99, 90, 99));
        b.extend_from_within(100..120);
        assert_eq!(b.len(), 110, "a range past the end is refused");
        assert!(b.cap >= b.len && b.start == b.storage.as_mut_ptr());
        b.truncate(50);
        assert_eq!(b.len(), 50);
        b.clear();
        assert!(b.is_empty());
    }
}
