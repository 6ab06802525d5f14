//! Parallel iterators over `Range<T>` of every primitive integer.
//!
//! Ranges whose length fits a `usize` (every type up to 64 bits) are
//! indexed. `u128` and `i128` ranges are driven by index when their length
//! fits, and otherwise by halving, so `0..u128::MAX` works (searches on it
//! end as soon as the match is reached).
//!
//! A range splits, and skips any number of its values, in O(1): its pieces
//! iterate as the standard library's ranges, whose `nth` and `nth_back`
//! jump (so `step_by`, `skip`, `take` and `rev` cost nothing for the
//! values they pass over).

use std::ops::Range;

use crate::iter::plumbing::{
    bridge, bridge_unindexed, Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer,
    UnindexedProducer,
};
use crate::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The iterator of `(a..b).into_par_iter()`.
///
/// ```
/// use rt_par::prelude::*;
/// assert_eq!((0..10u8).into_par_iter().map(u32::from).sum::<u32>(), 45);
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Iter<T> {
    range: Range<T>,
}

impl<T> IntoParallelIterator for Range<T>
where
    Iter<T>: ParallelIterator,
{
    type Iter = Iter<T>;
    type Item = <Iter<T> as ParallelIterator>::Item;

    fn into_par_iter(self) -> Iter<T> {
        Iter { range: self }
    }
}

mod private {
    use super::Iter;
    use crate::iter::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};

    /// A type whose ranges are parallel iterators (sealed). One generic
    /// impl of the iterator traits over it lets the item type be inferred
    /// from how the items are used, as in rayon.
    pub trait RangeInteger: Sized + Send {
        fn drive_unindexed<C: UnindexedConsumer<Self>>(iter: Iter<Self>, consumer: C) -> C::Result;
        fn opt_len(iter: &Iter<Self>) -> Option<usize>;
    }

    /// A type whose ranges are indexed parallel iterators (sealed).
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

/// A sequential range with an exact length (std's `Range<u64>` has none):
/// the producer of an indexed range, and its iterator.
#[derive(Debug, Clone)]
pub(crate) struct SeqRange<T>(pub(crate) Range<T>);

macro_rules! indexed_range {
    ($($t:ty => $unsigned:ty),*) => {$(
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
                range_len_u128(iter.range.start as i128, iter.range.end as i128) as usize
            }

            fn with_producer<CB: ProducerCallback<$t>>(iter: Iter<$t>, callback: CB) -> CB::Output {
                callback.callback(SeqRange(iter.range))
            }
        }

        impl Producer for SeqRange<$t> {
            type Item = $t;
            type IntoIter = Self;

            fn into_iter(self) -> Self {
                self
            }

            fn split_at(self, index: usize) -> (Self, Self) {
                let Range { start, end } = self.0;
                let middle = start.wrapping_add(index as $unsigned as $t);
                (SeqRange(start..middle), SeqRange(middle..end))
            }

            fn fold_with<F: Folder<$t>>(self, folder: F) -> F {
                folder.consume_iter(self.0)
            }
        }

        impl Iterator for SeqRange<$t> {
            type Item = $t;

            #[inline]
            fn next(&mut self) -> Option<$t> {
                self.0.next()
            }

            /// O(1), as std's range's.
            #[inline]
            fn nth(&mut self, n: usize) -> Option<$t> {
                self.0.nth(n)
            }

            fn count(self) -> usize {
                self.len()
            }

            fn last(mut self) -> Option<$t> {
                self.0.next_back()
            }

            fn size_hint(&self) -> (usize, Option<usize>) {
                let len = range_len_u128(self.0.start as i128, self.0.end as i128) as usize;
                (len, Some(len))
            }

            #[inline]
            fn fold<B, G: FnMut(B, $t) -> B>(self, init: B, g: G) -> B {
                self.0.fold(init, g)
            }
        }

        impl DoubleEndedIterator for SeqRange<$t> {
            #[inline]
            fn next_back(&mut self) -> Option<$t> {
                self.0.next_back()
            }

            /// O(1), as std's range's.
            #[inline]
            fn nth_back(&mut self, n: usize) -> Option<$t> {
                self.0.nth_back(n)
            }
        }

        impl ExactSizeIterator for SeqRange<$t> {}
    )*};
}

fn range_len_u128(start: i128, end: i128) -> u128 {
    if end > start {
        (end - start) as u128
    } else {
        0
    }
}

#[cfg(target_pointer_width = "64")]
indexed_range! {
    u8 => u8, u16 => u16, u32 => u32, u64 => u64, usize => usize,
    i8 => u8, i16 => u16, i32 => u32, i64 => u64, isize => usize
}

#[cfg(not(target_pointer_width = "64"))]
compile_error!("rt-par supports 64-bit targets only");

macro_rules! wide_range {
    ($($t:ty),*) => {$(
        impl RangeInteger for $t {
            fn drive_unindexed<C: UnindexedConsumer<$t>>(iter: Iter<$t>, consumer: C) -> C::Result {
                let start = iter.range.start;
                match iter.opt_len() {
                    Some(len) => (0..len)
                        .into_par_iter()
                        .map(move |i| start.wrapping_add(i as $t))
                        .drive(consumer),
                    None => bridge_unindexed(WideRange(iter.range), consumer),
                }
            }

            fn opt_len(iter: &Iter<$t>) -> Option<usize> {
                usize::try_from(wide_len(&iter.range)).ok()
            }
        }

        impl WideLen for $t {
            fn len_of(range: &Range<$t>) -> u128 {
                if range.end > range.start {
                    range.end.wrapping_sub(range.start) as u128
                } else {
                    0
                }
            }
        }

        impl UnindexedProducer for WideRange<$t> {
            type Item = $t;

            fn split(self) -> (Self, Option<Self>) {
                let half = wide_len(&self.0) / 2;
                if half == 0 {
                    return (self, None);
                }
                let Range { start, end } = self.0;
                let middle = start.wrapping_add(half as $t);
                (WideRange(start..middle), Some(WideRange(middle..end)))
            }

            fn fold_with<F: Folder<$t>>(self, folder: F) -> F {
                folder.consume_iter(self.0)
            }
        }
    )*};
}

trait WideLen: Sized {
    fn len_of(range: &Range<Self>) -> u128;
}

fn wide_len<T: WideLen>(range: &Range<T>) -> u128 {
    T::len_of(range)
}

/// A `u128`/`i128` range too long to index: split in halves.
struct WideRange<T>(Range<T>);

wide_range!(u128, i128);

/// The first and the past-the-end code points of the surrogate gap, which
/// no `char` has.
const SURROGATES: Range<u32> = 0xD800..0xE000;

/// Runs `$method` on the code points of a `char` range as a parallel
/// iterator of `char`s: one `u32` range, or two around the surrogate gap.
macro_rules! by_code_points {
    ($range:expr, $method:ident($($arg:expr),*)) => {{
        let (start, end) = ($range.start as u32, $range.end as u32);
        // SAFETY: every value comes from `start..end` minus the surrogate
        // gap, with `start` and `end` from `char`s, so it is a `char`.
        let to_char = |c: u32| unsafe { char::from_u32_unchecked(c) };
        if start < SURROGATES.start && SURROGATES.end <= end {
            (start..SURROGATES.start)
                .into_par_iter()
                .chain(SURROGATES.end..end)
                .map(to_char)
                .$method($($arg),*)
        } else {
            (start..end).into_par_iter().map(to_char).$method($($arg),*)
        }
    }};
}

impl RangeInteger for char {
    fn drive_unindexed<C: UnindexedConsumer<char>>(iter: Iter<char>, consumer: C) -> C::Result {
        by_code_points!(iter.range, drive(consumer))
    }

    fn opt_len(iter: &Iter<char>) -> Option<usize> {
        Some(iter.len())
    }
}

impl IndexedRangeInteger for char {
    fn drive<C: Consumer<char>>(iter: Iter<char>, consumer: C) -> C::Result {
        by_code_points!(iter.range, drive(consumer))
    }

    fn len(iter: &Iter<char>) -> usize {
        let (start, end) = (iter.range.start as u32, iter.range.end as u32);
        if start >= end {
            return 0;
        }
        let gap = SURROGATES
            .end
            .min(end)
            .saturating_sub(SURROGATES.start.max(start));
        (end - start - gap) as usize
    }

    fn with_producer<CB: ProducerCallback<char>>(iter: Iter<char>, callback: CB) -> CB::Output {
        by_code_points!(iter.range, with_producer(callback))
    }
}
