//! `panic_fuse`: once a closure of the iterator panics on any worker, the
//! pieces still to fold see themselves full and skip their items, and its
//! sequential iterators end.

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

/// The shared flag, held by every producer, iterator and folder of the
/// iterator: one dropped while its thread panics (a panic unwinding
/// through it) blows the fuse.
struct Fuse<'f>(&'f AtomicBool);

impl Fuse<'_> {
    fn blown(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

impl Clone for Fuse<'_> {
    fn clone(&self) -> Self {
        Fuse(self.0)
    }
}

impl Drop for Fuse<'_> {
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
            fuse: Fuse(&blown),
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
            fuse: Fuse(&blown),
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
                    fuse: Fuse(self.blown),
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
    fuse: Fuse<'f>,
}

impl<'f, P: Producer> Producer for FuseProducer<'f, P> {
    type Item = P::Item;
    type IntoIter = FuseIter<'f, P::IntoIter>;

    fn into_iter(self) -> Self::IntoIter {
        FuseIter {
            base: self.base.into_iter(),
            fuse: self.fuse,
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
        let left = FuseProducer {
            base: left,
            fuse: self.fuse.clone(),
        };
        let right = FuseProducer {
            base: right,
            fuse: self.fuse,
        };
        (left, right)
    }

    fn fold_with<F: Folder<P::Item>>(self, folder: F) -> F {
        let fused = FuseConsumer {
            base: folder,
            fuse: self.fuse,
        };
        self.base.fold_with(fused).base
    }
}

/// A sequential iterator that ends once the fuse is blown.
struct FuseIter<'f, I> {
    base: I,
    fuse: Fuse<'f>,
}

impl<I: Iterator> Iterator for FuseIter<'_, I> {
    type Item = I::Item;

    fn next(&mut self) -> Option<I::Item> {
        if self.fuse.blown() {
            None
        } else {
            self.base.next()
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.base.size_hint()
    }
}

impl<I: DoubleEndedIterator> DoubleEndedIterator for FuseIter<'_, I> {
    fn next_back(&mut self) -> Option<I::Item> {
        if self.fuse.blown() {
            None
        } else {
            self.base.next_back()
        }
    }
}

impl<I: ExactSizeIterator> ExactSizeIterator for FuseIter<'_, I> {}

/// Consumer and folder: full once the fuse is blown.
struct FuseConsumer<'f, C> {
    base: C,
    fuse: Fuse<'f>,
}

impl<'f, T, C: Consumer<T>> Consumer<T> for FuseConsumer<'f, C> {
    type Folder = FuseConsumer<'f, C::Folder>;
    type Reducer = C::Reducer;
    type Result = C::Result;

    fn split_at(self, index: usize) -> (Self, Self, C::Reducer) {
        let (left, right, reducer) = self.base.split_at(index);
        let left = FuseConsumer {
            base: left,
            fuse: self.fuse.clone(),
        };
        (
            left,
            FuseConsumer {
                base: right,
                fuse: self.fuse,
            },
            reducer,
        )
    }

    fn into_folder(self) -> Self::Folder {
        FuseConsumer {
            base: self.base.into_folder(),
            fuse: self.fuse,
        }
    }

    fn full(&self) -> bool {
        self.fuse.blown() || self.base.full()
    }

    fn front_first(&self) -> bool {
        self.base.front_first()
    }
}

impl<T, C: UnindexedConsumer<T>> UnindexedConsumer<T> for FuseConsumer<'_, C> {
    fn split_off_left(&self) -> Self {
        FuseConsumer {
            base: self.base.split_off_left(),
            fuse: self.fuse.clone(),
        }
    }

    fn to_reducer(&self) -> C::Reducer {
        self.base.to_reducer()
    }
}

impl<T, F: Folder<T>> Folder<T> for FuseConsumer<'_, F> {
    type Result = F::Result;

    fn consume(mut self, item: T) -> Self {
        self.base = self.base.consume(item);
        self
    }

    fn consume_iter<I>(mut self, iter: I) -> Self
    where
        I: IntoIterator<Item = T>,
    {
        let fuse = self.fuse.clone();
        self.base = self
            .base
            .consume_iter(iter.into_iter().take_while(|_| !fuse.blown()));
        self
    }

    fn complete(self) -> F::Result {
        self.base.complete()
    }

    fn full(&self) -> bool {
        self.fuse.blown() || self.base.full()
    }
}
