//! `step_by`: every `step`th item; a producer that splits its base at
//! `index * step`.

use super::plumbing::{bridge, Consumer, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`IndexedParallelIterator::step_by`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct StepBy<I> {
    base: I,
    step: usize,
}

impl<I> StepBy<I> {
    pub(crate) fn new(base: I, step: usize) -> Self {
        assert!(step != 0, "step_by's step must not be zero");
        StepBy { base, step }
    }
}

indexed_by_bridge!(impl [I] StepBy<I> => I::Item, where [I: IndexedParallelIterator]);

impl<I: IndexedParallelIterator> IndexedParallelIterator for StepBy<I> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        bridge(self, consumer)
    }

    fn len(&self) -> usize {
        self.base.len().div_ceil(self.step)
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        struct Callback<CB> {
            callback: CB,
            step: usize,
            len: usize,
        }

        impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<CB> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                self.callback.callback(StepByProducer {
                    base,
                    step: self.step,
                    len: self.len,
                })
            }
        }

        let (step, len) = (self.step, self.base.len());
        self.base.with_producer(Callback {
            callback,
            step,
            len,
        })
    }
}

struct StepByProducer<P> {
    base: P,
    step: usize,
    /// Items of the base.
    len: usize,
}

impl<P: Producer> Producer for StepByProducer<P> {
    type Item = P::Item;
    type IntoIter = std::iter::StepBy<P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        self.base.into_iter().step_by(self.step)
    }

    fn min_len(&self) -> usize {
        self.base.min_len().div_ceil(self.step)
    }

    fn max_len(&self) -> usize {
        self.base.max_len() / self.step
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let at = index.saturating_mul(self.step).min(self.len);
        let (left, right) = self.base.split_at(at);
        let step = self.step;
        let left = StepByProducer {
            base: left,
            step,
            len: at,
        };
        let right = StepByProducer {
            base: right,
            step,
            len: self.len - at,
        };
        (left, right)
    }
}
