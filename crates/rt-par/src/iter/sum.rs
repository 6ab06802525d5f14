//! `sum` and `product`: every piece sums (multiplies) its items with the
//! standard `Sum` (`Product`), and so are the pieces' results.

use std::iter::{self, Product, Sum};
use std::marker::PhantomData;

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::ParallelIterator;

pub(super) fn sum<I, S>(iter: I) -> S
where
    I: ParallelIterator,
    S: Send + Sum<I::Item> + Sum<S>,
{
    iter.drive_unindexed(Combine::<S, Adding>::new())
}

pub(super) fn product<I, P>(iter: I) -> P
where
    I: ParallelIterator,
    P: Send + Product<I::Item> + Product<P>,
{
    iter.drive_unindexed(Combine::<P, Multiplying>::new())
}

/// How a [`Combine`] combines: adds or multiplies.
trait Operation<S, T> {
    fn of_iter(iter: impl Iterator<Item = T>) -> S;
    fn both(left: S, right: S) -> S;
}

struct Adding;
struct Multiplying;

impl<S: Sum<T> + Sum<S>, T> Operation<S, T> for Adding {
    fn of_iter(iter: impl Iterator<Item = T>) -> S {
        iter.sum()
    }
    fn both(left: S, right: S) -> S {
        [left, right].into_iter().sum()
    }
}

impl<S: Product<T> + Product<S>, T> Operation<S, T> for Multiplying {
    fn of_iter(iter: impl Iterator<Item = T>) -> S {
        iter.product()
    }
    fn both(left: S, right: S) -> S {
        [left, right].into_iter().product()
    }
}

/// The consumer, folder and reducer of `sum` (`product`).
struct Combine<S, O> {
    value: Option<S>,
    operation: PhantomData<fn() -> O>,
}

impl<S, O> Combine<S, O> {
    fn new() -> Self {
        Combine {
            value: None,
            operation: PhantomData,
        }
    }
}

impl<S: Send, T, O: Operation<S, T> + Operation<S, S>> Consumer<T> for Combine<S, O> {
    type Folder = Self;
    type Reducer = Self;
    type Result = S;

    fn split_at(self, _index: usize) -> (Self, Self, Self) {
        (Self::new(), Self::new(), Self::new())
    }

    fn into_folder(self) -> Self {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

impl<S: Send, T, O: Operation<S, T> + Operation<S, S>> UnindexedConsumer<T> for Combine<S, O> {
    fn split_off_left(&self) -> Self {
        Self::new()
    }

    fn to_reducer(&self) -> Self {
        Self::new()
    }
}

impl<S, O: Operation<S, S>> Reducer<S> for Combine<S, O> {
    fn reduce(self, left: S, right: S) -> S {
        O::both(left, right)
    }
}

impl<S, T, O: Operation<S, T> + Operation<S, S>> Folder<T> for Combine<S, O> {
    type Result = S;

    fn consume(self, item: T) -> Self {
        self.consume_iter(iter::once(item))
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let piece = <O as Operation<S, T>>::of_iter(iter.into_iter());
        self.value = Some(match self.value.take() {
            None => piece,
            Some(value) => <O as Operation<S, S>>::both(value, piece),
        });
        self
    }

    fn complete(self) -> S {
        match self.value {
            Some(value) => value,
            None => <O as Operation<S, T>>::of_iter(iter::empty()),
        }
    }

    fn full(&self) -> bool {
        false
    }
}
