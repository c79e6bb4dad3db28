//! `axforth merge FILES...`: the shards of a tournament (`autoplay
//! --shard K/N --json F`) into one summary, the same the whole tournament
//! gives; `--out` writes the combined record.

use anyhow::{bail, Context, Result};
use axforth::tournament::record::{self, Header, Writer};
use axforth::tournament::summary::Summary;
use axforth::tournament::schedule::Schedule;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn merge(files: &[PathBuf], out: Option<&Path>, summary_json: Option<&Path>) -> Result<ExitCode> {
    let mut header: Option<Header> = None;
    let mut games = BTreeMap::new();
    let mut shards = BTreeSet::new();
    for f in files {
        let r = record::read(f).with_context(|| format!("cannot read {}", f.display()))?;
        let Some(h) = r.header else {
            bail!("{} has no header line: not an axforth record", f.display());
        };
        if let Err(e) = h.check() {
            bail!("{}: {e}", f.display());
        }
        shards.extend(h.shard);
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
    if let Some(note) = missing(&header, &shards, games.len() as u64) {
        eprintln!("warning: {note}");
    }
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

/// What the merged records lack of the whole tournament: shards not
/// given, or games not played (a shard still running or killed).
fn missing(header: &Header, shards: &BTreeSet<[u64; 2]>, games: u64) -> Option<String> {
    let total = Schedule::of(header).total();
    let of = shards.iter().next().map(|s| s[1]);
    let absent: Vec<String> = match of {
        Some(n) => (1..=n).filter(|k| !shards.contains(&[*k, n])).map(|k| format!("{k}/{n}")).collect(),
        None => Vec::new(),
    };
    let counted = format!("the summary is of {games} of the tournament's {total} games");
    match (absent.is_empty(), games < total) {
        (false, _) => Some(format!("shard(s) {} missing: {counted}", absent.join(", "))),
        (true, true) => Some(format!("{counted}: a run still going or stopped (`axforth autoplay --resume FILE` plays the rest)")),
        _ => None,
    }
}
