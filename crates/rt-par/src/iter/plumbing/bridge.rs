//! The driver: splits a producer and its consumer in step, runs the halves
//! with `join`, folds the pieces that no longer split, and reduces.
//!
//! Splitting adapts twice. [`Splitter`] allows one split per worker up
//! front and starts over in a half another worker stole (rayon's adaptive
//! splitter). A piece it no longer splits (a leaf) halves once more: its
//! first half folds in chunks of about 20 µs (at least one item), reaching
//! a checkpoint after each chunk (`rt_core::checkpoint`: the oldest pending
//! half, the largest, stays where an idle worker can take it, and a
//! queued task more urgent than the iterator runs first), while the second
//! half waits as the pending half of a `join`; a second half that was
//! stolen is a leaf of its own. On one worker nothing splits, and the
//! whole run folds in paced chunks, for the checkpoints.
//! Leaves never halve below a grain of the whole job (a sixteenth per
//! worker), so that a `fold` makes few accumulators. A leaf that runs alone
//! costs one split and a clock read per chunk, and an idle worker finds
//! the oldest pending piece at once.
//!
//! A consumer that wants the front first (`find_first`) is driven by
//! `in_order.rs` instead: pieces claimed in order, not halves.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::in_order;
use super::splitter::{fold_paced, LengthSplitter, Pacer, Splitter};
use super::{
    Consumer, Folder, Producer, ProducerCallback, Reducer, UnindexedConsumer, UnindexedProducer,
};
use crate::core_api;
use crate::iter::IndexedParallelIterator;

/// Drives an indexed parallel iterator into `consumer`.
pub fn bridge<I, C>(par_iter: I, consumer: C) -> C::Result
where
    I: IndexedParallelIterator,
    C: Consumer<I::Item>,
{
    struct Callback<C> {
        len: usize,
        consumer: C,
    }

    impl<C, T> ProducerCallback<T> for Callback<C>
    where
        C: Consumer<T>,
    {
        type Output = C::Result;

        fn callback<P>(self, producer: P) -> C::Result
        where
            P: Producer<Item = T>,
        {
            bridge_producer_consumer(self.len, producer, self.consumer)
        }
    }

    // On a worker first, so that the producer chain (a `with_priority`
    // in it included) is built where it runs.
    core_api::in_runtime(move || {
        let len = par_iter.len();
        par_iter.with_producer(Callback { len, consumer })
    })
}

/// Drives the `len` items of `producer` into `consumer`, in parallel.
pub fn bridge_producer_consumer<P, C>(len: usize, producer: P, consumer: C) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    core_api::in_runtime(move || {
        let workers = core_api::current_num_threads();
        if consumer.front_first() && in_order::worth_claiming(len, workers, producer.max_len()) {
            return in_order::claim_in_order(len, producer, consumer);
        }
        let splitter = LengthSplitter::new(producer.min_len(), producer.max_len(), len);
        split_indexed(len, false, splitter, producer, consumer)
    })
}

fn split_indexed<P, C>(
    len: usize,
    migrated: bool,
    mut splitter: LengthSplitter,
    producer: P,
    consumer: C,
) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    if splitter.try_split(len, migrated) {
        let mid = len / 2;
        let (left_producer, right_producer) = producer.split_at(mid);
        let (left_consumer, right_consumer, reducer) = consumer.split_at(mid);
        let (left, right) = core_api::join_context(
            move |ctx| split_indexed(mid, ctx.migrated(), splitter, left_producer, left_consumer),
            move |ctx| {
                split_indexed(
                    len - mid,
                    ctx.migrated(),
                    splitter,
                    right_producer,
                    right_consumer,
                )
            },
        );
        reducer.reduce(left, right)
    } else if core_api::current_num_threads() == 1 {
        fold_paced(len, producer, consumer.into_folder(), &mut Pacer::new()).complete()
    } else {
        let least = splitter.min.max(splitter.grain);
        fold_indexed(
            len,
            least.max(len / LEAF_PARTS),
            least,
            1,
            producer,
            consumer,
        )
    }
}

/// A leaf halves at most into this many parts (each a piece for the
/// consumer), so that a `fold` makes few accumulators.
const LEAF_PARTS: usize = 2;

/// A piece that the splitter no longer splits (a leaf): its first half
/// folds in paced chunks while the second waits as the pending half of a
/// `join`; the second then does the same (as a leaf of its own if it was
/// stolen). Halving stops at `floor` items (half the leaf, at least
/// `least`: the minimum length, and a grain of the whole job that keeps
/// the pieces, and so a `fold`'s accumulators, few) or four chunks' worth.
fn fold_indexed<P, C>(
    len: usize,
    floor: usize,
    least: usize,
    chunk: usize,
    producer: P,
    consumer: C,
) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    if len / 2 < floor || len <= chunk.saturating_mul(4) {
        let mut pacer = Pacer { chunk };
        return fold_paced(len, producer, consumer.into_folder(), &mut pacer).complete();
    }
    let mid = len / 2;
    let (left_producer, right_producer) = producer.split_at(mid);
    let (left_consumer, right_consumer, reducer) = consumer.split_at(mid);
    let learned = AtomicUsize::new(chunk);
    let learned = &learned;
    let (left, right) = core_api::join_context(
        move |_| {
            let mut pacer = Pacer { chunk };
            let folder = fold_paced(mid, left_producer, left_consumer.into_folder(), &mut pacer);
            learned.store(pacer.chunk, Ordering::Relaxed);
            folder.complete()
        },
        move |ctx| {
            let len = len - mid;
            if ctx.migrated() {
                // Stolen: a leaf of its own.
                fold_indexed(
                    len,
                    least.max(len / LEAF_PARTS),
                    least,
                    1,
                    right_producer,
                    right_consumer,
                )
            } else {
                let chunk = learned.load(Ordering::Relaxed);
                fold_indexed(len, floor, least, chunk, right_producer, right_consumer)
            }
        },
    );
    reducer.reduce(left, right)
}

/// Drives an unindexed producer into `consumer`, in parallel.
pub fn bridge_unindexed<P, C>(producer: P, consumer: C) -> C::Result
where
    P: UnindexedProducer,
    C: UnindexedConsumer<P::Item>,
{
    core_api::in_runtime(move || split_unindexed(false, Splitter::new(), producer, consumer))
}

fn split_unindexed<P, C>(
    migrated: bool,
    mut splitter: Splitter,
    producer: P,
    consumer: C,
) -> C::Result
where
    P: UnindexedProducer,
    C: UnindexedConsumer<P::Item>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    if !splitter.try_split(migrated) {
        return fold_unindexed(producer, consumer);
    }
    match producer.split() {
        (left_producer, Some(right_producer)) => {
            let reducer = consumer.to_reducer();
            let left_consumer = consumer.split_off_left();
            let (left, right) = core_api::join_context(
                move |ctx| split_unindexed(ctx.migrated(), splitter, left_producer, left_consumer),
                move |ctx| split_unindexed(ctx.migrated(), splitter, right_producer, consumer),
            );
            reducer.reduce(left, right)
        }
        (producer, None) => fold_paced_unindexed(producer, consumer.into_folder()).complete(),
    }
}

/// As [`fold_indexed`], for a producer that splits where it can.
fn fold_unindexed<P, C>(producer: P, consumer: C) -> C::Result
where
    P: UnindexedProducer,
    C: UnindexedConsumer<P::Item>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    if core_api::current_num_threads() == 1 {
        return fold_paced_unindexed(producer, consumer.into_folder()).complete();
    }
    match producer.split() {
        (left_producer, Some(right_producer)) => {
            let reducer = consumer.to_reducer();
            let left_consumer = consumer.split_off_left();
            let (left, right) = core_api::join_context(
                move |_| {
                    fold_paced_unindexed(left_producer, left_consumer.into_folder()).complete()
                },
                move |ctx| {
                    if ctx.migrated() {
                        split_unindexed(true, Splitter::new(), right_producer, consumer)
                    } else {
                        fold_unindexed(right_producer, consumer)
                    }
                },
            );
            reducer.reduce(left, right)
        }
        (producer, None) => fold_paced_unindexed(producer, consumer.into_folder()).complete(),
    }
}

fn fold_paced_unindexed<P, F>(producer: P, folder: F) -> F
where
    P: UnindexedProducer,
    F: Folder<P::Item>,
{
    let pacer = Pacer::new();
    let paced = PacedFolder {
        inner: folder,
        left: pacer.chunk,
        pacer,
        since: Instant::now(),
    };
    producer.fold_with(paced).inner
}

/// A folder that offers work every `pacer.chunk` items.
struct PacedFolder<F> {
    inner: F,
    pacer: Pacer,
    left: usize,
    since: Instant,
}

impl<T, F: Folder<T>> Folder<T> for PacedFolder<F> {
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        self.inner = self.inner.consume(item);
        self.left -= 1;
        if self.left == 0 {
            let now = Instant::now();
            self.pacer.after_chunk(now - self.since);
            self.since = now;
            self.left = self.pacer.chunk;
        }
        self
    }

    fn complete(self) -> F::Result {
        self.inner.complete()
    }

    fn full(&self) -> bool {
        self.inner.full()
    }
}
