//! `panic_fuse`: once a closure of the iterator panics on any worker, the
//! pieces still to fold see themselves full and skip their items.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

use super::plumbing::{Consumer, Folder, Producer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, ParallelIterator};

/// The iterator of [`ParallelIterator::panic_fuse`].
#[derive(Debug, Clone)]
#[must_use = "iterator adapters do nothing unless consumed"]
pub struct PanicFuse<I> {
    base: I,
}

impl<I> PanicFuse<I> {
    pub(crate) fn new(base: I) -> Self {
        PanicFuse { base }
    }
}

/// Sets the flag if dropped while its thread panics.
struct Blown<'f>(&'f AtomicBool);

impl Drop for Blown<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

impl<I: ParallelIterator> ParallelIterator for PanicFuse<I> {
    type Item = I::Item;

    fn drive_unindexed<C>(self, consumer: C) -> C::Result
    where
        C: UnindexedConsumer<Self::Item>,
    {
        let blown = AtomicBool::new(false);
        self.base.drive_unindexed(FuseConsumer {
            base: consumer,
            blown: &blown,
        })
    }

    fn opt_len(&self) -> Option<usize> {
        self.base.opt_len()
    }
}

impl<I: IndexedParallelIterator> IndexedParallelIterator for PanicFuse<I> {
    fn drive<C: Consumer<Self::Item>>(self, consumer: C) -> C::Result {
        let blown = AtomicBool::new(false);
        self.base.drive(FuseConsumer {
            base: consumer,
            blown: &blown,
        })
    }

    fn len(&self) -> usize {
        self.base.len()
    }

    fn with_producer<CB>(self, callback: CB) -> CB::Output
    where
        CB: ProducerCallback<Self::Item>,
    {
        struct Callback<'f, CB> {
            callback: CB,
            blown: &'f AtomicBool,
        }

        impl<T, CB: ProducerCallback<T>> ProducerCallback<T> for Callback<'_, CB> {
            type Output = CB::Output;

            fn callback<P: Producer<Item = T>>(self, base: P) -> CB::Output {
                self.callback.callback(FuseProducer {
                    base,
                    blown: self.blown,
                })
            }
        }

        let blown = AtomicBool::new(false);
        self.base.with_producer(Callback {
            callback,
            blown: &blown,
        })
    }
}

struct FuseProducer<'f, P> {
    base: P,
    blown: &'f AtomicBool,
}

impl<P: Producer> Producer for FuseProducer<'_, P> {
    type Item = P::Item;
    type IntoIter = P::IntoIter;

    fn into_iter(self) -> P::IntoIter {
        self.base.into_iter()
    }

    fn min_len(&self) -> usize {
        self.base.min_len()
    }

    fn max_len(&self) -> usize {
        self.base.max_len()
    }

    fn split_at(self, index: usize) -> (Self, Self) {
        let (left, right) = self.base.split_at(index);
        let blown = self.blown;
        (
            FuseProducer { base: left, blown },
            FuseProducer { base: right, blown },
        )
    }

    fn fold_with<F: Folder<P::Item>>(self, folder: F) -> F {
        let fused = FuseConsumer {
            base: folder,
            blown: self.blown,
        };
        self.base.fold_with(fused).base
    }
}

/// Consumer and folder: full once the flag is set; a folder sets it when
/// a panic unwinds through it.
struct FuseConsumer<'f, C> {
    base: C,
    blown: &'f AtomicBool,
}

impl<'f, T, C: Consumer<T>> Consumer<T> for FuseConsumer<'f, C> {
    type Folder = FuseConsumer<'f, C::Folder>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let blown = self.blown;
        let left = FuseConsumer { base: left, blown };
        (left, FuseConsumer { base: right, blown }, reducer)
    }

    fn into_folder(self) -> Self::Folder {
        FuseConsumer {
            base: self.base.into_folder(),
            blown: self.blown,
        }
    }

    fn full(&self) -> bool {
        self.blown.load(Ordering::Relaxed) || self.base.full()
    }
}

impl<T, C: UnindexedConsumer<T>> UnindexedConsumer<T> for FuseConsumer<'_, C> {
    fn split_off_left(&self) -> Self {
        FuseConsumer {
            base: self.base.split_off_left(),
            blown: self.blown,
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T, F: Folder<T>> Folder<T> for FuseConsumer<'_, F> {
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        let guard = Blown(self.blown);
        self.base = self.base.consume(item);
        drop(guard);
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let blown = self.blown;
        let guard = Blown(blown);
        self.base = self.base.consume_iter(
            iter.into_iter()
                .take_while(|_| !blown.load(Ordering::Relaxed)),
        );
        drop(guard);
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.blown.load(Ordering::Relaxed) || self.base.full()
    }
}
