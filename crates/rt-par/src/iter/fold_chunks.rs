//! `fold_chunks` and `fold_chunks_with`: every `chunk_size` consecutive
//! items folded into one value, an indexed iterator of those values.

use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::fold_chunks`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct FoldChunks<I, ID, F> {
    base: I,
    chunk_size: usize,
    identity: ID,
    fold_op: F,
}

debug_adapter!(FoldChunks<I, ID, F>);

impl<I, ID, F> FoldChunks<I, ID, F> {
    pub(crate) fn new(base: I, chunk_size: usize, identity: ID, fold_op: F) -> Self {
        assert!(chunk_size != 0, "chunk_size must not be zero");
        FoldChunks {
            base,
            chunk_size,
            identity,
            fold_op,
        }
    }
}

/// The iterator of [`IndexedParallelIterator::fold_chunks_with`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct FoldChunksWith<I, T, F> {
    base: I,
    chunk_size: usize,
    init: T,
    fold_op: F,
}

impl<I: std::fmt::Debug, T, F> std::fmt::Debug for FoldChunksWith<I, T, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FoldChunksWith")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl<I, T, F> FoldChunksWith<I, T, F> {
    pub(crate) fn new(base: I, chunk_size: usize, init: T, fold_op: F) -> Self {
        assert!(chunk_size != 0, "chunk_size must not be zero");
        FoldChunksWith {
            base,
            chunk_size,
            init,
            fold_op,
        }
    }
}

/// Implements the traits as `chunks(size).map(fold the chunk)`.
macro_rules! fold_chunks_impl {
    ($ty:ty, [$($param:ident),*], where [$($bound:tt)*], |$parts:pat_param| $mapped:expr) => {
        impl<I, T, $($param),*> ParallelIterator for $ty
        where
            I: IndexedParallelIterator,
            $($bound)*
        {
            type Item = T;

            fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
                self.drive(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl<I, T, $($param),*> IndexedParallelIterator for $ty
        where
            I: IndexedParallelIterator,
            $($bound)*
        {
            fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
                let $parts = self;
                $mapped.drive(consumer)
            }

            fn len(&self) -> usize {
                self.base.len().div_ceil(self.chunk_size)
            }

            fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
                let $parts = self;
                $mapped.with_producer(callback)
            }
        }
    };
}

fold_chunks_impl!(
    FoldChunks<I, ID, F>,
    [ID, F],
    where [ID: Fn() -> T + Send + Sync, F: Fn(T, I::Item) -> T + Send + Sync, T: Send],
    |FoldChunks { base, chunk_size, identity, fold_op }| base
        .chunks(chunk_size)
        .map(|chunk| chunk.into_iter().fold(identity(), &fold_op))
);

fold_chunks_impl!(
    FoldChunksWith<I, T, F>,
    [F],
    where [T: Send + Clone + Sync, F: Fn(T, I::Item) -> T + Send + Sync],
    |FoldChunksWith { base, chunk_size, init, fold_op }| base
        .chunks(chunk_size)
        .map(|chunk| chunk.into_iter().fold(init.clone(), &fold_op))
);
