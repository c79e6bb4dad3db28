//! `axforth bench`: Othello perft in ForthScript against the native
//! mailbox reference on the same tables.

use super::game::{print_warnings, start};
use anyhow::{anyhow, bail, Result};
use axforth::Config;
use std::path::Path;
use std::time::Instant;

/// Othello perft: the script against the native mailbox reference, on the
/// same position cells and direction links (the game's own tables).
pub fn bench(config: Config, game: &Path, depth: u32, runs: u32) -> Result<()> {
    use axforth::game::mailbox::{othello_perft, Mailbox};
    let mut vm = start(config, game, None)?;
    let b = &vm.game.board;
    let mailbox = Mailbox { positions: b.positions, directions: b.directions.len(), links: b.links.clone() };
    let cells: Vec<i32> = (0..b.positions as i32).map(|p| b.get(&vm.mem, p)).collect::<Result<_, _>>()?;
    let to_move = vm.player_to_move();
    let (mut script_best, mut native_best) = (f64::MAX, f64::MAX);
    let (mut script_nodes, mut native_nodes) = (0, 0);
    for _ in 0..runs.max(1) {
        let t0 = Instant::now();
        script_nodes = vm.perft(depth)?;
        script_best = script_best.min(t0.elapsed().as_secs_f64());
        let mut board = cells.clone();
        let t0 = Instant::now();
        native_nodes = othello_perft(&mailbox, &mut board, to_move, depth).map_err(|e| anyhow!("{}: not an Othello board for the native reference: {e}", game.display()))?;
        native_best = native_best.min(t0.elapsed().as_secs_f64());
    }
    vm.flush_output();
    print_warnings(&mut vm);
    if script_nodes != native_nodes {
        bail!("perft {depth} differs: the script counts {script_nodes}, the native reference {native_nodes}");
    }
    println!("Othello perft {depth} = {script_nodes} (best of {runs})");
    println!("{:<22} {:>9} {:>14}", "", "seconds", "nodes/s");
    println!("{:<22} {:>9.3} {:>14.0}", "script (ForthScript)", script_best, script_nodes as f64 / script_best);
    println!("{:<22} {:>9.3} {:>14.0}", "native mailbox (Rust)", native_best, native_nodes as f64 / native_best);
    println!("script / native: {:.1}x", script_best / native_best);
    Ok(())
}
