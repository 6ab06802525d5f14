//! `interleave` and `interleave_shortest`: items taken in
//! turn from two indexed iterators. A producer of both knows how many
//! items of each the first `index` items hold, so it splits anywhere.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator, Take};

/// The iterator of [`IndexedParallelIterator::interleave`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Interleave<A, B> {
    a: A,
    b: B,
}

impl<A, B> Interleave<A, B> {
    pub(crate) fn new(a: A, b: B) -> Self {
        Interleave { a, b }
    }
}

indexed_by_bridge!(
    impl [A, B] Interleave<A, B> => A::Item,
    where [A: IndexedParallelIterator, B: IndexedParallelIterator<Item = A::Item>]
);

impl<A, B> IndexedParallelIterator for Interleave<A, B>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator<Item = A::Item>,
{
    fn drive<C: Consumer<A::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.a
            .len()
            .checked_add(self.b.len())
            .expect("interleaved length overflows usize")
    }

    fn with_producer<CB: ProducerCallback<A::Item>>(self, callback: CB) -> CB::Output {
        struct CallbackA<CB, B> {
            callback: CB,
            b: B,
            a_len: usize,
        }

        impl<CB, B> ProducerCallback<B::Item> for CallbackA<CB, B>
        where
            B: IndexedParallelIterator,
            CB: ProducerCallback<B::Item>,
        {
            type Output = CB::Output;

            fn callback<PA: Producer<Item = B::Item>>(self, a: PA) -> CB::Output {
                let b_len = self.b.len();
                self.b.with_producer(CallbackB {
                    callback: self.callback,
                    a,
                    a_len: self.a_len,
                    b_len,
                })
            }
        }

        struct CallbackB<CB, PA> {
            callback: CB,
            a: PA,
            a_len: usize,
            b_len: usize,
        }

        impl<CB, PA> ProducerCallback<PA::Item> for CallbackB<CB, PA>
        where
            PA: Producer,
            CB: ProducerCallback<PA::Item>,
        {
            type Output = CB::Output;

            fn callback<PB: Producer<Item = PA::Item>>(self, b: PB) -> CB::Output {
                self.callback.callback(InterleaveProducer {
                    a: self.a,
                    b,
                    a_len: self.a_len,
                    b_len: self.b_len,
                    b_first: false,
                })
            }
        }

        let a_len = self.a.len();
        self.a.with_producer(CallbackA {
            callback,
            b: self.b,
            a_len,
        })
    }
}

/// Both producers, how many items each holds, and which one gives the
/// next item.
struct InterleaveProducer<A, B> {
    a: A,
    b: B,
    a_len: usize,
    b_len: usize,
    b_first: bool,
}

/// How many of the first `index` items come from the side that goes
/// first (`first` items long) and from the other (`second` long).
fn taken(index: usize, first: usize, second: usize) -> (usize, usize) {
    let (from_first, from_second) = (index.div_ceil(2), index / 2);
    if from_first > first {
        (first, index - first)
    } else if from_second > second {
        (index - second, second)
    } else {
        (from_first, from_second)
    }
}

impl<A: Producer, B: Producer<Item = A::Item>> Producer for InterleaveProducer<A, B> {
    type Item = A::Item;
    type IntoIter = InterleaveIter<A::IntoIter, B::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        InterleaveIter {
            a: self.a.into_iter(),
            b: self.b.into_iter(),
            b_next: self.b_first,
        }
    }

    fn min_len(&self) -> usize {
        self.a.min_len().max(self.b.min_len())
    }

    fn max_len(&self) -> usize {
        self.a.max_len().min(self.b.max_len())
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (a_taken, b_taken) = if self.b_first {
            let (b, a) = taken(index, self.b_len, self.a_len);
            (a, b)
        } else {
            taken(index, self.a_len, self.b_len)
        };
        let (a_left, a_right) = self.a.split_at(a_taken);
        let (b_left, b_right) = self.b.split_at(b_taken);
        let left = InterleaveProducer {
            a: a_left,
            b: b_left,
            a_len: a_taken,
            b_len: b_taken,
            b_first: self.b_first,
        };
        let right = InterleaveProducer {
            a: a_right,
            b: b_right,
            a_len: self.a_len - a_taken,
            b_len: self.b_len - b_taken,
            b_first: self.b_first != (index % 2 == 1),
        };
        (left, right)
    }
}

/// The sequential interleaving.
struct InterleaveIter<A, B> {
    a: A,
    b: B,
    b_next: bool,
}

impl<A, B> Iterator for InterleaveIter<A, B>
where
    A: ExactSizeIterator,
    B: ExactSizeIterator<Item = A::Item>,
{
    type Item = A::Item;

    fn next(&mut self) -> Option<A::Item> {
        let item = if self.b_next {
            self.b.next().or_else(|| self.a.next())
        } else {
            self.a.next().or_else(|| self.b.next())
        };
        self.b_next = !self.b_next;
        item
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let len = self.a.len() + self.b.len();
        (len, Some(len))
    }
}

impl<A, B> DoubleEndedIterator for InterleaveIter<A, B>
where
    A: DoubleEndedIterator + ExactSizeIterator,
    B: DoubleEndedIterator + ExactSizeIterator<Item = A::Item>,
{
    fn next_back(&mut self) -> Option<A::Item> {
        let (a_len, b_len) = (self.a.len(), self.b.len());
        // The side that goes first ends last only if it is the longer.
        let last_from_a = if self.b_next {
            a_len >= b_len
        } else {
            a_len > b_len
        };
        if last_from_a {
            self.a.next_back()
        } else {
            self.b.next_back()
        }
    }
}

impl<A, B> ExactSizeIterator for InterleaveIter<A, B>
where
    A: ExactSizeIterator,
    B: ExactSizeIterator<Item = A::Item>,
{
}

/// The iterator of [`IndexedParallelIterator::interleave_shortest`]: an
/// [`Interleave`] of the two cut where the shorter side runs out.
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct InterleaveShortest<A, B> {
    interleave: Interleave<Take<A>, Take<B>>,
}

impl<A: IndexedParallelIterator, B: IndexedParallelIterator> InterleaveShortest<A, B> {
    pub(crate) fn new(a: A, b: B) -> Self {
        let (a_len, b_len) = (a.len(), b.len());
        let a_len = a_len.min(b_len.saturating_add(1));
        let b_len = b_len.min(a_len);
        InterleaveShortest {
            interleave: Interleave::new(a.take(a_len), b.take(b_len)),
        }
    }
}

/// Forwards the traits to the inner `Interleave`.
macro_rules! forward_to_interleave {
    ($ty:ty, [$($param:tt)*], where [$($bound:tt)*]) => {
        impl<$($param)*> ParallelIterator for $ty
        where
            $($bound)*
        {
            type Item = A::Item;

            fn drive_unindexed<C: UnindexedConsumer<A::Item>>(self, consumer: C) -> C::Result {
                self.interleave.drive_unindexed(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.interleave.len())
            }
        }

        impl<$($param)*> IndexedParallelIterator for $ty
        where
            $($bound)*
        {
            fn drive<C: Consumer<A::Item>>(self, consumer: C) -> C::Result {
                self.interleave.drive(consumer)
            }

            fn len(&self) -> usize {
                self.interleave.len()
            }

            fn with_producer<CB: ProducerCallback<A::Item>>(self, callback: CB) -> CB::Output {
                self.interleave.with_producer(callback)
            }
        }
    };
}

forward_to_interleave!(
    InterleaveShortest<A, B>,
    [A, B],
    where [A: IndexedParallelIterator, B: IndexedParallelIterator<Item = A::Item>]
);
