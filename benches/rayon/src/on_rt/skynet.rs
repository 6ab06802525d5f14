//! skynet: a 10-ary tree over 1,000,000 leaves (six levels), each inner
//! node a `rayon::scope` with one spawn per child, each leaf giving its id;
//! the sum of the ids must be 0 + 1 + … + 999,999 = 499,999,500,000. The
//! classic measure of spawning and waiting for many tiny tasks
//! (1,111,110 spawns).

/// Leaves of the tree.
pub const LEAVES: u64 = 1_000_000;
/// The sum of the leaves' ids.
pub const EXPECTED: u64 = LEAVES * (LEAVES - 1) / 2;

/// Panics unless `sum` is the sum of the leaves' ids.
pub fn check(sum: u64) {
    assert_eq!(sum, EXPECTED, "skynet's sum is wrong");
}

/// The sum of the ids of the `size` leaves from `first` on: a scope
/// spawning one task per tenth, each writing its sum into its own slot.
pub fn rayon_scope(first: u64, size: u64) -> u64 {
    if size == 1 {
        return first;
    }
    let tenth = size / 10;
    let mut sums = [0u64; 10];
    rayon::scope(|s| {
        for (i, sum) in (0u64..).zip(sums.iter_mut()) {
            s.spawn(move |_| *sum = rayon_scope(first + i * tenth, tenth));
        }
    });
    sums.iter().sum()
}
