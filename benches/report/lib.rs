//! What the benchmark binaries of `cargo xtask bench` share, in a package
//! of its own so that its tests (`cargo test -p rt-bench-report`) build
//! without the peers the benchmarks compare against: the command-line
//! plumbing, how figures and ratios are written, and the summary each
//! benchmark adds to the one `cargo xtask bench` prints first.

pub mod cli;
pub mod format;
pub mod summary;
