//! `try_fold` and `try_fold_with`: `fold` whose accumulator is an
//! `Option`, `Result` or `ControlFlow`; a piece stops folding at its first
//! `None`/`Err`/`Break`, which becomes its item.

use std::ops::ControlFlow;

use super::plumbing::UnindexedConsumer;
use super::try_op::Try;
use super::ParallelIterator;

/// Folds one item into a piece's accumulator, unless it stopped already.
fn step<R: Try>(state: R, fold: impl FnOnce(R::Output) -> R) -> R {
    match state.branch() {
        ControlFlow::Continue(acc) => fold(acc),
        ControlFlow::Break(residual) => R::from_residual(residual),
    }
}

/// The iterator of [`ParallelIterator::try_fold`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct TryFold<I, R, ID, F> {
    base: I,
    identity: ID,
    fold_op: F,
    marker: std::marker::PhantomData<fn() -> R>,
}

impl<I: std::fmt::Debug, R, ID, F> std::fmt::Debug for TryFold<I, R, ID, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TryFold")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl<I, R, ID, F> TryFold<I, R, ID, F> {
    pub(crate) fn new(base: I, identity: ID, fold_op: F) -> Self {
        TryFold {
            base,
            identity,
            fold_op,
            marker: std::marker::PhantomData,
        }
    }
}

impl<I, R, T, ID, F> ParallelIterator for TryFold<I, R, ID, F>
where
    I: ParallelIterator,
    F: Fn(T, I::Item) -> R + Sync + Send,
    ID: Fn() -> T + Sync + Send,
    R: Try<Output = T> + Send,
{
    type Item = R;

    fn drive_unindexed<C: UnindexedConsumer<R>>(self, consumer: C) -> C::Result {
        let TryFold {
            base,
            identity,
            fold_op,
            ..
        } = self;
        base.fold(
            || R::from_output(identity()),
            |state, item| step(state, |acc| fold_op(acc, item)),
        )
        .drive_unindexed(consumer)
    }
}

/// The iterator of [`ParallelIterator::try_fold_with`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct TryFoldWith<I, R: Try, F> {
    base: I,
    init: R::Output,
    fold_op: F,
}

impl<I: std::fmt::Debug, R: Try, F> std::fmt::Debug for TryFoldWith<I, R, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TryFoldWith")
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl<I, R: Try, F> TryFoldWith<I, R, F> {
    pub(crate) fn new(base: I, init: R::Output, fold_op: F) -> Self {
        TryFoldWith {
            base,
            init,
            fold_op,
        }
    }
}

impl<I, R, F> ParallelIterator for TryFoldWith<I, R, F>
where
    I: ParallelIterator,
    F: Fn(R::Output, I::Item) -> R + Sync + Send,
    R: Try + Send,
    R::Output: Clone + Send + Sync,
{
    type Item = R;

    fn drive_unindexed<C: UnindexedConsumer<R>>(self, consumer: C) -> C::Result {
        let TryFoldWith {
            base,
            init,
            fold_op,
        } = self;
        base.fold(
            || R::from_output(init.clone()),
            |state, item| step(state, |acc| fold_op(acc, item)),
        )
        .drive_unindexed(consumer)
    }
}
