//! `unzip`, `partition` and `partition_map`: every piece fills two `Vec`s,
//! and the two targets are extended from them in order, in parallel.

use std::collections::LinkedList;

use super::{Either, IntoParallelIterator, ParallelExtend, ParallelIterator};

pub(super) fn unzip<I, A, B, FromA, FromB>(iter: I) -> (FromA, FromB)
where
    I: ParallelIterator<Item = (A, B)>,
    FromA: Default + Send + ParallelExtend<A>,
    FromB: Default + Send + ParallelExtend<B>,
    A: Send,
    B: Send,
{
    split_in_two(iter, |(a, b), (left, right)| {
        left.push(a);
        right.push(b);
    })
}

pub(super) fn partition_map<I, A, B, P, L, R>(iter: I, predicate: P) -> (A, B)
where
    I: ParallelIterator,
    A: Default + Send + ParallelExtend<L>,
    B: Default + Send + ParallelExtend<R>,
    P: Fn(I::Item) -> Either<L, R> + Sync + Send,
    L: Send,
    R: Send,
{
    split_in_two(iter, |item, (left, right)| match predicate(item) {
        Either::Left(l) => left.push(l),
        Either::Right(r) => right.push(r),
    })
}

fn split_in_two<I, L, R, A, B>(
    iter: I,
    push: impl Fn(I::Item, (&mut Vec<L>, &mut Vec<R>)) + Sync + Send,
) -> (A, B)
where
    I: ParallelIterator,
    A: Default + Send + ParallelExtend<L>,
    B: Default + Send + ParallelExtend<R>,
    L: Send,
    R: Send,
{
    let pieces = iter
        .fold(
            || (Vec::new(), Vec::new()),
            |(mut left, mut right), item| {
                push(item, (&mut left, &mut right));
                (left, right)
            },
        )
        .map(|piece| LinkedList::from([piece]))
        .reduce(LinkedList::new, |mut left, mut right| {
            left.append(&mut right);
            left
        });
    let (lefts, rights): (Vec<Vec<L>>, Vec<Vec<R>>) = pieces.into_iter().unzip();
    let (mut a, mut b) = (A::default(), B::default());
    rt_core::join(
        || a.par_extend(lefts.into_par_iter().flatten_iter()),
        || b.par_extend(rights.into_par_iter().flatten_iter()),
    );
    (a, b)
}
