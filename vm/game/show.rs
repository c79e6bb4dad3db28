//! The board as text, for `axforth show` and `play`: a grid of one
//! character per square — the piece type's initial, upper case for the
//! first player and lower case for the second (neutral players, upper
//! case, do not count); or, in a game of one piece
//! type, the owner's initial (X and O, B and W) — then the positions off
//! the grid, a legend of the letters used, and each player's piece count.
//! With colour, each player's letters have their own colour.
//!
//! Each piece type gets a letter of its own: its first letter, unless a
//! piece with a shorter name (or as short and declared earlier) has it,
//! then the next letter of its name that is free: chess's King and Knight
//! read K and N.

use crate::state::{player_index, Game, PIECE_TYPE_MASK, PLAYER_MASK};
use crate::vm::Vm;

/// Off-grid positions listed each, empty or not, up to this many.
const OFF_GRID_LISTED: usize = 16;

/// ANSI colours by seat; a player named after a colour gets that one.
const SEAT_COLOURS: [&str; 6] = ["1;34", "1;31", "1;32", "1;33", "1;35", "1;36"];
const NAMED_COLOURS: [(&str, &str); 6] = [("red", "1;31"), ("green", "1;32"), ("yellow", "1;33"), ("blue", "1;34"), ("magenta", "1;35"), ("cyan", "1;36")];

/// How pieces are lettered: by their type's initial (upper case for the
/// first player, lower for the second), or, in a game of one piece type
/// whose players' initials differ (X and O, Black and White), by the
/// owner's initial.
fn by_owner(game: &Game) -> bool {
    let types = game.piece_scan_limit.unwrap_or(game.pieces.len()).min(game.pieces.len());
    let initials: Vec<char> = game.players.iter().filter_map(|p| p.name.chars().find(|c| c.is_alphanumeric()).map(|c| c.to_ascii_uppercase())).collect();
    let mut distinct = initials.clone();
    distinct.sort_unstable();
    distinct.dedup();
    types == 1 && distinct.len() == initials.len() && initials.len() == game.players.len()
}

/// The letter of each piece type (index = type - 1).
pub fn letters(game: &Game) -> Vec<char> {
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

fn letter(game: &Game, content: i32, owners: bool) -> char {
    let i = player_index(content & PLAYER_MASK);
    if owners {
        if let Some(c) = game.players.get(i).and_then(|p| p.name.chars().find(|c| c.is_alphanumeric())) {
            return c.to_ascii_uppercase();
        }
    }
    let t = content & PIECE_TYPE_MASK;
    let c = if t > 0 { letters(game).get(t as usize - 1).copied().unwrap_or('?') } else { '?' };
    // The case tells the contestants apart: the second one (neutral
    // owners, such as Splut!'s rock owners, do not count) is lower case.
    let neutral = game.players.get(i).is_none_or(|p| p.neutral);
    let rank = game.players.iter().take(i).filter(|p| !p.neutral).count();
    if !neutral && rank == 1 {
        c.to_ascii_lowercase()
    } else {
        c.to_ascii_uppercase()
    }
}

fn paint(game: &Game, content: i32, text: char, colour: bool) -> String {
    if !colour {
        return text.to_string();
    }
    let i = player_index(content & PLAYER_MASK);
    let name = game.players.get(i).map(|p| p.name.to_lowercase()).unwrap_or_default();
    let code = NAMED_COLOURS.iter().find(|(n, _)| name.contains(n)).map_or(SEAT_COLOURS[i % SEAT_COLOURS.len()], |(_, c)| c);
    format!("\x1b[{code}m{text}\x1b[0m")
}

fn describe(game: &Game, content: i32) -> String {
    format!("{} {}", game.player_name(content), game.piece_name(content & PIECE_TYPE_MASK))
}

/// The board, one line per row, then the positions off the grid, a legend
/// of every letter used and each player's count of pieces; `colour`: ANSI
/// colours per player.
pub fn render(vm: &Vm, colour: bool) -> String {
    let game = &vm.game;
    let b = &game.board;
    let owners = by_owner(game);
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
                out += &if content == 0 { ".".to_string() } else { paint(game, content, letter(game, content, owners), colour) };
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
    // Off the grid: each position while they are few; past that only
    // the occupied ones (a game of many reserve squares printed a line
    // for every empty one), and how many are empty.
    let off_grid = grid..b.positions;
    let every = off_grid.len() <= OFF_GRID_LISTED;
    let mut empty = 0;
    for pos in off_grid {
        let content = cell(pos as i32);
        if content == 0 && !every {
            empty += 1;
            continue;
        }
        let what = if content == 0 { "empty".to_string() } else { describe(game, content) };
        out += &format!("{}: {what}\n", b.name(pos as i32));
    }
    if empty > 0 {
        out += &format!("and {empty} empty positions off the grid\n");
    }
    // A legend: which letter is whose piece; then how many each player has.
    let mut legend: Vec<String> = Vec::new();
    let mut counts: Vec<String> = Vec::new();
    for p in &game.players {
        let mut count = 0;
        for (t, piece) in game.pieces.iter().enumerate() {
            let content = p.value | (t as i32 + 1);
            let here = (0..b.positions as i32).filter(|&pos| cell(pos) == content).count();
            count += here;
            if (0..grid as i32).any(|pos| cell(pos) == content) {
                legend.push(format!("{} = {} {}", paint(game, content, letter(game, content, owners), colour), p.name, piece.name));
            }
        }
        if count > 0 || !p.neutral {
            counts.push(format!("{} {count}", p.name));
        }
    }
    if !legend.is_empty() {
        out += &format!("({})\n", legend.join(", "));
    }
    if !counts.is_empty() {
        out += &format!("pieces on the board: {}\n", counts.join(", "));
    }
    out
}
