//! Parallel iterators over an `Option`'s item (zero or one).

use crate::iter::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use crate::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The iterator of `Option<T>::into_par_iter()`.
///
/// ```
/// use rt_par::prelude::*;
/// assert_eq!(Some(3).into_par_iter().sum::<i32>(), 3);
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct IntoIter<T> {
    opt: Option<T>,
}

impl<T> IntoIter<T> {
    pub(crate) fn new(opt: Option<T>) -> Self {
        IntoIter { opt }
    }
}

indexed_by_bridge!(impl [T] IntoIter<T> => T, where [T: Send]);

impl<T: Send> IndexedParallelIterator for IntoIter<T> {
    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        usize::from(self.opt.is_some())
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        callback.callback(OptionProducer(self.opt))
    }
}

struct OptionProducer<T>(Option<T>);

impl<T: Send> Producer for OptionProducer<T> {
    type Item = T;
    type IntoIter = std::option::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        if index == 0 {
            (OptionProducer(None), self)
        } else {
            (self, OptionProducer(None))
        }
    }
}

impl<T: Send> IntoParallelIterator for Option<T> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter::new(self)
    }
}

/// The iterator of `(&Option<T>).into_par_iter()`.
pub type Iter<'a, T> = IntoIter<&'a T>;

/// The iterator of `(&mut Option<T>).into_par_iter()`.
pub type IterMut<'a, T> = IntoIter<&'a mut T>;

impl<'a, T: Sync> IntoParallelIterator for &'a Option<T> {
    type Iter = Iter<'a, T>;
    type Item = &'a T;

    fn into_par_iter(self) -> Iter<'a, T> {
        IntoIter::new(self.as_ref())
    }
}

impl<'a, T: Send> IntoParallelIterator for &'a mut Option<T> {
    type Iter = IterMut<'a, T>;
    type Item = &'a mut T;

    fn into_par_iter(self) -> IterMut<'a, T> {
        IntoIter::new(self.as_mut())
    }
}
