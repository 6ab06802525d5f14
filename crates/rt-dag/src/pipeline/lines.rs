//! A table that grows by segments as a pipeline's lines come into use, so
//! that what a pipeline sets up is proportional to the lines its items
//! actually use: `min(lines, items)`, however many lines it may have.
//!
//! Segment `k` holds entries `2^k - 1 .. 2^(k+1) - 1`; a segment, once
//! made, never moves, so an entry can be read while later segments are
//! being added. Growth takes a lock; reads take none.

use std::ptr;
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Enough segments for every index a `usize` can hold.
const SEGMENTS: usize = usize::BITS as usize;

/// Entries made on demand, in segments that never move.
pub(crate) struct LineTable<T> {
    segments: [AtomicPtr<T>; SEGMENTS],
    /// How many entries are made: a prefix of the indices.
    len: AtomicUsize,
    grow: Mutex<()>,
}

// SAFETY: the table owns its entries (`Box`es it made); sharing it shares
// `&T`s, moving it moves `T`s.
unsafe impl<T: Send + Sync> Sync for LineTable<T> {}
// SAFETY: as above.
unsafe impl<T: Send> Send for LineTable<T> {}

/// The segment of entry `index`, and its place in that segment.
fn locate(index: usize) -> (usize, usize) {
    let n = index + 1;
    let segment = (usize::BITS - 1 - n.leading_zeros()) as usize;
    (segment, n - (1 << segment))
}

impl<T> LineTable<T> {
    pub(crate) fn new() -> Self {
        Self {
            segments: std::array::from_fn(|_| AtomicPtr::new(ptr::null_mut())),
            len: AtomicUsize::new(0),
            grow: Mutex::new(()),
        }
    }

    /// How many entries are made (every index below it can be read).
    pub(crate) fn len(&self) -> usize {
        self.len.load(Ordering::Acquire)
    }

    /// Makes entries (with `make`, given each index) until there are at
    /// least `n`; at most twice as many as asked for in all.
    pub(crate) fn ensure(&self, n: usize, mut make: impl FnMut(usize) -> T) {
        if self.len() >= n {
            return;
        }
        let _grow = self.grow.lock().unwrap_or_else(|e| e.into_inner());
        let mut len = self.len.load(Ordering::Relaxed);
        while len < n {
            let (segment, _) = locate(len);
            let size = 1usize << segment;
            let entries: Box<[T]> = (len..len + size).map(&mut make).collect();
            let first = Box::into_raw(entries).cast::<T>();
            self.segments[segment].store(first, Ordering::Release);
            len += size;
            self.len.store(len, Ordering::Release);
        }
    }

    /// Entry `index`, which must have been made (`index < len()`, as seen
    /// by this thread through the `ensure` that made it).
    #[inline]
    pub(crate) fn get(&self, index: usize) -> &T {
        let (segment, offset) = locate(index);
        let first = self.segments[segment].load(Ordering::Acquire);
        assert!(!first.is_null(), "line {index} used before it was set up");
        // SAFETY: the segment holds `2^segment` entries, `offset` is below
        // that, and segments live as long as the table.
        unsafe { &*first.add(offset) }
    }

    /// Every entry made, in index order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
}

impl<T> Drop for LineTable<T> {
    fn drop(&mut self) {
        for (segment, first) in self.segments.iter_mut().enumerate() {
            let first = *first.get_mut();
            if !first.is_null() {
                let entries = ptr::slice_from_raw_parts_mut(first, 1usize << segment);
                // SAFETY: made by `ensure` from a `Box<[T]>` of this length,
                // dropped once, here.
                drop(unsafe { Box::from_raw(entries) });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_made_in_doubling_segments_and_keep_their_place() {
        let table = LineTable::new();
        table.ensure(1, |i| i);
        assert_eq!(table.len(), 1);
        let first: *const usize = table.get(0);
        table.ensure(5, |i| i);
        assert_eq!(table.len(), 7);
        assert!(ptr::eq(first, table.get(0)));
        assert_eq!(
            table.iter().copied().collect::<Vec<_>>(),
            (0..7).collect::<Vec<_>>()
        );
    }
}
