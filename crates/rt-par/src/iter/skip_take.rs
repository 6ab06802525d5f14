//! `skip` and `take`: the producer split once at `n`, one side kept.

use super::plumbing::{
    bridge, bridge_producer_consumer, Consumer, NoopConsumer, Producer, ProducerCallback,
    UnindexedConsumer,
};
use super::{IndexedParallelIterator, ParallelIterator};

/// Defines `skip` or `take`: `$keep_right` says which side of the split
/// at `n` is kept.
macro_rules! split_once {
    ($(#[$doc:meta])* $name:ident, keep_right: $keep_right:expr, len: |$len:ident, $n:ident| $new_len:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        #[must_use = "iterator adapters do nothing unless consumed"]
        pub struct $name<I> {
            base: I,
            n: usize,
        }

        impl<I: IndexedParallelIterator> $name<I> {
            pub(crate) fn new(base: I, n: usize) -> Self {
                let n = n.min(base.len());
                $name { base, n }
            }
        }

        indexed_by_bridge!(impl [I] $name<I> => I::Item, where [I: IndexedParallelIterator]);

        impl<I: IndexedParallelIterator> IndexedParallelIterator for $name<I> {
            fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn len(&self) -> usize {
                let ($len, $n) = (self.base.len(), self.n);
                $new_len
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: ProducerCallback<Self::Item>,
            {
                struct Callback<CB> {
                    callback: CB,
                    n: usize,
                }

                impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB> {
                    type Output = CB::Output;

                    fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                        let (left, right) = base.split_at(self.n);
                        if $keep_right {
                            // The skipped items still run through the
                            // adapters before `skip`, for their effects.
                            bridge_producer_consumer(self.n, left, NoopConsumer);
                            self.callback.callback(right)
                        } else {
                            drop(right);
                            self.callback.callback(left)
                        }
                    }
                }

                let n = self.n;
                self.base.with_producer(Callback { callback, n })
            }
        }
    };
}

split_once!(
    /// The iterator of [`IndexedParallelIterator::skip`].
    Skip,
    keep_right: true,
    len: |len, n| len - n
);

split_once!(
    /// The iterator of [`IndexedParallelIterator::take`].
    Take,
    keep_right: false,
    len: |_len, n| n
);
