//! `par_chunks_exact`, `par_chunks_exact_mut`, `par_rchunks`,
//! `par_rchunks_mut`, `par_rchunks_exact` and `par_rchunks_exact_mut`.

use crate::iter::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use crate::iter::{IndexedParallelIterator, ParallelIterator};

/// Defines a chunk iterator over a shared or mutable slice: `$split`
/// splits its slice at the `index`th chunk, `$iter` makes the sequential
/// iterator, `$len` counts the chunks.
macro_rules! chunk_iter {
    (
        $(#[$doc:meta])* $name:ident, $slice:ty, $item:ty, bound $bound:ident,
        len |$l_slice:ident, $l_size:ident| $len:expr,
        iter |$i_slice:ident, $i_size:ident| $iter:expr => $iter_ty:ty,
        split |$s_slice:ident, $s_size:ident, $s_index:ident| $split:expr
    ) => {
        $(#[$doc])*
        #[derive(Debug)]
        #[must_use = "iterators do nothing unless consumed"]
        pub struct $name<'data, T> {
            slice: $slice,
            size: usize,
        }

        impl<'data, T> $name<'data, T> {
            pub(super) fn new(slice: $slice, size: usize) -> Self {
                assert!(size != 0, "chunk_size must not be zero");
                $name { slice, size }
            }
        }

        indexed_by_bridge!(impl ['data, T] $name<'data, T> => $item, where [T: $bound + 'data]);

        impl<'data, T: $bound + 'data> IndexedParallelIterator for $name<'data, T> {
            fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn len(&self) -> usize {
                let ($l_slice, $l_size) = (&self.slice, self.size);
                $len
            }

            fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
                callback.callback(self)
            }
        }

        impl<'data, T: $bound + 'data> Producer for $name<'data, T> {
            type Item = $item;
            type IntoIter = $iter_ty;

            fn into_iter(self) -> Self::IntoIter {
                let ($i_slice, $i_size) = (self.slice, self.size);
                $iter
            }

            fn split_at(self, index: usize) -> (Self, Self) {
                let size = self.size;
                let ($s_slice, $s_size, $s_index) = (self.slice, size, index);
                let (left, right) = $split;
                ($name { slice: left, size }, $name { slice: right, size })
            }
        }
    };
}

chunk_iter!(
    /// The iterator of [`ParallelSlice::par_chunks_exact`](super::ParallelSlice::par_chunks_exact).
    ChunksExact, &'data [T], &'data [T], bound Sync,
    len |slice, size| slice.len() / size,
    iter |slice, size| slice.chunks_exact(size) => std::slice::ChunksExact<'data, T>,
    split |slice, size, index| slice.split_at((index * size).min(slice.len()))
);

impl<'data, T> ChunksExact<'data, T> {
    /// The items after the last whole chunk.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([1, 2, 3, 4, 5].par_chunks_exact(2).remainder(), &[5]);
    /// ```
    pub fn remainder(&self) -> &'data [T] {
        let whole = self.slice.len() / self.size * self.size;
        &self.slice[whole..]
    }
}

impl<T> Clone for ChunksExact<'_, T> {
    fn clone(&self) -> Self {
        ChunksExact { ..*self }
    }
}

chunk_iter!(
    /// The iterator of [`ParallelSliceMut::par_chunks_exact_mut`](super::ParallelSliceMut::par_chunks_exact_mut).
    ChunksExactMut, &'data mut [T], &'data mut [T], bound Send,
    len |slice, size| slice.len() / size,
    iter |slice, size| slice.chunks_exact_mut(size) => std::slice::ChunksExactMut<'data, T>,
    split |slice, size, index| { let at = (index * size).min(slice.len()); slice.split_at_mut(at) }
);

impl<'data, T> ChunksExactMut<'data, T> {
    /// The items after the last whole chunk.
    pub fn remainder(&mut self) -> &mut [T] {
        let whole = self.slice.len() / self.size * self.size;
        &mut self.slice[whole..]
    }

    /// The items after the last whole chunk, for the slice's lifetime
    /// (giving up the iterator).
    pub fn into_remainder(self) -> &'data mut [T] {
        let whole = self.slice.len() / self.size * self.size;
        &mut self.slice[whole..]
    }

    /// The items after the last whole chunk (taking them out of the
    /// iterator, which keeps the whole chunks).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// let mut chunks = v.par_chunks_exact_mut(2);
    /// assert_eq!(chunks.take_remainder(), &mut [5]);
    /// ```
    pub fn take_remainder(&mut self) -> &'data mut [T] {
        let whole = self.slice.len() / self.size * self.size;
        let (chunks, rest) = std::mem::take(&mut self.slice).split_at_mut(whole);
        self.slice = chunks;
        rest
    }
}

chunk_iter!(
    /// The iterator of [`ParallelSlice::par_rchunks`](super::ParallelSlice::par_rchunks).
    RChunks, &'data [T], &'data [T], bound Sync,
    len |slice, size| slice.len().div_ceil(size),
    iter |slice, size| slice.rchunks(size) => std::slice::RChunks<'data, T>,
    split |slice, size, index| {
        let at = slice.len().saturating_sub(index * size);
        let (front, back) = slice.split_at(at);
        (back, front)
    }
);

impl<T> Clone for RChunks<'_, T> {
    fn clone(&self) -> Self {
        RChunks { ..*self }
    }
}

chunk_iter!(
    /// The iterator of [`ParallelSliceMut::par_rchunks_mut`](super::ParallelSliceMut::par_rchunks_mut).
    RChunksMut, &'data mut [T], &'data mut [T], bound Send,
    len |slice, size| slice.len().div_ceil(size),
    iter |slice, size| slice.rchunks_mut(size) => std::slice::RChunksMut<'data, T>,
    split |slice, size, index| {
        let at = slice.len().saturating_sub(index * size);
        let (front, back) = slice.split_at_mut(at);
        (back, front)
    }
);

impl<'data, T> RChunksExactMut<'data, T> {
    /// The items before the first whole chunk.
    pub fn remainder(&mut self) -> &mut [T] {
        let rest = self.slice.len() % self.size;
        &mut self.slice[..rest]
    }

    /// The items before the first whole chunk, for the slice's lifetime
    /// (giving up the iterator).
    pub fn into_remainder(self) -> &'data mut [T] {
        let rest = self.slice.len() % self.size;
        &mut self.slice[..rest]
    }

    /// The items before the first whole chunk (taking them out of the
    /// iterator, which keeps the whole chunks).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = [1, 2, 3, 4, 5];
    /// let mut chunks = v.par_rchunks_exact_mut(2);
    /// assert_eq!(chunks.take_remainder(), &mut [1]);
    /// ```
    pub fn take_remainder(&mut self) -> &'data mut [T] {
        let rest = self.slice.len() % self.size;
        let (front, chunks) = std::mem::take(&mut self.slice).split_at_mut(rest);
        self.slice = chunks;
        front
    }
}

chunk_iter!(
    /// The iterator of [`ParallelSlice::par_rchunks_exact`](super::ParallelSlice::par_rchunks_exact).
    RChunksExact, &'data [T], &'data [T], bound Sync,
    len |slice, size| slice.len() / size,
    iter |slice, size| slice.rchunks_exact(size) => std::slice::RChunksExact<'data, T>,
    split |slice, size, index| {
        let at = slice.len().saturating_sub(index * size);
        let (front, back) = slice.split_at(at);
        (back, front)
    }
);

impl<'data, T> RChunksExact<'data, T> {
    /// The items before the first whole chunk.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([1, 2, 3, 4, 5].par_rchunks_exact(2).remainder(), &[1]);
    /// ```
    pub fn remainder(&self) -> &'data [T] {
        &self.slice[..self.slice.len() % self.size]
    }
}

impl<T> Clone for RChunksExact<'_, T> {
    fn clone(&self) -> Self {
        RChunksExact { ..*self }
    }
}

chunk_iter!(
    /// The iterator of [`ParallelSliceMut::par_rchunks_exact_mut`](super::ParallelSliceMut::par_rchunks_exact_mut).
    RChunksExactMut, &'data mut [T], &'data mut [T], bound Send,
    len |slice, size| slice.len() / size,
    iter |slice, size| slice.rchunks_exact_mut(size) => std::slice::RChunksExactMut<'data, T>,
    split |slice, size, index| {
        let at = slice.len().saturating_sub(index * size);
        let (front, back) = slice.split_at_mut(at);
        (back, front)
    }
);
