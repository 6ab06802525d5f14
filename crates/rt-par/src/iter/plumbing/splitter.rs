//! How many more times a piece may split, and how long a sequential fold
//! runs before it offers pending work to idle workers (`fold_paced`).

use std::time::{Duration, Instant};

use super::{Folder, Producer};
use crate::core_api;

/// Splits left before pieces run sequentially: one per worker to begin
/// with; a piece that another worker took starts over, since a theft
/// means a worker ran out of work (rayon's adaptive splitter).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Splitter {
    splits: usize,
}

impl Splitter {
    pub(crate) fn new() -> Self {
        Splitter {
            splits: core_api::current_num_threads(),
        }
    }

    /// Whether to split once more; `migrated` says the piece was stolen.
    #[inline]
    pub(crate) fn try_split(&mut self, migrated: bool) -> bool {
        if migrated {
            self.splits = core_api::current_num_threads().max(self.splits / 2);
            true
        } else if self.splits > 0 {
            self.splits /= 2;
            true
        } else {
            false
        }
    }
}

/// A [`Splitter`] for indexed pieces that also keeps every piece between
/// `min` and (by splitting at least `len / max` times) `max` items.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LengthSplitter {
    inner: Splitter,
    pub(crate) min: usize,
    /// The fewest items a leaf halves down to when nobody bounds it: a
    /// [`GRAIN_PARTS`]th per worker of the whole job.
    pub(crate) grain: usize,
}

/// Leaves halve down to `len / (threads * GRAIN_PARTS)` items at most.
const GRAIN_PARTS: usize = 16;

impl LengthSplitter {
    pub(crate) fn new(min: usize, max: usize, len: usize) -> Self {
        let mut inner = Splitter::new();
        let min_splits = len / max.max(1);
        inner.splits = inner.splits.max(min_splits);
        let grain = len / (core_api::current_num_threads() * GRAIN_PARTS);
        LengthSplitter {
            inner,
            min: min.max(1),
            grain: grain.min(max),
        }
    }

    #[inline]
    pub(crate) fn try_split(&mut self, len: usize, migrated: bool) -> bool {
        len / 2 >= self.min && self.inner.try_split(migrated)
    }
}

/// How long a sequential run goes between two checkpoints: long enough
/// that a checkpoint (a few loads and a clock read) costs nothing
/// measurable, short enough that an idle worker, or a more urgent task,
/// waits little.
const POLL_INTERVAL: Duration = Duration::from_micros(20);

/// Sizes the chunks of a sequential run so that each takes about
/// [`POLL_INTERVAL`]; calls [`core_api::checkpoint`] after each.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Pacer {
    /// Items per chunk.
    pub(crate) chunk: usize,
}

impl Pacer {
    pub(crate) fn new() -> Self {
        Pacer { chunk: 1 }
    }

    /// Times `run` (one chunk), adapts the chunk size, and reaches a
    /// checkpoint.
    #[inline]
    pub(crate) fn pace<R>(&mut self, run: impl FnOnce() -> R) -> R {
        let start = Instant::now();
        let result = run();
        self.after_chunk(start.elapsed());
        result
    }

    /// Adapts the chunk size to how long the last chunk `took`, and reaches
    /// a checkpoint.
    #[inline]
    pub(crate) fn after_chunk(&mut self, took: Duration) {
        if took < POLL_INTERVAL / 2 {
            self.chunk = self.chunk.saturating_mul(2);
        } else if took > POLL_INTERVAL * 2 {
            self.chunk = (self.chunk / 2).max(1);
        }
        core_api::checkpoint();
    }
}

/// Folds `len` items in chunks sized by `pacer` (never below the
/// producer's minimum length), offering work between them.
pub(crate) fn fold_paced<P, F>(
    mut len: usize,
    mut producer: P,
    mut folder: F,
    pacer: &mut Pacer,
) -> F
where
    P: Producer,
    F: Folder<P::Item>,
{
    let min = producer.min_len().max(1);
    while !folder.full() {
        let chunk = pacer.chunk.max(min);
        if len <= chunk {
            return producer.fold_with(folder);
        }
        let (head, rest) = producer.split_at(chunk);
        folder = pacer.pace(|| head.fold_with(folder));
        producer = rest;
        len -= chunk;
    }
    folder
}
