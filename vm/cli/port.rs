//! `axforth port GAME.zrf [--variant V] -o DIR`: a plain Zillions game's
//! rules written out as ForthScript, the text axforth loads when it opens
//! the `.zrf` (`zrf::forth`). One self-contained file per variant, named
//! after the variant's title as Axiom named its variant files (spaces to
//! `-`): each loads, plays and counts perft as the `.zrf` does.

use anyhow::{bail, Context, Result};
use axforth::zrf::{forth, Zrf};
use std::path::{Path, PathBuf};

pub fn port(zrf_path: &Path, variant: Option<&str>, out: &Path) -> Result<Vec<PathBuf>> {
    if !axforth::open::is_zrf(zrf_path) {
        bail!("{}: `port` translates a Zillions .zrf file", zrf_path.display());
    }
    let zrf = Zrf::read(zrf_path).map_err(|e| anyhow::anyhow!("{e}"))?;
    let chosen: Vec<usize> = match variant {
        None => (0..zrf.variants.len()).collect(),
        Some(v) => {
            // The same choice every verb makes (title without case, or number).
            let game = axforth::open::GameFile::open(zrf_path, Some(v)).map_err(anyhow::Error::msg)?;
            let title = game.name();
            zrf.variants.iter().position(|x| x.title.text == title).into_iter().collect()
        }
    };
    if chosen.is_empty() {
        bail!("{}: no variant to port", zrf_path.display());
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut written = Vec::new();
    let mut failed = 0;
    for i in chosen {
        let v = &zrf.variants[i];
        if let Some(engine) = &v.engine {
            eprintln!("note: `{}` is an Axiom game (engine {}): its rules are its .4th files already; skipped", v.title.text, engine.text);
            continue;
        }
        match forth::translate(&zrf, v) {
            Ok(t) => {
                let file = out.join(format!("{}.4th", file_stem(&v.title.text)));
                std::fs::write(&file, &t.text).with_context(|| format!("cannot write {}", file.display()))?;
                if let Some(reach) = &t.reach {
                    append_reach(&file, reach)?;
                }
                println!("{}", file.display());
                written.push(file);
            }
            Err(e) => {
                failed += 1;
                eprintln!("{e}\n  (variant `{}`: not written)", v.title.text);
            }
        }
    }
    if written.is_empty() {
        if failed > 0 {
            bail!("no variant of {} could be translated", zrf_path.display());
        }
        bail!("{}: no Zillions rules variant to port (every variant chosen names an Axiom engine)", zrf_path.display());
    }
    Ok(written)
}

/// Appends the reach table the rules gave (`game/reach_table.rs`): its
/// fingerprint is of the move words as the written file makes them, so
/// the file is loaded first.
fn append_reach(file: &Path, reach: &axforth::state::reach::Reach) -> Result<()> {
    let config = axforth::Config { jit: axforth::jit::JitMode::Off, ..axforth::Config::default() };
    let mut vm = axforth::Vm::new(config).map_err(|e| anyhow::anyhow!("{e}"))?;
    vm.load_game(&axforth::open::GameFile::script(file)).map_err(|e| anyhow::anyhow!("{}: the written file does not load: {e}", file.display()))?;
    let block = axforth::game::reach_table::render(&vm, reach);
    let mut out = std::fs::OpenOptions::new().append(true).open(file).with_context(|| format!("cannot write {}", file.display()))?;
    std::io::Write::write_all(&mut out, block.as_bytes()).with_context(|| format!("cannot write {}", file.display()))
}

/// `Ur [simple evaluation]` → `Ur-[simple-evaluation]`, without the
/// characters a file name cannot hold.
fn file_stem(title: &str) -> String {
    title.chars().map(|c| if c == ' ' { '-' } else if "/\\:*?\"<>|".contains(c) { '_' } else { c }).collect()
}
