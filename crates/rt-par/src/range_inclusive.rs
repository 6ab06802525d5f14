//! Parallel iterators over `RangeInclusive<T>` of every primitive integer.
//!
//! Up to 32 bits the length always fits a `usize`, and the iterator is
//! indexed (it splits and skips in O(1), as half-open ranges do); wider
//! ranges, whose length may not fit (`0..=u64::MAX`), are not indexed, as
//! in rayon: they are driven as the matching half-open range (plus the last
//! value, when it is the type's maximum).

use std::marker::PhantomData;
use std::ops::RangeInclusive;

use crate::iter::plumbing::{
    bridge, Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer,
};
use crate::iter::{once, IndexedParallelIterator, IntoParallelIterator, ParallelIterator};
use crate::range::SeqRange;

/// The iterator of `(a..=b).into_par_iter()`.
///
/// ```
/// use rt_par::prelude::*;
/// assert_eq!((1..=4u64).into_par_iter().product::<u64>(), 24);
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Iter<T> {
    range: RangeInclusive<T>,
}

impl<T: Copy + PartialOrd> Iter<T> {
    /// The first and last values, if any.
    fn bounds(&self) -> Option<(T, T)> {
        (!self.range.is_empty()).then(|| (*self.range.start(), *self.range.end()))
    }
}

mod private {
    use super::Iter;
    use crate::iter::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};

    /// A type whose inclusive ranges are parallel iterators (sealed); one
    /// generic impl of the traits over it, as for `Range`.
    pub trait RangeInteger: Sized + Send {
        fn drive_unindexed<C: UnindexedConsumer<Self>>(iter: Iter<Self>, consumer: C) -> C::Result;
        fn opt_len(iter: &Iter<Self>) -> Option<usize>;
    }

    /// A type whose inclusive ranges are indexed (sealed).
    pub trait IndexedRangeInteger: RangeInteger {
        fn drive<C: Consumer<Self>>(iter: Iter<Self>, consumer: C) -> C::Result;
        fn len(iter: &Iter<Self>) -> usize;
        fn with_producer<CB: ProducerCallback<Self>>(iter: Iter<Self>, callback: CB) -> CB::Output;
    }
}

use private::{IndexedRangeInteger, RangeInteger};

impl<T: RangeInteger> ParallelIterator for Iter<T> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        T::drive_unindexed(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        T::opt_len(self)
    }
}

impl<T: IndexedRangeInteger> IndexedParallelIterator for Iter<T> {
    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        T::drive(self, consumer)
    }

    fn len(&self) -> usize {
        T::len(self)
    }

    fn with_producer<CB: ProducerCallback<T>>(self, callback: CB) -> CB::Output {
        T::with_producer(self, callback)
    }
}

impl<T> IntoParallelIterator for RangeInclusive<T>
where
    Iter<T>: ParallelIterator,
{
    type Iter = Iter<T>;
    type Item = <Iter<T> as ParallelIterator>::Item;

    fn into_par_iter(self) -> Iter<T> {
        Iter { range: self }
    }
}

/// Indexed: driven as the half-open `i64` range of the same values (which
/// holds the type's `MAX` too), each value cast back.
macro_rules! indexed_inclusive {
    ($($t:ty),*) => {$(
        impl Narrow for $t {
            #[inline]
            fn narrow(wide: i64) -> $t {
                wide as $t
            }
        }

        impl Iter<$t> {
            fn widened(&self) -> Widened<$t> {
                let values = match self.bounds() {
                    Some((start, end)) => i64::from(start)..i64::from(end) + 1,
                    None => 0..0,
                };
                Widened {
                    values: SeqRange(values),
                    narrow: PhantomData,
                }
            }
        }

        impl RangeInteger for $t {
            fn drive_unindexed<C: UnindexedConsumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                bridge(iter, consumer)
            }

            fn opt_len(iter: &Iter<$t>) -> Option<usize> {
                Some(iter.len())
            }
        }

        impl IndexedRangeInteger for $t {
            fn drive<C: Consumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                bridge(iter, consumer)
            }

            fn len(iter: &Iter<$t>) -> usize {
                iter.bounds()
                    .map_or(0, |(start, end)| (i64::from(end) - i64::from(start) + 1) as usize)
            }

            fn with_producer<CB: ProducerCallback<$t>>(iter: Iter<$t>, callback: CB) -> CB::Output {
                callback.callback(iter.widened())
            }
        }
    )*};
}

/// A type whose values an `i64` holds.
trait Narrow: Sized {
    fn narrow(wide: i64) -> Self;
}

/// The producer of an indexed inclusive range, and its iterator: the
/// values as a half-open `i64` range, cast back one by one. Splits and
/// skips (`nth`) in O(1), as the range does.
struct Widened<T> {
    values: SeqRange<i64>,
    narrow: PhantomData<fn() -> T>,
}

impl<T: Narrow + Send> Producer for Widened<T> {
    type Item = T;
    type IntoIter = Self;

    fn into_iter(self) -> Self {
        self
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.values.split_at(index);
        let widened = |values| Widened {
            values,
            narrow: PhantomData,
        };
        (widened(left), widened(right))
    }

    fn fold_with<F: Folder<T>>(self, folder: F) -> F {
        folder.consume_iter(self)
    }
}

impl<T: Narrow> Iterator for Widened<T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        self.values.next().map(T::narrow)
    }

    #[inline]
    fn nth(&mut self, n: usize) -> Option<T> {
        self.values.nth(n).map(T::narrow)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.values.size_hint()
    }

    fn count(self) -> usize {
        self.values.count()
    }

    fn last(self) -> Option<T> {
        self.values.last().map(T::narrow)
    }

    #[inline]
    fn fold<B, G: FnMut(B, T) -> B>(self, init: B, mut g: G) -> B {
        self.values.fold(init, move |acc, x| g(acc, T::narrow(x)))
    }
}

impl<T: Narrow> DoubleEndedIterator for Widened<T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        self.values.next_back().map(T::narrow)
    }

    #[inline]
    fn nth_back(&mut self, n: usize) -> Option<T> {
        self.values.nth_back(n).map(T::narrow)
    }
}

impl<T: Narrow> ExactSizeIterator for Widened<T> {}

indexed_inclusive!(u8, u16, u32, i8, i16, i32);

/// Not indexed (the length may not fit a `usize`): driven as the
/// half-open range, plus the last value when it is the type's maximum.
macro_rules! wide_inclusive {
    ($($t:ty),*) => {$(
        impl RangeInteger for $t {
            fn drive_unindexed<C: UnindexedConsumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                match iter.bounds() {
                    None => crate::iter::empty().drive_unindexed(consumer),
                    Some((start, end)) if end < <$t>::MAX => {
                        (start..end + 1).into_par_iter().drive_unindexed(consumer)
                    }
                    Some((start, end)) => (start..end)
                        .into_par_iter()
                        .chain(once(end))
                        .drive_unindexed(consumer),
                }
            }

            fn opt_len(iter: &Iter<$t>) -> Option<usize> {
                match iter.bounds() {
                    None => Some(0),
                    Some((start, end)) => {
                        let span = (end as u128).wrapping_sub(start as u128);
                        usize::try_from(span).ok()?.checked_add(1)
                    }
                }
            }
        }
    )*};
}

wide_inclusive!(u64, i64, usize, isize, u128, i128);

impl Iter<char> {
    /// The same `char`s as a half-open range (plus the last, if it is
    /// `char::MAX`).
    fn as_exclusive(
        &self,
    ) -> crate::iter::Chain<crate::range::Iter<char>, crate::option::IntoIter<char>> {
        let (range, last) = match self.bounds() {
            None => ('\0'..'\0', None),
            Some((start, char::MAX)) => (start..char::MAX, Some(char::MAX)),
            Some((start, end)) => {
                let after = char::from_u32(end as u32 + 1)
                    .unwrap_or(char::from_u32(0xE000).expect("U+E000 is a char"));
                (start..after, None)
            }
        };
        range.into_par_iter().chain(last)
    }
}

impl RangeInteger for char {
    fn drive_unindexed<C: UnindexedConsumer<char>>(iter: Iter<char>, consumer: C) -> C::Result {
        iter.as_exclusive().drive(consumer)
    }

    fn opt_len(iter: &Iter<char>) -> Option<usize> {
        Some(iter.len())
    }
}

impl IndexedRangeInteger for char {
    fn drive<C: Consumer<char>>(iter: Iter<char>, consumer: C) -> C::Result {
        iter.as_exclusive().drive(consumer)
    }

    fn len(iter: &Iter<char>) -> usize {
        iter.as_exclusive().len()
    }

    fn with_producer<CB: ProducerCallback<char>>(iter: Iter<char>, callback: CB) -> CB::Output {
        iter.as_exclusive().with_producer(callback)
    }
}
