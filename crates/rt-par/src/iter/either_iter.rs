//! `Either` of two parallel iterators with the same items is one (as in
//! rayon), and `Either` of two collections extends the one it holds.

use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::{
    Either, IndexedParallelIterator, IntoParallelIterator, ParallelExtend, ParallelIterator,
};

impl<L, R> ParallelIterator for Either<L, R>
where
    L: ParallelIterator,
    R: ParallelIterator<Item = L::Item>,
{
    type Item = L::Item;

    fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
        match self {
            Either::Left(left) => left.drive_unindexed(consumer),
            Either::Right(right) => right.drive_unindexed(consumer),
        }
    }

    fn opt_len(&self) -> Option<usize> {
        match self {
            Either::Left(left) => left.opt_len(),
            Either::Right(right) => right.opt_len(),
        }
    }
}

impl<L, R> IndexedParallelIterator for Either<L, R>
where
    L: IndexedParallelIterator,
    R: IndexedParallelIterator<Item = L::Item>,
{
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        match self {
            Either::Left(left) => left.drive(consumer),
            Either::Right(right) => right.drive(consumer),
        }
    }

    fn len(&self) -> usize {
        match self {
            Either::Left(left) => left.len(),
            Either::Right(right) => right.len(),
        }
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        match self {
            Either::Left(left) => left.with_producer(callback),
            Either::Right(right) => right.with_producer(callback),
        }
    }
}

impl<L, R, T> ParallelExtend<T> for Either<L, R>
where
    L: ParallelExtend<T>,
    R: ParallelExtend<T>,
    T: Send,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        match self {
            Either::Left(left) => left.par_extend(par_iter),
            Either::Right(right) => right.par_extend(par_iter),
        }
    }
}
