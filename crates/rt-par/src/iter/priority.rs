//! `with_priority` and `with_cancellation`, the two adapters beyond rayon.

use rt_core::{CancellationToken, Priority};

use super::plumbing::{Consumer, Folder, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};
use crate::core_api;

/// The iterator of [`ParallelIterator::with_priority`]: runs its driver
/// inside `rt_core::with_priority`, so every half it forks is queued at
/// that priority.
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct WithPriority<I> {
    base: I,
    priority: Priority,
}

impl<I> WithPriority<I> {
    pub(crate) fn new(base: I, priority: Priority) -> Self {
        WithPriority { base, priority }
    }
}

impl<I: ParallelIterator> ParallelIterator for WithPriority<I> {
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        let WithPriority { base, priority } = self;
        core_api::with_priority(priority, move || base.drive_unindexed(consumer))
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for WithPriority<I> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        let WithPriority { base, priority } = self;
        core_api::with_priority(priority, move || base.drive(consumer))
    }

    fn len(&self) -> usize {
        self.base.len()
    }

    /// The callback runs inside `with_priority` when called on a worker
    /// (always so when driven by this crate, whose drivers move to a
    /// worker first).
    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        let WithPriority { base, priority } = self;
        core_api::with_priority_here(priority, move || base.with_producer(callback))
    }
}

/// The iterator of [`ParallelIterator::with_cancellation`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct WithCancellation<I> {
    base: I,
    token: CancellationToken,
}

impl<I> WithCancellation<I> {
    pub(crate) fn new(base: I, token: CancellationToken) -> Self {
        WithCancellation { base, token }
    }
}

impl<I: ParallelIterator> ParallelIterator for WithCancellation<I> {
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        self.base.drive_unindexed(Cancellable {
            base: consumer,
            token: &self.token,
        })
    }
}

/// Consumer and folder: full once the token is cancelled.
struct Cancellable<'t, C> {
    base: C,
    token: &'t CancellationToken,
}

impl<'t, T, C: Consumer<T>> Consumer<T> for Cancellable<'t, C> {
    type Folder = Cancellable<'t, C::Folder>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let token = self.token;
        let left = Cancellable { base: left, token };
        (left, Cancellable { base: right, token }, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        Cancellable {
            base: self.base.into_folder(),
            token: self.token,
        }
    }

    fn full(&self) -> bool {
        self.token.is_cancelled() || self.base.full()
    }
}

impl<T, C: UnindexedConsumer<T>> UnindexedConsumer<T> for Cancellable<'_, C> {
    fn split_off_left(&self) -> Self {
        Cancellable {
            base: self.base.split_off_left(),
            token: self.token,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T, F: Folder<T>> Folder<T> for Cancellable<'_, F> {
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        self.base = self.base.consume(item);
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let token = self.token;
        self.base = self
            .base
            .consume_iter(iter.into_iter().take_while(|_| !token.is_cancelled()));
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.token.is_cancelled() || self.base.full()
    }
}
