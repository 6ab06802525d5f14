//! `copied`, `cloned`, `inspect` and `update`: maps, each driven as a
//! [`Map`](super::Map) of the matching closure.

use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// Implements the iterator traits for an adapter that is a `map` of its
/// base: `$parts` destructures it, `$op` is the closure.
macro_rules! map_adapter {
    (impl [$($param:tt)*] $ty:ty => $item:ty, where [$($bound:tt)*], $base:ident in |$parts:pat_param| $op:expr) => {
        impl<$($param)*> ParallelIterator for $ty
        where
            I: ParallelIterator,
            $($bound)*
        {
            type Item = $item;

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: UnindexedConsumer<Self::Item>,
            {
                let $parts = self;
                $base.map($op).drive_unindexed(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                self.base.opt_len()
            }
        }

        impl<$($param)*> IndexedParallelIterator for $ty
        where
            I: IndexedParallelIterator,
            $($bound)*
        {
            fn drive<C>(self, consumer: C) -> C::Result
            where
                C: Consumer<Self::Item>,
            {
                let $parts = self;
                $base.map($op).drive(consumer)
            }

            fn len(&self) -> usize {
                self.base.len()
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: ProducerCallback<Self::Item>,
            {
                let $parts = self;
                $base.map($op).with_producer(callback)
            }
        }
    };
}

/// The iterator of [`ParallelIterator::copied`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Copied<I> {
    base: I,
}

impl<I> Copied<I> {
    pub(crate) fn new(base: I) -> Self {
        Copied { base }
    }
}

map_adapter! {
    impl ['a, T, I] Copied<I> => T,
    where [I: ParallelIterator<Item = &'a T>, T: 'a + Copy + Send + Sync],
    base in |Copied { base }| |item: &'a T| *item
}

/// The iterator of [`ParallelIterator::cloned`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Cloned<I> {
    base: I,
}

impl<I> Cloned<I> {
    pub(crate) fn new(base: I) -> Self {
        Cloned { base }
    }
}

map_adapter! {
    impl ['a, T, I] Cloned<I> => T,
    where [I: ParallelIterator<Item = &'a T>, T: 'a + Clone + Send],
    base in |Cloned { base }| |item: &'a T| item.clone()
}

/// The iterator of [`ParallelIterator::inspect`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Inspect<I, F> {
    base: I,
    inspect_op: F,
}

debug_adapter!(Inspect<I, F>);

impl<I, F> Inspect<I, F> {
    pub(crate) fn new(base: I, inspect_op: F) -> Self {
        Inspect { base, inspect_op }
    }
}

map_adapter! {
    impl [I, F] Inspect<I, F> => I::Item,
    where [F: Fn(&I::Item) + Sync + Send],
    base in |Inspect { base, inspect_op }| |item| {
        inspect_op(&item);
        item
    }
}

/// The iterator of [`ParallelIterator::update`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Update<I, F> {
    base: I,
    update_op: F,
}

debug_adapter!(Update<I, F>);

impl<I, F> Update<I, F> {
    pub(crate) fn new(base: I, update_op: F) -> Self {
        Update { base, update_op }
    }
}

map_adapter! {
    impl [I, F] Update<I, F> => I::Item,
    where [F: Fn(&mut I::Item) + Sync + Send],
    base in |Update { base, update_op }| |mut item| {
        update_op(&mut item);
        item
    }
}
