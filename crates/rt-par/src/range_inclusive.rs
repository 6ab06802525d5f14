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

        impl ParallelIterator for Iter<$t> {
            type Item = $t;

            fn drive_unindexed<C: UnindexedConsumer<$t>>(self, consumer: C) -> C::Result {
                self.as_exclusive().drive_unindexed(consumer)
            }

            fn opt_len(&self) -> Option<usize> {
                Some(self.len())
            }
        }

        impl IndexedParallelIterator for Iter<$t> {
            fn drive<C: Consumer<$t>>(self, consumer: C) -> C::Result {
                self.as_exclusive().drive(consumer)
            }

            fn len(&self) -> usize {
                self.bounds()
                    .map_or(0, |(start, end)| (i64::from(end) - i64::from(start) + 1) as usize)
            }

            fn with_producer<CB: ProducerCallback<$t>>(self, callback: CB) -> CB::Output {
                self.as_exclusive().with_producer(callback)
            }
        }
    )*};
}

indexed_inclusive!(u8, u16, u32, i8, i16, i32);

macro_rules! wide_inclusive {
    ($($t:ty),*) => {$(
        impl ParallelIterator for Iter<$t> {
            type Item = $t;

            fn drive_unindexed<C: UnindexedConsumer<$t>>(self, consumer: C) -> C::Result {
                match self.bounds() {
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

            fn opt_len(&self) -> Option<usize> {
                match self.bounds() {
                    None => Some(0),
                    Some((start, end)) => {
                        let span = (end as i128).abs_diff(start as i128);
                        usize::try_from(span).ok()?.checked_add(1)
                    }
                }
            }
        }
    )*};
}

wide_inclusive!(u64, i64, usize, isize);

macro_rules! widest_inclusive {
    ($($t:ty),*) => {$(
        impl ParallelIterator for Iter<$t> {
            type Item = $t;

            fn drive_unindexed<C: UnindexedConsumer<$t>>(self, consumer: C) -> C::Result {
                match self.bounds() {
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

            fn opt_len(&self) -> Option<usize> {
                let (start, end) = self.bounds()?;
                let span = end.wrapping_sub(start) as u128;
                usize::try_from(span).ok()?.checked_add(1)
            }
        }
    )*};
}

widest_inclusive!(u128, i128);

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

impl ParallelIterator for Iter<char> {
    type Item = char;

    fn drive_unindexed<C: UnindexedConsumer<char>>(self, consumer: C) -> C::Result {
        self.as_exclusive().drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl IndexedParallelIterator for Iter<char> {
    fn drive<C: Consumer<char>>(self, consumer: C) -> C::Result {
        self.as_exclusive().drive(consumer)
    }

    fn len(&self) -> usize {
        self.as_exclusive().len()
    }

    fn with_producer<CB: ProducerCallback<char>>(self, callback: CB) -> CB::Output {
        self.as_exclusive().with_producer(callback)
    }
}
