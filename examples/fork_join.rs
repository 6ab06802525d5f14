//! Fork-join on the runtime: a parallel quicksort with `join`, and a walk of
//! a directory-like tree with `scope`, both borrowing their data from the
//! caller's stack.
//!
//! Run: `cargo run --release --example fork_join`

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use rt::Runtime;

/// Sorts `values` in place: partitions around a pivot, then sorts the two
/// halves with `rt::join`, which lets an idle worker take one of them.
/// Below the cutoff, a sequential sort is faster than forking.
fn quicksort(values: &mut [u64]) {
    const CUTOFF: usize = 2_048;
    if values.len() <= CUTOFF {
        values.sort_unstable();
        return;
    }
    let mid = partition(values);
    let (left, right) = values.split_at_mut(mid);
    rt::join(|| quicksort(left), || quicksort(&mut right[1..]));
}

/// Lomuto partition around the middle element; returns the pivot's place.
fn partition(values: &mut [u64]) -> usize {
    let last = values.len() - 1;
    values.swap(values.len() / 2, last);
    let pivot = values[last];
    let mut store = 0;
    for i in 0..last {
        if values[i] < pivot {
            values.swap(i, store);
            store += 1;
        }
    }
    values.swap(store, last);
    store
}

/// A tree of "directories", each with some "files" of given sizes.
struct Dir {
    files: Vec<u64>,
    children: Vec<Dir>,
}

/// Builds a tree `depth` levels deep with `fanout` children per directory.
fn tree(depth: u32, fanout: u64, seed: &mut u64) -> Dir {
    let mut next = || {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed % 10_000
    };
    let files = (0..next() % 16).map(|_| next()).collect();
    let children = if depth == 0 {
        Vec::new()
    } else {
        (0..fanout).map(|_| tree(depth - 1, fanout, seed)).collect()
    };
    Dir { files, children }
}

/// Adds up every file size of `dir` and below into `total`, a task per
/// directory, all inside one scope: the tasks borrow the tree and the
/// counter, and the scope returns once every one of them has finished.
fn total_size(dir: &Dir, total: &AtomicU64) {
    rt::scope(|s| walk(s, dir, total));
}

fn walk<'scope>(s: &'scope rt::Scope<'scope, '_>, dir: &'scope Dir, total: &'scope AtomicU64) {
    total.fetch_add(dir.files.iter().sum(), Ordering::Relaxed);
    for child in &dir.children {
        s.spawn(move || walk(s, child, total));
    }
}

fn main() -> Result<(), rt::BuildError> {
    let rt = Runtime::new(std::thread::available_parallelism().map_or(2, |n| n.get()))?;

    let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
    let mut values: Vec<u64> = (0..2_000_000)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        })
        .collect();
    let start = Instant::now();
    rt.install(|| quicksort(&mut values));
    let sorted_in = start.elapsed();
    assert!(values.windows(2).all(|w| w[0] <= w[1]));
    println!(
        "quicksort: sorted {} values on {} workers in {sorted_in:.1?}",
        values.len(),
        rt.threads()
    );

    let root = tree(6, 5, &mut seed);
    let total = AtomicU64::new(0);
    let start = Instant::now();
    rt.install(|| total_size(&root, &total));
    println!(
        "tree walk: {} bytes in {} directories, a task each, in {:.1?}",
        total.load(Ordering::Relaxed),
        (0..=6).map(|d| 5u64.pow(d)).sum::<u64>(),
        start.elapsed()
    );

    rt.shutdown();
    let m = rt.metrics();
    println!(
        "metrics: {} tasks submitted (the scope's), {} completed; join halves are not tasks",
        m.submitted, m.completed
    );
    Ok(())
}
