//! `axforth merge FILES...`: the shards of a tournament (`autoplay
//! --shard K/N --json F`) into one summary, the same the whole tournament
//! gives; `--out` writes the combined record.

use anyhow::{bail, Context, Result};
use axforth::tournament::record::{self, Header, Writer};
use axforth::tournament::summary::Summary;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn merge(files: &[PathBuf], out: Option<&Path>, summary_json: Option<&Path>) -> Result<ExitCode> {
    let mut header: Option<Header> = None;
    let mut games = BTreeMap::new();
    for f in files {
        let r = record::read(f).with_context(|| format!("cannot read {}", f.display()))?;
        let Some(h) = r.header else {
            bail!("{} has no header line: not an axforth record", f.display());
        };
        if let Err(e) = h.check() {
            bail!("{}: {e}", f.display());
        }
        match &header {
            None => header = Some(h),
            Some(first) if !first.same_tournament(&h) => {
                bail!("{} is another tournament (its files, seed or options differ from {})", f.display(), files[0].display())
            }
            _ => {}
        }
        if r.skipped > 0 {
            eprintln!("note: {}: {} line(s) skipped (a torn last line, or not a record)", f.display(), r.skipped);
        }
        for g in r.games {
            games.insert(g.index, g);
        }
    }
    let Some(mut header) = header else { bail!("nothing to merge") };
    header.shard = None;
    let games: Vec<_> = games.into_values().collect();
    if let Some(path) = out {
        if path.exists() {
            bail!("{} exists: merge writes a new file", path.display());
        }
        let mut w = Writer::append(path).with_context(|| format!("cannot write {}", path.display()))?;
        w.write(&header)?;
        for g in &games {
            w.write(g)?;
        }
    }
    let summary = Summary::new(&header, &games);
    for line in summary.lines() {
        println!("{line}");
    }
    if let Some(path) = summary_json {
        std::fs::write(path, summary.json() + "\n").with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}
