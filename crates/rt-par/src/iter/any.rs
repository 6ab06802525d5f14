//! `take_any`, `skip_any`, `take_any_while` and `skip_any_while`: which
//! items pass is decided as they come, on whichever worker, through a
//! shared count or flag, so the result holds the right number of items (or
//! stops at the right kind of item) but not in any particular order.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::plumbing::{Consumer, Folder, UnindexedConsumer};
use super::ParallelIterator;

/// What happens to an item.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Admission {
    Take,
    Skip,
    /// Skip it, and every item after it.
    Stop,
}

/// Wraps a consumer: passes on the items `admit` takes.
struct Admit<'a, C, A> {
    base: C,
    admit: &'a A,
    stopped: &'a AtomicBool,
}

impl<'a, T, C: Consumer<T>, A: Fn(&T) -> Admission + Sync> Consumer<T> for Admit<'a, C, A> {
    type Folder = Admit<'a, C::Folder, A>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let (admit, stopped) = (self.admit, self.stopped);
        let left = Admit {
            base: left,
            admit,
            stopped,
        };
        let right = Admit {
            base: right,
            admit,
            stopped,
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        Admit {
            base: self.base.into_folder(),
            admit: self.admit,
            stopped: self.stopped,
        }
    }

    fn full(&self) -> bool {
        self.stopped.load(Ordering::Relaxed) || self.base.full()
    }

    fn front_first(&self) -> bool {
        self.base.front_first()
    }
}

impl<T, C: UnindexedConsumer<T>, A: Fn(&T) -> Admission + Sync> UnindexedConsumer<T>
    for Admit<'_, C, A>
{
    fn split_off_left(&self) -> Self {
        Admit {
            base: self.base.split_off_left(),
            admit: self.admit,
            stopped: self.stopped,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T, F: Folder<T>, A: Fn(&T) -> Admission> Folder<T> for Admit<'_, F, A> {
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        match (self.admit)(&item) {
            Admission::Take => self.base = self.base.consume(item),
            Admission::Skip => {}
            Admission::Stop => self.stopped.store(true, Ordering::Relaxed),
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

fn drive_admitted<I, C, A>(base: I, consumer: C, admit: &A) -> C::Result
where
    I: ParallelIterator,
    C: UnindexedConsumer<I::Item>,
    A: Fn(&I::Item) -> Admission + Sync,
{
    let stopped = AtomicBool::new(false);
    base.drive_unindexed(Admit {
        base: consumer,
        admit,
        stopped: &stopped,
    })
}

/// Counts an item against `limit`: whether it is among the first `limit`.
fn within(count: &AtomicUsize, limit: usize) -> bool {
    count
        .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| {
            (n < limit).then_some(n + 1)
        })
        .is_ok()
}

/// The iterator of [`ParallelIterator::take_any`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct TakeAny<I> {
    base: I,
    n: usize,
}

impl<I> TakeAny<I> {
    pub(crate) fn new(base: I, n: usize) -> Self {
        TakeAny { base, n }
    }
}

impl<I: ParallelIterator> ParallelIterator for TakeAny<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let (taken, n) = (AtomicUsize::new(0), self.n);
        let admit = |_: &I::Item| {
            if within(&taken, n) {
                Admission::Take
            } else {
                Admission::Stop
            }
        };
        if n == 0 {
            return consumer.into_folder().complete();
        }
        drive_admitted(self.base, consumer, &admit)
    }
}

/// The iterator of [`ParallelIterator::skip_any`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct SkipAny<I> {
    base: I,
    n: usize,
}

impl<I> SkipAny<I> {
    pub(crate) fn new(base: I, n: usize) -> Self {
        SkipAny { base, n }
    }
}

impl<I: ParallelIterator> ParallelIterator for SkipAny<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let (skipped, n) = (AtomicUsize::new(0), self.n);
        let admit = |_: &I::Item| {
            if within(&skipped, n) {
                Admission::Skip
            } else {
                Admission::Take
            }
        };
        drive_admitted(self.base, consumer, &admit)
    }
}

/// The iterator of [`ParallelIterator::take_any_while`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct TakeAnyWhile<I, P> {
    base: I,
    predicate: P,
}

debug_adapter!(TakeAnyWhile<I, P>);

impl<I, P> TakeAnyWhile<I, P> {
    pub(crate) fn new(base: I, predicate: P) -> Self {
        TakeAnyWhile { base, predicate }
    }
}

impl<I, P> ParallelIterator for TakeAnyWhile<I, P>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let predicate = &self.predicate;
        let admit = |item: &I::Item| {
            if predicate(item) {
                Admission::Take
            } else {
                Admission::Stop
            }
        };
        drive_admitted(self.base, consumer, &admit)
    }
}

/// The iterator of [`ParallelIterator::skip_any_while`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct SkipAnyWhile<I, P> {
    base: I,
    predicate: P,
}

debug_adapter!(SkipAnyWhile<I, P>);

impl<I, P> SkipAnyWhile<I, P> {
    pub(crate) fn new(base: I, predicate: P) -> Self {
        SkipAnyWhile { base, predicate }
    }
}

impl<I, P> ParallelIterator for SkipAnyWhile<I, P>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync + Send,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let (predicate, passed) = (&self.predicate, AtomicBool::new(false));
        let admit = |item: &I::Item| {
            if passed.load(Ordering::Relaxed) || !predicate(item) {
                passed.store(true, Ordering::Relaxed);
                Admission::Take
            } else {
                Admission::Skip
            }
        };
        drive_admitted(self.base, consumer, &admit)
    }
}
