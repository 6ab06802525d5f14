//! Collecting into a `Vec`. When the length is known up front every piece
//! writes its items straight into their final places in the vector's spare
//! capacity ([`CollectConsumer`]); otherwise every piece fills a `Vec` of
//! its own and the pieces, kept in order in a linked list, are appended.

use std::collections::LinkedList;
use std::marker::PhantomData;
use std::mem;
use std::ptr;

use super::plumbing::{Consumer, Folder, Reducer, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

pub(super) fn collect_into_vec<I: IndexedParallelIterator>(iter: I, target: &mut Vec<I::Item>) {
    target.clear();
    let len = iter.len();
    collect_with_consumer(target, len, |consumer| iter.drive(consumer));
}

/// Appends `iter`'s items to `target`, in order.
pub(super) fn extend_vec<I: ParallelIterator>(target: &mut Vec<I::Item>, iter: I) {
    match iter.opt_len() {
        Some(len) => collect_with_consumer(target, len, |consumer| iter.drive_unindexed(consumer)),
        None => {
            let pieces = collect_pieces(iter);
            target.reserve(pieces.iter().map(Vec::len).sum());
            for mut piece in pieces {
                target.append(&mut piece);
            }
        }
    }
}

/// Every piece's items in a `Vec`, the pieces in order.
pub(crate) fn collect_pieces<I: ParallelIterator>(iter: I) -> LinkedList<Vec<I::Item>> {
    iter.drive_unindexed(ListVecConsumer(PhantomData))
}

/// Writes `len` items through the consumer `drive` is given into the spare
/// capacity of `target`, then makes them part of it; panics if the driver
/// wrote another number of items.
fn collect_with_consumer<T: Send>(
    target: &mut Vec<T>,
    len: usize,
    drive: impl FnOnce(CollectConsumer<'_, T>) -> CollectResult<'_, T>,
) {
    target.reserve(len);
    let start = target.len();
    // SAFETY: `reserve` made room for `len` more items after `start`.
    let first = unsafe { target.as_mut_ptr().add(start) };
    let result = drive(CollectConsumer {
        start: SendPtr(first),
        len,
        marker: PhantomData,
    });
    let written = result.initialized;
    assert!(
        written == len,
        "expected {len} total writes, but got {written}"
    );
    mem::forget(result);
    // SAFETY: the result covered `first..first + len` and all of it was
    // initialised (checked above); forgetting it handed those items over.
    unsafe { target.set_len(start + len) };
}

/// A raw pointer that may cross threads: the pieces that hold one write to
/// disjoint ranges.
#[derive(Debug)]
struct SendPtr<T>(*mut T);

impl<T> Clone for SendPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SendPtr<T> {}

// SAFETY: each consumer or result that holds a `SendPtr` owns the range it
// covers; no two overlap, so sending one to another thread shares nothing.
unsafe impl<T: Send> Send for SendPtr<T> {}

/// Writes the items of one range of the target into place.
pub(super) struct CollectConsumer<'c, T> {
    start: SendPtr<T>,
    len: usize,
    marker: PhantomData<&'c mut T>,
}

impl<'c, T: Send + 'c> Consumer<T> for CollectConsumer<'c, T> {
    type Folder = CollectResult<'c, T>;
    type Reducer = CollectReducer;
    type Result = CollectResult<'c, T>;

    fn split_at(self, index: usize) -> (Self, Self, CollectReducer) {
        assert!(index <= self.len, "split past the end of a collect range");
        // SAFETY: `index <= len`, so the pointer stays within the range.
        let middle = unsafe { self.start.0.add(index) };
        let left = CollectConsumer {
            start: self.start,
            len: index,
            marker: PhantomData,
        };
        let right = CollectConsumer {
            start: SendPtr(middle),
            len: self.len - index,
            marker: PhantomData,
        };
        (left, right, CollectReducer)
    }

    fn into_folder(self) -> CollectResult<'c, T> {
        CollectResult {
            start: self.start,
            len: self.len,
            initialized: 0,
            marker: PhantomData,
        }
    }

    fn full(&self) -> bool {
        false
    }
}

impl<'c, T: Send + 'c> UnindexedConsumer<T> for CollectConsumer<'c, T> {
    fn split_off_left(&self) -> Self {
        unreachable!("a collect into place is driven by index only")
    }

    fn to_reducer(&self) -> CollectReducer {
        CollectReducer
    }
}

/// The items written so far into one range; drops them if dropped (a
/// panic elsewhere).
pub(super) struct CollectResult<'c, T> {
    start: SendPtr<T>,
    len: usize,
    initialized: usize,
    marker: PhantomData<&'c mut T>,
}

impl<'c, T> Folder<T> for CollectResult<'c, T> {
    type Result = Self;

    fn consume(mut self, item: T) -> Self {
        assert!(
            self.initialized < self.len,
            "too many values pushed to consumer"
        );
        // SAFETY: `initialized < len`: the slot lies in this result's range,
        // which nothing else writes, and holds no item yet.
        unsafe { self.start.0.add(self.initialized).write(item) };
        self.initialized += 1;
        self
    }

    fn complete(self) -> Self {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T> Drop for CollectResult<'_, T> {
    fn drop(&mut self) {
        let items = ptr::slice_from_raw_parts_mut(self.start.0, self.initialized);
        // SAFETY: the first `initialized` slots were written by this result
        // and not handed over (a handed-over result is forgotten).
        unsafe { ptr::drop_in_place(items) };
    }
}

/// Joins adjacent results into one.
pub(super) struct CollectReducer;

impl<'c, T> Reducer<CollectResult<'c, T>> for CollectReducer {
    fn reduce(
        self,
        mut left: CollectResult<'c, T>,
        right: CollectResult<'c, T>,
    ) -> CollectResult<'c, T> {
        // SAFETY: `initialized <= len` keeps the pointer within the range.
        let left_end = unsafe { left.start.0.add(left.initialized) };
        if left_end == right.start.0 {
            left.len += right.len;
            left.initialized += right.initialized;
            mem::forget(right);
        }
        // Otherwise the left piece fell short: the right one drops its
        // items and the final count check fails.
        left
    }
}

/// Collects every piece into a `Vec` of its own.
struct ListVecConsumer<T>(PhantomData<fn() -> T>);

impl<T: Send> Consumer<T> for ListVecConsumer<T> {
    type Folder = ListVecFolder<T>;
    type Reducer = ListReducer;
    type Result = LinkedList<Vec<T>>;

    fn split_at(self, _index: usize) -> (Self, Self, ListReducer) {
        (ListVecConsumer(PhantomData), self, ListReducer)
    }

    fn into_folder(self) -> ListVecFolder<T> {
        ListVecFolder(Vec::new())
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T: Send> UnindexedConsumer<T> for ListVecConsumer<T> {
    fn split_off_left(&self) -> Self {
        ListVecConsumer(PhantomData)
    }

    fn to_reducer(&self) -> ListReducer {
        ListReducer
    }
}

struct ListVecFolder<T>(Vec<T>);

impl<T> Folder<T> for ListVecFolder<T> {
    type Result = LinkedList<Vec<T>>;

    fn consume(mut self, item: T) -> Self {
        self.0.push(item);
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        self.0.extend(iter);
        self
    }

    fn complete(self) -> LinkedList<Vec<T>> {
        let mut list = LinkedList::new();
        if !self.0.is_empty() {
            list.push_back(self.0);
        }
        list
    }

    fn full(&self) -> bool {
        false
    }
}

/// Appends the right list to the left one.
pub(crate) struct ListReducer;

impl<T> Reducer<LinkedList<T>> for ListReducer {
    fn reduce(self, mut left: LinkedList<T>, mut right: LinkedList<T>) -> LinkedList<T> {
        left.append(&mut right);
        left
    }
}
