//! `reduce` and `try_reduce`: every piece folds from `identity()` with
//! `op`, and the pieces' values are combined with `op`, left to right.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::try_op::Try;
use super::ParallelIterator;

pub(super) fn reduce<I, ID, OP>(iter: I, identity: ID, op: OP) -> I::Item
where
    I: ParallelIterator,
    OP: Fn(I::Item, I::Item) -> I::Item + Sync + Send,
    ID: Fn() -> I::Item + Sync + Send,
{
    let consumer = ReduceConsumer {
        identity: &identity,
        op: &op,
    };
    iter.drive_unindexed(consumer)
}

struct ReduceConsumer<'r, ID, OP> {
    identity: &'r ID,
    op: &'r OP,
}

impl<ID, OP> Clone for ReduceConsumer<'_, ID, OP> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<ID, OP> Copy for ReduceConsumer<'_, ID, OP> {}

impl<'r, T, ID, OP> Consumer<T> for ReduceConsumer<'r, ID, OP>
where
    T: Send,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    type Folder = ReduceFolder<'r, OP, T>;
    type Reducer = Self;
    type Result = T;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> Self::Folder {
        ReduceFolder {
            op: self.op,
            item: (self.identity)(),
        }
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T, ID, OP> UnindexedConsumer<T> for ReduceConsumer<'_, ID, OP>
where
    T: Send,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> T + Sync,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<T, ID, OP> Reducer<T> for ReduceConsumer<'_, ID, OP>
where
    OP: Fn(T, T) -> T,
{
    fn reduce(self, left: T, right: T) -> T {
        (self.op)(left, right)
    }
}

struct ReduceFolder<'r, OP, T> {
    op: &'r OP,
    item: T,
}

impl<T, OP: Fn(T, T) -> T> Folder<T> for ReduceFolder<'_, OP, T> {
    type Result = T;

    fn consume(mut self, item: T) -> Self {
        self.item = (self.op)(self.item, item);
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        self.item = iter.into_iter().fold(self.item, self.op);
        self
    }

    fn complete(self) -> T {
        self.item
    }

    fn full(&self) -> bool {
        false
    }
}

pub(super) fn try_reduce<I, T, ID, OP>(iter: I, identity: ID, op: OP) -> I::Item
where
    I: ParallelIterator,
    I::Item: Try<Output = T>,
    OP: Fn(T, T) -> I::Item + Sync + Send,
    ID: Fn() -> T + Sync + Send,
{
    let stopped = AtomicBool::new(false);
    let consumer = TryReduceConsumer {
        identity: &identity,
        op: &op,
        stopped: &stopped,
    };
    iter.drive_unindexed(consumer)
}

/// Like `ReduceConsumer`, but the first `Break` (error, `None`) seen stops
/// every piece.
struct TryReduceConsumer<'r, ID, OP> {
    identity: &'r ID,
    op: &'r OP,
    stopped: &'r AtomicBool,
}

impl<ID, OP> Clone for TryReduceConsumer<'_, ID, OP> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<ID, OP> Copy for TryReduceConsumer<'_, ID, OP> {}

impl<'r, R, T, ID, OP> Consumer<R> for TryReduceConsumer<'r, ID, OP>
where
    R: Try<Output = T> + Send,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> R + Sync,
{
    type Folder = TryReduceFolder<'r, OP, R::Residual, T>;
    type Reducer = Self;
    type Result = R;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (self, self, self)
    }

    fn into_folder(self) -> Self::Folder {
        TryReduceFolder {
            op: self.op,
            state: ControlFlow::Continue((self.identity)()),
            stopped: self.stopped,
        }
    }

    fn full(&self) -> bool {
        self.stopped.load(Ordering::Relaxed)
    }
}

impl<R, T, ID, OP> UnindexedConsumer<R> for TryReduceConsumer<'_, ID, OP>
where
    R: Try<Output = T> + Send,
    ID: Fn() -> T + Sync,
    OP: Fn(T, T) -> R + Sync,
{
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> Self {
        *self
    }
}

impl<R, T, ID, OP> Reducer<R> for TryReduceConsumer<'_, ID, OP>
where
    R: Try<Output = T>,
    OP: Fn(T, T) -> R,
{
    fn reduce(self, left: R, right: R) -> R {
        match (left.branch(), right.branch()) {
            (ControlFlow::Continue(left), ControlFlow::Continue(right)) => (self.op)(left, right),
            (ControlFlow::Break(residual), _) | (_, ControlFlow::Break(residual)) => {
                R::from_residual(residual)
            }
        }
    }
}

struct TryReduceFolder<'r, OP, B, T> {
    op: &'r OP,
    state: ControlFlow<B, T>,
    stopped: &'r AtomicBool,
}

impl<R, T, OP> Folder<R> for TryReduceFolder<'_, OP, R::Residual, T>
where
    R: Try<Output = T>,
    OP: Fn(T, T) -> R,
{
    type Result = R;

    fn consume(mut self, item: R) -> Self {
        if let ControlFlow::Continue(acc) = self.state {
            self.state = match item.branch() {
                ControlFlow::Continue(value) => (self.op)(acc, value).branch(),
                ControlFlow::Break(residual) => ControlFlow::Break(residual),
            };
            if self.state.is_break() {
                self.stopped.store(true, Ordering::Relaxed);
            }
        }
        self
    }

    fn complete(self) -> R {
        match self.state {
            ControlFlow::Continue(value) => R::from_output(value),
            ControlFlow::Break(residual) => R::from_residual(residual),
        }
    }

    fn full(&self) -> bool {
        self.state.is_break() || self.stopped.load(Ordering::Relaxed)
    }
}
