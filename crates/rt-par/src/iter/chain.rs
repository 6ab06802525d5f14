//! `chain`: `a`'s items then `b`'s. Unindexed, the consumer is split in
//! two and both sides run with `join`; indexed, a producer of both splits
//! within whichever side holds the index.

use std::iter::Fuse;

use super::plumbing::{
    bridge, Consumer, Folder, Producer, ProducerCallback, Reducer, UnindexedConsumer,
};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`ParallelIterator::chain`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Chain<A, B> {
    a: A,
    b: B,
}

impl<A, B> Chain<A, B> {
    pub(crate) fn new(a: A, b: B) -> Self {
        Chain { a, b }
    }
}

impl<A, B> ParallelIterator for Chain<A, B>
where
    A: ParallelIterator,
    B: ParallelIterator<Item = A::Item>,
{
    type Item = A::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        let Chain { a, b } = self;
        let (left, right, reducer) = match a.opt_len() {
            Some(len) => consumer.split_at(len),
            None => {
                let reducer = consumer.to_reducer();
                (consumer.split_off_left(), consumer, reducer)
            }
        };
        let (a, b) = rt_core::join(|| a.drive_unindexed(left), || b.drive_unindexed(right));
        reducer.reduce(a, b)
    }

    fn opt_len(&self) -> Option<usize> {
        self.a.opt_len()?.checked_add(self.b.opt_len()?)
    }
}

impl<A, B> IndexedParallelIterator for Chain<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator<Item = A::Item>,
{
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.a
            .len()
            .checked_add(self.b.len())
            .expect("chain length overflows usize")
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        struct CallbackA<CB, B> {
            callback: CB,
            a_len: usize,
            b: B,
        }

        impl<CB, B> ProducerCallback<B::Item> for CallbackA<CB, B>
        where
            B: IndexedParallelIterator,
            CB: ProducerCallback<B::Item>,
        {
            type Output = CB::Output;

            fn callback<PA: Producer<Item = B::Item>>(self, a: PA) -> CB::Output {
                self.b.with_producer(CallbackB {
                    callback: self.callback,
                    a_len: self.a_len,
                    a,
                })
            }
        }

        struct CallbackB<CB, PA> {
            callback: CB,
            a_len: usize,
            a: PA,
        }

        impl<CB, PA> ProducerCallback<PA::Item> for CallbackB<CB, PA>
        where
            PA: Producer,
            CB: ProducerCallback<PA::Item>,
        {
            type Output = CB::Output;

            fn callback<PB: Producer<Item = PA::Item>>(self, b: PB) -> CB::Output {
                self.callback.callback(ChainProducer {
                    a: self.a,
                    b,
                    a_len: self.a_len,
                })
            }
        }

        let a_len = self.a.len();
        self.a.with_producer(CallbackA {
            callback,
            a_len,
            b: self.b,
        })
    }
}

struct ChainProducer<A, B> {
    a: A,
    b: B,
    a_len: usize,
}

impl<A: Producer, B: Producer<Item = A::Item>> Producer for ChainProducer<A, B> {
    type Item = A::Item;
    type IntoIter = ChainIter<A::IntoIter, B::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        ChainIter {
            a: self.a.into_iter().fuse(),
            b: self.b.into_iter().fuse(),
        }
    }

    fn min_len(&self) -> usize {
        self.a.min_len().max(self.b.min_len())
    }

    fn max_len(&self) -> usize {
        self.a.max_len().min(self.b.max_len())
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        if index <= self.a_len {
            let (a_left, a_right) = self.a.split_at(index);
            let (b_left, b_right) = self.b.split_at(0);
            let left = ChainProducer {
                a: a_left,
                b: b_left,
                a_len: index,
            };
            let right = ChainProducer {
                a: a_right,
                b: b_right,
                a_len: self.a_len - index,
            };
            (left, right)
        } else {
            let (a_left, a_right) = self.a.split_at(self.a_len);
            let (b_left, b_right) = self.b.split_at(index - self.a_len);
            let left = ChainProducer {
                a: a_left,
                b: b_left,
                a_len: self.a_len,
            };
            let right = ChainProducer {
                a: a_right,
                b: b_right,
                a_len: 0,
            };
            (left, right)
        }
    }

    fn fold_with<F: Folder<A::Item>>(self, folder: F) -> F {
        let folder = self.a.fold_with(folder);
        if folder.full() {
            folder
        } else {
            self.b.fold_with(folder)
        }
    }
}

/// `a` then `b`, with an exact length (which `std::iter::Chain` lacks).
struct ChainIter<A, B> {
    a: Fuse<A>,
    b: Fuse<B>,
}

impl<A: Iterator, B: Iterator<Item = A::Item>> Iterator for ChainIter<A, B> {
    type Item = A::Item;

    fn next(&mut self) -> Option<A::Item> {
        self.a.next().or_else(|| self.b.next())
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let (a_low, a_high) = self.a.size_hint();
        let (b_low, b_high) = self.b.size_hint();
        let high = a_high.zip(b_high).and_then(|(a, b)| a.checked_add(b));
        (a_low.saturating_add(b_low), high)
    }

    fn fold<Acc, G: FnMut(Acc, A::Item) -> Acc>(self, init: Acc, mut g: G) -> Acc {
        let acc = self.a.fold(init, &mut g);
        self.b.fold(acc, g)
    }
}

impl<A, B> DoubleEndedIterator for ChainIter<A, B>
where
    A: DoubleEndedIterator,
    B: DoubleEndedIterator<Item = A::Item>,
{
    fn next_back(&mut self) -> Option<A::Item> {
        self.b.next_back().or_else(|| self.a.next_back())
    }
}

impl<A: ExactSizeIterator, B: ExactSizeIterator<Item = A::Item>> ExactSizeIterator
    for ChainIter<A, B>
{
}
