//! `split`: a parallel iterator from any value and a function that splits
//! it in two (or says it cannot); each value that no longer splits is one
//! item.

use super::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use super::ParallelIterator;

/// Items made by splitting `data` with `splitter` for as long as the
/// driver asks and `splitter` can (it returns the two parts, or the value
/// and `None`).
///
/// ```
/// use rt_par::prelude::*;
/// // Split a range in halves down to pieces of at most 10.
/// let pieces: Vec<std::ops::Range<u32>> = rt_par::iter::split(0..100u32, |r| {
///     if r.len() <= 10 {
///         (r, None)
///     } else {
///         let mid = r.start + r.len() as u32 / 2;
///         (r.start..mid, Some(mid..r.end))
///     }
/// })
/// .collect();
/// assert_eq!(pieces.iter().map(|r| r.len()).sum::<usize>(), 100);
/// ```
pub fn split<D, S>(data: D, splitter: S) -> Split<D, S>
where
    D: Send,
    S: Fn(D) -> (D, Option<D>) + Sync,
{
    Split { data, splitter }
}

/// The iterator of [`split`].
#[derive(Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Split<D, S> {
    data: D,
    splitter: S,
}

impl<D: std::fmt::Debug, S> std::fmt::Debug for Split<D, S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Split")
            .field("data", &self.data)
            .finish_non_exhaustive()
    }
}

impl<D, S> ParallelIterator for Split<D, S>
where
    D: Send,
    S: Fn(D) -> (D, Option<D>) + Sync + Send,
{
    type Item = D;

    fn drive_unindexed<C: UnindexedConsumer<D>>(self, consumer: C) -> C::Result {
        let producer = SplitProducer {
            data: self.data,
            splitter: &self.splitter,
        };
        bridge_unindexed(producer, consumer)
    }
}

struct SplitProducer<'s, D, S> {
    data: D,
    splitter: &'s S,
}

impl<D, S> UnindexedProducer for SplitProducer<'_, D, S>
where
    D: Send,
    S: Fn(D) -> (D, Option<D>) + Sync,
{
    type Item = D;

    fn split(self) -> (Self, Option<Self>) {
        let splitter = self.splitter;
        let (left, right) = splitter(self.data);
        let right = right.map(|data| SplitProducer { data, splitter });
        (
            SplitProducer {
                data: left,
                splitter,
            },
            right,
        )
    }

    fn fold_with<F: Folder<D>>(self, folder: F) -> F {
        folder.consume(self.data)
    }
}
