//! Parallel iterators over a `Vec` by value (and arrays, which become
//! one). The vector's items are handed to the producers, which move them
//! out as they go and drop what they never yield; the vector keeps only
//! its allocation.

use std::mem;
use std::ptr;

use crate::iter::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use crate::iter::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};
use crate::slice::{Iter, IterMut};

/// The iterator of `vec.into_par_iter()`.
///
/// ```
/// use rt_par::prelude::*;
/// let v = vec![String::from("a"), String::from("b")];
/// let joined: String = v.into_par_iter().collect();
/// assert_eq!(joined, "ab");
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct IntoIter<T> {
    vec: Vec<T>,
}

impl<T: Send> IntoParallelIterator for Vec<T> {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter { vec: self }
    }
}

impl<'data, T: Sync + 'data> IntoParallelIterator for &'data Vec<T> {
    type Iter = Iter<'data, T>;
    type Item = &'data T;

    fn into_par_iter(self) -> Iter<'data, T> {
        self.as_slice().into_par_iter()
    }
}

impl<'data, T: Send + 'data> IntoParallelIterator for &'data mut Vec<T> {
    type Iter = IterMut<'data, T>;
    type Item = &'data mut T;

    fn into_par_iter(self) -> IterMut<'data, T> {
        self.as_mut_slice().into_par_iter()
    }
}

impl<T: Send, const N: usize> IntoParallelIterator for [T; N] {
    type Iter = IntoIter<T>;
    type Item = T;

    fn into_par_iter(self) -> IntoIter<T> {
        IntoIter {
            vec: Vec::from(self),
        }
    }
}

impl<'data, T: Sync + 'data, const N: usize> IntoParallelIterator for &'data [T; N] {
    type Iter = Iter<'data, T>;
    type Item = &'data T;

    fn into_par_iter(self) -> Iter<'data, T> {
        self.as_slice().into_par_iter()
    }
}

impl<'data, T: Send + 'data, const N: usize> IntoParallelIterator for &'data mut [T; N] {
    type Iter = IterMut<'data, T>;
    type Item = &'data mut T;

    fn into_par_iter(self) -> IterMut<'data, T> {
        self.as_mut_slice().into_par_iter()
    }
}

indexed_by_bridge!(impl [T] IntoIter<T> => T, where [T: Send]);

impl<T: Send> IndexedParallelIterator for IntoIter<T> {
    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.vec.len()
    }

    fn with_producer<CB: ProducerCallback<T>>(mut self, callback: CB) -> CB::Output {
        let len = self.vec.len();
        // SAFETY: from here the producer owns the `len` items (the vector
        // forgets them and frees only its buffer, after the callback).
        let items = unsafe {
            self.vec.set_len(0);
            std::slice::from_raw_parts_mut(self.vec.as_mut_ptr(), len)
        };
        callback.callback(DrainProducer { items })
    }
}

/// Owns the items of its slice: moves them out when iterated, drops the
/// ones it still holds when dropped.
struct DrainProducer<'data, T> {
    items: &'data mut [T],
}

impl<'data, T: Send> Producer for DrainProducer<'data, T> {
    type Item = T;
    type IntoIter = DrainIter<'data, T>;

    fn into_iter(mut self) -> DrainIter<'data, T> {
        let items = mem::take(&mut self.items);
        DrainIter {
            iter: items.iter_mut(),
        }
    }

    fn split_at(mut self, index: usize) -> (Self, Self) {
        let (left, right) = mem::take(&mut self.items).split_at_mut(index);
        (
            DrainProducer { items: left },
            DrainProducer { items: right },
        )
    }
}

impl<T> Drop for DrainProducer<'_, T> {
    fn drop(&mut self) {
        // SAFETY: the producer owns the items still in its slice.
        unsafe { ptr::drop_in_place(mem::take(&mut self.items) as *mut [T]) };
    }
}

/// Moves the items out of a slice it owns; drops the rest when dropped.
struct DrainIter<'data, T> {
    iter: std::slice::IterMut<'data, T>,
}

impl<T> Iterator for DrainIter<'_, T> {
    type Item = T;

    #[inline]
    fn next(&mut self) -> Option<T> {
        let slot = self.iter.next()?;
        // SAFETY: the iterator owns the item, and advancing past the slot
        // hands it over: it is read once and never dropped here.
        Some(unsafe { ptr::read(slot) })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl<T> DoubleEndedIterator for DrainIter<'_, T> {
    #[inline]
    fn next_back(&mut self) -> Option<T> {
        let slot = self.iter.next_back()?;
        // SAFETY: as in `next`.
        Some(unsafe { ptr::read(slot) })
    }
}

impl<T> ExactSizeIterator for DrainIter<'_, T> {}

impl<T> Drop for DrainIter<'_, T> {
    fn drop(&mut self) {
        let rest = mem::take(&mut self.iter).into_slice();
        // SAFETY: the items not yet yielded are still owned here.
        unsafe { ptr::drop_in_place(rest as *mut [T]) };
    }
}

impl<'data, T: Send> crate::iter::ParallelDrainRange<usize> for &'data mut Vec<T> {
    type Iter = Drain<'data, T>;
    type Item = T;

    fn par_drain<R: std::ops::RangeBounds<usize>>(self, range: R) -> Drain<'data, T> {
        let len = self.len();
        let start = match range.start_bound() {
            std::ops::Bound::Included(&s) => s,
            std::ops::Bound::Excluded(&s) => s.checked_add(1).expect("range start overflows"),
            std::ops::Bound::Unbounded => 0,
        };
        let end = match range.end_bound() {
            std::ops::Bound::Included(&e) => e.checked_add(1).expect("range end overflows"),
            std::ops::Bound::Excluded(&e) => e,
            std::ops::Bound::Unbounded => len,
        };
        assert!(
            start <= end,
            "drain range starts at {start} but ends at {end}"
        );
        assert!(
            end <= len,
            "drain range ends at {end} but the vector has {len} items"
        );
        Drain {
            vec: self,
            range: start..end,
            original_len: len,
            handed_over: false,
        }
    }
}

/// The iterator of `vec.par_drain(range)`: the items of `range`, moved out;
/// when dropped, the vector's later items move down to close the gap.
#[derive(Debug)]
#[must_use = "iterators do nothing unless consumed"]
pub struct Drain<'data, T> {
    vec: &'data mut Vec<T>,
    range: std::ops::Range<usize>,
    /// The vector's length before the drain.
    original_len: usize,
    /// Whether a producer took the drained items over.
    handed_over: bool,
}

impl<T: Send> ParallelIterator for Drain<'_, T> {
    type Item = T;

    fn drive_unindexed<C: UnindexedConsumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.range.len())
    }
}

impl<T: Send> IndexedParallelIterator for Drain<'_, T> {
    fn drive<C: Consumer<T>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.range.len()
    }

    fn with_producer<CB: ProducerCallback<T>>(mut self, callback: CB) -> CB::Output {
        let std::ops::Range { start, end } = self.range.clone();
        // The vector keeps only `..start` as its own from here; the drained
        // items go to the producer, and `Drop` moves `end..` down afterwards.
        // SAFETY: `start..end` are initialised items the producer moves out or
        // drops once each, and nothing else touches the vector meanwhile.
        let items = unsafe {
            self.vec.set_len(start);
            std::slice::from_raw_parts_mut(self.vec.as_mut_ptr().add(start), end - start)
        };
        self.handed_over = true;
        callback.callback(DrainProducer { items })
    }
}

impl<T> Drop for Drain<'_, T> {
    fn drop(&mut self) {
        let std::ops::Range { start, end } = self.range.clone();
        if !self.handed_over {
            self.vec.drain(start..end);
            return;
        }
        // The vector's length is `start`; its items `end..original_len` are
        // still in place behind the drained gap.
        let tail = self.original_len - end;
        // Moving the tail to `start` and setting the length re-owns exactly
        // the tail's items.
        // SAFETY: `end..original_len` holds the initialised tail, and the
        // producer moved out or dropped every item of the gap.
        unsafe {
            let base = self.vec.as_mut_ptr();
            ptr::copy(base.add(end), base.add(start), tail);
            self.vec.set_len(start + tail);
        }
    }
}
