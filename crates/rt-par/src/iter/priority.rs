//! `with_priority`: the pieces an iterator hands out, queued at a priority.

use rt_core::Priority;

use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
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
