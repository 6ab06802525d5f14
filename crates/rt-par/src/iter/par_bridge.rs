//! `par_bridge`: a sequential iterator shared behind a mutex. The producer
//! splits as long as a budget of one split per worker lasts; every piece
//! takes the next item under the lock and consumes it outside it, so the
//! items come in no particular order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use super::ParallelIterator;
use crate::core_api;

/// Turns any `Iterator + Send` into a parallel iterator.
///
/// ```
/// use std::sync::mpsc::channel;
/// use rt_par::prelude::*;
///
/// let (sender, receiver) = channel();
/// (0..5).for_each(|i| sender.send(i).unwrap());
/// drop(sender);
/// let mut got: Vec<i32> = receiver.into_iter().par_bridge().map(|i| i * 2).collect();
/// got.sort();
/// assert_eq!(got, [0, 2, 4, 6, 8]);
/// ```
pub trait ParallelBridge: Sized {
    /// A parallel iterator over `self`'s items.
    fn par_bridge(self) -> IterBridge<Self>;
}

impl<T: Iterator + Send> ParallelBridge for T
where
    T::Item: Send,
{
    fn par_bridge(self) -> IterBridge<Self> {
        IterBridge { iter: self }
    }
}

/// The iterator of [`ParallelBridge::par_bridge`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct IterBridge<I> {
    iter: I,
}

impl<I: Iterator + Send> ParallelIterator for IterBridge<I>
where
    I::Item: Send,
{
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        let shared = Mutex::new(Some(self.iter));
        let splits = AtomicUsize::new(core_api::current_num_threads());
        let producer = BridgeProducer {
            iter: &shared,
            splits: &splits,
        };
        bridge_unindexed(producer, consumer)
    }
}

struct BridgeProducer<'a, I> {
    /// `None` once the iterator ended (or panicked).
    iter: &'a Mutex<Option<I>>,
    splits: &'a AtomicUsize,
}

impl<I: Iterator + Send> UnindexedProducer for BridgeProducer<'_, I> {
    type Item = I::Item;

    fn split(self) -> (Self, Option<Self>) {
        let took = self
            .splits
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
        match took {
            Ok(_) => {
                let other = BridgeProducer {
                    iter: self.iter,
                    splits: self.splits,
                };
                (self, Some(other))
            }
            Err(_) => (self, None),
        }
    }

    fn fold_with<F: Folder<Self::Item>>(self, mut folder: F) -> F {
        while !folder.full() {
            let next = {
                let mut guard = match self.iter.lock() {
                    Ok(guard) => guard,
                    Err(_) => return folder, // another piece's `next` panicked
                };
                let Some(iter) = guard.as_mut() else {
                    return folder;
                };
                let next = iter.next();
                if next.is_none() {
                    *guard = None;
                }
                next
            };
            match next {
                Some(item) => folder = folder.consume(item),
                None => break,
            }
        }
        folder
    }
}
