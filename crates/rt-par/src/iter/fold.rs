//! `fold` and `fold_with`: every piece folds its items into one
//! accumulator, and the accumulators are the items of the result.

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::ParallelIterator;

/// Makes a piece's starting accumulator.
trait Start: Clone + Send {
    type Acc;
    fn start(&self) -> Self::Acc;
}

struct Identity<'f, ID>(&'f ID);

impl<ID> Clone for Identity<'_, ID> {
    fn clone(&self) -> Self {
        Identity(self.0)
    }
}

impl<T, ID: Fn() -> T + Sync> Start for Identity<'_, ID> {
    type Acc = T;
    fn start(&self) -> T {
        (self.0)()
    }
}

#[derive(Clone)]
struct Cloning<T>(T);

impl<T: Clone + Send> Start for Cloning<T> {
    type Acc = T;
    fn start(&self) -> T {
        self.0.clone()
    }
}

/// The iterator of [`ParallelIterator::fold`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Fold<I, ID, F> {
    base: I,
    identity: ID,
    fold_op: F,
}

debug_adapter!(Fold<I, ID, F>);

impl<I, ID, F> Fold<I, ID, F> {
    pub(crate) fn new(base: I, identity: ID, fold_op: F) -> Self {
        Fold {
            base,
            identity,
            fold_op,
        }
    }
}

impl<I, ID, F, T> ParallelIterator for Fold<I, ID, F>
where
    I: ParallelIterator,
    F: Fn(T, I::Item) -> T + Sync + Send,
    ID: Fn() -> T + Sync + Send,
    T: Send,
{
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        let consumer = FoldConsumer {
            base: consumer,
            start: Identity(&self.identity),
            fold_op: &self.fold_op,
        };
        self.base.drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelIterator::fold_with`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct FoldWith<I, T, F> {
    base: I,
    init: T,
    fold_op: F,
}

impl<I: std::fmt::Debug, T: std::fmt::Debug, F> std::fmt::Debug for FoldWith<I, T, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FoldWith")
            .field("base", &self.base)
            .field("init", &self.init)
            .finish_non_exhaustive()
    }
}

impl<I, T, F> FoldWith<I, T, F> {
    pub(crate) fn new(base: I, init: T, fold_op: F) -> Self {
        FoldWith {
            base,
            init,
            fold_op,
        }
    }
}

impl<I, T, F> ParallelIterator for FoldWith<I, T, F>
where
    I: ParallelIterator,
    F: Fn(T, I::Item) -> T + Sync + Send,
    T: Send + Clone,
{
    type Item = T;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<T>,
    {
        let consumer = FoldConsumer {
            base: consumer,
            start: Cloning(self.init),
            fold_op: &self.fold_op,
        };
        self.base.drive_unindexed(consumer)
    }
}

struct FoldConsumer<'f, C, S, F> {
    base: C,
    start: S,
    fold_op: &'f F,
}

impl<'f, T, C, S, F> Consumer<T> for FoldConsumer<'f, C, S, F>
where
    C: Consumer<S::Acc>,
    S: Start,
    F: Fn(S::Acc, T) -> S::Acc + Sync,
    S::Acc: Send,
{
    type Folder = FoldFolder<'f, C::Folder, S::Acc, F>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let left = FoldConsumer {
            base: left,
            start: self.start.clone(),
            fold_op: self.fold_op,
        };
        let right = FoldConsumer {
            base: right,
            start: self.start,
            fold_op: self.fold_op,
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FoldFolder {
            base: self.base.into_folder(),
            item: self.start.start(),
            fold_op: self.fold_op,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T, C, S, F> UnindexedConsumer<T> for FoldConsumer<'_, C, S, F>
where
    C: UnindexedConsumer<S::Acc>,
    S: Start,
    F: Fn(S::Acc, T) -> S::Acc + Sync,
    S::Acc: Send,
{
    fn split_off_left(&self) -> Self {
        FoldConsumer {
            base: self.base.split_off_left(),
            start: self.start.clone(),
            fold_op: self.fold_op,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

struct FoldFolder<'f, C, U, F> {
    base: C,
    item: U,
    fold_op: &'f F,
}

impl<U, T, C, F> Folder<T> for FoldFolder<'_, C, U, F>
where
    C: Folder<U>,
    F: Fn(U, T) -> U,
{
    type Result = C::Result;

    fn consume(mut self, item: T) -> Self {
        self.item = (self.fold_op)(self.item, item);
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let base = &self.base;
        self.item = iter
            .into_iter()
            .take_while(|_| !base.full())
            .fold(self.item, self.fold_op);
        self
    }

    fn complete(self) -> C::Result {
        self.base.consume(self.item).complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
