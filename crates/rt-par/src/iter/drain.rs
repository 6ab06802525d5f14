//! `par_drain`: remove items from a collection as a parallel iterator. The
//! traits only: the collections implement them beside their iterators
//! (`vec`, `collections`).

use std::ops::RangeBounds;

use super::ParallelIterator;

/// Removes a range of items and yields them in parallel (rayon's
/// `ParallelDrainRange`); the collection keeps the rest, in order.
///
/// ```
/// use rt_par::prelude::*;
/// let mut v: Vec<i32> = (0..10).collect();
/// let drained: Vec<i32> = v.par_drain(2..5).collect();
/// assert_eq!(drained, [2, 3, 4]);
/// assert_eq!(v, [0, 1, 5, 6, 7, 8, 9]);
/// ```
pub trait ParallelDrainRange<Idx = usize> {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// The removed items.
    type Item: Send;

    /// Removes the items in `range`, yielding them (the rest close up when
    /// the iterator is dropped; a range that is never iterated is dropped
    /// with it).
    fn par_drain<R: RangeBounds<Idx>>(self, range: R) -> Self::Iter;
}

/// Removes every item and yields them in parallel (rayon's
/// `ParallelDrainFull`); the collection keeps its allocation where it can.
///
/// ```
/// use std::collections::HashSet;
/// use rt_par::prelude::*;
/// let mut set: HashSet<i32> = (0..10).collect();
/// assert_eq!(set.par_drain().sum::<i32>(), 45);
/// assert!(set.is_empty());
/// ```
pub trait ParallelDrainFull {
    /// The parallel iterator.
    type Iter: ParallelIterator<Item = Self::Item>;
    /// The removed items.
    type Item: Send;

    /// Removes every item, yielding them.
    fn par_drain(self) -> Self::Iter;
}
