//! skynet with 1 M leaves: a tree of ten children per node, six levels
//! deep, each leaf returning its number and each node the sum of its
//! children's (the "skynet" microbenchmark of many schedulers; chili's and
//! forte's comparisons run it with `join`). A node's ten children are
//! split in halves with a `join` per split: 999,999 forks of almost no
//! work each. The sum must be 499,999,500,000. `benches/rayon` runs the
//! classic form too, a `rayon::scope` per node with a spawn per child
//! (1,111,110 spawns).

/// Leaves of the tree.
pub const LEAVES: u64 = 1_000_000;
/// Children per node.
const WIDTH: u64 = 10;
/// The sum of the leaves' numbers, 0 to `LEAVES - 1`.
pub const EXPECTED: u64 = LEAVES * (LEAVES - 1) / 2;

/// Panics unless `sum` is the tree's sum.
pub fn check(sum: u64) {
    assert_eq!(sum, EXPECTED, "skynet's sum is wrong");
}

/// The same recursion on one thread.
pub fn sequential(first: u64, size: u64) -> u64 {
    if size == 1 {
        return first;
    }
    let step = size / WIDTH;
    (0..WIDTH).map(|i| sequential(first + i * step, step)).sum()
}

/// The children `lo..hi` of the node whose leaves start at `first`, each
/// of `step` leaves, split in halves by `join` down to one child.
macro_rules! skynet_with {
    ($name:ident, $children:ident, $join:path) => {
        /// The node of `size` leaves numbered from `first`, with this
        /// system's `join`. Call inside its pool.
        pub fn $name(first: u64, size: u64) -> u64 {
            if size == 1 {
                return first;
            }
            $children(first, size / WIDTH, 0, WIDTH)
        }

        fn $children(first: u64, step: u64, lo: u64, hi: u64) -> u64 {
            if hi - lo == 1 {
                return $name(first + lo * step, step);
            }
            let mid = (lo + hi) / 2;
            let (a, b) = $join(
                || $children(first, step, lo, mid),
                || $children(first, step, mid, hi),
            );
            a + b
        }
    };
}

skynet_with!(rayon_join, rayon_children, rayon::join);

/// The node of `size` leaves numbered from `first`, a `rayon::scope` with
/// one spawn per child, each writing its sum into its own slot (what
/// `benches/rayon` runs).
#[allow(dead_code)]
pub fn rayon_scope(first: u64, size: u64) -> u64 {
    if size == 1 {
        return first;
    }
    let step = size / WIDTH;
    let mut sums = [0u64; WIDTH as usize];
    rayon::scope(|s| {
        for (i, sum) in (0u64..).zip(sums.iter_mut()) {
            s.spawn(move |_| *sum = rayon_scope(first + i * step, step));
        }
    });
    sums.iter().sum()
}
skynet_with!(rt_join, rt_children, rt::join);

/// chili's `Scope::join`, with the same splits.
pub fn chili(first: u64, size: u64, s: &mut chili::Scope<'_>) -> u64 {
    if size == 1 {
        return first;
    }
    chili_children(first, size / WIDTH, 0, WIDTH, s)
}

fn chili_children(first: u64, step: u64, lo: u64, hi: u64, s: &mut chili::Scope<'_>) -> u64 {
    if hi - lo == 1 {
        return chili(first + lo * step, step, s);
    }
    let mid = (lo + hi) / 2;
    let (a, b) = s.join(
        |s| chili_children(first, step, lo, mid, s),
        |s| chili_children(first, step, mid, hi, s),
    );
    a + b
}
