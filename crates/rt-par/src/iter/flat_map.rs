//! `flat_map` (each item becomes a parallel iterator, driven in place with
//! a consumer split off for it), `flat_map_iter` (each item becomes a
//! sequential iterator, folded into the piece's folder), and `flatten`,
//! `flatten_iter` as those of the identity.

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::{IntoParallelIterator, ParallelIterator};

/// The iterator of [`ParallelIterator::flat_map`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct FlatMap<I, F> {
    base: I,
    map_op: F,
}

debug_adapter!(FlatMap<I, F>);

impl<I, F> FlatMap<I, F> {
    pub(crate) fn new(base: I, map_op: F) -> Self {
        FlatMap { base, map_op }
    }
}

impl<I, F, PI> ParallelIterator for FlatMap<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> PI + Sync + Send,
    PI: IntoParallelIterator,
{
    type Item = PI::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        let consumer = FlatMapConsumer {
            base: consumer,
            map_op: &self.map_op,
        };
        self.base.drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelIterator::flatten`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Flatten<I> {
    base: I,
}

impl<I> Flatten<I> {
    pub(crate) fn new(base: I) -> Self {
        Flatten { base }
    }
}

impl<I> ParallelIterator for Flatten<I>
where
    I: ParallelIterator,
    I::Item: IntoParallelIterator,
{
    type Item = <I::Item as IntoParallelIterator>::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        self.base.flat_map(|item| item).drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelIterator::flat_map_iter`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct FlatMapIter<I, F> {
    base: I,
    map_op: F,
}

debug_adapter!(FlatMapIter<I, F>);

impl<I, F> FlatMapIter<I, F> {
    pub(crate) fn new(base: I, map_op: F) -> Self {
        FlatMapIter { base, map_op }
    }
}

impl<I, F, SI> ParallelIterator for FlatMapIter<I, F>
where
    I: ParallelIterator,
    F: Fn(I::Item) -> SI + Sync + Send,
    SI: IntoIterator,
    SI::Item: Send,
{
    type Item = SI::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        let consumer = FlatMapIterConsumer {
            base: consumer,
            map_op: &self.map_op,
        };
        self.base.drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelIterator::flatten_iter`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct FlattenIter<I> {
    base: I,
}

impl<I> FlattenIter<I> {
    pub(crate) fn new(base: I) -> Self {
        FlattenIter { base }
    }
}

impl<I> ParallelIterator for FlattenIter<I>
where
    I: ParallelIterator,
    I::Item: IntoIterator,
    <I::Item as IntoIterator>::Item: Send,
{
    type Item = <I::Item as IntoIterator>::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        self.base
            .flat_map_iter(|item| item)
            .drive_unindexed(consumer)
    }
}

struct FlatMapConsumer<'f, C, F> {
    base: C,
    map_op: &'f F,
}

impl<'f, T, C, F, PI> Consumer<T> for FlatMapConsumer<'f, C, F>
where
    C: UnindexedConsumer<PI::Item>,
    F: Fn(T) -> PI + Sync,
    PI: IntoParallelIterator,
{
    type Folder = FlatMapFolder<'f, C, F, C::Result>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let map_op = self.map_op;
        let left = FlatMapConsumer { base: left, map_op };
        (
            left,
            FlatMapConsumer {
                base: right,
                map_op,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        FlatMapFolder {
            base: self.base,
            map_op: self.map_op,
            previous: None,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, F, PI> UnindexedConsumer<T> for FlatMapConsumer<'_, C, F>
where
    C: UnindexedConsumer<PI::Item>,
    F: Fn(T) -> PI + Sync,
    PI: IntoParallelIterator,
{
    fn split_off_left(&self) -> Self {
        FlatMapConsumer {
            base: self.base.split_off_left(),
            map_op: self.map_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

/// Drives each item's parallel iterator with a consumer split off the
/// piece's, and reduces the results in order.
struct FlatMapFolder<'f, C, F, R> {
    base: C,
    map_op: &'f F,
    previous: Option<R>,
}

impl<T, C, F, PI> Folder<T> for FlatMapFolder<'_, C, F, C::Result>
where
    C: UnindexedConsumer<PI::Item>,
    F: Fn(T) -> PI + Sync,
    PI: IntoParallelIterator,
{
    type Result = C::Result;

    fn consume(mut self, item: T) -> Self {
        let par_iter = (self.map_op)(item).into_par_iter();
        let result = par_iter.drive_unindexed(self.base.split_off_left());
        self.previous = Some(match self.previous.take() {
            None => result,
            Some(previous) => self.base.to_reducer().reduce(previous, result),
        });
        self
    }

    fn complete(self) -> C::Result {
        match self.previous {
            Some(previous) => previous,
            None => self.base.into_folder().complete(),
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

struct FlatMapIterConsumer<'f, C, F> {
    base: C,
    map_op: &'f F,
}

impl<'f, T, C, F, SI> Consumer<T> for FlatMapIterConsumer<'f, C, F>
where
    C: UnindexedConsumer<SI::Item>,
    F: Fn(T) -> SI + Sync,
    SI: IntoIterator,
{
    type Folder = FlatMapIterFolder<'f, C::Folder, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let map_op = self.map_op;
        let left = FlatMapIterConsumer { base: left, map_op };
        (
            left,
            FlatMapIterConsumer {
                base: right,
                map_op,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        FlatMapIterFolder {
            base: self.base.into_folder(),
            map_op: self.map_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, F, SI> UnindexedConsumer<T> for FlatMapIterConsumer<'_, C, F>
where
    C: UnindexedConsumer<SI::Item>,
    F: Fn(T) -> SI + Sync,
    SI: IntoIterator,
{
    fn split_off_left(&self) -> Self {
        FlatMapIterConsumer {
            base: self.base.split_off_left(),
            map_op: self.map_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FlatMapIterFolder<'f, F, M> {
    base: F,
    map_op: &'f M,
}

impl<T, F, M, SI> Folder<T> for FlatMapIterFolder<'_, F, M>
where
    F: Folder<SI::Item>,
    M: Fn(T) -> SI,
    SI: IntoIterator,
{
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        self.base = self.base.consume_iter((self.map_op)(item));
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        self.base = self
            .base
            .consume_iter(iter.into_iter().flat_map(self.map_op));
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
