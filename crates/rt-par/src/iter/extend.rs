//! `ParallelExtend` and `FromParallelIterator` for the standard
//! collections. A `Vec` is filled in place (see `collect`); the others are
//! extended, in order, from the `Vec`s that the pieces fill in parallel.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::ffi::{OsStr, OsString};
use std::hash::{BuildHasher, Hash};
use std::sync::Mutex;

use super::collect::{collect_pieces, extend_vec};
use super::{FromParallelIterator, IntoParallelIterator, ParallelExtend, ParallelIterator};

impl<T: Send> ParallelExtend<T> for Vec<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        extend_vec(self, par_iter.into_par_iter());
    }
}

impl<'a, T: Copy + Send + Sync + 'a> ParallelExtend<&'a T> for Vec<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        extend_vec(self, par_iter.into_par_iter().copied());
    }
}

impl<T: Send> FromParallelIterator<T> for Vec<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        let mut vec = Vec::new();
        extend_vec(&mut vec, par_iter.into_par_iter());
        vec
    }
}

impl<T: Send> FromParallelIterator<T> for VecDeque<T> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

impl<T: Send> FromParallelIterator<T> for std::rc::Rc<[T]> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

impl<T: Send> FromParallelIterator<T> for std::sync::Arc<[T]> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

impl<T: Send> FromParallelIterator<T> for Box<[T]> {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Vec::from_par_iter(par_iter).into()
    }
}

/// `ParallelExtend` from per-piece `Vec`s, and `FromParallelIterator` as
/// `default()` then `par_extend`.
macro_rules! extend_from_pieces {
    ($([$($generics:tt)*] $collection:ty, $item:ty, where [$($bound:tt)*];)*) => {$(
        impl<$($generics)*> ParallelExtend<$item> for $collection
        where
            $($bound)*
        {
            fn par_extend<I>(&mut self, par_iter: I)
            where
                I: IntoParallelIterator<Item = $item>,
            {
                for piece in collect_pieces(par_iter.into_par_iter()) {
                    self.extend(piece);
                }
            }
        }

        impl<$($generics)*> FromParallelIterator<$item> for $collection
        where
            $($bound)*
        {
            fn from_par_iter<I>(par_iter: I) -> Self
            where
                I: IntoParallelIterator<Item = $item>,
            {
                let mut collection = Self::default();
                collection.par_extend(par_iter);
                collection
            }
        }
    )*};
}

extend_from_pieces! {
    [T] LinkedList<T>, T, where [T: Send];
    [T] BinaryHeap<T>, T, where [T: Ord + Send];
    [K, V, S] HashMap<K, V, S>, (K, V), where [K: Eq + Hash + Send, V: Send, S: BuildHasher + Default + Send];
    [T, S] HashSet<T, S>, T, where [T: Eq + Hash + Send, S: BuildHasher + Default + Send];
    [K, V] BTreeMap<K, V>, (K, V), where [K: Ord + Send, V: Send];
    [T] BTreeSet<T>, T, where [T: Ord + Send];
    [] String, char, where [];
    ['a] String, &'a char, where [];
    ['a] String, &'a str, where [];
    [] String, String, where [];
    ['a] String, Cow<'a, str>, where [];
    ['a, T] LinkedList<T>, &'a T, where [T: Copy + Send + Sync + 'a];
    ['a, T] BinaryHeap<T>, &'a T, where [T: Copy + Ord + Send + Sync + 'a];
    ['a, K, V, S] HashMap<K, V, S>, (&'a K, &'a V), where [K: Copy + Eq + Hash + Send + Sync + 'a, V: Copy + Send + Sync + 'a, S: BuildHasher + Default + Send];
    ['a, T, S] HashSet<T, S>, &'a T, where [T: Copy + Eq + Hash + Send + Sync + 'a, S: BuildHasher + Default + Send];
    ['a, K, V] BTreeMap<K, V>, (&'a K, &'a V), where [K: Copy + Ord + Send + Sync + 'a, V: Copy + Send + Sync + 'a];
    ['a, T] BTreeSet<T>, &'a T, where [T: Copy + Ord + Send + Sync + 'a];
    ['a] OsString, &'a OsStr, where [];
    [] OsString, OsString, where [];
    ['a] OsString, Cow<'a, OsStr>, where [];
}

impl<'a, T: Copy + Send + Sync + 'a> ParallelExtend<&'a T> for VecDeque<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = &'a T>,
    {
        for piece in collect_pieces(par_iter.into_par_iter()) {
            self.extend(piece);
        }
    }
}

impl<T: Send> ParallelExtend<T> for VecDeque<T> {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = T>,
    {
        for piece in collect_pieces(par_iter.into_par_iter()) {
            self.extend(piece);
        }
    }
}

impl FromParallelIterator<()> for () {
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = ()>,
    {
        par_iter.into_par_iter().for_each(drop);
    }
}

impl ParallelExtend<()> for () {
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = ()>,
    {
        par_iter.into_par_iter().for_each(drop);
    }
}

/// Collects the `Ok` values; stops at an error, which is returned (one of
/// them, if several pieces failed).
impl<C, T, E> FromParallelIterator<Result<T, E>> for Result<C, E>
where
    C: FromParallelIterator<T>,
    T: Send,
    E: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Result<T, E>>,
    {
        let error = Mutex::new(None);
        let collection = par_iter
            .into_par_iter()
            .map(|item| match item {
                Ok(value) => Some(value),
                Err(e) => {
                    let mut slot = error.lock().unwrap_or_else(|p| p.into_inner());
                    slot.get_or_insert(e);
                    None
                }
            })
            .while_some()
            .collect();
        match error.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(e) => Err(e),
            None => Ok(collection),
        }
    }
}

/// Collects the `Some` values; `None` if any item is `None`.
impl<C, T> FromParallelIterator<Option<T>> for Option<C>
where
    C: FromParallelIterator<T>,
    T: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = Option<T>>,
    {
        let collected: Result<C, ()> = par_iter
            .into_par_iter()
            .map(|item| item.ok_or(()))
            .collect();
        collected.ok()
    }
}

/// Collects into the owned form (`Cow<[T]>` from `Vec<T>`, `Cow<str>` from
/// `String`).
impl<'a, C, T> FromParallelIterator<T> for Cow<'a, C>
where
    C: ToOwned + ?Sized,
    C::Owned: FromParallelIterator<T>,
    T: Send,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = T>,
    {
        Cow::Owned(C::Owned::from_par_iter(par_iter))
    }
}

/// Extends both collections of a pair from pairs (as `unzip` does).
impl<A, B, FromA, FromB> ParallelExtend<(A, B)> for (FromA, FromB)
where
    A: Send,
    B: Send,
    FromA: Send + ParallelExtend<A>,
    FromB: Send + ParallelExtend<B>,
{
    fn par_extend<I>(&mut self, par_iter: I)
    where
        I: IntoParallelIterator<Item = (A, B)>,
    {
        let (a, b): (Vec<A>, Vec<B>) = par_iter.into_par_iter().unzip();
        let (from_a, from_b) = self;
        rt_core::join(|| from_a.par_extend(a), || from_b.par_extend(b));
    }
}

/// Collects pairs into a pair of collections (as `unzip` does).
impl<A, B, FromA, FromB> FromParallelIterator<(A, B)> for (FromA, FromB)
where
    A: Send,
    B: Send,
    FromA: Send + Default + ParallelExtend<A>,
    FromB: Send + Default + ParallelExtend<B>,
{
    fn from_par_iter<I>(par_iter: I) -> Self
    where
        I: IntoParallelIterator<Item = (A, B)>,
    {
        par_iter.into_par_iter().unzip()
    }
}

/// Drains a range of a `String`'s chars.
impl super::ParallelDrainRange<usize> for &mut String {
    type Iter = crate::vec::IntoIter<char>;
    type Item = char;

    fn par_drain<R: std::ops::RangeBounds<usize>>(self, range: R) -> Self::Iter {
        self.drain(range).collect::<Vec<char>>().into_par_iter()
    }
}
