//! `find_any`, `find_first` and `find_last`.
//!
//! `find_any` stops every piece once any finds a match. `find_first`
//! (`find_last`) gives every consumer a slice `lower..upper` of a virtual
//! index space that halves at each split, in the order of the items (the
//! index a driver cuts at is not used: through a `flat_map` it counts
//! outer items, not the items searched). A piece that finds a match
//! publishes its bound in `best`, and a piece whose bound is
//! already beaten (further right for `find_first`) stops: what it could
//! find would lose. So a search over the longest range ends as soon as the
//! pieces before the match have run. `find_first` also asks the indexed
//! driver for the front first ([`Consumer::front_first`]): the workers
//! claim pieces in order, and reach a match near the front together.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::plumbing::{consume_each, Consumer, Folder, Reducer, UnindexedConsumer};
use super::ParallelIterator;

pub(super) fn find_any<I, P>(iter: I, predicate: &P) -> Option<I::Item>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync,
{
    let found = AtomicBool::new(false);
    iter.drive_unindexed(FindAny {
        predicate,
        found: &found,
    })
}

struct FindAny<'p, P> {
    predicate: &'p P,
    found: &'p AtomicBool,
}

impl<P> Clone for FindAny<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<P> Copy for FindAny<'_, P> {}

impl<'p, T: Send, P: Fn(&T) -> bool + Sync> Consumer<T> for FindAny<'p, P> {
    type Folder = FindAnyFolder<'p, P, T>;
    type Reducer = FirstSome;
    type Result = Option<T>;

    fn split_at(self, _index: usize) -> (Self, Self, FirstSome) {
        (self, self, FirstSome)
    }

    fn into_folder(self) -> Self::Folder {
        FindAnyFolder {
            predicate: self.predicate,
            found: self.found,
            item: None,
        }
    }

    fn full(&self) -> bool {
        self.found.load(Ordering::Relaxed)
    }
}

impl<T: Send, P: Fn(&T) -> bool + Sync> UnindexedConsumer<T> for FindAny<'_, P> {
    fn split_off_left(&self) -> Self {
        *self
    }

    fn to_reducer(&self) -> FirstSome {
        FirstSome
    }
}

struct FindAnyFolder<'p, P, T> {
    predicate: &'p P,
    found: &'p AtomicBool,
    item: Option<T>,
}

impl<T, P: Fn(&T) -> bool> Folder<T> for FindAnyFolder<'_, P, T> {
    type Result = Option<T>;

    fn consume(mut self, item: T) -> Self {
        if (self.predicate)(&item) {
            self.found.store(true, Ordering::Relaxed);
            self.item = Some(item);
        }
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let (predicate, found) = (self.predicate, self.found);
        self.item = iter
            .into_iter()
            .take_while(|_| !found.load(Ordering::Relaxed))
            .find(|item| predicate(item));
        if self.item.is_some() {
            found.store(true, Ordering::Relaxed);
        }
        self
    }

    fn complete(self) -> Option<T> {
        self.item
    }

    fn full(&self) -> bool {
        self.item.is_some() || self.found.load(Ordering::Relaxed)
    }
}

/// Reduces two options to the left one if it is `Some`.
struct FirstSome;

impl<T> Reducer<Option<T>> for FirstSome {
    fn reduce(self, left: Option<T>, right: Option<T>) -> Option<T> {
        left.or(right)
    }
}

/// Reduces two options to the right one if it is `Some`.
struct LastSome;

impl<T> Reducer<Option<T>> for LastSome {
    fn reduce(self, left: Option<T>, right: Option<T>) -> Option<T> {
        right.or(left)
    }
}

pub(super) fn find_first<I, P>(iter: I, predicate: &P) -> Option<I::Item>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync,
{
    let best = AtomicUsize::new(usize::MAX);
    iter.drive_unindexed(FindInOrder::<_, First>::new(predicate, &best))
}

pub(super) fn find_last<I, P>(iter: I, predicate: &P) -> Option<I::Item>
where
    I: ParallelIterator,
    P: Fn(&I::Item) -> bool + Sync,
{
    let best = AtomicUsize::new(0);
    iter.drive_unindexed(FindInOrder::<_, Last>::new(predicate, &best))
}

/// Which end a search in order wants.
trait End: Send {
    type Reducer: Default;
    /// Whether `a` lies strictly on the wanted side of `b`.
    fn beats(a: usize, b: usize) -> bool;
    /// The bound of `lower..upper` that a match in it publishes.
    fn bound(lower: usize, upper: usize) -> usize;
    /// Whether a folder that found a match can stop.
    const STOPS_AT_MATCH: bool;
    /// Whether the search wants the front searched first
    /// ([`Consumer::front_first`]).
    const FRONT_FIRST: bool;
}

#[derive(Default)]
struct First;
#[derive(Default)]
struct Last;

impl Default for FirstSome {
    fn default() -> Self {
        FirstSome
    }
}
impl Default for LastSome {
    fn default() -> Self {
        LastSome
    }
}

impl End for First {
    type Reducer = FirstSome;
    fn beats(a: usize, b: usize) -> bool {
        a < b
    }
    fn bound(lower: usize, _upper: usize) -> usize {
        lower
    }
    const STOPS_AT_MATCH: bool = true;
    const FRONT_FIRST: bool = true;
}

impl End for Last {
    type Reducer = LastSome;
    fn beats(a: usize, b: usize) -> bool {
        a > b
    }
    fn bound(_lower: usize, upper: usize) -> usize {
        upper
    }
    const STOPS_AT_MATCH: bool = false;
    const FRONT_FIRST: bool = false;
}

struct FindInOrder<'p, P, E> {
    predicate: &'p P,
    best: &'p AtomicUsize,
    lower: Cell<usize>,
    upper: usize,
    end: std::marker::PhantomData<E>,
}

impl<'p, P, E> FindInOrder<'p, P, E> {
    fn new(predicate: &'p P, best: &'p AtomicUsize) -> Self {
        FindInOrder {
            predicate,
            best,
            lower: Cell::new(0),
            upper: usize::MAX,
            end: std::marker::PhantomData,
        }
    }
}

impl<'p, T, P, E> Consumer<T> for FindInOrder<'p, P, E>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
    E: End,
    E::Reducer: Reducer<Option<T>>,
{
    type Folder = FindInOrderFolder<'p, P, E, T>;
    type Reducer = E::Reducer;
    type Result = Option<T>;

    fn split_at(self, _index: usize) -> (Self, Self, E::Reducer) {
        (self.split_off_left(), self, E::Reducer::default())
    }

    fn into_folder(self) -> Self::Folder {
        FindInOrderFolder {
            predicate: self.predicate,
            best: self.best,
            bound: E::bound(self.lower.get(), self.upper),
            item: None,
            end: std::marker::PhantomData,
        }
    }

    fn full(&self) -> bool {
        E::beats(
            self.best.load(Ordering::Relaxed),
            E::bound(self.lower.get(), self.upper),
        )
    }

    fn front_first(&self) -> bool {
        E::FRONT_FIRST
    }
}

impl<T, P, E> UnindexedConsumer<T> for FindInOrder<'_, P, E>
where
    T: Send,
    P: Fn(&T) -> bool + Sync,
    E: End,
    E::Reducer: Reducer<Option<T>>,
{
    fn split_off_left(&self) -> Self {
        let lower = self.lower.get();
        let middle = lower + (self.upper - lower) / 2;
        self.lower.set(middle);
        FindInOrder {
            predicate: self.predicate,
            best: self.best,
            lower: Cell::new(lower),
            upper: middle,
            end: std::marker::PhantomData,
        }
    }

    fn to_reducer(&self) -> E::Reducer {
        E::Reducer::default()
    }
}

struct FindInOrderFolder<'p, P, E, T> {
    predicate: &'p P,
    best: &'p AtomicUsize,
    bound: usize,
    item: Option<T>,
    end: std::marker::PhantomData<E>,
}

impl<T, P: Fn(&T) -> bool, E: End> Folder<T> for FindInOrderFolder<'_, P, E, T> {
    type Result = Option<T>;

    fn consume(self, item: T) -> Self {
        if (E::STOPS_AT_MATCH && self.item.is_some()) || !(self.predicate)(&item) {
            return self;
        }
        self.take_match(item)
    }

    /// For `find_first`, a loop of the predicate alone that looks at
    /// `best` once per [`CHECK_EVERY`] items: the loop a sequential `find`
    /// compiles to, whatever adaptors made the items, still stopping
    /// within that many items once a better match is published elsewhere.
    fn consume_iter<I>(self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        if !E::STOPS_AT_MATCH {
            return consume_each(self, iter);
        }
        let mut items = iter.into_iter();
        while !self.full() {
            let mut left = CHECK_EVERY;
            for item in items.by_ref() {
                if (self.predicate)(&item) {
                    return self.take_match(item);
                }
                left -= 1;
                if left == 0 {
                    break;
                }
            }
            if left != 0 {
                break; // the items ran out
            }
        }
        self
    }

    fn complete(self) -> Option<T> {
        self.item
    }

    fn full(&self) -> bool {
        (E::STOPS_AT_MATCH && self.item.is_some())
            || E::beats(self.best.load(Ordering::Relaxed), self.bound)
    }
}

/// How many items `find_first`'s folder tests between two looks at the
/// best match found elsewhere.
const CHECK_EVERY: u32 = 256;

impl<T, P, E: End> FindInOrderFolder<'_, P, E, T> {
    /// Keeps `item`, a match, if this piece's bound is still the best
    /// (publishing it in `best`).
    fn take_match(mut self, item: T) -> Self {
        let bound = self.bound;
        let published = self
            .best
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |best| {
                E::beats(bound, best).then_some(bound)
            });
        if published.is_ok() || published == Err(bound) {
            self.item = Some(item);
        }
        self
    }
}
