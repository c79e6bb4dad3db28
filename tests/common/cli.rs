//! Running the `axforth` binary the way a user does, for the suites that
//! test the command line: in the crate's root (so `scripts/…` paths
//! resolve), in another folder, or with input typed on stdin; and the
//! scratch folders those runs write into.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The crate's root: the folder the commands run in.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub fn axforth(args: &[&str]) -> Output {
    axforth_in(root(), args)
}

pub fn axforth_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_axforth")).args(args).current_dir(dir).output().expect("running axforth")
}

/// The command with `input` on its stdin (then closed).
pub fn axforth_with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_axforth"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running axforth");
    // A command that fails early may not read its input: a broken pipe is fine.
    let _ = child.stdin.take().expect("stdin").write_all(input.as_bytes());
    child.wait_with_output().expect("axforth output")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Stdout then stderr, for assertions that do not care which.
pub fn both(o: &Output) -> String {
    stdout(o) + &stderr(o)
}

/// An empty folder of the test's own (named by the test and the process,
/// so suites and runs never share one).
pub fn scratch(name: &str) -> PathBuf {
    let exe = std::env::current_exe().ok();
    let suite = exe.as_ref().and_then(|p| p.file_stem()).and_then(|s| s.to_str()).and_then(|s| s.split('-').next()).unwrap_or("test");
    let dir = std::env::temp_dir().join(format!("axforth-{suite}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
