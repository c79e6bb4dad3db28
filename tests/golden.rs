//! The benchmark programs in ../shared/bench run on the `axforth` binary and
//! print exactly what gforth prints for them.

use pretty_assertions::assert_eq;
use std::path::Path;
use std::process::Command;

const BENCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/bench");

fn golden(program: &str, expected: &str) {
    let path = Path::new(BENCH).join(format!("{program}.4th"));
    assert!(path.is_file(), "missing benchmark {}", path.display());
    let output = Command::new(env!("CARGO_BIN_EXE_axforth"))
        .arg("run")
        .arg(&path)
        .output()
        .expect("running the axforth binary");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{program}: exit {:?}\nstdout: {stdout}\nstderr: {stderr}", output.status);
    assert_eq!(stderr.trim(), "", "{program}: nothing on stderr");
    let got: Vec<&str> = stdout.split_whitespace().collect();
    let want: Vec<&str> = expected.split_whitespace().collect();
    assert_eq!(got, want, "{program}: output differs from gforth's");
}

#[test]
fn fib() {
    golden("fib", "5702887 ");
}

#[test]
fn sieve() {
    golden("sieve", "1028 ");
}

#[test]
fn bubble() {
    golden("bubble", "12 10 32763 ");
}

#[test]
fn matrix() {
    golden("matrix", "3070560 ");
}

#[test]
fn dispatch() {
    golden("dispatch", "5400000 ");
}
