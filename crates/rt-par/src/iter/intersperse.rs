//! `intersperse`: a clone of an element between every two items. Indexed,
//! it is an interleaving of the items with copies of the element. Not
//! indexed, every piece but the leftmost puts a copy before its first item
//! (so a leftmost piece with no items would leave a copy in front).

use std::cell::Cell;

use super::interleave::Interleave;
use super::plumbing::{Consumer, Folder, ProducerCallback, UnindexedConsumer};
use super::{repeat_n, IndexedParallelIterator, ParallelIterator};

/// The iterator of [`ParallelIterator::intersperse`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Intersperse<I: ParallelIterator> {
    base: I,
    item: I::Item,
}

impl<I: ParallelIterator> Intersperse<I> {
    pub(crate) fn new(base: I, item: I::Item) -> Self {
        Intersperse { base, item }
    }
}

/// How many items `len` items give with copies between them.
fn with_separators(len: usize) -> usize {
    len.saturating_mul(2).saturating_sub(1)
}

impl<I> ParallelIterator for Intersperse<I>
where
    I: ParallelIterator,
    I::Item: Clone,
{
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let Intersperse { base, item } = self;
        base.drive_unindexed(IntersperseConsumer {
            base: consumer,
            item,
            copy_first: Cell::new(false),
        })
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len().map(with_separators)
    }
}

impl<I> IndexedParallelIterator for Intersperse<I>
where
    I: IndexedParallelIterator,
    I::Item: Clone,
{
    fn drive<C: Consumer<I::Item>>(self, consumer: C) -> C::Result {
        self.into_interleave().drive(consumer)
    }

    fn len(&self) -> usize {
        with_separators(self.base.len())
    }

    fn with_producer<CB: ProducerCallback<I::Item>>(self, callback: CB) -> CB::Output {
        self.into_interleave().with_producer(callback)
    }
}

impl<I> Intersperse<I>
where
    I: IndexedParallelIterator,
    I::Item: Clone,
{
    fn into_interleave(self) -> Interleave<I, super::RepeatN<I::Item>> {
        let copies = repeat_n(self.item, self.base.len().saturating_sub(1));
        Interleave::new(self.base, copies)
    }
}

/// Consumer and folder: `copy_first` says whether a copy goes before the
/// first item of this piece.
struct IntersperseConsumer<C, T> {
    base: C,
    item: T,
    copy_first: Cell<bool>,
}

impl<T: Clone + Send, C: Consumer<T>> Consumer<T> for IntersperseConsumer<C, T> {
    type Folder = IntersperseConsumer<C::Folder, T>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        // The first `index` items give `2 * index - 1` items, plus the copy
        // in front if there is one.
        let copy_first = self.copy_first.get();
        let left_out = match index {
            0 => 0,
            n => 2 * n - 1 + usize::from(copy_first),
        };
        let (left, right, reducer) = self.base.split_at(left_out);
        let left = IntersperseConsumer {
            base: left,
            item: self.item.clone(),
            copy_first: Cell::new(copy_first),
        };
        let right = IntersperseConsumer {
            base: right,
            item: self.item,
            copy_first: Cell::new(copy_first || index > 0),
        };
        (left, right, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        IntersperseConsumer {
            base: self.base.into_folder(),
            item: self.item,
            copy_first: self.copy_first,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

impl<T: Clone + Send, C: UnindexedConsumer<T>> UnindexedConsumer<T> for IntersperseConsumer<C, T> {
    fn split_off_left(&self) -> Self {
        // What follows the left part needs a copy before its first item.
        let left = IntersperseConsumer {
            base: self.base.split_off_left(),
            item: self.item.clone(),
            copy_first: Cell::new(self.copy_first.get()),
        };
        self.copy_first.set(true);
        left
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T: Clone, F: Folder<T>> Folder<T> for IntersperseConsumer<F, T> {
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        if self.copy_first.get() {
            self.base = self.base.consume(self.item.clone());
            if self.base.full() {
                return self;
            }
        }
        self.base = self.base.consume(item);
        self.copy_first.set(true);
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}
