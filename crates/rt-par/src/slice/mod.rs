//! Parallel iterators over slices, and parallel sorts.

mod chunks;
mod more_chunks;
mod sort;
mod split;

use std::cmp::Ordering;

use crate::iter::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use crate::iter::{
    IndexedParallelIterator, IntoParallelIterator, IntoParallelRefMutIterator, ParallelIterator,
};

pub use chunks::{ArrayWindows, Chunks, ChunksMut, Windows};
pub use more_chunks::{
    ChunksExact, ChunksExactMut, RChunks, RChunksExact, RChunksExactMut, RChunksMut,
};
pub use split::{ChunkBy, ChunkByMut, Split, SplitInclusive, SplitInclusiveMut, SplitMut};

/// Parallel methods of shared slices (rayon's `ParallelSlice`).
///
/// ```
/// use rt_par::prelude::*;
/// let sums: Vec<i32> = [1, 2, 3, 4, 5].par_chunks(2).map(|c| c.iter().sum()).collect();
/// assert_eq!(sums, [3, 7, 5]);
/// ```
pub trait ParallelSlice<T: Sync> {
    /// The slice itself.
    fn as_parallel_slice(&self) -> &[T];

    /// Non-overlapping chunks of `chunk_size` items (the last may be
    /// shorter). Panics if `chunk_size` is zero.
    fn par_chunks(&self, chunk_size: usize) -> Chunks<'_, T> {
        Chunks::new(self.as_parallel_slice(), chunk_size)
    }

    /// Every window of `window_size` consecutive items. Panics if
    /// `window_size` is zero.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let w: Vec<i32> = [1, 2, 3].par_windows(2).map(|w| w[0] + w[1]).collect();
    /// assert_eq!(w, [3, 5]);
    /// ```
    fn par_windows(&self, window_size: usize) -> Windows<'_, T> {
        Windows::new(self.as_parallel_slice(), window_size)
    }

    /// Every window of `N` consecutive items, as arrays.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let sums: Vec<i32> = [1, 2, 3, 4].par_array_windows().map(|[a, b]| a + b).collect();
    /// assert_eq!(sums, [3, 5, 7]);
    /// ```
    fn par_array_windows<const N: usize>(&self) -> ArrayWindows<'_, T, N> {
        ArrayWindows::new(self.as_parallel_slice())
    }

    /// Non-overlapping chunks of exactly `chunk_size` items (the rest is
    /// the iterator's `remainder()`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let sums: Vec<i32> = [1, 2, 3, 4, 5].par_chunks_exact(2).map(|c| c[0] + c[1]).collect();
    /// assert_eq!(sums, [3, 7]);
    /// ```
    fn par_chunks_exact(&self, chunk_size: usize) -> ChunksExact<'_, T> {
        ChunksExact::new(self.as_parallel_slice(), chunk_size)
    }

    /// Non-overlapping chunks of `chunk_size` items from the end (the last
    /// may be shorter).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let c: Vec<&[i32]> = [1, 2, 3, 4, 5].par_rchunks(2).collect();
    /// assert_eq!(c, [&[4, 5][..], &[2, 3], &[1]]);
    /// ```
    fn par_rchunks(&self, chunk_size: usize) -> RChunks<'_, T> {
        RChunks::new(self.as_parallel_slice(), chunk_size)
    }

    /// Non-overlapping chunks of exactly `chunk_size` items from the end.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let c: Vec<&[i32]> = [1, 2, 3, 4, 5].par_rchunks_exact(2).collect();
    /// assert_eq!(c, [&[4, 5][..], &[2, 3]]);
    /// ```
    fn par_rchunks_exact(&self, chunk_size: usize) -> RChunksExact<'_, T> {
        RChunksExact::new(self.as_parallel_slice(), chunk_size)
    }

    /// The sub-slices between items that match `separator` (as
    /// `slice::split`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<&[i32]> = [1, 0, 2, 3, 0].par_split(|&x| x == 0).collect();
    /// assert_eq!(v, [&[1][..], &[2, 3], &[]]);
    /// ```
    fn par_split<P>(&self, separator: P) -> Split<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        Split::new(self.as_parallel_slice(), separator)
    }

    /// The sub-slices each ending with an item that matches `separator`
    /// (the last may not; as `slice::split_inclusive`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<&[i32]> = [1, 0, 2, 3].par_split_inclusive(|&x| x == 0).collect();
    /// assert_eq!(v, [&[1, 0][..], &[2, 3]]);
    /// ```
    fn par_split_inclusive<P>(&self, separator: P) -> SplitInclusive<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SplitInclusive::new(self.as_parallel_slice(), separator)
    }

    /// The runs of items in which `same` holds for every two neighbours
    /// (as `slice::chunk_by`).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<&[i32]> = [1, 1, 2, 3, 3].par_chunk_by(|a, b| a == b).collect();
    /// assert_eq!(v, [&[1, 1][..], &[2], &[3, 3]]);
    /// ```
    fn par_chunk_by<F>(&self, same: F) -> ChunkBy<'_, T, F>
    where
        F: Fn(&T, &T) -> bool + Sync + Send,
    {
        ChunkBy::new(self.as_parallel_slice(), same)
    }
}

impl<T: Sync> ParallelSlice<T> for [T] {
    fn as_parallel_slice(&self) -> &[T] {
        self
    }
}

/// Parallel methods of mutable slices (rayon's `ParallelSliceMut`).
///
/// ```
/// use rt_par::prelude::*;
/// let mut v = vec![5, 1, 4, 2, 3];
/// v.par_sort();
/// assert_eq!(v, [1, 2, 3, 4, 5]);
/// ```
///
/// # The sorts
///
/// rt-par's own: `par_sort*` is a stable merge sort (O(n log n), a buffer
/// of `n` items), `par_sort_unstable*` a pattern-defeating quicksort (in
/// place, O(n log n) in the worst case); both split their work with
/// `join`, and never call the standard library's sorts.
///
/// * **A comparison that panics** (or a key function, or `Ord` of the
///   items) leaves the slice a permutation of its input: every item in it
///   exactly once, the copy the comparisons last saw, so each is dropped
///   once; the panic reaches the caller with its payload once every piece
///   of the sort has stopped.
/// * **A comparison that is not a total order** (inconsistent answers,
///   `partial_cmp` of `NaN`s unwrapped) never makes a sort panic: none is
///   raised at all, so the panic hook never runs (a process whose hook
///   aborts, or built with `panic = "abort"`, carries on). The slice ends as
///   a permutation of its input, in an unspecified order.
///
/// ```
/// use rt_par::prelude::*;
/// let mut v: Vec<f64> = (0..10_000).map(|i| if i % 7 == 0 { f64::NAN } else { i as f64 }).collect();
/// v.par_sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Less));
/// assert_eq!(v.len(), 10_000); // every item still there, in some order
/// ```
pub trait ParallelSliceMut<T: Send> {
    /// The slice itself.
    fn as_parallel_slice_mut(&mut self) -> &mut [T];

    /// Non-overlapping mutable chunks of `chunk_size` items (the last may
    /// be shorter). Panics if `chunk_size` is zero.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_chunks_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [2, 1, 4, 3, 5]);
    /// ```
    fn par_chunks_mut(&mut self, chunk_size: usize) -> ChunksMut<'_, T> {
        ChunksMut::new(self.as_parallel_slice_mut(), chunk_size)
    }

    /// Non-overlapping mutable chunks of exactly `chunk_size` items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_chunks_exact_mut(2).for_each(|c| c.swap(0, 1));
    /// assert_eq!(v, [2, 1, 4, 3, 5]);
    /// ```
    fn par_chunks_exact_mut(&mut self, chunk_size: usize) -> ChunksExactMut<'_, T> {
        ChunksExactMut::new(self.as_parallel_slice_mut(), chunk_size)
    }

    /// Non-overlapping mutable chunks of `chunk_size` items from the end.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_rchunks_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [1, 3, 2, 5, 4]);
    /// ```
    fn par_rchunks_mut(&mut self, chunk_size: usize) -> RChunksMut<'_, T> {
        RChunksMut::new(self.as_parallel_slice_mut(), chunk_size)
    }

    /// Non-overlapping mutable chunks of exactly `chunk_size` items from
    /// the end.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// v.par_rchunks_exact_mut(2).for_each(|c| c.reverse());
    /// assert_eq!(v, [1, 3, 2, 5, 4]);
    /// ```
    fn par_rchunks_exact_mut(&mut self, chunk_size: usize) -> RChunksExactMut<'_, T> {
        RChunksExactMut::new(self.as_parallel_slice_mut(), chunk_size)
    }

    /// The mutable sub-slices between items that match `separator`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 0, 2, 3];
    /// v.par_split_mut(|&x| x == 0).for_each(|s| s.reverse());
    /// assert_eq!(v, [1, 0, 3, 2]);
    /// ```
    fn par_split_mut<P>(&mut self, separator: P) -> SplitMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SplitMut::new(self.as_parallel_slice_mut(), separator)
    }

    /// The mutable sub-slices each ending with an item that matches
    /// `separator`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 0, 2, 3];
    /// v.par_split_inclusive_mut(|&x| x == 0).for_each(|s| s.reverse());
    /// assert_eq!(v, [0, 1, 3, 2]);
    /// ```
    fn par_split_inclusive_mut<P>(&mut self, separator: P) -> SplitInclusiveMut<'_, T, P>
    where
        P: Fn(&T) -> bool + Sync + Send,
    {
        SplitInclusiveMut::new(self.as_parallel_slice_mut(), separator)
    }

    /// The mutable runs of items in which `same` holds for every two
    /// neighbours.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 1, 2, 3, 3];
    /// v.par_chunk_by_mut(|a, b| a == b).for_each(|run| run[0] = 0);
    /// assert_eq!(v, [0, 1, 0, 0, 3]);
    /// ```
    fn par_chunk_by_mut<F>(&mut self, same: F) -> ChunkByMut<'_, T, F>
    where
        F: Fn(&T, &T) -> bool + Sync + Send,
    {
        ChunkByMut::new(self.as_parallel_slice_mut(), same)
    }

    /// Sorts stably (a parallel merge sort).
    fn par_sort(&mut self)
    where
        T: Ord,
    {
        sort::merge_sort(self.as_parallel_slice_mut(), &T::lt);
    }

    /// Sorts stably by `compare`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 3, 2];
    /// v.par_sort_by(|a, b| b.cmp(a));
    /// assert_eq!(v, [3, 2, 1]);
    /// ```
    fn par_sort_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync,
    {
        sort::merge_sort(self.as_parallel_slice_mut(), &|a: &T, b: &T| {
            compare(a, b) == Ordering::Less
        });
    }

    /// Sorts stably by the key `f` gives.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [(1, 'b'), (0, 'a'), (1, 'a')];
    /// v.par_sort_by_key(|p| p.0);
    /// assert_eq!(v, [(0, 'a'), (1, 'b'), (1, 'a')]);
    /// ```
    fn par_sort_by_key<K, F>(&mut self, f: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync,
    {
        sort::merge_sort(self.as_parallel_slice_mut(), &|a: &T, b: &T| f(a).lt(&f(b)));
    }

    /// Sorts stably by the key `f` gives, computing each item's key once
    /// (the keys in parallel).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = ["ccc", "a", "bb"];
    /// v.par_sort_by_cached_key(|s| s.len());
    /// assert_eq!(v, ["a", "bb", "ccc"]);
    /// ```
    fn par_sort_by_cached_key<K, F>(&mut self, f: F)
    where
        K: Ord + Send,
        F: Fn(&T) -> K + Sync,
    {
        let slice = self.as_parallel_slice_mut();
        if slice.len() < 2 {
            return;
        }
        // (key, index) pairs are distinct, so an unstable sort of them is
        // stable for the items.
        let mut keys: Vec<(K, usize)> = slice
            .par_iter_mut()
            .enumerate()
            .map(|(i, item)| (f(item), i))
            .collect();
        keys.par_sort_unstable();
        // Apply the permutation in place: position `i` takes the item that
        // was at `keys[i].1`, following moved items through their swaps.
        for i in 0..slice.len() {
            let mut from = keys[i].1;
            while from < i {
                from = keys[from].1;
            }
            keys[i].1 = from;
            slice.swap(i, from);
        }
    }

    /// Sorts, not keeping the order of equal items (a parallel
    /// quicksort).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [3, 1, 2];
    /// v.par_sort_unstable();
    /// assert_eq!(v, [1, 2, 3]);
    /// ```
    fn par_sort_unstable(&mut self)
    where
        T: Ord,
    {
        sort::quick_sort(self.as_parallel_slice_mut(), &T::lt);
    }

    /// Sorts by `compare`, not keeping the order of equal items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 3, 2];
    /// v.par_sort_unstable_by(|a, b| b.cmp(a));
    /// assert_eq!(v, [3, 2, 1]);
    /// ```
    fn par_sort_unstable_by<F>(&mut self, compare: F)
    where
        F: Fn(&T, &T) -> Ordering + Sync,
    {
        sort::quick_sort(self.as_parallel_slice_mut(), &|a: &T, b: &T| {
            compare(a, b) == Ordering::Less
        });
    }

    /// Sorts by the key `f` gives, not keeping the order of equal items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [-3, 1, -2];
    /// v.par_sort_unstable_by_key(|x: &i32| x.abs());
    /// assert_eq!(v, [1, -2, -3]);
    /// ```
    fn par_sort_unstable_by_key<K, F>(&mut self, f: F)
    where
        K: Ord,
        F: Fn(&T) -> K + Sync,
    {
        sort::quick_sort(self.as_parallel_slice_mut(), &|a: &T, b: &T| f(a).lt(&f(b)));
    }
}

impl<T: Send> ParallelSliceMut<T> for [T] {
    fn as_parallel_slice_mut(&mut self) -> &mut [T] {
        self
    }
}

/// The iterator of `slice.par_iter()`.
#[derive(Debug)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Iter<'data, T> {
    slice: &'data [T],
}

impl<T> Clone for Iter<'_, T> {
    fn clone(&self) -> Self {
        Iter { slice: self.slice }
    }
}

impl<'data, T: Sync + 'data> IntoParallelIterator for &'data [T] {
    type Iter = Iter<'data, T>;
    type Item = &'data T;

    fn into_par_iter(self) -> Iter<'data, T> {
        Iter { slice: self }
    }
}

indexed_by_bridge!(impl ['data, T] Iter<'data, T> => &'data T, where [T: Sync + 'data]);

impl<'data, T: Sync + 'data> IndexedParallelIterator for Iter<'data, T> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.slice.len()
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(SliceProducer(self.slice))
    }
}

struct SliceProducer<'data, T>(&'data [T]);

impl<'data, T: Sync> Producer for SliceProducer<'data, T> {
    type Item = &'data T;
    type IntoIter = std::slice::Iter<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.0.split_at(index);
        (SliceProducer(left), SliceProducer(right))
    }
}

/// The iterator of `slice.par_iter_mut()`.
#[derive(Debug)]
#[must_use = "iterators do nothing unless consumed"]
pub struct IterMut<'data, T> {
    slice: &'data mut [T],
}

impl<'data, T: Send + 'data> IntoParallelIterator for &'data mut [T] {
    type Iter = IterMut<'data, T>;
    type Item = &'data mut T;

    fn into_par_iter(self) -> IterMut<'data, T> {
        IterMut { slice: self }
    }
}

indexed_by_bridge!(impl ['data, T] IterMut<'data, T> => &'data mut T, where [T: Send + 'data]);

impl<'data, T: Send + 'data> IndexedParallelIterator for IterMut<'data, T> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.slice.len()
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(SliceMutProducer(self.slice))
    }
}

struct SliceMutProducer<'data, T>(&'data mut [T]);

impl<'data, T: Send> Producer for SliceMutProducer<'data, T> {
    type Item = &'data mut T;
    type IntoIter = std::slice::IterMut<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.0.split_at_mut(index);
        (SliceMutProducer(left), SliceMutProducer(right))
    }
}
