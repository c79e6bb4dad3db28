//! `axforth perft GAME N`: move sequences of N plies, and nodes/s.

use super::game::{print_warnings, start};
use anyhow::Result;
use axforth::Config;
use axforth::open::GameFile;
use std::time::Instant;

pub fn perft(config: Config, game: &GameFile, depth: u32, divide: bool, after: Option<&str>) -> Result<()> {
    let mut vm = start(config, game, after)?;
    let t0 = Instant::now();
    // Counted a first move at a time, so that a terminal shows how far
    // it is (the sum is the same perft).
    let bar = super::progress_bar("first moves");
    let mut tick = |k: usize, of: usize| {
        bar.set_length(of as u64);
        bar.set_position(k as u64);
    };
    let total = if divide {
        let parts = vm.perft_divide(depth, &mut tick)?;
        bar.finish_and_clear();
        vm.flush_output();
        for (text, n) in &parts {
            println!("{text}: {n}");
        }
        parts.iter().map(|(_, n)| n).sum()
    } else if depth >= 2 && !bar.is_hidden() {
        let parts = vm.perft_divide(depth, &mut tick);
        bar.finish_and_clear();
        parts?.iter().map(|(_, n)| n).sum()
    } else {
        vm.perft(depth)?
    };
    vm.flush_output();
    print_warnings(&mut vm);
    let secs = t0.elapsed().as_secs_f64();
    println!("perft {depth}: {total} ({secs:.3} s, {:.0} nodes/s)", total as f64 / secs.max(1e-9));
    Ok(())
}
