//! Parallel iterators on the work-stealing runtime, with rayon's names and
//! shapes: `use rt_par::prelude::*` (or `use rt::prelude::*`) and rayon
//! code such as `v.par_iter().map(f).sum()` runs here.
//!
//! # The model: split, run halves with `join`, combine
//!
//! A parallel iterator is a *producer* of items that can split itself in
//! two (a slice at an index, a range at its middle). A terminal operation
//! (`sum`, `collect`, `for_each`, ...) is a *consumer* that splits the same
//! way, folds one piece's items sequentially, and combines the results of
//! two neighbouring pieces, left then right. Adapters (`map`, `filter`,
//! `zip`, ...) wrap the producer or the consumer. The driver in
//! [`iter::plumbing`] splits both in step and runs the two halves with
//! `join` on the runtime:
//!
//! ```text
//!   (0..n).into_par_iter().map(f).sum()
//!
//!   bridge(producer 0..n, consumer sum∘map)
//!     ├─ join ─ left  0..n/2  ── … ─ fold: Σ f(i) for a piece
//!     │       └ right n/2..n  ── … ─ fold
//!     └─ reduce(left, right) = left + right
//! ```
//!
//! # When to split
//!
//! Splitting adapts to the work and to idle workers, so that tiny items do
//! not pay a task each and uneven items balance:
//!
//! * a piece splits once per worker to begin with, and a half that another
//!   worker took splits afresh (that worker ran out of work: rayon's
//!   adaptive splitter);
//! * a piece that no longer splits halves once more, and folds its first
//!   half in chunks of about 20 µs while the second waits as a pending
//!   `join` half; between two chunks it reaches a checkpoint (an empty
//!   `join`: the runtime keeps the oldest pending half of the task where
//!   an idle worker can take it, and runs more urgent queued work). So an
//!   idle worker finds the largest pending piece at once, however long the
//!   piece being folded, and a piece nobody takes costs a clock read per
//!   chunk;
//! * no piece halves below a grain of the job (a sixteenth per worker), so
//!   that a `fold` makes few accumulators to reduce.
//!
//! `with_min_len` and `with_max_len` bound every piece a consumer sees.
//!
//! # Where it runs
//!
//! On the runtime of the worker that calls it; outside any runtime, on a
//! global runtime started on first use with one worker per core;
//! `rt.install(|| ...)` runs it on `rt`.
//!
//! # Beyond rayon
//!
//! * [`with_priority`](iter::ParallelIterator::with_priority) runs the
//!   pieces an iterator hands to other workers at a priority (the calling
//!   thread may run pieces itself, as `join` does); an indexed iterator
//!   stays indexed.
//! * **More urgent work goes first.** Every worker running an iterator's
//!   pieces reaches a checkpoint ([`rt_core::checkpoint`]) after each chunk
//!   of about 20 µs of items (at least one item, on one worker too); there
//!   a queued task of a more urgent class than the iterator's (a High or
//!   Normal task under a Background iterator, a High task under a Normal
//!   one) runs at once. So such a task waits at most for the chunk each
//!   worker is folding when it is queued, whichever worker gets there
//!   first, not for the iterator to finish; with items of 1 ms it starts
//!   after about one more item per worker. A task of the iterator's own
//!   class or a lower one waits, as queued work does. (Under
//!   `PriorityPolicy::Weighted` the classes share the workers by weight at
//!   task boundaries instead.)
//! * [`with_cancellation`](iter::ParallelIterator::with_cancellation)
//!   stops a job early and says so: once the token is cancelled, pieces
//!   not yet started are skipped and running ones stop at their next item,
//!   and the terminal operation returns `Err(`[`Cancelled`]`)` instead of a
//!   value that lacks items; `Ok(value)` when the token stopped nothing.
//!
//! # Panics
//!
//! A panic in any closure reaches the caller with its original payload,
//! after the pieces already running have stopped. `panic_fuse` also makes
//! pieces not yet started skip their items. What the iterator owned is
//! dropped exactly once:
//!
//! * a source that moves items out (a `Vec` or an array by value,
//!   `par_drain` of a range of a `Vec` or `VecDeque`, of a whole `HashMap`,
//!   `HashSet` or `BinaryHeap`) drops the items it did not yield, whether a
//!   closure panicked, the consumer stopped early (`find_any`, `take`, a
//!   shorter side of `zip`) or the iterator was dropped undriven; a `Vec`
//!   drained by a range keeps the items outside it, in order;
//! * `collect`, `collect_into_vec`, `par_extend`, `unzip`, `partition` and
//!   `partition_map` drop the items collected so far and leave their target
//!   as it was before the call (`collect_into_vec`, which clears its
//!   target first, leaves it empty; `par_extend` keeps the earlier items);
//! * a sort whose comparison panics leaves the slice a permutation of its
//!   input, each item in it once (see [`ParallelSliceMut`](slice::ParallelSliceMut)).
//!
//! # Sorting with a comparison that is not a total order
//!
//! As in rayon, it never panics: the sorts are rt-par's own and raise no
//! panic of their own at all, so the panic hook never runs (the standard
//! library's sorts may panic with "user-provided comparison function does
//! not correctly implement a total order"). The slice ends as a
//! permutation of its input, in an unspecified order.
//!
//! # Integer ranges
//!
//! A range splits, and skips what it passes over, in O(1): `step_by`,
//! `skip`, `take` and `rev` on `(0..u64::MAX).into_par_iter()` visit only
//! the values they yield (`step_by(1 << 62)` yields its four at once).
//! Every `Range` of a primitive integer up to 64 bits is indexed (its
//! length fits a `usize` on the 64-bit targets rt-par supports; rayon
//! indexes no 64-bit range), and so is every `RangeInclusive` up to 32
//! bits; `RangeInclusive` of a 64-bit type and ranges of `u128`/`i128` are
//! not, as in rayon, since their length may not fit a `usize`
//! (`(0..=u64::MAX)` has 2⁶⁴ values): `opt_len` gives it when it fits.
//!
//! # Against rayon
//!
//! | rayon                                              | here |
//! |----------------------------------------------------|------|
//! | `ParallelIterator`, `IndexedParallelIterator`, `IntoParallelIterator`, `IntoParallelRefIterator`, `IntoParallelRefMutIterator`, `FromParallelIterator`, `ParallelExtend`, `ParallelBridge`, `ParallelDrainRange`, `ParallelDrainFull`, `ParallelString`, `ParallelSlice`, `ParallelSliceMut` | yes |
//! | `plumbing` (`Producer`, `Consumer`, `Folder`, `Reducer`, `UnindexedProducer`, `UnindexedConsumer`, `ProducerCallback`, `bridge`, `bridge_producer_consumer`, `bridge_unindexed`) | yes, same shapes |
//! | sources: integer and `char` `Range`/`RangeInclusive` (`u128` and all of `i64` included), slices, `Vec`, arrays, `VecDeque`, `HashMap`/`HashSet`/`BTreeMap`/`BTreeSet`/`LinkedList`/`BinaryHeap`, `Option`, `Result`, tuples (`MultiZip`), `repeat`, `repeat_n`, `empty`, `once`, `split`, `walk_tree*`, `par_bridge` | yes |
//! | adapters: `map`, `map_with`, `map_init`, `filter`, `filter_map`, `flat_map`, `flat_map_iter`, `flatten`, `flatten_iter`, `enumerate`, `zip`, `zip_eq`, `chain`, `interleave`, `interleave_shortest`, `intersperse`, `copied`, `cloned`, `inspect`, `update`, `take`, `skip`, `take_any`, `skip_any`, `take_any_while`, `skip_any_while`, `rev`, `step_by`, `chunks`, `fold_chunks`, `with_min_len`, `with_max_len`, `while_some`, `positions`, `panic_fuse`, `by_exponential_blocks`, `by_uniform_blocks` | yes |
//! | consumers: `for_each(_with/_init)`, `try_for_each(_with/_init)`, `fold(_with)`, `try_fold(_with)`, `reduce`, `reduce_with`, `try_reduce`, `sum`, `product`, `count`, `min`/`max` (`_by`, `_by_key`), `any`, `all`, `find_any`/`find_first`/`find_last`, `find_map_*`, `position_any`/`_first`/`_last`, `cmp`, `partial_cmp`, `eq`, `ne`, `lt`, `le`, `gt`, `ge`, `collect`, `collect_into_vec`, `collect_vec_list`, `unzip`, `unzip_into_vecs`, `partition`, `partition_map` | yes |
//! | `collect` into `Vec`, `VecDeque`, `Box<[T]>`, `Rc<[T]>`, `Arc<[T]>`, `String`, `OsString`, `Cow`, `HashMap`, `HashSet`, `BTreeMap`, `BTreeSet`, `LinkedList`, `BinaryHeap`, pairs of collections, `Result<C, E>`, `Option<C>`, `()` | yes |
//! | slices: `par_chunks(_exact)(_mut)`, `par_rchunks(_exact)(_mut)`, `par_windows`, `par_array_windows`, `par_split(_inclusive)(_mut)`, `par_chunk_by(_mut)`, `par_sort*`, `par_sort_unstable*`, `par_sort_by_cached_key` | yes |
//! | strings: `par_chars`, `par_char_indices`, `par_bytes`, `par_encode_utf16`, `par_split(_inclusive/_terminator)`, `par_lines`, `par_split(_ascii)_whitespace`, `par_matches`, `par_match_indices` | yes, with rayon's patterns: `char`, `[char]`, `Fn(char) -> bool` |
//! | `ThreadPoolBuilder`, `ThreadPool::install`, `join`, `current_num_threads` | yes, over [`rt_core::Runtime`] |
//! | `scope`, `spawn`, `broadcast`, `yield_now`, `ThreadPool::scope` | the runtime's own (`rt::scope` takes `std::thread::scope`'s shape) |
//! | `with_priority`, `with_cancellation` | here only |
//!
//! # Example
//!
//! ```
//! use rt_par::prelude::*;
//!
//! let words = ["apple", "bob", "kayak", "rust", "level"];
//! let palindromes: Vec<&str> = words
//!     .par_iter()
//!     .copied()
//!     .filter(|w| w.chars().eq(w.chars().rev()))
//!     .collect();
//! assert_eq!(palindromes, ["bob", "kayak", "level"]);
//!
//! let mut v: Vec<u64> = (0..10_000u64).into_par_iter().map(|i| i * 7919 % 10_007).collect();
//! v.par_sort_unstable();
//! assert!(v.windows(2).all(|w| w[0] <= w[1]));
//!
//! // On a runtime of your own:
//! let rt = rt_core::Runtime::new(2)?;
//! let total: u64 = rt.install(|| (1..=100u64).into_par_iter().sum());
//! assert_eq!(total, 5050);
//! # Ok::<(), rt_core::BuildError>(())
//! ```
#![warn(missing_docs)]
#![doc(html_root_url = "https://docs.rs/rt-par/latest")]

/// Implements `Debug` for an adapter that holds closures: shows its base.
macro_rules! debug_adapter {
    ($name:ident < $($param:ident),* >) => {
        impl<$($param),*> std::fmt::Debug for $name<$($param),*>
        where
            I: std::fmt::Debug,
        {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("base", &self.base)
                    .finish_non_exhaustive()
            }
        }
    };
}

/// Implements `ParallelIterator` for an indexed iterator: driven through
/// [`bridge`](iter::plumbing::bridge), its length known.
macro_rules! indexed_by_bridge {
    (impl [$($param:tt)*] $ty:ty => $item:ty, where [$($bound:tt)*]) => {
        impl<$($param)*> ParallelIterator for $ty
        where
            $($bound)*
        {
            type Item = $item;

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: UnindexedConsumer<Self::Item>,
            {
                $crate::iter::plumbing::bridge(self, consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(IndexedParallelIterator::len(self))
            }
        }
    };
}

mod core_api;

pub mod collections;
pub mod iter;
pub mod option;
mod pool;
pub mod range;
pub mod range_inclusive;
pub mod result;
pub mod slice;
pub mod str;
pub mod vec;

/// The traits, to `use rt_par::prelude::*` (rayon's prelude).
pub mod prelude {
    pub use crate::iter::{
        FromParallelIterator, IndexedParallelIterator, IntoParallelIterator,
        IntoParallelRefIterator, IntoParallelRefMutIterator, ParallelBridge, ParallelDrainFull,
        ParallelDrainRange, ParallelExtend, ParallelIterator,
    };
    pub use crate::slice::{ParallelSlice, ParallelSliceMut};
    pub use crate::str::ParallelString;
}

pub use iter::Cancelled;
pub use pool::{join, ThreadPool, ThreadPoolBuildError, ThreadPoolBuilder};

/// The number of workers a parallel iterator can use here: the current
/// worker's runtime's, else the global runtime's.
///
/// ```
/// assert!(rt_par::current_num_threads() >= 1);
/// ```
pub fn current_num_threads() -> usize {
    core_api::current_num_threads()
}

/// The README's example, compiled and run as a doc test so it stays true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
