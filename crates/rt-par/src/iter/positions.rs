//! `positions`: the indices of the items that match, in order.

use super::plumbing::UnindexedConsumer;
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::positions`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Positions<I, P> {
    base: I,
    predicate: P,
}

debug_adapter!(Positions<I, P>);

impl<I, P> Positions<I, P> {
    pub(crate) fn new(base: I, predicate: P) -> Self {
        Positions { base, predicate }
    }
}

impl<I, P> ParallelIterator for Positions<I, P>
where
    I: IndexedParallelIterator,
    P: Fn(I::Item) -> bool + Sync + Send,
{
    type Item = usize;

    fn drive_unindexed<C: UnindexedConsumer<usize>>(self, consumer: C) -> C::Result {
        let Positions { base, predicate } = self;
        base.enumerate()
            .filter_map(|(i, item)| predicate(item).then_some(i))
            .drive_unindexed(consumer)
    }
}
