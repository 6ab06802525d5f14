//! Parallel iterators over `RangeInclusive<T>` of every primitive integer.
//!
//! Up to 32 bits the length always fits a `usize`, and the iterator is
//! indexed; wider ranges are driven as the matching half-open range (plus
//! the last value, when it is the type's maximum).

use std::ops::RangeInclusive;

use crate::iter::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use crate::iter::{once, IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

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

/// Indexed: driven as the half-open `i64` range of the same values.
macro_rules! indexed_inclusive {
    ($($t:ty),*) => {$(
        impl Iter<$t> {
            fn as_exclusive(&self) -> crate::iter::Map<crate::range::Iter<i64>, fn(i64) -> $t> {
                let (start, end) = match self.bounds() {
                    Some((start, end)) => (i64::from(start), i64::from(end) + 1),
                    None => (0, 0),
                };
                (start..end).into_par_iter().map((|x| x as $t) as fn(i64) -> $t)
            }
        }

        impl RangeInteger for $t {
            fn drive_unindexed<C: UnindexedConsumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                iter.as_exclusive().drive_unindexed(consumer)
            }

            fn opt_len(iter: &Iter<$t>) -> Option<usize> {
                Some(iter.len())
            }
        }

        impl IndexedRangeInteger for $t {
            fn drive<C: Consumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                iter.as_exclusive().drive(consumer)
            }

            fn len(iter: &Iter<$t>) -> usize {
                iter.bounds()
                    .map_or(0, |(start, end)| (i64::from(end) - i64::from(start) + 1) as usize)
            }

            fn with_producer<CB: ProducerCallback<$t>>(iter: Iter<$t>, callback: CB) -> CB::Output {
                iter.as_exclusive().with_producer(callback)
            }
        }
    )*};
}

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
