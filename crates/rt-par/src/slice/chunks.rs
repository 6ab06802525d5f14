//! `par_chunks`, `par_chunks_mut` and `par_windows`.

use crate::iter::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use crate::iter::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`ParallelSlice::par_chunks`](super::ParallelSlice::par_chunks).
#[derive(Debug)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Chunks<'data, T> {
    slice: &'data [T],
    size: usize,
}

impl<'data, T> Chunks<'data, T> {
    pub(super) fn new(slice: &'data [T], size: usize) -> Self {
        assert!(size != 0, "chunk_size must not be zero");
        Chunks { slice, size }
    }
}

impl<T> Clone for Chunks<'_, T> {
    fn clone(&self) -> Self {
        Chunks { ..*self }
    }
}

indexed_by_bridge!(impl ['data, T] Chunks<'data, T> => &'data [T], where [T: Sync + 'data]);

impl<'data, T: Sync + 'data> IndexedParallelIterator for Chunks<'data, T> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.slice.len().div_ceil(self.size)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(self)
    }
}

impl<'data, T: Sync> Producer for Chunks<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::Chunks<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.chunks(self.size)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let at = index.saturating_mul(self.size).min(self.slice.len());
        let (left, right) = self.slice.split_at(at);
        (
            Chunks {
                slice: left,
                ..self
            },
            Chunks {
                slice: right,
                ..self
            },
        )
    }
}

/// The iterator of [`ParallelSliceMut::par_chunks_mut`](super::ParallelSliceMut::par_chunks_mut).
#[derive(Debug)]
#[must_use = "iterators do nothing unless consumed"]
pub struct ChunksMut<'data, T> {
    slice: &'data mut [T],
    size: usize,
}

impl<'data, T> ChunksMut<'data, T> {
    pub(super) fn new(slice: &'data mut [T], size: usize) -> Self {
        assert!(size != 0, "chunk_size must not be zero");
        ChunksMut { slice, size }
    }
}

indexed_by_bridge!(impl ['data, T] ChunksMut<'data, T> => &'data mut [T], where [T: Send + 'data]);

impl<'data, T: Send + 'data> IndexedParallelIterator for ChunksMut<'data, T> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.slice.len().div_ceil(self.size)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(self)
    }
}

impl<'data, T: Send> Producer for ChunksMut<'data, T> {
    type Item = &'data mut [T];
    type IntoIter = std::slice::ChunksMut<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.chunks_mut(self.size)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let at = index.saturating_mul(self.size).min(self.slice.len());
        let (left, right) = self.slice.split_at_mut(at);
        let size = self.size;
        (
            ChunksMut { slice: left, size },
            ChunksMut { slice: right, size },
        )
    }
}

/// The iterator of [`ParallelSlice::par_windows`](super::ParallelSlice::par_windows).
#[derive(Debug)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Windows<'data, T> {
    slice: &'data [T],
    size: usize,
}

impl<'data, T> Windows<'data, T> {
    pub(super) fn new(slice: &'data [T], size: usize) -> Self {
        assert!(size != 0, "window size must not be zero");
        Windows { slice, size }
    }
}

impl<T> Clone for Windows<'_, T> {
    fn clone(&self) -> Self {
        Windows { ..*self }
    }
}

indexed_by_bridge!(impl ['data, T] Windows<'data, T> => &'data [T], where [T: Sync + 'data]);

impl<'data, T: Sync + 'data> IndexedParallelIterator for Windows<'data, T> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        (self.slice.len() + 1).saturating_sub(self.size)
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        callback.callback(self)
    }
}

impl<'data, T: Sync> Producer for Windows<'data, T> {
    type Item = &'data [T];
    type IntoIter = std::slice::Windows<'data, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.slice.windows(self.size)
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let left_end = (index + self.size - 1).min(self.slice.len());
        let left = Windows {
            slice: &self.slice[..left_end],
            ..self
        };
        let right = Windows {
            slice: &self.slice[index.min(self.slice.len())..],
            ..self
        };
        (left, right)
    }
}

/// The iterator of [`ParallelSlice::par_array_windows`](super::ParallelSlice::par_array_windows):
/// [`Windows`] of `N` items as arrays.
#[derive(Debug)]
#[must_use = "iterators do nothing unless consumed"]
pub struct ArrayWindows<'data, T, const N: usize> {
    windows: Windows<'data, T>,
}

impl<'data, T, const N: usize> ArrayWindows<'data, T, N> {
    pub(super) fn new(slice: &'data [T]) -> Self {
        ArrayWindows {
            windows: Windows::new(slice, N),
        }
    }
}

impl<T, const N: usize> Clone for ArrayWindows<'_, T, N> {
    fn clone(&self) -> Self {
        ArrayWindows {
            windows: self.windows.clone(),
        }
    }
}

/// A window of exactly `N` items as an array reference.
fn as_array<T, const N: usize>(window: &[T]) -> &[T; N] {
    window.try_into().expect("a window holds N items")
}

impl<'data, T: Sync + 'data, const N: usize> ParallelIterator for ArrayWindows<'data, T, N> {
    type Item = &'data [T; N];

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        self.windows.map(as_array).drive_unindexed(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.windows.len())
    }
}

impl<'data, T: Sync + 'data, const N: usize> IndexedParallelIterator for ArrayWindows<'data, T, N> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        self.windows.map(as_array).drive(consumer)
    }

    fn len(&self) -> usize {
        self.windows.len()
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        self.windows.map(as_array).with_producer(callback)
    }
}
