//! What the benchmark binaries of `cargo xtask bench` share, tested on its
//! own (`cargo test -p rt-benches --lib`): the command-line plumbing, how
//! figures and ratios are written, and the summary each benchmark adds to
//! the one `cargo xtask bench` prints first.
//!
//! The benchmarks themselves are the bench targets of this package
//! (`compare.rs`, `burst.rs`, ... beside this file), run with
//! `cargo xtask bench` or one at a time with
//! `cargo bench -p rt-benches --bench NAME`.

pub mod cli;
pub mod format;
pub mod summary;
