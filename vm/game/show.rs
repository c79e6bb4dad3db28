//! The board as text, for `axforth show` and `play`: a grid of one
//! character per square (a letter of the piece's name, upper case for the
//! first player, lower case for the second, a colour for any further
//! player), then the positions off the grid, then whose turn it is.
//!
//! Each piece type gets a letter of its own: its first letter, unless a
//! piece with a shorter name (or as short and declared earlier) has it,
//! then the next letter of its name that is free: chess's King and Knight
//! read K and N.

use super::{Game, PIECE_TYPE_MASK, PLAYER_MASK};
use crate::vm::Vm;

const COLOURS: [&str; 4] = ["\x1b[36m", "\x1b[35m", "\x1b[33m", "\x1b[32m"];

/// The letter of each piece type (index = type - 1).
fn letters(game: &Game) -> Vec<char> {
    let mut order: Vec<usize> = (0..game.pieces.len()).collect();
    order.sort_by_key(|&i| (game.pieces[i].name.chars().count(), i));
    let mut out = vec!['?'; game.pieces.len()];
    let mut taken: Vec<char> = Vec::new();
    for i in order {
        let name: Vec<char> = game.pieces[i].name.chars().filter(|c| c.is_alphanumeric()).map(|c| c.to_ascii_uppercase()).collect();
        let pick = name.iter().copied().find(|c| !taken.contains(c)).or(name.first().copied()).unwrap_or('?');
        taken.push(pick);
        out[i] = pick;
    }
    out
}

fn letter(game: &Game, content: i32, colour: bool) -> String {
    let t = content & PIECE_TYPE_MASK;
    let c = letters(game).get((t - 1).max(0) as usize).copied().filter(|_| t > 0).unwrap_or('?');
    let i = super::generate::player_index(content & PLAYER_MASK);
    match i {
        0 => c.to_uppercase().to_string(),
        1 => c.to_lowercase().to_string(),
        _ if colour => format!("{}{}\x1b[0m", COLOURS[(i - 2) % COLOURS.len()], c.to_uppercase()),
        _ => c.to_uppercase().to_string(),
    }
}

fn describe(game: &Game, content: i32) -> String {
    format!("{} {}", game.player_name(content), game.piece_name(content & PIECE_TYPE_MASK))
}

/// The board, one line per row, `colour` for players after the second.
pub fn render(vm: &Vm, colour: bool) -> String {
    let game = &vm.game;
    let b = &game.board;
    let cell = |pos: i32| b.get(&vm.mem, pos).unwrap_or(0);
    let mut out = String::new();
    let grid = (b.rows * b.cols) as usize;
    if grid > 0 {
        let width = b.rows.to_string().len();
        for r in 0..b.rows {
            let label = if b.flipped { r + 1 } else { b.rows - r };
            out += &format!("{label:>width$} ");
            for c in 0..b.cols {
                let content = cell(r * b.cols + c);
                out.push(' ');
                out += &if content == 0 { ".".to_string() } else { letter(game, content, colour) };
            }
            out.push('\n');
        }
        out += &" ".repeat(width + 1);
        for c in 0..b.cols {
            let name = b.grid_name(0, c);
            out.push(' ');
            out += name.trim_end_matches(|ch: char| ch.is_ascii_digit());
        }
        out.push('\n');
    }
    for pos in grid..b.positions {
        let content = cell(pos as i32);
        let what = if content == 0 { "empty".to_string() } else { describe(game, content) };
        out += &format!("{}: {what}\n", b.name(pos as i32));
    }
    // A legend: which letter is whose piece.
    let mut legend: Vec<String> = Vec::new();
    for p in &game.players {
        for (t, piece) in game.pieces.iter().enumerate() {
            let content = p.value | (t as i32 + 1);
            if (0..grid as i32).any(|pos| cell(pos) == content) {
                legend.push(format!("{} = {} {}", letter(game, content, colour), p.name, piece.name));
            }
        }
    }
    if !legend.is_empty() {
        out += &format!("({})\n", legend.join(", "));
    }
    out
}
