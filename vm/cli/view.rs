//! `axforth view`: a self-contained HTML page that replays a game, from an
//! autoplay game log or from a game file and `--after` moves.

use super::game::{to_move, verdict};
use anyhow::{anyhow, Context, Result};
use axforth::game::UNKNOWN_SCORE;
use axforth::tournament::record::GameLog;
use axforth::view::{html, replay};
use axforth::open::GameFile;
use axforth::Config;
use std::path::Path;

pub fn view(config: Config, input: &Path, variant: Option<&str>, after: Option<&str>, output: Option<&Path>) -> Result<()> {
    // Without -o: named after what it shows, beside the caller (never a
    // fixed name that one view after another would overwrite).
    let named = input.file_stem().map(|s| Path::new(s).with_extension("html"));
    let output = output.or(named.as_deref()).unwrap_or(Path::new("game.html"));
    let is_log = input.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let page = if is_log {
        if after.is_some() || variant.is_some() {
            return Err(anyhow!("--after and --variant apply to a game file, not to a game log: the log has its moves and its variants"));
        }
        let text = std::fs::read_to_string(input).with_context(|| format!("cannot read {}", input.display()))?;
        let log: GameLog = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a game log of `autoplay --log` (one JSON object with a header and a game)", input.display()))?;
        let dir = input.parent().unwrap_or(Path::new("."));
        let r = replay::of_record(&config, &log.header, dir, &log.game).map_err(|e| anyhow!("{}: {e}", input.display()))?;
        print_picture_warnings(&r);
        html::page(&r, 0)
    } else {
        let moves: Vec<String> = after.unwrap_or("").split(';').map(str::trim).filter(|t| !t.is_empty()).map(String::from).collect();
        let game = GameFile::open(input, variant).map_err(anyhow::Error::msg)?;
        let (mut vm, mut r) = replay::of_moves(&config, &game, &moves).map_err(|e| anyhow!("{}: {e}", game.label()))?;
        vm.generate_turn()?;
        let score = vm.game_result()?;
        r.result = if score == UNKNOWN_SCORE {
            format!("{} to move, turn {}", to_move(&vm), vm.game.turn.number)
        } else {
            format!("game over: {}", verdict(&vm, score))
        };
        // Open on the position the moves lead to: that is what was asked for.
        let last = r.frames.len() - 1;
        print_picture_warnings(&r);
        html::page(&r, last)
    };
    std::fs::write(output, page).with_context(|| format!("cannot write {}", output.display()))?;
    println!("wrote {}", output.display());
    Ok(())
}

/// Pictures of the `.zrf` that could not be drawn, and how they were drawn instead.
fn print_picture_warnings(r: &replay::Replay) {
    for w in &r.scene.warnings {
        eprintln!("{w}");
    }
}
