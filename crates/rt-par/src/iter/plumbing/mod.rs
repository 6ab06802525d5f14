//! The traits a parallel iterator is built from, and the driver that runs
//! them (rayon's `plumbing`, same names and shapes).
//!
//! A *producer* owns the items and can split itself: a [`Producer`] at any
//! index (indexed iterators), an [`UnindexedProducer`] in two halves of its
//! choosing. A *consumer* receives them: it splits alongside the producer
//! ([`Consumer::split_at`], [`UnindexedConsumer::split_off_left`]), turns
//! into a sequential [`Folder`] for one piece, and its [`Reducer`] combines
//! the results of two adjacent pieces, left then right. Adapters wrap one
//! or the other; [`bridge`] connects the two and decides where to split.

mod bridge;
mod in_order;
mod splitter;

pub use bridge::{bridge, bridge_producer_consumer, bridge_unindexed};

/// A sequential consumer of one piece's items.
pub trait Folder<Item>: Sized {
    /// What the piece produces.
    type Result;

    /// Consumes one item.
    fn consume(self, item: Item) -> Self;

    /// Consumes items until the iterator ends or the folder is
    /// [`full`](Self::full).
    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = Item>,
    {
        consume_each(self, iter)
    }

    /// Ends the piece.
    fn complete(self) -> Self::Result;

    /// Whether more items would change nothing (a search found its match).
    fn full(&self) -> bool;
}

/// [`Folder::consume_iter`] as the trait gives it: each item through
/// [`consume`](Folder::consume) until the iterator ends or the folder is
/// [`full`](Folder::full).
pub(crate) fn consume_each<Item, F: Folder<Item>>(
    mut folder: F,
    iter: impl IntoIterator<Item = Item>,
) -> F {
    for item in iter {
        folder = folder.consume(item);
        if folder.full() {
            break;
        }
    }
    folder
}

/// Combines the results of two adjacent pieces.
pub trait Reducer<Result> {
    /// `left` came from the items before `right`'s.
    fn reduce(self, left: Result, right: Result) -> Result;
}

/// The receiving end of an indexed parallel iterator.
pub trait Consumer<Item>: Send + Sized {
    /// The folder of one piece.
    type Folder: Folder<Item, Result = Self::Result>;
    /// Combines two pieces' results.
    type Reducer: Reducer<Self::Result>;
    /// What the whole iterator produces.
    type Result: Send;

    /// Splits into a consumer of the first `index` items and one of the
    /// rest, and the reducer that combines their results.
    fn split_at(self, index: usize) -> (Self, Self, Self::Reducer);

    /// The folder for a piece that will not be split further.
    fn into_folder(self) -> Self::Folder;

    /// Whether more items would change nothing.
    fn full(&self) -> bool;

    /// Whether this consumer wants the items nearest the front searched
    /// first (`find_first`, `position_first`): the driver then has the
    /// workers claim pieces of the items in order, instead of giving one
    /// the back half at once. `false` unless a consumer says otherwise; a
    /// consumer that wraps another answers for it.
    fn front_first(&self) -> bool {
        false
    }
}

/// A consumer that can also split without knowing where.
pub trait UnindexedConsumer<I>: Consumer<I> {
    /// A consumer for items that come before all of `self`'s.
    fn split_off_left(&self) -> Self;

    /// The reducer for `split_off_left`'s result and `self`'s.
    fn to_reducer(&self) -> Self::Reducer;
}

/// The items of an indexed parallel iterator, splittable at any index.
pub trait Producer: Send + Sized {
    /// The items.
    type Item;
    /// The sequential iterator over them.
    type IntoIter: Iterator<Item = Self::Item> + DoubleEndedIterator + ExactSizeIterator;

    /// The items as a sequential iterator.
    fn into_iter(self) -> Self::IntoIter;

    /// The fewest items a piece should have.
    fn min_len(&self) -> usize {
        1
    }

    /// The most items a piece should have.
    fn max_len(&self) -> usize {
        usize::MAX
    }

    /// The first `index` items and the rest.
    fn split_at(self, index: usize) -> (Self, Self);

    /// Feeds every item to `folder`.
    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>,
    {
        folder.consume_iter(self.into_iter())
    }
}

/// The items of a parallel iterator that splits where it can.
pub trait UnindexedProducer: Send + Sized {
    /// The items.
    type Item;

    /// Two halves, or `self` alone if it cannot split.
    fn split(self) -> (Self, Option<Self>);

    /// Feeds every item to `folder`.
    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>;
}

/// What [`IndexedParallelIterator::with_producer`](crate::iter::IndexedParallelIterator::with_producer)
/// hands the producer to.
pub trait ProducerCallback<T> {
    /// What the callback returns.
    type Output;

    /// Called with the iterator's producer.
    fn callback<P>(self, producer: P) -> Self::Output
    where
        P: Producer<Item = T>;
}

/// The reducer that ignores both results (`()`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NoopReducer;

impl Reducer<()> for NoopReducer {
    fn reduce(self, _left: (), _right: ()) {}
}

/// A consumer that drops every item: runs a producer for its effects.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct NoopConsumer;

impl<T> Consumer<T> for NoopConsumer {
    type Folder = NoopConsumer;
    type Reducer = NoopReducer;
    type Result = ();

    fn split_at(self, _index: usize) -> (Self, Self, NoopReducer) {
        (NoopConsumer, NoopConsumer, NoopReducer)
    }

    fn into_folder(self) -> Self {
        self
    }

    fn full(&self) -> bool {
        false
    }
}

impl<T> UnindexedConsumer<T> for NoopConsumer {
    fn split_off_left(&self) -> Self {
        NoopConsumer
    }

    fn to_reducer(&self) -> NoopReducer {
        NoopReducer
    }
}

impl<T> Folder<T> for NoopConsumer {
    type Result = ();

    fn consume(self, _item: T) -> Self {
        self
    }

    /// Runs the items through `next` (for their effects) with `nth`, which
    /// an iterator with nothing to run, such as a range, answers in O(1).
    fn consume_iter<I: IntoIterator<Item = T>>(self, iter: I) -> Self {
        let mut iter = iter.into_iter();
        while iter.nth(usize::MAX).is_some() {}
        self
    }

    fn complete(self) {}

    fn full(&self) -> bool {
        false
    }
}
