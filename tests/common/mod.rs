//! Shared by the test suites: the property-test settings (`fuzz.rs`,
//! `optimizer.rs`), the game helpers (`game`) and running the binary
//! (`cli`). Each suite uses a part.
#![allow(dead_code)]

pub mod cli;
pub mod game;
pub mod programs;

use proptest::test_runner::Config as ProptestConfig;

/// 256 cases by default; `AXFORTH_FUZZ_CASES=100000 cargo test --release
/// --test fuzz --test optimizer` for a longer hunt.
pub fn proptest_config() -> ProptestConfig {
    let cases = std::env::var("AXFORTH_FUZZ_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}
