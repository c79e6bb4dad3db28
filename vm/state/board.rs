//! The board layout: how many positions, their names, the direction links
//! between them, symmetries, and where the board's cells live in the data
//! space. Reading and writing the cells themselves goes through `Memory`
//! (bounds-checked); this file only knows addresses.
//!
//! Part of the game's plain state (`state/`): may touch `error` and
//! `memory`, nothing above.

use crate::error::{ErrorKind, VmResult};
use crate::memory::Memory;

#[derive(Default, Clone)]
pub struct Board {
    /// Grid size (0 x 0 when the board has only `{position}`s).
    pub rows: i32,
    pub cols: i32,
    pub positions: usize,
    pub names: Vec<String>,
    /// Positions at or above this are not scanned for moves and drops.
    pub scan_limit: Option<usize>,
    /// `links[dir * positions + pos]`: where `dir` leads from `pos`, or -1.
    pub links: Vec<i32>,
    pub directions: Vec<String>,
    /// Per player index: direction -> the direction it means for that player.
    symmetry: Vec<Vec<u32>>,
    /// The links as each player walks them (symmetries applied), so a
    /// step is one load, for the interpreter and native code alike:
    /// `walk[(p * directions + dir) * positions + pos]`, where p is the
    /// player's index, or `symmetry.len()` (the last block: the links as
    /// declared) for players without symmetries of their own. Kept up to
    /// date by every change of links or symmetries.
    pub walk: Vec<i32>,
    /// `directions * positions`: one player's block of `walk`.
    pub walk_stride: u32,
    /// The board region in data space: [region, region + region_len).
    pub region: u32,
    pub region_len: u32,
    /// Address of position 0's cell.
    pub cells: u32,
    /// `board}` has run.
    pub complete: bool,
    /// Row 1 is the top row (`$flipGrid ON`).
    pub flipped: bool,
    /// Counts the changes of the layout (positions, directions, links,
    /// symmetries), and of how `friend?` reads a square (`OnFriends?`
    /// found or gone): native code compiled with them built in is thrown
    /// away at each (`Vm::change_layout`), which this checks.
    pub layout: u32,
    /// Addresses of the `{clock}` cells: board variables that are cloned
    /// with the board but are no part of the position's identity (its
    /// Zobrist key), such as a move counter.
    pub unkeyed: Vec<u32>,
}

impl Board {
    pub fn scan_positions(&self) -> usize {
        self.scan_limit.unwrap_or(self.positions).min(self.positions)
    }

    /// Position of grid square (row from the top, column).
    pub fn grid_index(&self, r: i32, c: i32) -> Option<i32> {
        (r >= 0 && r < self.rows && c >= 0 && c < self.cols).then_some(r * self.cols + c)
    }

    /// The Zillions name of a grid square: `a1` is the bottom left.
    pub fn grid_name(&self, r: i32, c: i32) -> String {
        let row = if self.flipped { r + 1 } else { self.rows - r };
        let mut col = String::new();
        let mut n = c;
        loop {
            col.insert(0, (b'a' + (n % 26) as u8) as char);
            n = n / 26 - 1;
            if n < 0 {
                break;
            }
        }
        format!("{col}{row}")
    }

    pub fn name(&self, pos: i32) -> String {
        match self.names.get(pos as usize) {
            Some(n) => n.clone(),
            None => format!("#{pos}"),
        }
    }

    pub fn position_named(&self, name: &str) -> Option<i32> {
        self.names.iter().position(|n| n == name).map(|p| p as i32)
    }

    pub fn direction_named(&self, name: &str) -> Option<u32> {
        self.directions.iter().position(|n| n == name).map(|d| d as u32)
    }

    /// Adds a direction with no links; returns its index.
    pub fn add_direction(&mut self, name: &str) -> u32 {
        if let Some(d) = self.direction_named(name) {
            return d;
        }
        self.layout += 1;
        self.directions.push(name.to_string());
        self.links.extend(std::iter::repeat_n(-1, self.positions));
        for row in &mut self.symmetry {
            row.push(row.len() as u32);
        }
        self.rebuild_walk();
        (self.directions.len() - 1) as u32
    }

    #[inline]
    pub fn link(&self, dir: u32, pos: i32) -> i32 {
        if pos < 0 || pos as usize >= self.positions {
            return -1;
        }
        self.links.get(dir as usize * self.positions + pos as usize).copied().unwrap_or(-1)
    }

    pub fn set_link(&mut self, dir: u32, from: i32, to: i32) {
        if !self.valid(from) {
            return;
        }
        self.layout += 1;
        let i = dir as usize * self.positions + from as usize;
        if let Some(slot) = self.links.get_mut(i) {
            *slot = to;
        }
        // Every player direction that means `dir` now leads to `to`.
        let n = self.directions.len();
        for p in 0..=self.symmetry.len() {
            for e in 0..n {
                if self.resolve(p, e as u32) == dir {
                    // Positions added after the directions leave the table
                    // short: the next rebuild covers them.
                    if let Some(slot) = self.walk.get_mut((p * n + e) * self.positions + from as usize) {
                        *slot = to;
                    }
                }
            }
        }
    }

    /// The direction `dir` means for the player with this index.
    #[inline]
    fn resolve(&self, player_index: usize, dir: u32) -> u32 {
        match self.symmetry.get(player_index) {
            Some(row) => row.get(dir as usize).copied().unwrap_or(dir),
            None => dir,
        }
    }

    /// Where a step in direction `dir` leads the player with this index
    /// from `pos` (symmetries applied), or -1.
    #[inline]
    pub fn step(&self, player_index: usize, dir: u32, pos: i32) -> i32 {
        if !self.valid(pos) {
            return -1;
        }
        let p = player_index.min(self.symmetry.len());
        let i = p * self.walk_stride as usize + dir as usize * self.positions + pos as usize;
        self.walk.get(i).copied().unwrap_or(-1)
    }

    /// The player with this index walks `d1` as `d2`.
    pub fn set_symmetry(&mut self, player_index: usize, d1: u32, d2: u32) {
        self.layout += 1;
        let n = self.directions.len() as u32;
        while self.symmetry.len() <= player_index {
            self.symmetry.push((0..n).collect());
        }
        if let Some(slot) = self.symmetry[player_index].get_mut(d1 as usize) {
            *slot = d2;
        }
        self.rebuild_walk();
    }

    /// The index of the last block of `walk` (players without symmetries).
    pub fn walk_last(&self) -> u32 {
        self.symmetry.len() as u32
    }

    fn rebuild_walk(&mut self) {
        let n = self.directions.len();
        self.walk_stride = (n * self.positions) as u32;
        let mut walk = Vec::with_capacity((self.symmetry.len() + 1) * n * self.positions);
        for p in 0..=self.symmetry.len() {
            for e in 0..n as u32 {
                let dir = self.resolve(p, e);
                walk.extend((0..self.positions as i32).map(|pos| self.link(dir, pos)));
            }
        }
        self.walk = walk;
    }

    #[inline]
    pub fn valid(&self, pos: i32) -> bool {
        pos >= 0 && (pos as usize) < self.positions
    }

    pub fn check(&self, pos: i32) -> VmResult<()> {
        if self.valid(pos) {
            Ok(())
        } else {
            Err(self.no_such_position(pos).into())
        }
    }

    #[inline]
    pub fn cell_addr(&self, pos: i32) -> i32 {
        (self.cells + 4 * pos as u32) as i32
    }

    #[cold]
    pub fn no_such_position(&self, pos: i32) -> ErrorKind {
        ErrorKind::Game(format!("no such position: {pos} (the board has positions 0..{})", self.positions))
    }

    /// The content of a position (checked).
    #[inline]
    pub fn get(&self, mem: &Memory, pos: i32) -> VmResult<i32> {
        self.check(pos)?;
        Ok(mem.fetch(self.cell_addr(pos))?)
    }

    /// Every position's cell, for a scan.
    pub fn cells<'m>(&self, mem: &'m Memory) -> VmResult<Cells<'m>> {
        Ok(Cells(mem.slice(self.cell_addr(0), 4 * self.positions as i32)?))
    }

    #[inline]
    pub fn set(&self, mem: &mut Memory, pos: i32, value: i32) -> VmResult<()> {
        self.check(pos)?;
        Ok(mem.store(self.cell_addr(pos), value)?)
    }
}

/// The board's cells in data space, read in place.
pub struct Cells<'m>(&'m [u8]);

impl Cells<'_> {
    /// Every position's content, in order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = i32> + '_ {
        self.0.chunks_exact(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
    }

    /// The content at `pos` (a position of the board).
    #[inline]
    pub fn get(&self, pos: usize) -> i32 {
        let c = &self.0[4 * pos..4 * pos + 4];
        i32::from_le_bytes([c[0], c[1], c[2], c[3]])
    }
}
