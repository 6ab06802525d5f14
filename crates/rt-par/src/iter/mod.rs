//! The parallel iterator traits, their adapters and the sources that are
//! not collections (rayon's `rayon::iter`).

use std::cmp::Ordering;
use std::iter::{Product, Sum};

use rt_core::{CancellationToken, Priority};

pub mod plumbing;

mod any;
mod blocks;
mod cancellation;
mod chain;
mod chunks;
mod collect;
mod drain;
mod either_iter;
mod enumerate;
mod extend;
mod filter;
mod find;
mod flat_map;
mod fold;
mod fold_chunks;
mod for_each;
mod interleave;
mod intersperse;
mod item_ops;
mod len_bounds;
mod map;
mod multizip;
pub(crate) mod option_iter;
mod panic_fuse;
mod par_bridge;
mod positions;
mod priority;
mod reduce;
mod rev;
mod skip_take;
mod sources;
mod split;
mod step_by;
mod sum;
mod try_fold;
mod try_op;
mod unzip;
mod walk_tree;
mod while_some;
mod zip;

pub use ::either::Either;
pub use any::{SkipAny, SkipAnyWhile, TakeAny, TakeAnyWhile};
pub use blocks::{ExponentialBlocks, UniformBlocks};
pub use cancellation::{Cancelled, UntilCancelled, WithCancellation};
pub use chain::Chain;
pub use chunks::Chunks;
pub use drain::{ParallelDrainFull, ParallelDrainRange};
pub use enumerate::Enumerate;
pub use filter::{Filter, FilterMap};
pub use flat_map::{FlatMap, FlatMapIter, Flatten, FlattenIter};
pub use fold::{Fold, FoldWith};
pub use fold_chunks::{FoldChunks, FoldChunksWith};
pub use interleave::{Interleave, InterleaveShortest};
pub use intersperse::Intersperse;
pub use item_ops::{Cloned, Copied, Inspect, Update};
pub use len_bounds::{MaxLen, MinLen};
pub use map::{Map, MapInit, MapWith};
pub use multizip::MultiZip;
pub use panic_fuse::PanicFuse;
pub use par_bridge::{IterBridge, ParallelBridge};
pub use positions::Positions;
pub use priority::WithPriority;
pub use rev::Rev;
pub use skip_take::{Skip, Take};
#[allow(deprecated)]
pub use sources::repeatn;
pub use sources::{empty, once, repeat, repeat_n, Empty, Once, Repeat, RepeatN};
pub use split::{split, Split};
pub use step_by::StepBy;
pub use try_fold::{TryFold, TryFoldWith};
pub use walk_tree::{
    walk_tree, walk_tree_postfix, walk_tree_prefix, WalkTree, WalkTreePostfix, WalkTreePrefix,
};
pub use while_some::WhileSome;
pub use zip::{Zip, ZipEq};

use plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use try_op::Try;

/// Converts into a parallel iterator (rayon's `IntoParallelIterator`):
/// `vec.into_par_iter()`, `(0..n).into_par_iter()`.
///
/// ```
/// use rt_par::prelude::*;
///
/// let squares: Vec<u64> = (0..5u64).into_par_iter().map(|i| i * i).collect();
/// assert_eq!(squares, [0, 1, 4, 9, 16]);
/// ```
pub trait IntoParallelIterator {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items.
    type Item: Send;

    /// Converts `self` into a parallel iterator.
    fn into_par_iter(self) -> Self::Iter;
}

impl<T: ParallelIterator> IntoParallelIterator for T {
    type Iter = T;
    type Item = T::Item;

    fn into_par_iter(self) -> T {
        self
    }
}

/// `par_iter()`: a parallel iterator over references to a collection's
/// items.
///
/// ```
/// use rt_par::prelude::*;
///
/// let words = vec!["a", "bb", "ccc"];
/// let total: usize = words.par_iter().map(|w| w.len()).sum();
/// assert_eq!(total, 6);
/// ```
pub trait IntoParallelRefIterator<'data> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (references).
    type Item: Send + 'data;

    /// A parallel iterator over `&self`'s items.
    fn par_iter(&'data self) -> Self::Iter;
}

impl<'data, I: 'data + ?Sized> IntoParallelRefIterator<'data> for I
where
    &'data I: IntoParallelIterator,
{
    type Iter = <&'data I as IntoParallelIterator>::Iter;
    type Item = <&'data I as IntoParallelIterator>::Item;

    fn par_iter(&'data self) -> Self::Iter {
        self.into_par_iter()
    }
}

/// `par_iter_mut()`: a parallel iterator over mutable references to a
/// collection's items.
///
/// ```
/// use rt_par::prelude::*;
///
/// let mut v = vec![1, 2, 3];
/// v.par_iter_mut().for_each(|x| *x *= 10);
/// assert_eq!(v, [10, 20, 30]);
/// ```
pub trait IntoParallelRefMutIterator<'data> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// Its items (mutable references).
    type Item: Send + 'data;

    /// A parallel iterator over `&mut self`'s items.
    fn par_iter_mut(&'data mut self) -> Self::Iter;
}

impl<'data, I: 'data + ?Sized> IntoParallelRefMutIterator<'data> for I
where
    &'data mut I: IntoParallelIterator,
{
    type Iter = <&'data mut I as IntoParallelIterator>::Iter;
    type Item = <&'data mut I as IntoParallelIterator>::Item;

    fn par_iter_mut(&'data mut self) -> Self::Iter {
        self.into_par_iter()
    }
}

/// A collection built from a parallel iterator: the target of
/// [`ParallelIterator::collect`].
///
/// ```
/// use std::collections::HashSet;
/// use rt_par::prelude::*;
///
/// let set = HashSet::<u32>::from_par_iter((0..10u32).into_par_iter().map(|i| i % 3));
/// assert_eq!(set.len(), 3);
/// ```
pub trait FromParallelIterator<T: Send> {
    /// Builds `Self` from the items of `par_iter`.
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>;
}

/// A collection that a parallel iterator can extend.
///
/// ```
/// use rt_par::prelude::*;
///
/// let mut v = vec![0u32];
/// v.par_extend((1..4u32).into_par_iter());
/// assert_eq!(v, [0, 1, 2, 3]);
/// ```
pub trait ParallelExtend<T: Send> {
    /// Adds the items of `par_iter`, in order where `Self` has one.
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>;
}

/// A parallel iterator: items that can be split into pieces, each folded
/// on a worker, and the pieces' results combined (rayon's
/// `ParallelIterator`).
///
/// ```
/// use rt_par::prelude::*;
///
/// let evens: Vec<u32> = (0..10u32).into_par_iter().filter(|i| i % 2 == 0).collect();
/// assert_eq!(evens, [0, 2, 4, 6, 8]);
/// ```
pub trait ParallelIterator: Sized + Send {
    /// The items.
    type Item: Send;

    /// Feeds every item to `consumer` (the driver; called by consumers
    /// such as [`for_each`](Self::for_each)).
    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>;

    /// The number of items, if known without iterating.
    fn opt_len(&self) -> Option<usize> {
        None
    }

    /// Calls `op` on every item.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicU32, Ordering};
    /// use rt_par::prelude::*;
    ///
    /// let sum = AtomicU32::new(0);
    /// (1..=4u32).into_par_iter().for_each(|i| { sum.fetch_add(i, Ordering::Relaxed); });
    /// assert_eq!(sum.into_inner(), 10);
    /// ```
    fn for_each<OP>(self, op: OP)
    where
        OP: Fn(Self::Item) + Sync + Send,
    {
        for_each::for_each(self, &op)
    }

    /// Calls `op` on every item with a clone of `init` per piece.
    ///
    /// ```
    /// use std::sync::mpsc::channel;
    /// use rt_par::prelude::*;
    ///
    /// let (sender, receiver) = channel();
    /// (0..5).into_par_iter().for_each_with(sender, |s, x| s.send(x).unwrap());
    /// let mut got: Vec<_> = receiver.iter().collect();
    /// got.sort();
    /// assert_eq!(got, [0, 1, 2, 3, 4]);
    /// ```
    fn for_each_with<OP, T>(self, init: T, op: OP)
    where
        OP: Fn(&mut T, Self::Item) + Sync + Send,
        T: Send + Clone,
    {
        self.map_with(init, op).collect()
    }

    /// Calls `op` on every item with a value `init` made per piece.
    ///
    /// ```
    /// use rt_par::prelude::*;
    ///
    /// let mut out = vec![0u8; 8];
    /// out.par_chunks_mut(2).for_each_init(Vec::new, |scratch, chunk| {
    ///     scratch.clear();
    ///     scratch.extend_from_slice(&[7, 7]);
    ///     chunk.copy_from_slice(scratch);
    /// });
    /// assert_eq!(out, [7; 8]);
    /// ```
    fn for_each_init<OP, INIT, T>(self, init: INIT, op: OP)
    where
        OP: Fn(&mut T, Self::Item) + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
    {
        self.map_init(init, op).collect()
    }

    /// Calls `op` on every item until one returns an error (or `None`),
    /// which is returned; pieces not yet started are then skipped.
    ///
    /// ```
    /// use rt_par::prelude::*;
    ///
    /// let r = (0..100).into_par_iter().try_for_each(|i| if i < 50 { Ok(()) } else { Err(i) });
    /// assert!(matches!(r, Err(i) if i >= 50));
    /// ```
    fn try_for_each<OP, R>(self, op: OP) -> R
    where
        OP: Fn(Self::Item) -> R + Sync + Send,
        R: Try<Output = ()> + Send,
    {
        self.map(op).try_reduce(|| (), |(), ()| R::from_output(()))
    }

    /// The number of items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((0..100).into_par_iter().filter(|i| i % 3 == 0).count(), 34);
    /// ```
    fn count(self) -> usize {
        self.map(|_| 1usize).sum()
    }

    /// Applies `map_op` to every item.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<String> = (1..4i32).into_par_iter().map(|i| i.to_string()).collect();
    /// assert_eq!(v, ["1", "2", "3"]);
    /// ```
    fn map<F, R>(self, map_op: F) -> Map<Self, F>
    where
        F: Fn(Self::Item) -> R + Sync + Send,
        R: Send,
    {
        Map::new(self, map_op)
    }

    /// Applies `map_op` to every item with a clone of `init` per piece.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..4).into_par_iter().map_with(10, |ten, i| *ten + i).collect();
    /// assert_eq!(v, [10, 11, 12, 13]);
    /// ```
    fn map_with<F, T, R>(self, init: T, map_op: F) -> MapWith<Self, T, F>
    where
        F: Fn(&mut T, Self::Item) -> R + Sync + Send,
        T: Send + Clone,
        R: Send,
    {
        MapWith::new(self, init, map_op)
    }

    /// Applies `map_op` to every item with a value `init` makes per piece.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<usize> = (0..4usize).into_par_iter().map_init(Vec::<u8>::new, |buf, i| {
    ///     buf.push(0);
    ///     i
    /// }).collect();
    /// assert_eq!(v, [0, 1, 2, 3]);
    /// ```
    fn map_init<F, INIT, T, R>(self, init: INIT, map_op: F) -> MapInit<Self, INIT, F>
    where
        F: Fn(&mut T, Self::Item) -> R + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
        R: Send,
    {
        MapInit::new(self, init, map_op)
    }

    /// Clones every referenced item.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v = vec![String::from("a")];
    /// let owned: Vec<String> = v.par_iter().cloned().collect();
    /// assert_eq!(owned, v);
    /// ```
    fn cloned<'a, T>(self) -> Cloned<Self>
    where
        T: 'a + Clone + Send,
        Self: ParallelIterator<Item = &'a T>,
    {
        Cloned::new(self)
    }

    /// Copies every referenced item.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v = [1, 2, 3];
    /// let sum: i32 = v.par_iter().copied().sum();
    /// assert_eq!(sum, 6);
    /// ```
    fn copied<'a, T>(self) -> Copied<Self>
    where
        T: 'a + Copy + Send + Sync,
        Self: ParallelIterator<Item = &'a T>,
    {
        Copied::new(self)
    }

    /// Calls `inspect_op` with a reference to every item as it passes.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use rt_par::prelude::*;
    /// let seen = AtomicUsize::new(0);
    /// let n = (0..10).into_par_iter().inspect(|_| { seen.fetch_add(1, Ordering::Relaxed); }).count();
    /// assert_eq!((n, seen.into_inner()), (10, 10));
    /// ```
    fn inspect<OP>(self, inspect_op: OP) -> Inspect<Self, OP>
    where
        OP: Fn(&Self::Item) + Sync + Send,
    {
        Inspect::new(self, inspect_op)
    }

    /// Changes every item in place with `update_op`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..3).into_par_iter().update(|x| *x *= 2).collect();
    /// assert_eq!(v, [0, 2, 4]);
    /// ```
    fn update<F>(self, update_op: F) -> Update<Self, F>
    where
        F: Fn(&mut Self::Item) + Sync + Send,
    {
        Update::new(self, update_op)
    }

    /// Keeps the items for which `filter_op` returns `true`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let odd: Vec<i32> = (0..6).into_par_iter().filter(|x| x % 2 == 1).collect();
    /// assert_eq!(odd, [1, 3, 5]);
    /// ```
    fn filter<P>(self, filter_op: P) -> Filter<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        Filter::new(self, filter_op)
    }

    /// Maps every item to an `Option` and keeps the `Some` values.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let n: Vec<u32> = ["1", "x", "3"].par_iter().filter_map(|s| s.parse().ok()).collect();
    /// assert_eq!(n, [1, 3]);
    /// ```
    fn filter_map<P, R>(self, filter_op: P) -> FilterMap<Self, P>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        FilterMap::new(self, filter_op)
    }

    /// Maps every item to a parallel iterator and yields their items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<u32> = (1..4u32).into_par_iter().flat_map(|i| 0..i).collect();
    /// assert_eq!(v, [0, 0, 1, 0, 1, 2]);
    /// ```
    fn flat_map<F, PI>(self, map_op: F) -> FlatMap<Self, F>
    where
        F: Fn(Self::Item) -> PI + Sync + Send,
        PI: IntoParallelIterator,
    {
        FlatMap::new(self, map_op)
    }

    /// Maps every item to a sequential iterator and yields their items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<u32> = (1..4u32).into_par_iter().flat_map_iter(|i| 0..i).collect();
    /// assert_eq!(v, [0, 0, 1, 0, 1, 2]);
    /// ```
    fn flat_map_iter<F, SI>(self, map_op: F) -> FlatMapIter<Self, F>
    where
        F: Fn(Self::Item) -> SI + Sync + Send,
        SI: IntoIterator,
        SI::Item: Send,
    {
        FlatMapIter::new(self, map_op)
    }

    /// Yields the items of every item (each a parallel iterable).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = vec![vec![1], vec![2, 3]].into_par_iter().flatten().collect();
    /// assert_eq!(v, [1, 2, 3]);
    /// ```
    fn flatten(self) -> Flatten<Self>
    where
        Self::Item: IntoParallelIterator,
    {
        Flatten::new(self)
    }

    /// Yields the items of every item (each a sequential iterable).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = vec![vec![1], vec![2, 3]].into_par_iter().flatten_iter().collect();
    /// assert_eq!(v, [1, 2, 3]);
    /// ```
    fn flatten_iter(self) -> FlattenIter<Self>
    where
        Self::Item: IntoIterator,
        <Self::Item as IntoIterator>::Item: Send,
    {
        FlattenIter::new(self)
    }

    /// Combines all items with `op`, starting every piece from `identity()`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((1..=5).into_par_iter().reduce(|| 1, |a, b| a * b), 120);
    /// ```
    fn reduce<OP, ID>(self, identity: ID, op: OP) -> Self::Item
    where
        OP: Fn(Self::Item, Self::Item) -> Self::Item + Sync + Send,
        ID: Fn() -> Self::Item + Sync + Send,
    {
        reduce::reduce(self, identity, op)
    }

    /// Combines all items with `op`; `None` when there are none.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((1..=4).into_par_iter().reduce_with(|a, b| a + b), Some(10));
    /// ```
    fn reduce_with<OP>(self, op: OP) -> Option<Self::Item>
    where
        OP: Fn(Self::Item, Self::Item) -> Self::Item + Sync + Send,
    {
        self.fold(
            || None,
            |acc, item| match acc {
                Some(a) => Some(op(a, item)),
                None => Some(item),
            },
        )
        .reduce(
            || None,
            |a, b| match (a, b) {
                (Some(a), Some(b)) => Some(op(a, b)),
                (a, None) => a,
                (None, b) => b,
            },
        )
    }

    /// Combines `Ok`/`Some` values with `op` and stops at the first error
    /// (or `None`) seen, which is returned.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let sum = (1..=3i32).into_par_iter().map(Some).try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(sum, Some(6));
    /// ```
    fn try_reduce<T, OP, ID>(self, identity: ID, op: OP) -> Self::Item
    where
        OP: Fn(T, T) -> Self::Item + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        Self::Item: Try<Output = T>,
    {
        reduce::try_reduce(self, identity, op)
    }

    /// Folds each piece into one value, starting from `identity()`: a
    /// parallel iterator of the pieces' values, usually reduced next.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let total: u32 = (1..=10u32).into_par_iter().fold(|| 0, |a, b| a + b).sum();
    /// assert_eq!(total, 55);
    /// ```
    fn fold<T, ID, F>(self, identity: ID, fold_op: F) -> Fold<Self, ID, F>
    where
        F: Fn(T, Self::Item) -> T + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        T: Send,
    {
        Fold::new(self, identity, fold_op)
    }

    /// [`fold`](Self::fold), starting each piece from a clone of `init`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let total: u32 = (1..=10u32).into_par_iter().fold_with(0, |a, b| a + b).sum();
    /// assert_eq!(total, 55);
    /// ```
    fn fold_with<F, T>(self, init: T, fold_op: F) -> FoldWith<Self, T, F>
    where
        F: Fn(T, Self::Item) -> T + Sync + Send,
        T: Send + Clone,
    {
        FoldWith::new(self, init, fold_op)
    }

    /// The sum of the items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((1..=100u64).into_par_iter().sum::<u64>(), 5050);
    /// ```
    fn sum<S>(self) -> S
    where
        S: Send + Sum<Self::Item> + Sum<S>,
    {
        sum::sum(self)
    }

    /// The product of the items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((1..=5u64).into_par_iter().product::<u64>(), 120);
    /// ```
    fn product<P>(self) -> P
    where
        P: Send + Product<Self::Item> + Product<P>,
    {
        sum::product(self)
    }

    /// The least item (any of several equal ones).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([3, 1, 2].par_iter().min(), Some(&1));
    /// ```
    fn min(self) -> Option<Self::Item>
    where
        Self::Item: Ord,
    {
        self.reduce_with(Ord::min)
    }

    /// The least item by `f`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([3, 1, 2].par_iter().min_by(|a, b| b.cmp(a)), Some(&3));
    /// ```
    fn min_by<F>(self, f: F) -> Option<Self::Item>
    where
        F: Sync + Send + Fn(&Self::Item, &Self::Item) -> Ordering,
    {
        self.reduce_with(|a, b| match f(&a, &b) {
            Ordering::Greater => b,
            _ => a,
        })
    }

    /// The item whose key is least.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([-3, 1, 2].par_iter().min_by_key(|x: &&i32| x.abs()), Some(&1));
    /// ```
    fn min_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Sync + Send + Fn(&Self::Item) -> K,
    {
        self.map(|x| (f(&x), x))
            .min_by(|a, b| a.0.cmp(&b.0))
            .map(|(_, x)| x)
    }

    /// The greatest item (any of several equal ones).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([3, 1, 2].par_iter().max(), Some(&3));
    /// ```
    fn max(self) -> Option<Self::Item>
    where
        Self::Item: Ord,
    {
        self.reduce_with(Ord::max)
    }

    /// The greatest item by `f`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([3, 1, 2].par_iter().max_by(|a, b| b.cmp(a)), Some(&1));
    /// ```
    fn max_by<F>(self, f: F) -> Option<Self::Item>
    where
        F: Sync + Send + Fn(&Self::Item, &Self::Item) -> Ordering,
    {
        self.reduce_with(|a, b| match f(&a, &b) {
            Ordering::Greater => a,
            _ => b,
        })
    }

    /// The item whose key is greatest.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([-3, 1, 2].par_iter().max_by_key(|x: &&i32| x.abs()), Some(&-3));
    /// ```
    fn max_by_key<K, F>(self, f: F) -> Option<Self::Item>
    where
        K: Ord + Send,
        F: Sync + Send + Fn(&Self::Item) -> K,
    {
        self.map(|x| (f(&x), x))
            .max_by(|a, b| a.0.cmp(&b.0))
            .map(|(_, x)| x)
    }

    /// `self`'s items, then `chain`'s.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..2).into_par_iter().chain(5..7).collect();
    /// assert_eq!(v, [0, 1, 5, 6]);
    /// ```
    fn chain<C>(self, chain: C) -> Chain<Self, C::Iter>
    where
        C: IntoParallelIterator<Item = Self::Item>,
    {
        Chain::new(self, chain.into_par_iter())
    }

    /// Some item that matches `predicate`, the first one found by any
    /// worker.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((0..100).into_par_iter().find_any(|&x| x == 42), Some(42));
    /// ```
    fn find_any<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        find::find_any(self, &predicate)
    }

    /// The first item in order that matches `predicate`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((0..100).into_par_iter().find_first(|x| x % 7 == 3), Some(3));
    /// ```
    fn find_first<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        find::find_first(self, &predicate)
    }

    /// The last item in order that matches `predicate`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((0..100).into_par_iter().find_last(|x| x % 7 == 3), Some(94));
    /// ```
    fn find_last<P>(self, predicate: P) -> Option<Self::Item>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        find::find_last(self, &predicate)
    }

    /// Some `Some` that `predicate` returns.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let r = ["a", "7"].par_iter().find_map_any(|s| s.parse::<u8>().ok());
    /// assert_eq!(r, Some(7));
    /// ```
    fn find_map_any<P, R>(self, predicate: P) -> Option<R>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.filter_map(predicate).find_any(|_| true)
    }

    /// The first `Some` in order that `predicate` returns.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let r = ["a", "7", "8"].par_iter().find_map_first(|s| s.parse::<u8>().ok());
    /// assert_eq!(r, Some(7));
    /// ```
    fn find_map_first<P, R>(self, predicate: P) -> Option<R>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.filter_map(predicate).find_first(|_| true)
    }

    /// The last `Some` in order that `predicate` returns.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let r = ["a", "7", "8"].par_iter().find_map_last(|s| s.parse::<u8>().ok());
    /// assert_eq!(r, Some(8));
    /// ```
    fn find_map_last<P, R>(self, predicate: P) -> Option<R>
    where
        P: Fn(Self::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.filter_map(predicate).find_last(|_| true)
    }

    /// Whether any item matches `predicate` (stops at the first match).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert!((0..100).into_par_iter().any(|x| x == 99));
    /// ```
    fn any<P>(self, predicate: P) -> bool
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate).find_any(|&p| p).is_some()
    }

    /// Whether every item matches `predicate` (stops at the first miss).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert!((0..100).into_par_iter().all(|x| x < 100));
    /// ```
    fn all<P>(self, predicate: P) -> bool
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate).find_any(|&p| !p).is_none()
    }

    /// The `Some` values, until a `None` is seen (pieces not yet started
    /// then skip theirs).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..10).into_par_iter().map(|x| (x < 3).then_some(x)).while_some().collect();
    /// assert!(v.iter().all(|&x| x < 3));
    /// ```
    fn while_some<T>(self) -> WhileSome<Self>
    where
        Self: ParallelIterator<Item = Option<T>>,
        T: Send,
    {
        WhileSome::new(self)
    }

    /// Calls `op` on every item with a clone of `init` per piece, until one
    /// returns an error (or `None`), which is returned.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let r = (0..10).into_par_iter().try_for_each_with(3, |three, x| if x < *three { Ok(()) } else { Err(x) });
    /// assert!(r.is_err());
    /// ```
    fn try_for_each_with<OP, T, R>(self, init: T, op: OP) -> R
    where
        OP: Fn(&mut T, Self::Item) -> R + Sync + Send,
        T: Send + Clone,
        R: Try<Output = ()> + Send,
    {
        self.map_with(init, op)
            .try_reduce(|| (), |(), ()| R::from_output(()))
    }

    /// Calls `op` on every item with a value `init` makes per piece, until
    /// one returns an error (or `None`), which is returned.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let r: Option<()> = (0..10).into_par_iter().try_for_each_init(|| 5, |five, x| (x < *five * 2).then_some(()));
    /// assert_eq!(r, Some(()));
    /// ```
    fn try_for_each_init<OP, INIT, T, R>(self, init: INIT, op: OP) -> R
    where
        OP: Fn(&mut T, Self::Item) -> R + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
        R: Try<Output = ()> + Send,
    {
        self.map_init(init, op)
            .try_reduce(|| (), |(), ()| R::from_output(()))
    }

    /// Folds each piece while `fold_op` returns `Ok`/`Some`: a parallel
    /// iterator of the pieces' results (the first error of a piece ends it).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let total = (1..=100u32).into_par_iter()
    ///     .try_fold(|| 0u32, |a, x| a.checked_add(x))
    ///     .try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(total, Some(5050));
    /// ```
    fn try_fold<T, R, ID, F>(self, identity: ID, fold_op: F) -> TryFold<Self, R, ID, F>
    where
        F: Fn(T, Self::Item) -> R + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        R: Try<Output = T> + Send,
    {
        TryFold::new(self, identity, fold_op)
    }

    /// [`try_fold`](Self::try_fold), starting each piece from a clone of
    /// `init`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let total = (1..=100u32).into_par_iter()
    ///     .try_fold_with(0u32, |a, x| a.checked_add(x))
    ///     .try_reduce(|| 0, |a, b| a.checked_add(b));
    /// assert_eq!(total, Some(5050));
    /// ```
    fn try_fold_with<F, T, R>(self, init: T, fold_op: F) -> TryFoldWith<Self, R, F>
    where
        F: Fn(T, Self::Item) -> R + Sync + Send,
        R: Try<Output = T> + Send,
        T: Clone + Send + Sync,
    {
        TryFoldWith::new(self, init, fold_op)
    }

    /// `n` items, whichever come first on any worker (not the first `n` in
    /// order: use `take` on an indexed iterator for those).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..100).into_par_iter().take_any(5).collect();
    /// assert_eq!(v.len(), 5);
    /// ```
    fn take_any(self, n: usize) -> TakeAny<Self> {
        TakeAny::new(self, n)
    }

    /// All but `n` items, whichever come first on any worker.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..100).into_par_iter().skip_any(5).collect();
    /// assert_eq!(v.len(), 95);
    /// ```
    fn skip_any(self, n: usize) -> SkipAny<Self> {
        SkipAny::new(self, n)
    }

    /// Items while `predicate` holds; once it fails on any worker, no more
    /// (which of the items before that point come is unspecified).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..100).into_par_iter().take_any_while(|&x| x < 50).collect();
    /// assert!(v.iter().all(|&x| x < 50));
    /// ```
    fn take_any_while<P>(self, predicate: P) -> TakeAnyWhile<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        TakeAnyWhile::new(self, predicate)
    }

    /// Skips items while `predicate` holds; once it fails on any worker,
    /// every item comes.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..100).into_par_iter().skip_any_while(|&x| x < 50).collect();
    /// assert!((50..100).all(|x| v.contains(&x)));
    /// ```
    fn skip_any_while<P>(self, predicate: P) -> SkipAnyWhile<Self, P>
    where
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        SkipAnyWhile::new(self, predicate)
    }

    /// Every piece's items in a `Vec`, the pieces in order in a list (the
    /// cheapest collect when the length is unknown).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let list = (0..100).into_par_iter().filter(|x| x % 2 == 0).collect_vec_list();
    /// assert_eq!(list.into_iter().flatten().count(), 50);
    /// ```
    fn collect_vec_list(self) -> std::collections::LinkedList<Vec<Self::Item>> {
        collect::collect_pieces(self)
    }

    /// The items with a clone of `element` between each two.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = vec![1, 2, 3].into_par_iter().intersperse(0).collect();
    /// assert_eq!(v, [1, 0, 2, 0, 3]);
    /// ```
    fn intersperse(self, element: Self::Item) -> Intersperse<Self>
    where
        Self::Item: Clone,
    {
        Intersperse::new(self, element)
    }

    /// Stops handing out pieces once a closure of this iterator panicked
    /// (the panic still reaches the caller).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((0..10).into_par_iter().panic_fuse().count(), 10);
    /// ```
    fn panic_fuse(self) -> PanicFuse<Self> {
        PanicFuse::new(self)
    }

    /// Builds a collection from the items; ordered collections get the
    /// sequential order.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..5).into_par_iter().filter(|x| x % 2 == 0).collect();
    /// assert_eq!(v, [0, 2, 4]);
    /// let r: Result<Vec<i32>, String> = (0..3).into_par_iter().map(Ok).collect();
    /// assert_eq!(r, Ok(vec![0, 1, 2]));
    /// ```
    fn collect<C>(self) -> C
    where
        C: FromParallelIterator<Self::Item>,
    {
        C::from_par_iter(self)
    }

    /// Splits pairs into two collections.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let (a, b): (Vec<i32>, Vec<i32>) = (0..3i32).into_par_iter().map(|i| (i, -i)).unzip();
    /// assert_eq!((a, b), (vec![0, 1, 2], vec![0, -1, -2]));
    /// ```
    fn unzip<A, B, FromA, FromB>(self) -> (FromA, FromB)
    where
        Self: ParallelIterator<Item = (A, B)>,
        FromA: Default + Send + ParallelExtend<A>,
        FromB: Default + Send + ParallelExtend<B>,
        A: Send,
        B: Send,
    {
        unzip::unzip(self)
    }

    /// Splits the items by `predicate`: matches first.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let (even, odd): (Vec<i32>, Vec<i32>) = (0..6).into_par_iter().partition(|x| x % 2 == 0);
    /// assert_eq!((even, odd), (vec![0, 2, 4], vec![1, 3, 5]));
    /// ```
    fn partition<A, B, P>(self, predicate: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<Self::Item>,
        B: Default + Send + ParallelExtend<Self::Item>,
        P: Fn(&Self::Item) -> bool + Sync + Send,
    {
        self.partition_map(|x| {
            if predicate(&x) {
                Either::Left(x)
            } else {
                Either::Right(x)
            }
        })
    }

    /// Maps the items to [`Either`] and splits them by side.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// use rt_par::iter::Either;
    /// let (n, s): (Vec<i32>, Vec<String>) = (0..4i32).into_par_iter()
    ///     .partition_map(|x| if x < 2 { Either::Left(x) } else { Either::Right(x.to_string()) });
    /// assert_eq!((n, s), (vec![0, 1], vec!["2".to_string(), "3".to_string()]));
    /// ```
    fn partition_map<A, B, P, L, R>(self, predicate: P) -> (A, B)
    where
        A: Default + Send + ParallelExtend<L>,
        B: Default + Send + ParallelExtend<R>,
        P: Fn(Self::Item) -> Either<L, R> + Sync + Send,
        L: Send,
        R: Send,
    {
        unzip::partition_map(self, predicate)
    }

    /// Runs the pieces this iterator hands to other workers at `priority`
    /// (the calling thread may run pieces itself, as `join` does); indexed
    /// iterators stay indexed. Beyond rayon (through rt-core's
    /// `with_priority`). A task of a more urgent class queued meanwhile
    /// waits at most for the chunk of items (about 20 µs, at least one
    /// item) each worker is folding, not for the iterator to end (see the
    /// crate docs, "Beyond rayon").
    ///
    /// ```
    /// use rt_core::Priority;
    /// use rt_par::prelude::*;
    /// let v: Vec<u32> = (0..4u32).into_par_iter().with_priority(Priority::Background).map(|x| x * 2).collect();
    /// assert_eq!(v, [0, 2, 4, 6]);
    /// ```
    fn with_priority(self, priority: Priority) -> WithPriority<Self> {
        WithPriority::new(self, priority)
    }

    /// Stops early once `token` is cancelled, and says so: the terminal
    /// operations of the [`WithCancellation`] it returns (`for_each`,
    /// `count`, `sum`, `collect`, ...) give `Ok(value)` when every item
    /// went into the value and `Err(Cancelled)` when a worker found the
    /// token cancelled before its part of the work ended (pieces not yet
    /// started are then skipped, running ones stop at their next item, and
    /// the partial value is dropped). Put it right before the terminal
    /// operation. Beyond rayon.
    ///
    /// ```
    /// use rt_core::CancellationToken;
    /// use rt_par::prelude::*;
    /// use rt_par::Cancelled;
    ///
    /// let token = CancellationToken::new();
    /// let n = (0..1_000_000).into_par_iter().with_cancellation(&token).count();
    /// assert_eq!(n, Ok(1_000_000));
    /// token.cancel();
    /// let n = (0..1_000_000).into_par_iter().with_cancellation(&token).count();
    /// assert_eq!(n, Err(Cancelled));
    /// ```
    fn with_cancellation(self, token: &CancellationToken) -> WithCancellation<Self> {
        WithCancellation::new(self, token.clone())
    }
}

/// A parallel iterator whose length is known and whose items have indices:
/// it can split anywhere, zip, enumerate, reverse (rayon's
/// `IndexedParallelIterator`).
///
/// ```
/// use rt_par::prelude::*;
/// let v: Vec<(usize, char)> = ['a', 'b'].par_iter().copied().enumerate().collect();
/// assert_eq!(v, [(0, 'a'), (1, 'b')]);
/// ```
// rayon's trait has `len` and no `is_empty`; so has this one, so that the
// same code compiles against both.
#[allow(clippy::len_without_is_empty)]
pub trait IndexedParallelIterator: ParallelIterator {
    /// Feeds every item to `consumer`, which may split at any index.
    fn drive<C>(self, consumer: C) -> C::Result
    where
        C: Consumer<Self::Item>;

    /// The number of items.
    fn len(&self) -> usize;

    /// Calls `callback` with this iterator's producer.
    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>;

    /// Collects into `target`, replacing what it held, writing every item
    /// straight into its place.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let mut v = vec![9; 2];
    /// (0..4).into_par_iter().collect_into_vec(&mut v);
    /// assert_eq!(v, [0, 1, 2, 3]);
    /// ```
    fn collect_into_vec(self, target: &mut Vec<Self::Item>) {
        collect::collect_into_vec(self, target)
    }

    /// Pairs items with `zip_op`'s, up to the shorter length.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<(i32, char)> = (0..5).into_par_iter().zip(['a', 'b']).collect();
    /// assert_eq!(v, [(0, 'a'), (1, 'b')]);
    /// ```
    fn zip<Z>(self, zip_op: Z) -> Zip<Self, Z::Iter>
    where
        Z: IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        Zip::new(self, zip_op.into_par_iter())
    }

    /// Pairs items with `zip_op`'s, which must be as many (panics if not).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let n = (0..2).into_par_iter().zip_eq(vec![5, 6]).count();
    /// assert_eq!(n, 2);
    /// ```
    #[track_caller]
    fn zip_eq<Z>(self, zip_op: Z) -> ZipEq<Self, Z::Iter>
    where
        Z: IntoParallelIterator,
        Z::Iter: IndexedParallelIterator,
    {
        let other = zip_op.into_par_iter();
        assert_eq!(
            self.len(),
            other.len(),
            "iterators must have the same length"
        );
        ZipEq::new(self, other)
    }

    /// Pairs every item with its index.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<(usize, i32)> = (5..7).into_par_iter().enumerate().collect();
    /// assert_eq!(v, [(0, 5), (1, 6)]);
    /// ```
    fn enumerate(self) -> Enumerate<Self> {
        Enumerate::new(self)
    }

    /// Every `step`th item, from the first.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..10).into_par_iter().step_by(4).collect();
    /// assert_eq!(v, [0, 4, 8]);
    /// ```
    fn step_by(self, step: usize) -> StepBy<Self> {
        StepBy::new(self, step)
    }

    /// All but the first `n` items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..5).into_par_iter().skip(3).collect();
    /// assert_eq!(v, [3, 4]);
    /// ```
    fn skip(self, n: usize) -> Skip<Self> {
        Skip::new(self, n)
    }

    /// The first `n` items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..5).into_par_iter().take(2).collect();
    /// assert_eq!(v, [0, 1]);
    /// ```
    fn take(self, n: usize) -> Take<Self> {
        Take::new(self, n)
    }

    /// The items in reverse order.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = (0..3).into_par_iter().rev().collect();
    /// assert_eq!(v, [2, 1, 0]);
    /// ```
    fn rev(self) -> Rev<Self> {
        Rev::new(self)
    }

    /// The items in `Vec`s of `chunk_size` (the last may be shorter).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<Vec<i32>> = (0..5).into_par_iter().chunks(2).collect();
    /// assert_eq!(v, [vec![0, 1], vec![2, 3], vec![4]]);
    /// ```
    fn chunks(self, chunk_size: usize) -> Chunks<Self> {
        assert!(chunk_size != 0, "chunk_size must not be zero");
        Chunks::new(self, chunk_size)
    }

    /// Never splits into pieces of fewer than `min` items (unless there
    /// are fewer in all).
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let pieces = (0..100).into_par_iter().with_min_len(50).fold(|| 0, |n, _| n + 1).count();
    /// assert!(pieces <= 2);
    /// ```
    fn with_min_len(self, min: usize) -> MinLen<Self> {
        MinLen::new(self, min)
    }

    /// Splits until every piece has at most `max` items.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let all_small = (0..100).into_par_iter().with_max_len(10).fold(|| 0, |n, _| n + 1).all(|n| n <= 10);
    /// assert!(all_small);
    /// ```
    fn with_max_len(self, max: usize) -> MaxLen<Self> {
        MaxLen::new(self, max)
    }

    /// Compares with `other` lexicographically (by `Ord`), in parallel.
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// use rt_par::prelude::*;
    /// assert_eq!((0..10).into_par_iter().cmp(0..9), Ordering::Greater);
    /// ```
    fn cmp<I>(self, other: I) -> Ordering
    where
        I: IntoParallelIterator<Item = Self::Item>,
        I::Iter: IndexedParallelIterator,
        Self::Item: Ord,
    {
        let other = other.into_par_iter();
        let by_length = self.len().cmp(&other.len());
        self.zip(other)
            .map(|(a, b)| Ord::cmp(&a, &b))
            .find_first(|&order| order != Ordering::Equal)
            .unwrap_or(by_length)
    }

    /// Compares with `other` lexicographically (by `PartialOrd`).
    ///
    /// ```
    /// use std::cmp::Ordering;
    /// use rt_par::prelude::*;
    /// assert_eq!([1.0, 2.0].par_iter().partial_cmp(&[1.0, 3.0]), Some(Ordering::Less));
    /// ```
    fn partial_cmp<I>(self, other: I) -> Option<Ordering>
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        let other = other.into_par_iter();
        let by_length = self.len().cmp(&other.len());
        self.zip(other)
            .map(|(a, b)| PartialOrd::partial_cmp(&a, &b))
            .find_first(|&order| order != Some(Ordering::Equal))
            .unwrap_or(Some(by_length))
    }

    /// Whether the items equal `other`'s.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert!((0..3).into_par_iter().eq(vec![0, 1, 2]));
    /// ```
    fn eq<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialEq<I::Item>,
    {
        let other = other.into_par_iter();
        self.len() == other.len() && self.zip(other).all(|(a, b)| a.eq(&b))
    }

    /// Whether the items differ from `other`'s.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert!((0..3).into_par_iter().ne(0..4));
    /// ```
    fn ne<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialEq<I::Item>,
    {
        !self.eq(other)
    }

    /// Whether the items are lexicographically less than `other`'s.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert!((0..3).into_par_iter().lt(0..4));
    /// ```
    fn lt<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        self.partial_cmp(other) == Some(Ordering::Less)
    }

    /// Whether the items are lexicographically less than or equal to
    /// `other`'s.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert!((0..3).into_par_iter().le(0..3));
    /// ```
    fn le<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        matches!(
            self.partial_cmp(other),
            Some(Ordering::Less | Ordering::Equal)
        )
    }

    /// Whether the items are lexicographically greater than `other`'s.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert!((0..4).into_par_iter().gt(0..3));
    /// ```
    fn gt<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        self.partial_cmp(other) == Some(Ordering::Greater)
    }

    /// Whether the items are lexicographically greater than or equal to
    /// `other`'s.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert!((0..3).into_par_iter().ge(0..3));
    /// ```
    fn ge<I>(self, other: I) -> bool
    where
        I: IntoParallelIterator,
        I::Iter: IndexedParallelIterator,
        Self::Item: PartialOrd<I::Item>,
    {
        matches!(
            self.partial_cmp(other),
            Some(Ordering::Greater | Ordering::Equal)
        )
    }

    /// Splits pairs into two vectors, replacing what they held.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let (mut a, mut b) = (vec![], vec![]);
    /// (0..3).into_par_iter().map(|i| (i, i * 2)).unzip_into_vecs(&mut a, &mut b);
    /// assert_eq!((a, b), (vec![0, 1, 2], vec![0, 2, 4]));
    /// ```
    fn unzip_into_vecs<A, B>(self, left: &mut Vec<A>, right: &mut Vec<B>)
    where
        Self: IndexedParallelIterator<Item = (A, B)>,
        A: Send,
        B: Send,
    {
        let (a, b): (Vec<A>, Vec<B>) = self.unzip();
        *left = a;
        *right = b;
    }

    /// Items taken in turn from `self` and `other`, then the rest of the
    /// longer.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = vec![1, 2, 3].into_par_iter().interleave(vec![-1, -2]).collect();
    /// assert_eq!(v, [1, -1, 2, -2, 3]);
    /// ```
    fn interleave<I>(self, other: I) -> Interleave<Self, I::Iter>
    where
        I: IntoParallelIterator<Item = Self::Item>,
        I::Iter: IndexedParallelIterator<Item = Self::Item>,
    {
        Interleave::new(self, other.into_par_iter())
    }

    /// Items taken in turn from `self` and `other`, until the one whose
    /// turn it is runs out.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let v: Vec<i32> = vec![1, 2, 3].into_par_iter().interleave_shortest(vec![-1]).collect();
    /// assert_eq!(v, [1, -1, 2]);
    /// ```
    fn interleave_shortest<I>(self, other: I) -> InterleaveShortest<Self, I::Iter>
    where
        I: IntoParallelIterator<Item = Self::Item>,
        I::Iter: IndexedParallelIterator<Item = Self::Item>,
    {
        InterleaveShortest::new(self, other.into_par_iter())
    }

    /// Runs the items in blocks that double in size, one block after the
    /// other, each in parallel: a search that ends early never starts far
    /// ahead of its match.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((0..1_000_000).into_par_iter().by_exponential_blocks().find_first(|&x| x == 10), Some(10));
    /// ```
    fn by_exponential_blocks(self) -> ExponentialBlocks<Self> {
        ExponentialBlocks::new(self)
    }

    /// Runs the items in blocks of `block_size`, one block after the other,
    /// each in parallel.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((0..1000).into_par_iter().by_uniform_blocks(100).sum::<i32>(), 499_500);
    /// ```
    fn by_uniform_blocks(self, block_size: usize) -> UniformBlocks<Self> {
        UniformBlocks::new(self, block_size)
    }

    /// The indices of the items that match `predicate`, in order.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let p: Vec<usize> = [1, 2, 3, 4, 6].par_iter().positions(|x| x % 2 == 0).collect();
    /// assert_eq!(p, [1, 3, 4]);
    /// ```
    fn positions<P>(self, predicate: P) -> Positions<Self, P>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        Positions::new(self, predicate)
    }

    /// Every `chunk_size` consecutive items folded into one value, from
    /// `identity()`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let sums: Vec<i32> = (1..=7).into_par_iter().fold_chunks(3, || 0, |a, x| a + x).collect();
    /// assert_eq!(sums, [6, 15, 7]);
    /// ```
    fn fold_chunks<T, ID, F>(
        self,
        chunk_size: usize,
        identity: ID,
        fold_op: F,
    ) -> FoldChunks<Self, ID, F>
    where
        ID: Fn() -> T + Send + Sync,
        F: Fn(T, Self::Item) -> T + Send + Sync,
        T: Send,
    {
        FoldChunks::new(self, chunk_size, identity, fold_op)
    }

    /// Every `chunk_size` consecutive items folded into one value, from a
    /// clone of `init`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// let sums: Vec<i32> = (1..=7).into_par_iter().fold_chunks_with(3, 0, |a, x| a + x).collect();
    /// assert_eq!(sums, [6, 15, 7]);
    /// ```
    fn fold_chunks_with<T, F>(
        self,
        chunk_size: usize,
        init: T,
        fold_op: F,
    ) -> FoldChunksWith<Self, T, F>
    where
        T: Send + Clone + Sync,
        F: Fn(T, Self::Item) -> T + Send + Sync,
    {
        FoldChunksWith::new(self, chunk_size, init, fold_op)
    }

    /// The index of some item that matches `predicate`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!((0..10).into_par_iter().position_any(|x| x == 4), Some(4));
    /// ```
    fn position_any<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate)
            .enumerate()
            .find_any(|&(_, p)| p)
            .map(|(i, _)| i)
    }

    /// The index of the first item that matches `predicate`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([1, 3, 4, 6].par_iter().position_first(|x| x % 2 == 0), Some(2));
    /// ```
    fn position_first<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate)
            .enumerate()
            .find_first(|&(_, p)| p)
            .map(|(i, _)| i)
    }

    /// The index of the last item that matches `predicate`.
    ///
    /// ```
    /// use rt_par::prelude::*;
    /// assert_eq!([1, 3, 4, 6].par_iter().position_last(|x| x % 2 == 0), Some(3));
    /// ```
    fn position_last<P>(self, predicate: P) -> Option<usize>
    where
        P: Fn(Self::Item) -> bool + Sync + Send,
    {
        self.map(predicate)
            .enumerate()
            .find_last(|&(_, p)| p)
            .map(|(i, _)| i)
    }
}
