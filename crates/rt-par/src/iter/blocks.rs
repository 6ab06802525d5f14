//! `by_exponential_blocks` and `by_uniform_blocks`: the items run block by
//! block, each block in parallel, so that a search or a short-circuiting
//! consumer near the front never starts work far behind it.

use super::plumbing::{
    bridge_producer_consumer, Folder, Producer, ProducerCallback, Reducer, UnindexedConsumer,
};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::by_exponential_blocks`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct ExponentialBlocks<I> {
    base: I,
}

impl<I> ExponentialBlocks<I> {
    pub(crate) fn new(base: I) -> Self {
        ExponentialBlocks { base }
    }
}

/// The iterator of [`IndexedParallelIterator::by_uniform_blocks`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct UniformBlocks<I> {
    base: I,
    block_size: usize,
}

impl<I> UniformBlocks<I> {
    pub(crate) fn new(base: I, block_size: usize) -> Self {
        assert!(block_size != 0, "block_size must not be zero");
        UniformBlocks { base, block_size }
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for ExponentialBlocks<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let len = self.base.len();
        let first = crate::core_api::current_num_threads();
        self.base.with_producer(ByBlocks {
            consumer,
            len,
            next_size: move |previous: Option<usize>| {
                previous.map_or(first, |n| n.saturating_mul(2))
            },
        })
    }
}

impl<I: IndexedParallelIterator> ParallelIterator for UniformBlocks<I> {
    type Item = I::Item;

    fn drive_unindexed<C: UnindexedConsumer<I::Item>>(self, consumer: C) -> C::Result {
        let (len, size) = (self.base.len(), self.block_size);
        self.base.with_producer(ByBlocks {
            consumer,
            len,
            next_size: move |_: Option<usize>| size,
        })
    }
}

/// Runs a producer block by block into one consumer.
struct ByBlocks<C, S> {
    consumer: C,
    len: usize,
    next_size: S,
}

impl<T, C, S> ProducerCallback<T> for ByBlocks<C, S>
where
    C: UnindexedConsumer<T>,
    S: Fn(Option<usize>) -> usize,
{
    type Output = C::Result;

    fn callback<P: Producer<Item = T>>(self, producer: P) -> C::Result {
        let ByBlocks {
            mut consumer,
            mut len,
            next_size,
        } = self;
        let mut producer = producer;
        let mut result: Option<C::Result> = None;
        let mut size = None;
        while len > 0 && !consumer.full() {
            let block = next_size(size).min(len);
            size = Some(block);
            let (head, rest) = producer.split_at(block);
            let (head_consumer, rest_consumer, reducer) = consumer.split_at(block);
            let block_result = bridge_producer_consumer(block, head, head_consumer);
            result = Some(match result {
                None => block_result,
                Some(previous) => reducer.reduce(previous, block_result),
            });
            producer = rest;
            consumer = rest_consumer;
            len -= block;
        }
        let reducer = consumer.to_reducer();
        let tail = consumer.into_folder().complete();
        match result {
            None => tail,
            Some(previous) => reducer.reduce(previous, tail),
        }
    }
}
