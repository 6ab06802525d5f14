//! `with_min_len` and `with_max_len`: producers that tell the driver how
//! small or large a piece may be.

use super::plumbing::{bridge, Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// Defines a length-bound adapter: `$min` and `$max` combine the base
/// producer's bounds with the adapter's limit.
macro_rules! length_bound {
    ($(#[$doc:meta])* $name:ident, $producer:ident, min: $min:expr, max: $max:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone)]
        #[must_use = "iterator adapters do nothing unless consumed"]
        pub struct $name<I> {
            base: I,
            limit: usize,
        }

        impl<I> $name<I> {
            pub(crate) fn new(base: I, limit: usize) -> Self {
                $name { base, limit }
            }
        }

        indexed_by_bridge!(impl [I] $name<I> => I::Item, where [I: IndexedParallelIterator]);

        impl<I: IndexedParallelIterator> IndexedParallelIterator for $name<I> {
            fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
                bridge(self, consumer)
            }

            fn len(&self) -> usize {
                self.base.len()
            }

            fn with_producer<CB>(self, callback: CB) -> CB::Output
            where
                CB: ProducerCallback<Self::Item>,
            {
                struct Callback<CB> {
                    callback: CB,
                    limit: usize,
                }

                impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB> {
                    type Output = CB::Output;

                    fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                        self.callback.callback($producer { base, limit: self.limit })
                    }
                }

                let limit = self.limit;
                self.base.with_producer(Callback { callback, limit })
            }
        }

        struct $producer<P> {
            base: P,
            limit: usize,
        }

        impl<P: Producer> Producer for $producer<P> {
            type Item = P::Item;
            type IntoIter = P::IntoIter;

            fn into_iter(self) -> P::IntoIter {
                self.base.into_iter()
            }

            fn min_len(&self) -> usize {
                let min: fn(usize, usize) -> usize = $min;
                min(self.base.min_len(), self.limit)
            }

            fn max_len(&self) -> usize {
                let max: fn(usize, usize) -> usize = $max;
                max(self.base.max_len(), self.limit)
            }

            fn split_at(self, index: usize) -> (Self, Self) {
                let (left, right) = self.base.split_at(index);
                let limit = self.limit;
                ($producer { base: left, limit }, $producer { base: right, limit })
            }

            fn fold_with<F: Folder<P::Item>>(self, folder: F) -> F {
                self.base.fold_with(folder)
            }
        }
    };
}

length_bound!(
    /// The iterator of [`IndexedParallelIterator::with_min_len`].
    MinLen,
    MinLenProducer,
    min: usize::max,
    max: |base, _| base
);

length_bound!(
    /// The iterator of [`IndexedParallelIterator::with_max_len`].
    MaxLen,
    MaxLenProducer,
    min: |base, _| base,
    max: usize::min
);
