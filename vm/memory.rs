//! The data space: one linear, byte-addressed array; cells are 4 bytes,
//! little-endian. Every access is bounds-checked and a bad address is an
//! error value, never a crash.
//!
//! Owns `Memory` and the allocation pointer `here`. The first cells hold
//! the system variables the outer interpreter reads (`BASE`, `STATE`).
//!
//! Writes are tracked by one bound, `written`: every byte at or above it
//! is still zero, as the memory was made. A write below it costs nothing
//! more than the bounds check (it is the check, against a smaller
//! length); a write above it raises it, in steps of `WRITE_STEP`. So a
//! VM reused for another game (`Snapshot`) puts back only the bytes below
//! it: what a game touched, never the whole data space.

use crate::error::ErrorKind;

pub const BASE_ADDR: u32 = 0;
pub const STATE_ADDR: u32 = 4;
/// Where ALLOT starts handing out space.
pub const FIRST_FREE: u32 = 16;
/// The dead space `header_gap` leaves: the original's header before a
/// body was its name, link and flag cells and the code field.
pub const HEADER_BYTES: u32 = 16;

/// How far a write above `Memory::written` raises it (one native
/// deoptimization per step, for code that writes upwards).
const WRITE_STEP: usize = 64 << 10;

pub struct Memory {
    bytes: Vec<u8>,
    pub here: u32,
    /// Every byte from here up is zero.
    written: u32,
}

/// The data space as it stood: its bytes below `written`, and `here`.
#[derive(Clone)]
pub struct Snapshot {
    bytes: Vec<u8>,
    here: u32,
}

impl Memory {
    pub fn new(size: usize) -> Memory {
        let size = size.clamp(FIRST_FREE as usize, i32::MAX as usize);
        let mut m = Memory { bytes: vec![0; size], here: FIRST_FREE, written: FIRST_FREE };
        m.bytes[BASE_ADDR as usize] = 10;
        m
    }

    /// The bytes, for native code (which checks bounds against the length
    /// itself); valid until the memory is dropped.
    pub(crate) fn raw(&mut self) -> (*mut u8, usize) {
        (self.bytes.as_mut_ptr(), self.bytes.len())
    }

    /// Where native code's stores are checked against: a store above it
    /// deoptimizes, and the interpreter's store raises it.
    pub(crate) fn written(&self) -> u32 {
        self.written
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot { bytes: self.bytes[..self.written as usize].to_vec(), here: self.here }
    }

    /// Back to `s`, a snapshot of this memory: the bytes written since
    /// are put back or zeroed, the rest is untouched.
    pub fn restore(&mut self, s: &Snapshot) {
        let (was, now) = (s.bytes.len(), self.written as usize);
        self.bytes[..was].copy_from_slice(&s.bytes);
        if now > was {
            self.bytes[was..now].fill(0);
        }
        self.written = was as u32;
        self.here = s.here;
    }

    /// All of the data space (its size never changes).
    pub(crate) fn contents(&self) -> &[u8] {
        &self.bytes
    }

    pub fn size(&self) -> u32 {
        self.bytes.len() as u32
    }

    #[inline(always)]
    fn range(&self, addr: i32, len: u32) -> Result<usize, ErrorKind> {
        let a = addr as u32 as usize;
        if a + len as usize <= self.bytes.len() {
            Ok(a)
        } else {
            Err(ErrorKind::AddressOutOfRange { addr, len, size: self.size() })
        }
    }

    /// `range`, for a write: raises `written` over it.
    #[inline(always)]
    fn range_mut(&mut self, addr: i32, len: u32) -> Result<usize, ErrorKind> {
        let a = addr as u32 as usize;
        if a + len as usize <= self.written as usize {
            Ok(a)
        } else {
            self.write_above(addr, len)
        }
    }

    #[cold]
    #[inline(never)]
    fn write_above(&mut self, addr: i32, len: u32) -> Result<usize, ErrorKind> {
        let a = self.range(addr, len)?;
        let end = a + len as usize;
        self.written = (end.next_multiple_of(WRITE_STEP)).min(self.bytes.len()) as u32;
        Ok(a)
    }

    #[inline(always)]
    pub fn fetch(&self, addr: i32) -> Result<i32, ErrorKind> {
        let a = self.range(addr, 4)?;
        Ok(i32::from_le_bytes([self.bytes[a], self.bytes[a + 1], self.bytes[a + 2], self.bytes[a + 3]]))
    }

    #[inline(always)]
    pub fn store(&mut self, addr: i32, value: i32) -> Result<(), ErrorKind> {
        let a = self.range_mut(addr, 4)?;
        self.bytes[a..a + 4].copy_from_slice(&value.to_le_bytes());
        Ok(())
    }

    #[inline(always)]
    pub fn cfetch(&self, addr: i32) -> Result<i32, ErrorKind> {
        let a = self.range(addr, 1)?;
        Ok(self.bytes[a] as i32)
    }

    #[inline(always)]
    pub fn cstore(&mut self, addr: i32, value: i32) -> Result<(), ErrorKind> {
        let a = self.range_mut(addr, 1)?;
        self.bytes[a] = value as u8;
        Ok(())
    }

    pub fn slice(&self, addr: i32, len: i32) -> Result<&[u8], ErrorKind> {
        let len = u32::try_from(len).map_err(|_| ErrorKind::AddressOutOfRange { addr, len: 0, size: self.size() })?;
        let a = self.range(addr, len)?;
        Ok(&self.bytes[a..a + len as usize])
    }

    pub fn slice_mut(&mut self, addr: i32, len: i32) -> Result<&mut [u8], ErrorKind> {
        let len = u32::try_from(len).map_err(|_| ErrorKind::AddressOutOfRange { addr, len: 0, size: self.size() })?;
        let a = self.range_mut(addr, len)?;
        Ok(&mut self.bytes[a..a + len as usize])
    }

    /// `MOVE`: copies correctly when the ranges overlap.
    pub fn copy(&mut self, from: i32, to: i32, len: i32) -> Result<(), ErrorKind> {
        if len <= 0 {
            return Ok(());
        }
        let src = self.range(from, len as u32)?;
        let dst = self.range_mut(to, len as u32)?;
        self.bytes.copy_within(src..src + len as usize, dst);
        Ok(())
    }

    /// Moves `here` by n bytes (negative gives space back).
    pub fn allot(&mut self, n: i32) -> Result<u32, ErrorKind> {
        let start = self.here;
        let new = self.here as i64 + n as i64;
        if new < FIRST_FREE as i64 || new > self.bytes.len() as i64 {
            return Err(ErrorKind::DataSpaceExhausted { wanted: n as i64, free: self.bytes.len() as i64 - self.here as i64 });
        }
        self.here = new as u32;
        Ok(start)
    }

    /// Allots and zeroes n bytes, aligned to a cell; returns the address.
    pub fn allot_cells_zeroed(&mut self, bytes: i32) -> Result<u32, ErrorKind> {
        self.align();
        let start = self.allot(bytes)?;
        if bytes > 0 {
            self.slice_mut(start as i32, bytes)?.fill(0);
        }
        Ok(start)
    }

    /// Dead space before the body of a data definition (`VARIABLE`,
    /// `CREATE`, `[]`). In the original every word had a header (name,
    /// link and flag cells) before its body, so a write one past the end
    /// of an array hit the next word's header, never its value; real
    /// games rely on it. Aligned, zeroed, `HEADER_BYTES` long.
    pub fn header_gap(&mut self) -> Result<(), ErrorKind> {
        self.allot_cells_zeroed(HEADER_BYTES as i32).map(drop)
    }

    pub fn align(&mut self) {
        let aligned = (self.here + 3) & !3;
        if (aligned as usize) <= self.bytes.len() {
            self.here = aligned;
        }
    }

    pub fn comma(&mut self, value: i32) -> Result<(), ErrorKind> {
        let a = self.allot(4)?;
        self.store(a as i32, value)
    }

    pub fn ccomma(&mut self, value: i32) -> Result<(), ErrorKind> {
        let a = self.allot(1)?;
        self.cstore(a as i32, value)
    }

    /// Lays down a counted string (1 length byte, then the text; longer
    /// text is cut at 255 bytes) and returns its address.
    pub fn counted_string(&mut self, text: &[u8]) -> Result<u32, ErrorKind> {
        let text = &text[..text.len().min(255)];
        let a = self.allot(text.len() as i32 + 1)?;
        let to = self.slice_mut(a as i32, text.len() as i32 + 1)?;
        to[0] = text.len() as u8;
        to[1..].copy_from_slice(text);
        Ok(a)
    }

    /// The text of the counted string at addr.
    pub fn counted(&self, addr: i32) -> Result<&[u8], ErrorKind> {
        let len = self.cfetch(addr)?;
        self.slice(addr.wrapping_add(1), len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_little_endian_and_checked() {
        let mut m = Memory::new(64);
        m.store(16, 0x01020304).unwrap();
        assert_eq!(m.cfetch(16).unwrap(), 4);
        assert_eq!(m.fetch(16).unwrap(), 0x01020304);
        assert!(m.fetch(61).is_err());
        assert!(m.fetch(-1).is_err());
        assert!(m.cstore(64, 0).is_err());
    }

    #[test]
    fn allot_refuses_to_run_past_the_end() {
        let mut m = Memory::new(64);
        assert!(m.allot(1 << 30).is_err());
        assert!(m.allot(-100).is_err());
        assert_eq!(m.allot(8).unwrap(), FIRST_FREE);
    }
}
