//! `filter_map`, and `filter` as a `filter_map` of its predicate. The
//! result is unindexed: a piece's output count is known only after it ran.

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::ParallelIterator;

/// The iterator of [`ParallelIterator::filter_map`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct FilterMap<I, P> {
    base: I,
    filter_op: P,
}

debug_adapter!(FilterMap<I, P>);

impl<I, P> FilterMap<I, P> {
    pub(crate) fn new(base: I, filter_op: P) -> Self {
        FilterMap { base, filter_op }
    }
}

impl<I, P, R> ParallelIterator for FilterMap<I, P>
where
    I: ParallelIterator,
    P: Fn(I::Item) -> Option<R> + Sync + Send,
    R: Send,
{
    type Item = R;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<R>,
    {
        let consumer = FilterMapConsumer {
            base: consumer,
            filter_op: &self.filter_op,
        };
        self.base.drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelIterator::filter`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Filter<I, P> {
    base: I,
    filter_op: P,
}

debug_adapter!(Filter<I, P>);

impl<I, P> Filter<I, P> {
    pub(crate) fn new(base: I, filter_op: P) -> Self {
        Filter { base, filter_op }
    }
}

impl<I, P> ParallelIterator for Filter<I, P>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<I::Item>,
    {
        let Filter { base, filter_op } = self;
        base.filter_map(|item| filter_op(&item).then_some(item))
            .drive_unindexed(consumer)
    }
}

struct FilterMapConsumer<'p, C, P> {
    base: C,
    filter_op: &'p P,
}

impl<'p, T, R, C, P> Consumer<T> for FilterMapConsumer<'p, C, P>
where
    C: Consumer<R>,
    P: Fn(T) -> Option<R> + Sync,
{
    type Folder = FilterMapFolder<'p, C::Folder, P>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let filter_op = self.filter_op;
        let left = FilterMapConsumer {
            base: left,
            filter_op,
        };
        (
            left,
            FilterMapConsumer {
                base: right,
                filter_op,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        FilterMapFolder {
            base: self.base.into_folder(),
            filter_op: self.filter_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }

    fn front_first(&self) -> bool {
        self.base.front_first()
    }
}

impl<T, R, C, P> UnindexedConsumer<T> for FilterMapConsumer<'_, C, P>
where
    C: UnindexedConsumer<R>,
    P: Fn(T) -> Option<R> + Sync,
{
    fn split_off_left(&self) -> Self {
        FilterMapConsumer {
            base: self.base.split_off_left(),
            filter_op: self.filter_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FilterMapFolder<'p, F, P> {
    base: F,
    filter_op: &'p P,
}

impl<T, R, F, P> Folder<T> for FilterMapFolder<'_, F, P>
where
    F: Folder<R>,
    P: Fn(T) -> Option<R>,
{
    type Result = F::Result;

    #[inline]
    fn consume(mut self, item: T) -> Self {
        if let Some(mapped) = (self.filter_op)(item) {
            self.base = self.base.consume(mapped);
        }
        self
    }

    #[inline]
    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        self.base = self
            .base
            .consume_iter(iter.into_iter().filter_map(self.filter_op));
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
