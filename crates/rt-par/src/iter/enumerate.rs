//! `enumerate`: pairs every item with its index; a producer that knows the
//! index of its first item.

use std::iter::Zip;
use std::ops::Range;

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::enumerate`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Enumerate<I> {
    base: I,
}

impl<I> Enumerate<I> {
    pub(crate) fn new(base: I) -> Self {
        Enumerate { base }
    }
}

indexed_by_bridge!(impl [I] Enumerate<I> => (usize, I::Item), where [I: IndexedParallelIterator]);

impl<I: IndexedParallelIterator> IndexedParallelIterator for Enumerate<I> {
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
        struct Callback<CB>(CB);

        impl<T, CB: ProducerCallback<(usize, T)>> ProducerCallback<T> for Callback<CB> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                self.0.callback(EnumerateProducer { base, offset: 0 })
            }
        }

        self.base.with_producer(Callback(callback))
    }
}

struct EnumerateProducer<P> {
    base: P,
    offset: usize,
}

impl<P: Producer> Producer for EnumerateProducer<P> {
    type Item = (usize, P::Item);
    type IntoIter = Zip<Range<usize>, P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        let base = self.base.into_iter();
        (self.offset..self.offset + base.len()).zip(base)
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(index);
        let left = EnumerateProducer {
            base: left,
            offset: self.offset,
        };
        let right = EnumerateProducer {
            base: right,
            offset: self.offset + index,
        };
        (left, right)
    }
}
