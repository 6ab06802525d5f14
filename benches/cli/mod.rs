//! Command-line plumbing shared by the benchmark binaries.

use std::path::PathBuf;
use std::str::FromStr;

/// Where reports go: `$CARGO_TARGET_DIR/bench`, else `target/bench`.
pub fn default_out_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| "target".into())
        .join("bench")
}

/// The next argument, parsed; panics with `usage` (say `--rounds N`) when
/// it is missing or malformed.
pub fn value<T: FromStr>(args: &mut impl Iterator<Item = String>, usage: &str) -> T {
    args.next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("usage: {usage}"))
}

/// Shuffles `order` with a small xorshift generator (its state in
/// `state`), so that each round runs the systems in a different order.
pub fn shuffle(order: &mut [usize], state: &mut u64) {
    for i in (1..order.len()).rev() {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        order.swap(i, (*state % (i as u64 + 1)) as usize);
    }
}
