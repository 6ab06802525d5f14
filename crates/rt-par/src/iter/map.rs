//! `map`, `map_with` and `map_init`: one machinery, [`ItemMap`], which
//! says how to make a piece's state and how to map an item with it; the
//! consumer and producer wrappers below apply any `ItemMap`.

use super::plumbing::{Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// How an adapter maps items: a state per piece, and the mapping.
pub(crate) trait ItemMap<T>: Clone + Send {
    type Output: Send;
    type State;

    fn start(&self) -> Self::State;
    fn apply(&self, state: &mut Self::State, item: T) -> Self::Output;
}

/// `map_op(item)`.
pub(crate) struct Plain<'f, F>(pub(crate) &'f F);

impl<F> Clone for Plain<'_, F> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F> Copy for Plain<'_, F> {}

impl<T, R: Send, F: Fn(T) -> R + Sync> ItemMap<T> for Plain<'_, F> {
    type Output = R;
    type State = ();

    #[inline]
    fn start(&self) {}
    #[inline]
    fn apply(&self, (): &mut (), item: T) -> R {
        (self.0)(item)
    }
}

/// `map_op(&mut clone_of_init, item)`.
struct WithClone<'f, F, S> {
    op: &'f F,
    init: S,
}

impl<F, S: Clone> Clone for WithClone<'_, F, S> {
    fn clone(&self) -> Self {
        WithClone {
            op: self.op,
            init: self.init.clone(),
        }
    }
}

impl<T, S, R, F> ItemMap<T> for WithClone<'_, F, S>
where
    S: Clone + Send,
    R: Send,
    F: Fn(&mut S, T) -> R + Sync,
{
    type Output = R;
    type State = S;

    fn start(&self) -> S {
        self.init.clone()
    }
    #[inline]
    fn apply(&self, state: &mut S, item: T) -> R {
        (self.op)(state, item)
    }
}

/// `map_op(&mut init(), item)`.
struct WithInit<'f, F, INIT> {
    op: &'f F,
    init: &'f INIT,
}

impl<F, INIT> Clone for WithInit<'_, F, INIT> {
    fn clone(&self) -> Self {
        WithInit {
            op: self.op,
            init: self.init,
        }
    }
}

impl<T, S, R, F, INIT> ItemMap<T> for WithInit<'_, F, INIT>
where
    R: Send,
    F: Fn(&mut S, T) -> R + Sync,
    INIT: Fn() -> S + Sync,
{
    type Output = R;
    type State = S;

    fn start(&self) -> S {
        (self.init)()
    }
    #[inline]
    fn apply(&self, state: &mut S, item: T) -> R {
        (self.op)(state, item)
    }
}

/// The iterator of [`ParallelIterator::map`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct Map<I, F> {
    base: I,
    map_op: F,
}

debug_adapter!(Map<I, F>);
debug_adapter!(MapWith<I, T, F>);
debug_adapter!(MapInit<I, INIT, F>);

impl<I, F> Map<I, F> {
    pub(crate) fn new(base: I, map_op: F) -> Self {
        Map { base, map_op }
    }
}

/// The iterator of [`ParallelIterator::map_with`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct MapWith<I, T, F> {
    base: I,
    init: T,
    map_op: F,
}

impl<I, T: Clone, F> MapWith<I, T, F> {
    pub(crate) fn new(base: I, init: T, map_op: F) -> Self {
        MapWith { base, init, map_op }
    }
}

/// The iterator of [`ParallelIterator::map_init`].
#[derive(Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct MapInit<I, INIT, F> {
    base: I,
    init: INIT,
    map_op: F,
}

impl<I, INIT, F> MapInit<I, INIT, F> {
    pub(crate) fn new(base: I, init: INIT, map_op: F) -> Self {
        MapInit { base, init, map_op }
    }
}

/// Implements the iterator traits for a mapping adapter: `$parts`
/// destructures it into `base` and the fields its [`ItemMap`] borrows.
macro_rules! mapping_adapter {
    (impl [$($param:ident),*] $ty:ty => $item:ty, where [$($bound:tt)*], $base:ident in |$parts:pat_param| $map:expr) => {
        impl<I, $($param),*> ParallelIterator for $ty
        where
            I: ParallelIterator,
            $($bound)*
        {
            type Item = $item;

            fn drive_unindexed<C>(self, consumer: C) -> C::Result
            where
                C: UnindexedConsumer<Self::Item>,
            {
                let $parts = self;
                $base.drive_unindexed(MapConsumer { base: consumer, map: $map })
            }

            fn opt_len(&self) -> Option<usize> {
                self.base.opt_len()
            }
        }

        impl<I, $($param),*> IndexedParallelIterator for $ty
        where
            I: IndexedParallelIterator,
            $($bound)*
        {
            fn drive<C>(self, consumer: C) -> C::Result
            where
                C: Consumer<Self::Item>,
            {
                let $parts = self;
                $base.drive(MapConsumer { base: consumer, map: $map })
            }

            fn len(&self) -> usize {
                self.base.len()
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: ProducerCallback<Self::Item>,
            {
                let $parts = self;
                $base.with_producer(MapCallback { callback, map: $map })
            }
        }
    };
}

mapping_adapter! {
    impl [F, R] Map<I, F> => R,
    where [F: Fn(I::Item) -> R + Sync + Send, R: Send],
    base in |Map { base, map_op }| Plain(&map_op)
}

mapping_adapter! {
    impl [T, F, R] MapWith<I, T, F> => R,
    where [F: Fn(&mut T, I::Item) -> R + Sync + Send, T: Send + Clone, R: Send],
    base in |MapWith { base, init, map_op }| WithClone { op: &map_op, init }
}

mapping_adapter! {
    impl [INIT, T, F, R] MapInit<I, INIT, F> => R,
    where [F: Fn(&mut T, I::Item) -> R + Sync + Send, INIT: Fn() -> T + Sync + Send, R: Send],
    base in |MapInit { base, init, map_op }| WithInit { op: &map_op, init: &init }
}

pub(crate) struct MapConsumer<C, M> {
    pub(crate) base: C,
    pub(crate) map: M,
}

impl<T, C, M> Consumer<T> for MapConsumer<C, M>
where
    M: ItemMap<T>,
    C: Consumer<M::Output>,
{
    type Folder = MapFolder<C::Folder, M, M::State>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let left = MapConsumer {
            base: left,
            map: self.map.clone(),
        };
        (
            left,
            MapConsumer {
                base: right,
                map: self.map,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        MapFolder {
            base: self.base.into_folder(),
            state: self.map.start(),
            map: self.map,
        }
    }

    fn full(&self) -> bool {
        self.base.full()
    }

    fn front_first(&self) -> bool {
        self.base.front_first()
    }
}

impl<T, C, M> UnindexedConsumer<T> for MapConsumer<C, M>
where
    M: ItemMap<T>,
    C: UnindexedConsumer<M::Output>,
{
    fn split_off_left(&self) -> Self {
        MapConsumer {
            base: self.base.split_off_left(),
            map: self.map.clone(),
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

pub(crate) struct MapFolder<F, M, S> {
    base: F,
    map: M,
    state: S,
}

impl<T, F, M> Folder<T> for MapFolder<F, M, M::State>
where
    M: ItemMap<T>,
    F: Folder<M::Output>,
{
    type Result = F::Result;

    #[inline]
    fn consume(mut self, item: T) -> Self {
        let mapped = self.map.apply(&mut self.state, item);
        self.base = self.base.consume(mapped);
        self
    }

    #[inline]
    fn consume_iter<It>(self, iter: It) -> Self
    where
        It: IntoIterator<Item = T>,
    {
        let MapFolder {
            base,
            map,
            mut state,
        } = self;
        let base = base.consume_iter(iter.into_iter().map(|item| map.apply(&mut state, item)));
        MapFolder { base, map, state }
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.base.full()
    }
}

struct MapCallback<CB, M> {
    callback: CB,
    map: M,
}

impl<T, CB, M> ProducerCallback<T> for MapCallback<CB, M>
where
    M: ItemMap<T>,
    CB: ProducerCallback<M::Output>,
{
    type Output = CB::Output;

    fn callback<P>(self, base: P) -> CB::Output
    where
        P: Producer<Item = T>,
    {
        self.callback.callback(MapProducer {
            base,
            map: self.map,
        })
    }
}

struct MapProducer<P, M> {
    base: P,
    map: M,
}

impl<P, M> Producer for MapProducer<P, M>
where
    P: Producer,
    M: ItemMap<P::Item>,
{
    type Item = M::Output;
    type IntoIter = MapIter<P::IntoIter, M, M::State>;

    fn into_iter(self) -> Self::IntoIter {
        MapIter {
            iter: self.base.into_iter(),
            state: self.map.start(),
            map: self.map,
        }
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(index);
        let left = MapProducer {
            base: left,
            map: self.map.clone(),
        };
        (
            left,
            MapProducer {
                base: right,
                map: self.map,
            },
        )
    }

    fn fold_with<F>(self, folder: F) -> F
    where
        F: Folder<Self::Item>,
    {
        let folder = MapFolder {
            base: folder,
            state: self.map.start(),
            map: self.map,
        };
        self.base.fold_with(folder).base
    }
}

/// The sequential iterator of a mapping producer.
struct MapIter<I, M, S> {
    iter: I,
    map: M,
    state: S,
}

impl<I, M> Iterator for MapIter<I, M, M::State>
where
    I: Iterator,
    M: ItemMap<I::Item>,
{
    type Item = M::Output;

    #[inline]
    fn next(&mut self) -> Option<M::Output> {
        let item = self.iter.next()?;
        Some(self.map.apply(&mut self.state, item))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }

    #[inline]
    fn fold<B, G>(self, init: B, mut g: G) -> B
    where
        G: FnMut(B, M::Output) -> B,
    {
        let MapIter {
            iter,
            map,
            mut state,
        } = self;
        iter.fold(init, |acc, item| g(acc, map.apply(&mut state, item)))
    }
}

impl<I, M> DoubleEndedIterator for MapIter<I, M, M::State>
where
    I: DoubleEndedIterator,
    M: ItemMap<I::Item>,
{
    #[inline]
    fn next_back(&mut self) -> Option<M::Output> {
        let item = self.iter.next_back()?;
        Some(self.map.apply(&mut self.state, item))
    }
}

impl<I, M> ExactSizeIterator for MapIter<I, M, M::State>
where
    I: ExactSizeIterator,
    M: ItemMap<I::Item>,
{
}
