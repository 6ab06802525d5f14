//! Helpers shared by the panic-safety tests: the runtimes every such test
//! runs on, items that count their drops, a seeded generator, and how to
//! read a panic's payload.

#![allow(dead_code)] // each test file uses a part

use std::cell::Cell;
use std::cmp::Ordering;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering::Relaxed};

use rt_core::Runtime;

/// Where a test runs its parallel code: a runtime of one worker, one of
/// two, or (from the test's own thread) the global runtime.
pub enum Place {
    Runtime(&'static str, Runtime),
    Global,
}

impl Place {
    /// Runs `f` there.
    pub fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match self {
            Place::Runtime(_, rt) => rt.install(f),
            Place::Global => f(),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Place::Runtime(name, _) => name,
            Place::Global => "the global runtime",
        }
    }
}

/// A runtime of one worker, one of two, and the global runtime; under
/// miri only the runtime of two workers, where the halves of a `join` run
/// on two threads (miri runs threads slowly, and the unsafe paths are the
/// same code wherever they run).
pub fn places() -> Vec<Place> {
    let two = Place::Runtime("2 workers", Runtime::new(2).expect("start a runtime"));
    if cfg!(miri) {
        return vec![two];
    }
    vec![
        Place::Runtime("1 worker", Runtime::new(1).expect("start a runtime")),
        two,
        Place::Global,
    ]
}

/// `full` normally, `small` under miri (which runs code thousands of times
/// slower).
pub fn size(full: usize, small: usize) -> usize {
    if cfg!(miri) {
        small
    } else {
        full
    }
}

/// `all` normally, `under_miri` under miri.
pub fn cases<T: Clone>(all: &[T], under_miri: &[T]) -> Vec<T> {
    if cfg!(miri) {
        under_miri.to_vec()
    } else {
        all.to_vec()
    }
}

/// The payload text every test panic carries, so that the silenced hook
/// recognises it.
pub const PLANNED: &str = "planned panic";

/// Keeps the panics the tests provoke (their payload contains [`PLANNED`])
/// out of the output, on whatever thread they happen.
pub fn silence_planned_panics() {
    rt_testkit::silence_panics_matching(|info| rt_testkit::panic_text(info).contains(PLANNED));
}

/// Runs `f`; returns the text of its panic, or `None` if it returned.
pub fn panic_of(f: impl FnOnce()) -> Option<String> {
    let payload = catch_unwind(AssertUnwindSafe(f)).err()?;
    Some(
        payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "<a payload that is not text>".to_owned()),
    )
}

/// A xorshift generator: the same sequence for the same seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The drop count of every item of a test, and the sum of the versions of
/// the items alive (see [`Tracked`]).
pub struct Counts {
    drops: Vec<AtomicUsize>,
    versions: AtomicIsize,
    made: AtomicUsize,
}

impl Counts {
    pub fn new(items: usize) -> Self {
        Counts {
            drops: (0..items).map(|_| AtomicUsize::new(0)).collect(),
            versions: AtomicIsize::new(0),
            made: AtomicUsize::new(0),
        }
    }

    /// The item `id` (below the count given to `new`), with `key`.
    pub fn item(&self, id: usize, key: u32) -> Tracked<'_> {
        assert!(id < self.drops.len(), "item {id} is not counted");
        self.made.fetch_add(1, Relaxed);
        Tracked {
            key,
            id,
            version: Cell::new(0),
            counts: self,
        }
    }

    /// Items `0..len` with the given keys.
    pub fn items(&self, keys: impl IntoIterator<Item = u32>) -> Vec<Tracked<'_>> {
        keys.into_iter()
            .enumerate()
            .map(|(id, key)| self.item(id, key))
            .collect()
    }

    /// How many items were made.
    pub fn made(&self) -> usize {
        self.made.load(Relaxed)
    }

    /// The ids of the items dropped at least once.
    pub fn dropped_ids(&self) -> Vec<usize> {
        (0..self.drops.len())
            .filter(|&id| self.drops[id].load(Relaxed) > 0)
            .collect()
    }

    /// Panics if an item was dropped more than once.
    #[track_caller]
    pub fn assert_each_dropped_at_most_once(&self, context: &str) {
        for (id, count) in self.drops.iter().enumerate() {
            let count = count.load(Relaxed);
            assert!(count <= 1, "item {id} dropped {count} times ({context})");
        }
    }

    /// Panics unless every item was dropped exactly once, and the copies
    /// dropped were the ones last compared (their versions cancel out).
    #[track_caller]
    pub fn assert_each_dropped_once(&self, context: &str) {
        for (id, count) in self.drops.iter().enumerate() {
            let count = count.load(Relaxed);
            assert_eq!(count, 1, "item {id} dropped {count} times ({context})");
        }
        assert_eq!(
            self.versions.load(Relaxed),
            0,
            "an item was dropped from a stale copy ({context})"
        );
    }
}

/// An item with a key to sort by and an id that counts its drops. Every
/// comparison bumps a version kept inside the item (in a `Cell`, as
/// rayon's test does), so that dropping a stale bitwise copy instead of the
/// one last compared shows up.
pub struct Tracked<'c> {
    pub key: u32,
    pub id: usize,
    version: Cell<usize>,
    counts: &'c Counts,
}

impl Tracked<'_> {
    /// Compares the keys, bumping both items' versions.
    pub fn compare(&self, other: &Self) -> Ordering {
        self.version.set(self.version.get() + 1);
        other.version.set(other.version.get() + 1);
        self.counts.versions.fetch_add(2, Relaxed);
        self.key.cmp(&other.key)
    }
}

impl Drop for Tracked<'_> {
    fn drop(&mut self) {
        self.counts.drops[self.id].fetch_add(1, Relaxed);
        self.counts
            .versions
            .fetch_sub(self.version.get() as isize, Relaxed);
    }
}

/// Panics unless `items` holds each id of `0..len` once.
#[track_caller]
pub fn assert_permutation(items: &[Tracked<'_>], len: usize, context: &str) {
    let mut seen = vec![0usize; len];
    for item in items {
        seen[item.id] += 1;
    }
    let duplicated = seen.iter().filter(|&&n| n > 1).count();
    let missing = seen.iter().filter(|&&n| n == 0).count();
    assert!(
        items.len() == len && duplicated == 0 && missing == 0,
        "the slice holds {} items, {duplicated} duplicated, {missing} missing ({context})",
        items.len()
    );
}
