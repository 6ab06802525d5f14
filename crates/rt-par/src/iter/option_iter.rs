//! `rt_par::option::IntoIter`, the iterator over an `Option`'s item (zero or
//! one). It lives in `iter`, and `option` re-exports it, so that `once` can
//! wrap it: `option` implements `iter`'s traits, so `iter` does not import
//! from `option`.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

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
