//! `par_drain`: remove items from a collection as a parallel iterator.

use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
use std::hash::{BuildHasher, Hash};
use std::ops::RangeBounds;

use super::{IntoParallelIterator, ParallelIterator};

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

impl<T: Send> ParallelDrainRange<usize> for &mut VecDeque<T> {
    type Iter = crate::vec::IntoIter<T>;
    type Item = T;

    fn par_drain<R: RangeBounds<usize>>(self, range: R) -> Self::Iter {
        self.drain(range).collect::<Vec<_>>().into_par_iter()
    }
}

/// `ParallelDrainFull` for collections whose sequential `drain` cannot
/// split: the items are gathered into a `Vec` first.
macro_rules! drain_by_gathering {
    ($([$($g:tt)*] $collection:ty => $item:ty;)*) => {$(
        impl<'data, $($g)*> ParallelDrainFull for &'data mut $collection {
            type Iter = crate::vec::IntoIter<$item>;
            type Item = $item;

            fn par_drain(self) -> Self::Iter {
                self.drain().collect::<Vec<_>>().into_par_iter()
            }
        }
    )*};
}

drain_by_gathering! {
    [T: Send + Ord] BinaryHeap<T> => T;
    [K: Send + Eq + Hash, V: Send, S: BuildHasher] HashMap<K, V, S> => (K, V);
    [T: Send + Eq + Hash, S: BuildHasher] HashSet<T, S> => T;
}
