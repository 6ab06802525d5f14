//! The driver for a consumer that wants the front first
//! ([`Consumer::front_first`]: `find_first`, `position_first`).
//!
//! Halving, the usual way to split, gives the second worker the back half
//! at once: a match at 10% of the items is found only when the first
//! worker reaches it, after as long as a sequential scan takes, while the
//! second searches items that cannot win. Here the items are cut, in
//! order, into pieces that grow from small to a cap (a 64th of a worker's
//! share), and every worker claims the next piece from one shared counter:
//! the workers scan the front together, and a match ends the search once
//! the pieces before it are done, after about the sequential time to reach
//! it divided by the workers. A claimed piece whose consumer is already
//! full (a match before it was published) is not scanned. The cutting
//! happens up front on the calling thread, as a balanced tree whose
//! reducers stay there, so it is used only where the cap respects the
//! producer's `max_len`: then there are at most about 64 pieces per
//! worker.
//!
//! The pieces' results are reduced in order at the end, as halving's
//! would be, and each piece folds in paced chunks with checkpoints
//! (`fold_paced`), so priorities and idle workers are served as usual.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::splitter::{fold_paced, Pacer};
use super::{Consumer, Folder, Producer, Reducer};
use crate::core_api;

/// A worker's share is cut into this many pieces at the cap.
const PIECES_PER_WORKER: usize = 64;

/// The first piece is this many times smaller than the cap; each next
/// piece doubles, up to the cap.
const FIRST_PIECE_DIVISOR: usize = 64;

/// Drives `len` items of `producer` into `consumer` with the workers
/// claiming pieces in order.
pub(super) fn claim_in_order<P, C>(len: usize, producer: P, consumer: C) -> C::Result
where
    P: Producer,
    C: Consumer<P::Item>,
{
    let workers = core_api::current_num_threads();
    let min = producer.min_len().max(1);
    let cap = (len / workers.saturating_mul(PIECES_PER_WORKER)).max(min);
    let mut size = (cap / FIRST_PIECE_DIVISOR).max(min);

    let mut lens = Vec::new();
    let mut rest = len;
    while rest > size {
        lens.push(size);
        rest -= size;
        size = size.saturating_mul(2).min(cap);
    }
    lens.push(rest);
    let mut pieces = Vec::with_capacity(lens.len());
    let cuts = cut(&lens, producer, consumer, &mut pieces);

    let results: Vec<Mutex<Option<C::Result>>> = pieces.iter().map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let claim = || {
        let mut pacer = Pacer::new();
        loop {
            // Relaxed: the counter only hands out indices; each piece and
            // its result pass through their own mutex.
            let index = next.fetch_add(1, Ordering::Relaxed);
            let Some(piece) = pieces.get(index) else {
                return;
            };
            let (len, producer, consumer) = lock(piece).take().expect("each piece is claimed once");
            let result = if consumer.full() {
                consumer.into_folder().complete()
            } else {
                fold_paced(len, producer, consumer.into_folder(), &mut pacer).complete()
            };
            *lock(&results[index]) = Some(result);
        }
    };
    fan_out(workers, &claim);

    let mut results = results.into_iter().map(|slot| {
        slot.into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .expect("every piece was claimed and folded")
    });
    cuts.reduce(&mut results)
}

/// A piece of the items with its consumer, behind the lock its claimer
/// takes it through.
type Piece<P, C> = Mutex<Option<(usize, P, C)>>;

/// How the pieces were cut: a balanced tree (so that a consumer that
/// halves something at each cut, as `find_first`'s index space, halves it
/// only about log2(pieces) times), its reducers kept for the end.
enum Cuts<R> {
    Piece,
    Cut(Box<Cuts<R>>, Box<Cuts<R>>, R),
}

/// Cuts `producer` and `consumer` into pieces of `lens` items, in order,
/// pushing each onto `pieces`.
fn cut<P, C>(
    lens: &[usize],
    producer: P,
    consumer: C,
    pieces: &mut Vec<Piece<P, C>>,
) -> Cuts<C::Reducer>
where
    P: Producer,
    C: Consumer<P::Item>,
{
    if let [len] = lens {
        pieces.push(Mutex::new(Some((*len, producer, consumer))));
        return Cuts::Piece;
    }
    let (front, back) = lens.split_at(lens.len() / 2);
    let at = front.iter().sum();
    let (front_producer, back_producer) = producer.split_at(at);
    let (front_consumer, back_consumer, reducer) = consumer.split_at(at);
    let front = cut(front, front_producer, front_consumer, pieces);
    let back = cut(back, back_producer, back_consumer, pieces);
    Cuts::Cut(Box::new(front), Box::new(back), reducer)
}

impl<R> Cuts<R> {
    /// Reduces the pieces' results, given in order, as they were cut.
    fn reduce<T>(self, results: &mut impl Iterator<Item = T>) -> T
    where
        R: Reducer<T>,
    {
        match self {
            Cuts::Piece => results.next().expect("a result per piece"),
            Cuts::Cut(front, back, reducer) => {
                let front = front.reduce(results);
                let back = back.reduce(results);
                reducer.reduce(front, back)
            }
        }
    }
}

/// Whether `len` items, for `workers`, are worth cutting into pieces
/// claimed in order: the first piece has at least one item at full size,
/// and the cap keeps within the producer's `max_len` (so that the pieces
/// stay few).
pub(super) fn worth_claiming(len: usize, workers: usize, max_len: usize) -> bool {
    let cap = len / workers.saturating_mul(PIECES_PER_WORKER);
    workers > 1 && cap >= FIRST_PIECE_DIVISOR && cap <= max_len
}

/// Runs `work` on up to `workers` workers: here, and in the pending
/// halves of `join`s that idle workers take.
fn fan_out(workers: usize, work: &(dyn Fn() + Sync)) {
    if workers <= 1 {
        work();
    } else {
        let half = workers / 2;
        core_api::join_context(|_| fan_out(workers - half, work), |_| fan_out(half, work));
    }
}

/// A slot's lock, also after a panic elsewhere: a slot is only ever
/// taken or filled whole, so a poisoned one holds no broken state.
fn lock<T>(slot: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    slot.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}
