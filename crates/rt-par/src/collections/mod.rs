//! Parallel iterators over the standard collections. A `VecDeque` by
//! reference is its two slices chained; the others (and a `VecDeque` by
//! value) are first gathered into a `Vec` (of references, for `&` and
//! `&mut`), as rayon does: their iterators cannot split.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};

use crate::iter::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use crate::iter::{Chain, IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// Defines an iterator that forwards to `$inner`.
macro_rules! forwarding_iter {
    ($(#[$doc:meta])* $name:ident [$($generics:tt)*] => $item:ty, inner $inner:ty, where [$($bound:tt)*]) => {
        $(#[$doc])*
        #[derive(Debug)]
        #[must_use = "iterators do nothing unless consumed"]
        pub struct $name<$($generics)*> {
            inner: $inner,
        }

        impl<$($generics)*> ParallelIterator for $name<$($generics)*>
        where
            $($bound)*
        {
            type Item = $item;

            fn drive_unindexed<C: UnindexedConsumer<$item>>(self, consumer: C) -> C::Result {
                self.inner.drive_unindexed(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.inner.len())
            }
        }

        impl<$($generics)*> IndexedParallelIterator for $name<$($generics)*>
        where
            $($bound)*
        {
            fn drive<C: Consumer<$item>>(self, consumer: C) -> C::Result {
                self.inner.drive(consumer)
            }

            fn len(&self) -> usize {
                self.inner.len()
            }

            fn with_producer<CB: ProducerCallback<$item>>(self, callback: CB) -> CB::Output {
                self.inner.with_producer(callback)
            }
        }
    };
}

/// Implements `Clone` for forwarding iterators whose inner one is.
macro_rules! clone_iter {
    ($($name:ident [$($generics:tt)*] where [$($bound:tt)*];)*) => {$(
        impl<$($generics)*> Clone for $name<$($generics)*>
        where
            $($bound)*
        {
            fn clone(&self) -> Self {
                $name {
                    inner: self.inner.clone(),
                }
            }
        }
    )*};
}

/// Defines an iterator over items gathered into a `Vec`.
macro_rules! gathered_iter {
    ($(#[$doc:meta])* $name:ident [$($generics:tt)*] => $item:ty, where [$($bound:tt)*]) => {
        forwarding_iter!(
            $(#[$doc])* $name [$($generics)*] => $item, inner crate::vec::IntoIter<$item>, where [$($bound)*]
        );

        impl<$($generics)*> $name<$($generics)*>
        where
            $($bound)*
        {
            pub(crate) fn from_vec(items: Vec<$item>) -> Self {
                $name { inner: items.into_par_iter() }
            }
        }
    };
}

/// Implements `IntoParallelIterator` for a collection (or a reference to
/// one) by gathering its sequential iterator into a `Vec`.
macro_rules! gather_into {
    ($([$($g:tt)*] $collection:ty => $iter:ty, |$c:ident| $items:expr;)*) => {$(
        impl<$($g)*> IntoParallelIterator for $collection {
            type Iter = $iter;
            type Item = <$iter as ParallelIterator>::Item;

            fn into_par_iter(self) -> $iter {
                let $c = self;
                <$iter>::from_vec($items)
            }
        }
    )*};
}

/// Parallel iterators over a `HashMap`.
pub mod hash_map {
    use super::*;

    clone_iter! {
        IntoIter [K, V] where [K: Clone, V: Clone];
        Iter ['a, K, V] where [];
    }

    gathered_iter!(
        /// The iterator of a `HashMap` by value.
        IntoIter [K, V] => (K, V), where [K: Send, V: Send]
    );
    gathered_iter!(
        /// The iterator of a `HashMap` by reference.
        Iter ['a, K, V] => (&'a K, &'a V), where [K: Sync + 'a, V: Sync + 'a]
    );
    gathered_iter!(
        /// The iterator of a `HashMap` by mutable reference.
        IterMut ['a, K, V] => (&'a K, &'a mut V), where [K: Sync + 'a, V: Send + 'a]
    );

    gather_into! {
        [K: Send, V: Send, S] HashMap<K, V, S> => IntoIter<K, V>, |c| c.into_iter().collect();
        ['a, K: Sync, V: Sync, S] &'a HashMap<K, V, S> => Iter<'a, K, V>, |c| c.iter().collect();
        ['a, K: Sync, V: Send, S] &'a mut HashMap<K, V, S> => IterMut<'a, K, V>, |c| c.iter_mut().collect();
    }
}

/// Parallel iterators over a `BTreeMap`.
pub mod btree_map {
    use super::*;

    clone_iter! {
        IntoIter [K, V] where [K: Clone, V: Clone];
        Iter ['a, K, V] where [];
    }

    gathered_iter!(
        /// The iterator of a `BTreeMap` by value.
        IntoIter [K, V] => (K, V), where [K: Send, V: Send]
    );
    gathered_iter!(
        /// The iterator of a `BTreeMap` by reference.
        Iter ['a, K, V] => (&'a K, &'a V), where [K: Sync + 'a, V: Sync + 'a]
    );
    gathered_iter!(
        /// The iterator of a `BTreeMap` by mutable reference.
        IterMut ['a, K, V] => (&'a K, &'a mut V), where [K: Sync + 'a, V: Send + 'a]
    );

    gather_into! {
        [K: Send, V: Send] BTreeMap<K, V> => IntoIter<K, V>, |c| c.into_iter().collect();
        ['a, K: Sync, V: Sync] &'a BTreeMap<K, V> => Iter<'a, K, V>, |c| c.iter().collect();
        ['a, K: Sync, V: Send] &'a mut BTreeMap<K, V> => IterMut<'a, K, V>, |c| c.iter_mut().collect();
    }
}

/// Parallel iterators over a `HashSet`.
pub mod hash_set {
    use super::*;

    clone_iter! {
        IntoIter [T] where [T: Clone];
        Iter ['a, T] where [];
    }

    gathered_iter!(
        /// The iterator of a `HashSet` by value.
        IntoIter [T] => T, where [T: Send]
    );
    gathered_iter!(
        /// The iterator of a `HashSet` by reference.
        Iter ['a, T] => &'a T, where [T: Sync + 'a]
    );

    gather_into! {
        [T: Send, S] HashSet<T, S> => IntoIter<T>, |c| c.into_iter().collect();
        ['a, T: Sync, S] &'a HashSet<T, S> => Iter<'a, T>, |c| c.iter().collect();
    }
}

/// Parallel iterators over a `BTreeSet`.
pub mod btree_set {
    use super::*;

    clone_iter! {
        IntoIter [T] where [T: Clone];
        Iter ['a, T] where [];
    }

    gathered_iter!(
        /// The iterator of a `BTreeSet` by value.
        IntoIter [T] => T, where [T: Send]
    );
    gathered_iter!(
        /// The iterator of a `BTreeSet` by reference.
        Iter ['a, T] => &'a T, where [T: Sync + 'a]
    );

    gather_into! {
        [T: Send] BTreeSet<T> => IntoIter<T>, |c| c.into_iter().collect();
        ['a, T: Sync] &'a BTreeSet<T> => Iter<'a, T>, |c| c.iter().collect();
    }
}

/// Parallel iterators over a `LinkedList`.
pub mod linked_list {
    use super::*;

    clone_iter! {
        IntoIter [T] where [T: Clone];
        Iter ['a, T] where [];
    }

    gathered_iter!(
        /// The iterator of a `LinkedList` by value.
        IntoIter [T] => T, where [T: Send]
    );
    gathered_iter!(
        /// The iterator of a `LinkedList` by reference.
        Iter ['a, T] => &'a T, where [T: Sync + 'a]
    );
    gathered_iter!(
        /// The iterator of a `LinkedList` by mutable reference.
        IterMut ['a, T] => &'a mut T, where [T: Send + 'a]
    );

    gather_into! {
        [T: Send] LinkedList<T> => IntoIter<T>, |c| c.into_iter().collect();
        ['a, T: Sync] &'a LinkedList<T> => Iter<'a, T>, |c| c.iter().collect();
        ['a, T: Send] &'a mut LinkedList<T> => IterMut<'a, T>, |c| c.iter_mut().collect();
    }
}

/// Parallel iterators over a `BinaryHeap` (in no particular order).
pub mod binary_heap {
    use super::*;

    clone_iter! {
        IntoIter [T] where [T: Clone];
        Iter ['a, T] where [];
    }

    gathered_iter!(
        /// The iterator of a `BinaryHeap` by value.
        IntoIter [T] => T, where [T: Send]
    );
    gathered_iter!(
        /// The iterator of a `BinaryHeap` by reference.
        Iter ['a, T] => &'a T, where [T: Sync + 'a]
    );

    gather_into! {
        [T: Send] BinaryHeap<T> => IntoIter<T>, |c| c.into_vec();
        ['a, T: Sync] &'a BinaryHeap<T> => Iter<'a, T>, |c| c.iter().collect();
    }
}

/// Parallel iterators over a `VecDeque`.
pub mod vec_deque {
    use super::*;
    use crate::slice;

    clone_iter! {
        IntoIter [T] where [T: Clone];
        Iter ['a, T] where [];
    }

    forwarding_iter!(
        /// The iterator of a `VecDeque` by value.
        IntoIter [T] => T, inner crate::vec::IntoIter<T>, where [T: Send]
    );

    forwarding_iter!(
        /// The iterator of a `VecDeque` by reference: its two slices.
        Iter ['a, T] => &'a T, inner Chain<slice::Iter<'a, T>, slice::Iter<'a, T>>, where [T: Sync + 'a]
    );

    forwarding_iter!(
        /// The iterator of a `VecDeque` by mutable reference: its two slices.
        IterMut ['a, T] => &'a mut T, inner Chain<slice::IterMut<'a, T>, slice::IterMut<'a, T>>, where [T: Send + 'a]
    );

    impl<T: Send> IntoParallelIterator for VecDeque<T> {
        type Iter = IntoIter<T>;
        type Item = T;

        fn into_par_iter(self) -> IntoIter<T> {
            IntoIter {
                inner: Vec::from(self).into_par_iter(),
            }
        }
    }

    impl<'a, T: Sync> IntoParallelIterator for &'a VecDeque<T> {
        type Iter = Iter<'a, T>;
        type Item = &'a T;

        fn into_par_iter(self) -> Iter<'a, T> {
            let (front, back) = self.as_slices();
            Iter {
                inner: front.into_par_iter().chain(back.into_par_iter()),
            }
        }
    }

    impl<'a, T: Send> IntoParallelIterator for &'a mut VecDeque<T> {
        type Iter = IterMut<'a, T>;
        type Item = &'a mut T;

        fn into_par_iter(self) -> IterMut<'a, T> {
            let (front, back) = self.as_mut_slices();
            IterMut {
                inner: front.into_par_iter().chain(back.into_par_iter()),
            }
        }
    }
}

/// `par_drain` for the standard collections: their items are gathered into a
/// `Vec` first, as for `into_par_iter` (the traits are in `iter`, the `Vec`
/// implementation beside `Vec`'s iterators).
mod drain {
    use std::collections::{BinaryHeap, HashMap, HashSet, VecDeque};
    use std::hash::{BuildHasher, Hash};
    use std::ops::RangeBounds;

    use crate::iter::{IntoParallelIterator, ParallelDrainFull, ParallelDrainRange};

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
}
