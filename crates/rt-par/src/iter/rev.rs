//! `rev`: the items in reverse; a producer that splits its base at the
//! mirrored index and swaps the halves.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::rev`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Rev<I> {
    base: I,
}

impl<I> Rev<I> {
    pub(crate) fn new(base: I) -> Self {
        Rev { base }
    }
}

indexed_by_bridge!(impl [I] Rev<I> => I::Item, where [I: IndexedParallelIterator]);

impl<I: IndexedParallelIterator> IndexedParallelIterator for Rev<I> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.base.len()
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        struct Callback<CB> {
            callback: CB,
            len: usize,
        }

        impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                self.callback.callback(RevProducer {
                    base,
                    len: self.len,
                })
            }
        }

        let len = self.base.len();
        self.base.with_producer(Callback { callback, len })
    }
}

struct RevProducer<P> {
    base: P,
    len: usize,
}

impl<P: Producer> Producer for RevProducer<P> {
    type Item = P::Item;
    type IntoIter = std::iter::Rev<P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter().rev()
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(self.len - index);
        let first = RevProducer {
            base: right,
            len: index,
        };
        let second = RevProducer {
            base: left,
            len: self.len - index,
        };
        (first, second)
    }
}
