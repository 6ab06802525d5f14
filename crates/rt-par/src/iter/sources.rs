//! Sources that are not collections: `repeat`, `repeat_n`, `empty`, `once`.

use std::marker::PhantomData;

use super::plumbing::{
    bridge, bridge_unindexed, Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer,
    UnindexedProducer,
};
use super::{IndexedParallelIterator, ParallelIterator};

/// `element` cloned without end (take a prefix with
/// [`Repeat::take`], or `zip` it with an indexed iterator).
///
/// ```
/// use rt_par::prelude::*;
/// let v: Vec<(char, i32)> = rt_par::iter::repeat('x').zip(0..3).collect();
/// assert_eq!(v, [('x', 0), ('x', 1), ('x', 2)]);
/// ```
pub fn repeat<T: Clone + Send>(element: T) -> Repeat<T> {
    Repeat { element }
}

/// The iterator of [`repeat`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Repeat<T> {
    element: T,
}

impl<T: Clone + Send> Repeat<T> {
    /// The first `n` clones: an indexed iterator.
    pub fn take(self, n: usize) -> RepeatN<T> {
        repeat_n(self.element, n)
    }

    /// Pairs a clone with every item of `zip_op`.
    pub fn zip<Z>(self, zip_op: Z) -> super::Zip<RepeatN<T>, Z::Iter>
    where
        Z: super::IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        let other = zip_op.into_par_iter();
        let n = other.len();
        self.take(n).zip(other)
    }
}

impl<T: Clone + Send> ParallelIterator for Repeat<T> {
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        bridge_unindexed(EndlessProducer(self.element), consumer)
    }
}

struct EndlessProducer<T>(T);

impl<T: Clone + Send> UnindexedProducer for EndlessProducer<T> {
    type Item = T;

    fn split(self) -> (Self, Option<Self>) {
        (EndlessProducer(self.0.clone()), Some(self))
    }

    fn fold_with<F: Folder<T>>(self, folder: F) -> F {
        folder.consume_iter(std::iter::repeat(self.0))
    }
}

/// `element` cloned `n` times.
///
/// ```
/// use rt_par::prelude::*;
/// let v: Vec<u8> = rt_par::iter::repeat_n(7u8, 3).collect();
/// assert_eq!(v, [7, 7, 7]);
/// ```
pub fn repeat_n<T: Clone + Send>(element: T, n: usize) -> RepeatN<T> {
    repeat_n_inner((n > 0).then_some(element), n)
}

/// The former name of [`repeat_n`].
///
/// ```
/// # #![allow(deprecated)]
/// use rt_par::prelude::*;
/// assert_eq!(rt_par::iter::repeatn(1, 2).count(), 2);
/// ```
#[deprecated(note = "use `repeat_n`")]
pub fn repeatn<T: Clone + Send>(element: T, n: usize) -> RepeatN<T> {
    repeat_n(element, n)
}

/// The iterator of [`repeat_n`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct RepeatN<T> {
    inner: Copies<T>,
}

fn repeat_n_inner<T>(element: Option<T>, count: usize) -> RepeatN<T> {
    RepeatN {
        inner: Copies { element, count },
    }
}

indexed_by_bridge!(impl [T] RepeatN<T> => T, where [T: Clone + Send]);

impl<T: Clone + Send> IndexedParallelIterator for RepeatN<T> {
    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.inner.count
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        callback.callback(self.inner)
    }
}

/// `count` copies of `element`, as producer and sequential iterator (the
/// last is the element itself, not a clone).
#[derive(Debug, Clone)]
struct Copies<T> {
    element: Option<T>,
    count: usize,
}

impl<T: Clone + Send> Producer for Copies<T> {
    type Item = T;
    type IntoIter = Self;

    fn into_iter(self) -> Self {
        self
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let right = self.count - index;
        let none = |count| Copies {
            element: None,
            count,
        };
        match self.element {
            Some(element) if index > 0 && right > 0 => (
                Copies {
                    element: Some(element.clone()),
                    count: index,
                },
                Copies {
                    element: Some(element),
                    count: right,
                },
            ),
            Some(element) if index > 0 => (
                Copies {
                    element: Some(element),
                    count: index,
                },
                none(0),
            ),
            element => (
                none(0),
                Copies {
                    element,
                    count: right,
                },
            ),
        }
    }
}

impl<T: Clone> Iterator for Copies<T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        match self.count {
            0 => None,
            1 => {
                self.count = 0;
                self.element.take()
            }
            _ => {
                self.count -= 1;
                self.element.clone()
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.count, Some(self.count))
    }

    /// Skips `n` copies without making them.
    fn nth(&mut self, n: usize) -> Option<T> {
        if n >= self.count {
            self.count = 0;
            self.element = None;
            return None;
        }
        self.count -= n;
        self.next()
    }
}

impl<T: Clone> DoubleEndedIterator for Copies<T> {
    fn next_back(&mut self) -> Option<T> {
        self.next()
    }

    fn nth_back(&mut self, n: usize) -> Option<T> {
        self.nth(n)
    }
}

impl<T: Clone> ExactSizeIterator for Copies<T> {}

/// No items.
///
/// ```
/// use rt_par::prelude::*;
/// assert_eq!(rt_par::iter::empty::<i32>().count(), 0);
/// ```
pub fn empty<T: Send>() -> Empty<T> {
    Empty {
        marker: PhantomData,
    }
}

/// The iterator of [`empty`].
#[must_use = "iterators do nothing unless consumed"]
pub struct Empty<T> {
    marker: PhantomData<fn() -> T>,
}

impl<T> std::fmt::Debug for Empty<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Empty")
    }
}

impl<T> Clone for Empty<T> {
    fn clone(&self) -> Self {
        Empty {
            marker: PhantomData,
        }
    }
}

indexed_by_bridge!(impl [T] Empty<T> => T, where [T: Send]);

impl<T: Send> IndexedParallelIterator for Empty<T> {
    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        consumer.into_folder().complete()
    }

    fn len(&self) -> usize {
        0
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        callback.callback(self)
    }
}

impl<T: Send> Producer for Empty<T> {
    type Item = T;
    type IntoIter = std::iter::Empty<T>;

    fn into_iter(self) -> Self::IntoIter {
        std::iter::empty()
    }

    fn split_at(self, _index: usize) -> (Self, Self) {
        (empty(), empty())
    }
}

/// One item.
///
/// ```
/// use rt_par::prelude::*;
/// let v: Vec<i32> = rt_par::iter::once(1).chain(rt_par::iter::once(2)).collect();
/// assert_eq!(v, [1, 2]);
/// ```
pub fn once<T: Send>(item: T) -> Once<T> {
    Once {
        inner: super::option_iter::IntoIter::new(Some(item)),
    }
}

/// The iterator of [`once`].
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Once<T> {
    inner: super::option_iter::IntoIter<T>,
}

indexed_by_bridge!(impl [T] Once<T> => T, where [T: Send]);

impl<T: Send> IndexedParallelIterator for Once<T> {
    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        self.inner.drive(consumer)
    }

    fn len(&self) -> usize {
        1
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        self.inner.with_producer(callback)
    }
}
