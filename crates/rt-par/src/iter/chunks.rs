//! `chunks`: the items in `Vec`s of `size`; a producer that splits its
//! base at `index * size`.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::chunks`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Chunks<I> {
    base: I,
    size: usize,
}

impl<I> Chunks<I> {
    pub(crate) fn new(base: I, size: usize) -> Self {
        Chunks { base, size }
    }
}

indexed_by_bridge!(impl [I] Chunks<I> => Vec<I::Item>, where [I: IndexedParallelIterator]);

impl<I: IndexedParallelIterator> IndexedParallelIterator for Chunks<I> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.base.len().div_ceil(self.size)
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        struct Callback<CB> {
            callback: CB,
            size: usize,
            len: usize,
        }

        impl<T, CB: ProducerCallback<Vec<T>>> ProducerCallback<T> for Callback<CB> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                self.callback.callback(ChunksProducer {
                    base: Some(base),
                    size: self.size,
                    len: self.len,
                })
            }
        }

        let (size, len) = (self.size, self.base.len());
        self.base.with_producer(Callback {
            callback,
            size,
            len,
        })
    }
}

/// Also its own sequential iterator: a chunk is split off the front (or
/// back) and collected.
struct ChunksProducer<P> {
    base: Option<P>,
    size: usize,
    /// Items of the base.
    len: usize,
}

impl<P: Producer> ChunksProducer<P> {
    fn take_front(&mut self, n: usize) -> Option<P> {
        let base = self.base.take()?;
        let (front, rest) = base.split_at(n);
        self.base = Some(rest);
        self.len -= n;
        Some(front)
    }
}

impl<P: Producer> Producer for ChunksProducer<P> {
    type Item = Vec<P::Item>;
    type IntoIter = Self;

    fn into_iter(self) -> Self {
        self
    }

    fn min_len(&self) -> usize {
        self.base
            .as_ref()
            .map_or(1, |b| b.min_len().div_ceil(self.size))
    }

    fn max_len(&self) -> usize {
        self.base
            .as_ref()
            .map_or(usize::MAX, |b| b.max_len() / self.size)
    }

    fn split_at(mut self, index: usize) -> (Self, Self) {
        let at = index.saturating_mul(self.size).min(self.len);
        let left = self.take_front(at);
        let left = ChunksProducer {
            base: left,
            size: self.size,
            len: at,
        };
        (left, self)
    }
}

impl<P: Producer> Iterator for ChunksProducer<P> {
    type Item = Vec<P::Item>;

    fn next(&mut self) -> Option<Vec<P::Item>> {
        if self.len == 0 {
            return None;
        }
        let n = self.size.min(self.len);
        Some(self.take_front(n)?.into_iter().collect())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let chunks = self.len.div_ceil(self.size);
        (chunks, Some(chunks))
    }
}

impl<P: Producer> DoubleEndedIterator for ChunksProducer<P> {
    fn next_back(&mut self) -> Option<Vec<P::Item>> {
        if self.len == 0 {
            return None;
        }
        let last = match self.len % self.size {
            0 => self.size,
            short => short,
        };
        let base = self.base.take()?;
        let (rest, back) = base.split_at(self.len - last);
        self.base = Some(rest);
        self.len -= last;
        Some(back.into_iter().collect())
    }
}

impl<P: Producer> ExactSizeIterator for ChunksProducer<P> {}
