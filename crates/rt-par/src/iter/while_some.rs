//! `while_some`: the `Some` values, until a `None` is seen; pieces not yet
//! started then skip, so what comes after the `None` is unspecified.

use std::sync::atomic::{AtomicBool, Ordering};

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::ParallelIterator;

/// The iterator of [`ParallelIterator::while_some`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct WhileSome<I> {
    base: I,
}

impl<I> WhileSome<I> {
    pub(crate) fn new(base: I) -> Self {
        WhileSome { base }
    }
}

impl<I, T> ParallelIterator for WhileSome<I>
where
    I: ParallelIterator<Item = Option<T>>,
    T: Send,
{
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        let stopped = AtomicBool::new(false);
        self.base.drive_unindexed(WhileSomeConsumer {
            base: consumer,
            stopped: &stopped,
        })
    }
}

struct WhileSomeConsumer<'s, C> {
    base: C,
    stopped: &'s AtomicBool,
}

impl<'s, T, C: Consumer<T>> Consumer<Option<T>> for WhileSomeConsumer<'s, C> {
    type Folder = WhileSomeConsumer<'s, C::Folder>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let stopped = self.stopped;
        let left = WhileSomeConsumer {
            base: left,
            stopped,
        };
        (
            left,
            WhileSomeConsumer {
                base: right,
                stopped,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        WhileSomeConsumer {
            base: self.base.into_folder(),
            stopped: self.stopped,
        }
    }

    fn full(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) || self.base.full()
    }
}

impl<T, C: UnindexedConsumer<T>> UnindexedConsumer<Option<T>> for WhileSomeConsumer<'_, C> {
    fn split_off_left(&self) -> Self {
        WhileSomeConsumer {
            base: self.base.split_off_left(),
            stopped: self.stopped,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T, F: Folder<T>> Folder<Option<T>> for WhileSomeConsumer<'_, F> {
    type Result = F::Result;

    fn consume(mut self, item: Option<T>) -> Self {
        match item {
            Some(value) => self.base = self.base.consume(value),
            None => self.stopped.store(true, Ordering::Relaxed),
        }
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) || self.base.full()
    }
}
