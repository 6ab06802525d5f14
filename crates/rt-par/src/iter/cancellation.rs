//! `with_cancellation`: a parallel iterator that a token stops early, and
//! whose result says whether it did.
//!
//! [`ParallelIterator::with_cancellation`] returns a [`WithCancellation`],
//! which is not itself a parallel iterator: its methods are the terminal
//! operations (`for_each`, `count`, `sum`, `collect`, ...), each returning
//! `Result<_, Cancelled>`, and [`run`](WithCancellation::run) for any
//! other. They drive the iterator through [`UntilCancelled`], whose
//! consumer is full once the token is cancelled: pieces not yet started
//! are skipped and running ones stop at their next item. Every check that
//! finds the token cancelled sets a flag on the caller's stack; the
//! operation returns `Err(Cancelled)` if the flag is set when it ends,
//! the value otherwise. A value is thus only ever one that every item
//! went into.

use std::cmp::Ordering as CmpOrdering;
use std::collections::LinkedList;
use std::iter::{Product, Sum};
use std::sync::atomic::{AtomicBool, Ordering};

use rt_core::CancellationToken;

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::try_op::Try;
use super::{Either, FromParallelIterator, ParallelExtend, ParallelIterator};

/// The error of a parallel iterator that its token stopped
/// ([`ParallelIterator::with_cancellation`]): some items were skipped, so
/// the result, which would lack them, is not returned.
///
/// ```
/// use rt_core::CancellationToken;
/// use rt_par::prelude::*;
/// use rt_par::Cancelled;
///
/// let token = CancellationToken::new();
/// token.cancel();
/// let n = (0..1_000).into_par_iter().with_cancellation(&token).count();
/// assert_eq!(n, Err(Cancelled));
/// assert_eq!(Cancelled.to_string(), "the parallel iterator was cancelled before it finished");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the parallel iterator was cancelled before it finished")
    }
}

impl std::error::Error for Cancelled {}

/// A parallel iterator and the token that stops it, from
/// [`ParallelIterator::with_cancellation`]: its terminal operations return
/// `Err(Cancelled)` when a worker found the token cancelled before its
/// part of the work ended (the partial value is then dropped), and
/// `Ok(value)` otherwise, when every item went into the value. A token
/// cancelled before the call gives `Err(Cancelled)` without running
/// anything; one cancelled after the last check gives `Ok`.
///
/// Put it last, right before the terminal operation: adapters before it
/// (`map`, `filter`, ...) stop as promptly as they would after it, since
/// the check is in the consumer every item flows into. For an operation
/// not listed here, [`run`](Self::run) hands over the iterator.
///
/// ```
/// use rt_core::CancellationToken;
/// use rt_par::prelude::*;
///
/// let token = CancellationToken::new();
/// let sum = (0..1_000u64).into_par_iter().map(|x| x * 2).with_cancellation(&token).sum::<u64>();
/// assert_eq!(sum, Ok(999_000));
///
/// let stopped = (0..u64::MAX)
///     .into_par_iter()
///     .map(|i| {
///         if i == 1_000 {
///             token.cancel();
///         }
///         i
///     })
///     .with_cancellation(&token)
///     .count();
/// assert_eq!(stopped, Err(rt_par::Cancelled));
/// ```
#[derive(Debug, Clone)]
#[must_use = "a parallel iterator does nothing until a terminal operation runs it"]
pub struct WithCancellation<I> {
    base: I,
    token: CancellationToken,
}

impl<I: ParallelIterator> WithCancellation<I> {
    pub(crate) fn new(base: I, token: CancellationToken) -> Self {
        WithCancellation { base, token }
    }

    /// Runs `op` on the iterator, stopped early once the token is
    /// cancelled: `Err(Cancelled)` if a check found the token cancelled,
    /// else `Ok(op's value)`. For operations without a method here, or
    /// adapters after the check.
    ///
    /// ```
    /// use rt_core::CancellationToken;
    /// use rt_par::prelude::*;
    ///
    /// let token = CancellationToken::new();
    /// let v = vec![3, 1, 2];
    /// let longest = v.par_iter().with_cancellation(&token).run(|it| it.map(|x| x * 10).max());
    /// assert_eq!(longest, Ok(Some(30)));
    /// ```
    pub fn run<R>(
        self,
        op: impl for<'a> FnOnce(UntilCancelled<'a, I>) -> R,
    ) -> Result<R, Cancelled> {
        if self.token.is_cancelled() {
            return Err(Cancelled);
        }
        let stopped = AtomicBool::new(false);
        let value = op(UntilCancelled {
            base: self.base,
            check: Check {
                token: &self.token,
                stopped: &stopped,
            },
        });
        // Relaxed: every check that stored `true` ran in a piece that the
        // operation joined before it returned, and a join orders all that
        // the joined piece did before what follows it.
        if stopped.load(Ordering::Relaxed) {
            Err(Cancelled)
        } else {
            Ok(value)
        }
    }

    /// [`ParallelIterator::for_each`], or `Err(Cancelled)`.
    pub fn for_each<OP>(self, op: OP) -> Result<(), Cancelled>
    where
        OP: Fn(I::Item) + Sync + Send,
    {
        self.run(|it| it.for_each(op))
    }

    /// [`ParallelIterator::for_each_with`], or `Err(Cancelled)`.
    pub fn for_each_with<OP, T>(self, init: T, op: OP) -> Result<(), Cancelled>
    where
        OP: Fn(&mut T, I::Item) + Sync + Send,
        T: Send + Clone,
    {
        self.run(|it| it.for_each_with(init, op))
    }

    /// [`ParallelIterator::for_each_init`], or `Err(Cancelled)`.
    pub fn for_each_init<OP, INIT, T>(self, init: INIT, op: OP) -> Result<(), Cancelled>
    where
        OP: Fn(&mut T, I::Item) + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
    {
        self.run(|it| it.for_each_init(init, op))
    }

    /// [`ParallelIterator::try_for_each`], or `Err(Cancelled)`.
    pub fn try_for_each<OP, R>(self, op: OP) -> Result<R, Cancelled>
    where
        OP: Fn(I::Item) -> R + Sync + Send,
        R: Try<Output = ()> + Send,
    {
        self.run(|it| it.try_for_each(op))
    }

    /// [`ParallelIterator::try_for_each_with`], or `Err(Cancelled)`.
    pub fn try_for_each_with<OP, T, R>(self, init: T, op: OP) -> Result<R, Cancelled>
    where
        OP: Fn(&mut T, I::Item) -> R + Sync + Send,
        T: Send + Clone,
        R: Try<Output = ()> + Send,
    {
        self.run(|it| it.try_for_each_with(init, op))
    }

    /// [`ParallelIterator::try_for_each_init`], or `Err(Cancelled)`.
    pub fn try_for_each_init<OP, INIT, T, R>(self, init: INIT, op: OP) -> Result<R, Cancelled>
    where
        OP: Fn(&mut T, I::Item) -> R + Sync + Send,
        INIT: Fn() -> T + Sync + Send,
        R: Try<Output = ()> + Send,
    {
        self.run(|it| it.try_for_each_init(init, op))
    }

    /// [`ParallelIterator::count`], or `Err(Cancelled)`.
    pub fn count(self) -> Result<usize, Cancelled> {
        self.run(|it| it.count())
    }

    /// [`ParallelIterator::reduce`], or `Err(Cancelled)`.
    pub fn reduce<OP, ID>(self, identity: ID, op: OP) -> Result<I::Item, Cancelled>
    where
        OP: Fn(I::Item, I::Item) -> I::Item + Sync + Send,
        ID: Fn() -> I::Item + Sync + Send,
    {
        self.run(|it| it.reduce(identity, op))
    }

    /// [`ParallelIterator::reduce_with`], or `Err(Cancelled)`.
    pub fn reduce_with<OP>(self, op: OP) -> Result<Option<I::Item>, Cancelled>
    where
        OP: Fn(I::Item, I::Item) -> I::Item + Sync + Send,
    {
        self.run(|it| it.reduce_with(op))
    }

    /// [`ParallelIterator::try_reduce`], or `Err(Cancelled)`.
    pub fn try_reduce<T, OP, ID>(self, identity: ID, op: OP) -> Result<I::Item, Cancelled>
    where
        OP: Fn(T, T) -> I::Item + Sync + Send,
        ID: Fn() -> T + Sync + Send,
        I::Item: Try<Output = T>,
    {
        self.run(|it| it.try_reduce(identity, op))
    }

    /// [`ParallelIterator::sum`], or `Err(Cancelled)`.
    pub fn sum<S>(self) -> Result<S, Cancelled>
    where
        S: Send + Sum<I::Item> + Sum<S>,
    {
        self.run(|it| it.sum())
    }

    /// [`ParallelIterator::product`], or `Err(Cancelled)`.
    pub fn product<P>(self) -> Result<P, Cancelled>
    where
        P: Send + Product<I::Item> + Product<P>,
    {
        self.run(|it| it.product())
    }

    /// [`ParallelIterator::min`], or `Err(Cancelled)`.
    pub fn min(self) -> Result<Option<I::Item>, Cancelled>
    where
        I::Item: Ord,
    {
        self.run(|it| it.min())
    }

    /// [`ParallelIterator::min_by`], or `Err(Cancelled)`.
    pub fn min_by<F>(self, f: F) -> Result<Option<I::Item>, Cancelled>
    where
        F: Sync + Send + Fn(&I::Item, &I::Item) -> CmpOrdering,
    {
        self.run(|it| it.min_by(f))
    }

    /// [`ParallelIterator::min_by_key`], or `Err(Cancelled)`.
    pub fn min_by_key<K, F>(self, f: F) -> Result<Option<I::Item>, Cancelled>
    where
        K: Ord + Send,
        F: Sync + Send + Fn(&I::Item) -> K,
    {
        self.run(|it| it.min_by_key(f))
    }

    /// [`ParallelIterator::max`], or `Err(Cancelled)`.
    pub fn max(self) -> Result<Option<I::Item>, Cancelled>
    where
        I::Item: Ord,
    {
        self.run(|it| it.max())
    }

    /// [`ParallelIterator::max_by`], or `Err(Cancelled)`.
    pub fn max_by<F>(self, f: F) -> Result<Option<I::Item>, Cancelled>
    where
        F: Sync + Send + Fn(&I::Item, &I::Item) -> CmpOrdering,
    {
        self.run(|it| it.max_by(f))
    }

    /// [`ParallelIterator::max_by_key`], or `Err(Cancelled)`.
    pub fn max_by_key<K, F>(self, f: F) -> Result<Option<I::Item>, Cancelled>
    where
        K: Ord + Send,
        F: Sync + Send + Fn(&I::Item) -> K,
    {
        self.run(|it| it.max_by_key(f))
    }

    /// [`ParallelIterator::find_any`], or `Err(Cancelled)`.
    pub fn find_any<P>(self, predicate: P) -> Result<Option<I::Item>, Cancelled>
    where
        P: Fn(&I::Item) -> bool + Sync + Send,
    {
        self.run(|it| it.find_any(predicate))
    }

    /// [`ParallelIterator::find_first`], or `Err(Cancelled)`.
    pub fn find_first<P>(self, predicate: P) -> Result<Option<I::Item>, Cancelled>
    where
        P: Fn(&I::Item) -> bool + Sync + Send,
    {
        self.run(|it| it.find_first(predicate))
    }

    /// [`ParallelIterator::find_last`], or `Err(Cancelled)`.
    pub fn find_last<P>(self, predicate: P) -> Result<Option<I::Item>, Cancelled>
    where
        P: Fn(&I::Item) -> bool + Sync + Send,
    {
        self.run(|it| it.find_last(predicate))
    }

    /// [`ParallelIterator::find_map_any`], or `Err(Cancelled)`.
    pub fn find_map_any<P, R>(self, predicate: P) -> Result<Option<R>, Cancelled>
    where
        P: Fn(I::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.run(|it| it.find_map_any(predicate))
    }

    /// [`ParallelIterator::find_map_first`], or `Err(Cancelled)`.
    pub fn find_map_first<P, R>(self, predicate: P) -> Result<Option<R>, Cancelled>
    where
        P: Fn(I::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.run(|it| it.find_map_first(predicate))
    }

    /// [`ParallelIterator::find_map_last`], or `Err(Cancelled)`.
    pub fn find_map_last<P, R>(self, predicate: P) -> Result<Option<R>, Cancelled>
    where
        P: Fn(I::Item) -> Option<R> + Sync + Send,
        R: Send,
    {
        self.run(|it| it.find_map_last(predicate))
    }

    /// [`ParallelIterator::any`], or `Err(Cancelled)`.
    pub fn any<P>(self, predicate: P) -> Result<bool, Cancelled>
    where
        P: Fn(I::Item) -> bool + Sync + Send,
    {
        self.run(|it| it.any(predicate))
    }

    /// [`ParallelIterator::all`], or `Err(Cancelled)`.
    pub fn all<P>(self, predicate: P) -> Result<bool, Cancelled>
    where
        P: Fn(I::Item) -> bool + Sync + Send,
    {
        self.run(|it| it.all(predicate))
    }

    /// [`ParallelIterator::collect`], or `Err(Cancelled)` (what was
    /// gathered so far is dropped).
    pub fn collect<C>(self) -> Result<C, Cancelled>
    where
        C: FromParallelIterator<I::Item>,
    {
        self.run(|it| it.collect())
    }

    /// [`ParallelIterator::collect_vec_list`], or `Err(Cancelled)`.
    pub fn collect_vec_list(self) -> Result<LinkedList<Vec<I::Item>>, Cancelled> {
        self.run(|it| it.collect_vec_list())
    }

    /// [`ParallelIterator::unzip`], or `Err(Cancelled)`.
    pub fn unzip<A, B, FromA, FromB>(self) -> Result<(FromA, FromB), Cancelled>
    where
        I: ParallelIterator<Item = (A, B)>,
        FromA: Default + Send + ParallelExtend<A>,
        FromB: Default + Send + ParallelExtend<B>,
        A: Send,
        B: Send,
    {
        self.run(|it| it.unzip())
    }

    /// [`ParallelIterator::partition`], or `Err(Cancelled)`.
    pub fn partition<A, B, P>(self, predicate: P) -> Result<(A, B), Cancelled>
    where
        A: Default + Send + ParallelExtend<I::Item>,
        B: Default + Send + ParallelExtend<I::Item>,
        P: Fn(&I::Item) -> bool + Sync + Send,
    {
        self.run(|it| it.partition(predicate))
    }

    /// [`ParallelIterator::partition_map`], or `Err(Cancelled)`.
    pub fn partition_map<A, B, P, L, R>(self, predicate: P) -> Result<(A, B), Cancelled>
    where
        A: Default + Send + ParallelExtend<L>,
        B: Default + Send + ParallelExtend<R>,
        P: Fn(I::Item) -> Either<L, R> + Sync + Send,
        L: Send,
        R: Send,
    {
        self.run(|it| it.partition_map(predicate))
    }
}

/// The iterator that [`WithCancellation::run`] hands to its operation: the
/// base iterator, stopped early once the token is cancelled. It lives only
/// inside `run`, which tells from it whether anything was stopped.
#[derive(Debug)]
pub struct UntilCancelled<'a, I> {
    base: I,
    check: Check<'a>,
}

impl<I: ParallelIterator> ParallelIterator for UntilCancelled<'_, I> {
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        self.base.drive_unindexed(Stoppable {
            base: consumer,
            check: self.check,
        })
    }
}

/// The token, and where a check that finds it cancelled records so.
#[derive(Debug, Clone, Copy)]
struct Check<'a> {
    token: &'a CancellationToken,
    stopped: &'a AtomicBool,
}

impl Check<'_> {
    /// True if the token is cancelled, which is recorded: whoever asks
    /// stops or skips work because of it.
    fn cancelled(self) -> bool {
        let cancelled = self.token.is_cancelled();
        if cancelled {
            self.stopped.store(true, Ordering::Relaxed);
        }
        cancelled
    }
}

/// Consumer and folder: full once the token is cancelled.
struct Stoppable<'a, C> {
    base: C,
    check: Check<'a>,
}

impl<'a, T, C: Consumer<T>> Consumer<T> for Stoppable<'a, C> {
    type Folder = Stoppable<'a, C::Folder>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let check = self.check;
        (
            Stoppable { base: left, check },
            Stoppable { base: right, check },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        Stoppable {
            base: self.base.into_folder(),
            check: self.check,
        }
    }

    /// The base first: a consumer full of its own accord (a `find_any`
    /// that found) has its answer, whatever the token says.
    fn full(&self) -> bool {
        self.base.full() || self.check.cancelled()
    }

    fn front_first(&self) -> bool {
        self.base.front_first()
    }
}

impl<T, C: UnindexedConsumer<T>> UnindexedConsumer<T> for Stoppable<'_, C> {
    fn split_off_left(&self) -> Self {
        Stoppable {
            base: self.base.split_off_left(),
            check: self.check,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T, F: Folder<T>> Folder<T> for Stoppable<'_, F> {
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        self.base = self.base.consume(item);
        self
    }

    fn consume_iter<It>(mut self, iter: It) -> Self
    where
        It: IntoIterator<Item = T>,
    {
        let check = self.check;
        self.base = self
            .base
            .consume_iter(iter.into_iter().take_while(|_| !check.cancelled()));
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full() || self.check.cancelled()
    }
}
