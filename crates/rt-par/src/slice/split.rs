//! `par_split`, `par_split_inclusive`, `par_chunk_by` and their `_mut`
//! forms: the slice splits at a separator (or a change of run) found near
//! its middle, and each piece walks its part with the sequential method.

use crate::iter::plumbing::{bridge_unindexed, Folder, UnindexedConsumer, UnindexedProducer};
use crate::iter::ParallelIterator;

/// Where a slice of `len` items can split: the first place at or after
/// the middle that `is_cut` accepts, else the last before it.
fn cut_near_middle(len: usize, is_cut: impl Fn(usize) -> bool) -> Option<usize> {
    let middle = len / 2;
    (middle..len)
        .find(|&i| is_cut(i))
        .or_else(|| (0..middle).rev().find(|&i| is_cut(i)))
}

/// Defines a splitting iterator: `$cut(slice, pred)` finds where to split
/// (the separator's index, or the start of a run) and `$parts` splits
/// there; `$walk` is the sequential method.
macro_rules! slice_split {
    (
        $(#[$doc:meta])* $name:ident, $producer:ident, $slice:ty, bound $bound:ident,
        pred [$($pred:tt)*],
        cut |$c_slice:ident, $c_pred:ident| $cut:expr,
        parts |$p_slice:ident, $p_at:ident| $parts:expr,
        walk |$w_slice:ident, $w_pred:ident| $walk:expr
    ) => {
        $(#[$doc])*
        #[must_use = "iterators do nothing unless consumed"]
        pub struct $name<'data, T, P> {
            slice: $slice,
            pred: P,
        }

        impl<'data, T: std::fmt::Debug, P> std::fmt::Debug for $name<'data, T, P> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("slice", &self.slice)
                    .finish_non_exhaustive()
            }
        }

        impl<'data, T, P> $name<'data, T, P> {
            pub(super) fn new(slice: $slice, pred: P) -> Self {
                $name { slice, pred }
            }
        }

        impl<'data, T, P> ParallelIterator for $name<'data, T, P>
        where
            T: $bound + 'data,
            P: $($pred)* + Sync + Send,
        {
            type Item = $slice;

            fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
                let producer = $producer {
                    slice: self.slice,
                    pred: &self.pred,
                };
                bridge_unindexed(producer, consumer)
            }
        }

        struct $producer<'data, 'p, T, P> {
            slice: $slice,
            pred: &'p P,
        }

        impl<'data, T, P> UnindexedProducer for $producer<'data, '_, T, P>
        where
            T: $bound + 'data,
            P: $($pred)* + Sync,
        {
            type Item = $slice;

            fn split(self) -> (Self, Option<Self>) {
                let pred = self.pred;
                let at = {
                    let ($c_slice, $c_pred) = (&*self.slice, pred);
                    $cut
                };
                match at {
                    Some($p_at) => {
                        let $p_slice = self.slice;
                        let (left, right) = $parts;
                        (
                            $producer { slice: left, pred },
                            Some($producer { slice: right, pred }),
                        )
                    }
                    None => (self, None),
                }
            }

            fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
                let ($w_slice, $w_pred) = (self.slice, self.pred);
                folder.consume_iter($walk)
            }
        }
    };
}

slice_split!(
    /// The iterator of [`ParallelSlice::par_split`](super::ParallelSlice::par_split).
    Split, SplitProducer, &'data [T], bound Sync, pred [Fn(&T) -> bool],
    cut |slice, pred| cut_near_middle(slice.len(), |i| pred(&slice[i])),
    parts |slice, at| (&slice[..at], &slice[at + 1..]),
    walk |slice, pred| slice.split(pred)
);

slice_split!(
    /// The iterator of [`ParallelSlice::par_split_inclusive`](super::ParallelSlice::par_split_inclusive).
    SplitInclusive, SplitInclusiveProducer, &'data [T], bound Sync, pred [Fn(&T) -> bool],
    cut |slice, pred| cut_near_middle(slice.len().saturating_sub(1), |i| pred(&slice[i])),
    parts |slice, at| slice.split_at(at + 1),
    walk |slice, pred| slice.split_inclusive(pred)
);

slice_split!(
    /// The iterator of [`ParallelSliceMut::par_split_mut`](super::ParallelSliceMut::par_split_mut).
    SplitMut, SplitMutProducer, &'data mut [T], bound Send, pred [Fn(&T) -> bool],
    cut |slice, pred| cut_near_middle(slice.len(), |i| pred(&slice[i])),
    parts |slice, at| {
        let (left, right) = slice.split_at_mut(at);
        (left, &mut right[1..])
    },
    walk |slice, pred| slice.split_mut(pred)
);

slice_split!(
    /// The iterator of [`ParallelSliceMut::par_split_inclusive_mut`](super::ParallelSliceMut::par_split_inclusive_mut).
    SplitInclusiveMut, SplitInclusiveMutProducer, &'data mut [T], bound Send, pred [Fn(&T) -> bool],
    cut |slice, pred| cut_near_middle(slice.len().saturating_sub(1), |i| pred(&slice[i])),
    parts |slice, at| slice.split_at_mut(at + 1),
    walk |slice, pred| slice.split_inclusive_mut(pred)
);

impl<T, P: Clone> Clone for Split<'_, T, P> {
    fn clone(&self) -> Self {
        Split::new(self.slice, self.pred.clone())
    }
}

impl<T, P: Clone> Clone for SplitInclusive<'_, T, P> {
    fn clone(&self) -> Self {
        SplitInclusive::new(self.slice, self.pred.clone())
    }
}

/// Defines a `chunk_by` iterator. Its producer remembers how much of its
/// slice it has searched for a change of run (`tail`: the positions from
/// there on hold none), so that `same` is called once per neighbouring
/// pair in all.
macro_rules! chunk_by_iter {
    (
        $(#[$doc:meta])* $name:ident, $producer:ident, $slice:ty, bound $bound:ident,
        split |$p_slice:ident, $p_at:ident| $parts:expr,
        walk |$w_slice:ident, $w_pred:ident| $walk:expr
    ) => {
        $(#[$doc])*
        #[must_use = "iterators do nothing unless consumed"]
        pub struct $name<'data, T, P> {
            slice: $slice,
            pred: P,
        }

        impl<'data, T: std::fmt::Debug, P> std::fmt::Debug for $name<'data, T, P> {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($name))
                    .field("slice", &self.slice)
                    .finish_non_exhaustive()
            }
        }

        impl<'data, T, P> $name<'data, T, P> {
            pub(super) fn new(slice: $slice, pred: P) -> Self {
                $name { slice, pred }
            }
        }

        impl<'data, T, P> ParallelIterator for $name<'data, T, P>
        where
            T: $bound + 'data,
            P: Fn(&T, &T) -> bool + Sync + Send,
        {
            type Item = $slice;

            fn drive_unindexed<C: UnindexedConsumer<Self::Item>>(self, consumer: C) -> C::Result {
                let tail = self.slice.len();
                let producer = $producer {
                    slice: self.slice,
                    pred: &self.pred,
                    tail,
                };
                bridge_unindexed(producer, consumer)
            }
        }

        struct $producer<'data, 'p, T, P> {
            slice: $slice,
            pred: &'p P,
            /// Positions (a run starts at `i` when `same(slice[i - 1],
            /// slice[i])` fails) at and after this one were searched.
            tail: usize,
        }

        impl<'data, T, P> UnindexedProducer for $producer<'data, '_, T, P>
        where
            T: $bound + 'data,
            P: Fn(&T, &T) -> bool + Sync,
        {
            type Item = $slice;

            fn split(self) -> (Self, Option<Self>) {
                if self.tail < 2 {
                    return ($producer { tail: 0, ..self }, None);
                }
                let (pred, middle, tail) = (self.pred, self.tail / 2, self.tail);
                let starts_run = |i: usize| !pred(&self.slice[i - 1], &self.slice[i]);
                let forward = (middle.max(1)..tail).find(|&i| starts_run(i));
                let at = forward.or_else(|| (1..middle.max(1)).rev().find(|&i| starts_run(i)));
                let Some($p_at) = at else {
                    return ($producer { tail: 0, ..self }, None);
                };
                let (left_tail, right_tail) = if forward.is_some() {
                    (middle.max(1), tail - $p_at)
                } else {
                    ($p_at, 0)
                };
                let $p_slice = self.slice;
                let (left, right) = $parts;
                (
                    $producer { slice: left, pred, tail: left_tail },
                    Some($producer { slice: right, pred, tail: right_tail }),
                )
            }

            fn fold_with<F: Folder<Self::Item>>(self, folder: F) -> F {
                let $producer { slice, pred, tail } = self;
                let len = slice.len();
                if tail >= len {
                    let ($w_slice, $w_pred) = (slice, pred);
                    return folder.consume_iter($walk);
                }
                // The last run starts at the last change before `tail`; no
                // change follows it.
                let last = (1..tail).rev().find(|&i| !pred(&slice[i - 1], &slice[i]));
                match last {
                    None => folder.consume(slice),
                    Some($p_at) => {
                        let $p_slice = slice;
                        let (runs, last_run) = $parts;
                        let ($w_slice, $w_pred) = (runs, pred);
                        let folder = folder.consume_iter($walk);
                        if folder.full() {
                            folder
                        } else {
                            folder.consume(last_run)
                        }
                    }
                }
            }
        }
    };
}

chunk_by_iter!(
    /// The iterator of [`ParallelSlice::par_chunk_by`](super::ParallelSlice::par_chunk_by).
    ChunkBy, ChunkByProducer, &'data [T], bound Sync,
    split |slice, at| slice.split_at(at),
    walk |slice, pred| slice.chunk_by(pred)
);

chunk_by_iter!(
    /// The iterator of [`ParallelSliceMut::par_chunk_by_mut`](super::ParallelSliceMut::par_chunk_by_mut).
    ChunkByMut, ChunkByMutProducer, &'data mut [T], bound Send,
    split |slice, at| slice.split_at_mut(at),
    walk |slice, pred| slice.chunk_by_mut(pred)
);

impl<T, P: Clone> Clone for ChunkBy<'_, T, P> {
    fn clone(&self) -> Self {
        ChunkBy::new(self.slice, self.pred.clone())
    }
}
