//! `zip` and `zip_eq`: a producer of two producers split at the same
//! index. Both sides are first cut to the shorter length.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::zip`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Zip<A, B> {
    a: A,
    b: B,
}

impl<A, B> Zip<A, B> {
    pub(crate) fn new(a: A, b: B) -> Self {
        Zip { a, b }
    }
}

indexed_by_bridge!(
    impl [A, B] Zip<A, B> => (A::Item, B::Item),
    where [A: IndexedParallelIterator, B: IndexedParallelIterator]
);

impl<A, B> IndexedParallelIterator for Zip<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.a.len().min(self.b.len())
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        struct CallbackA<CB, B> {
            callback: CB,
            b: B,
            len: usize,
        }

        impl<CB, ItemA, B> ProducerCallback<ItemA> for CallbackA<CB, B>
        where
            B: IndexedParallelIterator,
            CB: ProducerCallback<(ItemA, B::Item)>,
        {
            type Output = CB::Output;

            fn callback<PA: Producer<Item = ItemA>>(self, a: PA) -> CB::Output {
                let (a, _) = a.split_at(self.len);
                self.b.with_producer(CallbackB {
                    callback: self.callback,
                    a,
                    len: self.len,
                })
            }
        }

        struct CallbackB<CB, PA> {
            callback: CB,
            a: PA,
            len: usize,
        }

        impl<CB, PA, ItemB> ProducerCallback<ItemB> for CallbackB<CB, PA>
        where
            PA: Producer,
            CB: ProducerCallback<(PA::Item, ItemB)>,
        {
            type Output = CB::Output;

            fn callback<PB: Producer<Item = ItemB>>(self, b: PB) -> CB::Output {
                let (b, _) = b.split_at(self.len);
                self.callback.callback(ZipProducer { a: self.a, b })
            }
        }

        let len = self.len();
        self.a.with_producer(CallbackA {
            callback,
            b: self.b,
            len,
        })
    }
}

struct ZipProducer<A, B> {
    a: A,
    b: B,
}

impl<A: Producer, B: Producer> Producer for ZipProducer<A, B> {
    type Item = (A::Item, B::Item);
    type IntoIter = std::iter::Zip<A::IntoIter, B::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        self.a.into_iter().zip(self.b.into_iter())
    }

    fn min_len(&self) -> usize {
        self.a.min_len().max(self.b.min_len())
    }

    fn max_len(&self) -> usize {
        self.a.max_len().min(self.b.max_len())
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (a_left, a_right) = self.a.split_at(index);
        let (b_left, b_right) = self.b.split_at(index);
        let left = ZipProducer {
            a: a_left,
            b: b_left,
        };
        (
            left,
            ZipProducer {
                a: a_right,
                b: b_right,
            },
        )
    }
}

/// The iterator of [`IndexedParallelIterator::zip_eq`]: a [`Zip`] of two
/// iterators checked to be as long.
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct ZipEq<A, B> {
    zip: Zip<A, B>,
}

impl<A, B> ZipEq<A, B> {
    pub(crate) fn new(a: A, b: B) -> Self {
        ZipEq {
            zip: Zip::new(a, b),
        }
    }
}

indexed_by_bridge!(
    impl [A, B] ZipEq<A, B> => (A::Item, B::Item),
    where [A: IndexedParallelIterator, B: IndexedParallelIterator]
);

impl<A, B> IndexedParallelIterator for ZipEq<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        self.zip.drive(consumer)
    }

    fn len(&self) -> usize {
        self.zip.len()
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        self.zip.with_producer(callback)
    }
}
