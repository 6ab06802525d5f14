//! `FairExecutorBuilder`: queues, weights and knobs.

use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::time::Duration;

use crate::core::{Config, Core};
use crate::error::BuildError;
use crate::executor::FairExecutor;

/// The default base time slice (the EEVDF request size).
pub const DEFAULT_TIME_SLICE: Duration = Duration::from_millis(1);

/// The default rejoin credit: how much CPU time a queue that was idle may
/// be owed when it has work again (see
/// [`FairExecutorBuilder::with_rejoin_credit`]).
pub const DEFAULT_REJOIN_CREDIT: Duration = Duration::from_millis(8);

/// The default longest stretch the executor runs tasks before it returns to
/// its host runtime (so the host can run its timers and I/O).
pub const DEFAULT_HOST_INTERVAL: Duration = Duration::from_micros(250);

/// Configures an [`FairExecutor`]: its queues (a key and a weight each) and a few
/// scheduling knobs.
///
/// ```
/// use rt_fair::{BuildError, FairExecutorBuilder};
///
/// #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
/// enum Class { Foreground, Background }
///
/// let executor = FairExecutorBuilder::new()
///     .with_queue(Class::Foreground, 8)
///     .with_queue(Class::Background, 1)
///     .build()?;
/// assert!(executor.queue(Class::Background).is_some());
///
/// let zero = FairExecutorBuilder::new().with_queue(Class::Foreground, 0).build();
/// assert_eq!(zero.unwrap_err(), BuildError::ZeroWeight { index: 0 });
/// # Ok::<(), BuildError>(())
/// ```
pub struct FairExecutorBuilder<K> {
    queues: Vec<(K, u32)>,
    slice: Duration,
    rejoin_credit: Duration,
    host_interval: Duration,
    propagate_panics: bool,
}

impl<K: Eq + Hash + Copy> FairExecutorBuilder<K> {
    /// A builder with no queue yet and the default settings.
    pub fn new() -> Self {
        Self {
            queues: Vec::new(),
            slice: DEFAULT_TIME_SLICE,
            rejoin_credit: DEFAULT_REJOIN_CREDIT,
            host_interval: DEFAULT_HOST_INTERVAL,
            propagate_panics: false,
        }
    }

    /// Adds a queue. While several queues have runnable tasks, each gets CPU
    /// time in proportion to its `weight` (at least 1). The order of the
    /// calls is the order of [`Stats::queues`](crate::Stats::queues).
    pub fn with_queue(mut self, key: K, weight: u32) -> Self {
        self.queues.push((key, weight));
        self
    }

    /// The base time slice: how long a queue runs once picked before the
    /// scheduler chooses again (unless a queue with an earlier virtual
    /// deadline becomes runnable first), and the interval after which
    /// [`yield_maybe`](crate::yield_maybe) yields. Smaller slices switch
    /// queues more often; fairness does not depend on it. Default
    /// [`DEFAULT_TIME_SLICE`] (1 ms).
    pub fn with_time_slice(mut self, slice: Duration) -> Self {
        self.slice = slice;
        self
    }

    /// How much CPU time a queue that had no runnable task may be owed when
    /// it has one again: while idle it falls behind the share it would have
    /// had, and keeps up to this much of that as credit. A foreground queue
    /// that wakes with a burst of work then runs up to this long before a
    /// busy background queue gets its next turn, instead of giving the
    /// background its 1/9 (at 8 : 1) from the first slice. Over any
    /// stretch in which the queues stay busy, shares still follow the
    /// weights; the credit only moves CPU time towards the moments a queue
    /// returns, and a queue idle for a minute still gets no more than this.
    /// `Duration::ZERO`: a queue rejoins exactly at its fair share. Default
    /// [`DEFAULT_REJOIN_CREDIT`] (8 ms, eight default slices).
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let strict = rt_fair::FairExecutorBuilder::new()
    ///     .with_queue("foreground", 8)
    ///     .with_queue("background", 1)
    ///     .with_rejoin_credit(Duration::ZERO)
    ///     .build()
    ///     .unwrap();
    /// # drop(strict);
    /// ```
    pub fn with_rejoin_credit(mut self, credit: Duration) -> Self {
        self.rejoin_credit = credit;
        self
    }

    /// Inside a host runtime (`run_until`), how long the executor may run
    /// tasks before it returns to the host so that the host's timers and I/O
    /// are serviced; also a reason for `yield_maybe` to yield. Default
    /// [`DEFAULT_HOST_INTERVAL`] (250 µs). `block_on` has no host and
    /// ignores it.
    pub fn with_host_interval(mut self, interval: Duration) -> Self {
        self.host_interval = interval;
        self
    }

    /// `false` (the default): a panicking task is caught, dropped, and its
    /// handle returns [`JoinError::Panicked`](crate::JoinError::Panicked);
    /// the executor carries on. `true`: the panic is re-raised from
    /// `run_until` / `block_on` (after the task has been dropped and its
    /// handle told), so the whole shard fails fast.
    pub fn with_panic_propagation(mut self, propagate: bool) -> Self {
        self.propagate_panics = propagate;
        self
    }

    /// Checks the configuration and builds the executor.
    ///
    /// # Errors
    ///
    /// [`BuildError::NoQueues`], [`BuildError::ZeroWeight`],
    /// [`BuildError::DuplicateKey`] or [`BuildError::ZeroTimeSlice`].
    pub fn build(self) -> Result<FairExecutor<K>, BuildError> {
        if self.queues.is_empty() {
            return Err(BuildError::NoQueues);
        }
        if self.slice.is_zero() {
            return Err(BuildError::ZeroTimeSlice);
        }
        let mut index = HashMap::with_capacity(self.queues.len());
        for (i, &(key, weight)) in self.queues.iter().enumerate() {
            if weight == 0 {
                return Err(BuildError::ZeroWeight { index: i });
            }
            if let Some(&first) = index.get(&key) {
                return Err(BuildError::DuplicateKey { index: i, first });
            }
            index.insert(key, i);
        }
        let core = Core::new(Config {
            weights: self.queues.iter().map(|&(_, w)| w).collect(),
            slice: self.slice,
            rejoin_credit: self.rejoin_credit,
            host_interval: self.host_interval,
            propagate_panics: self.propagate_panics,
        });
        Ok(FairExecutor::new(
            core,
            self.queues.into_iter().map(|(k, _)| k).collect(),
            index,
        ))
    }
}

impl<K: Eq + Hash + Copy> Default for FairExecutorBuilder<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: fmt::Debug> fmt::Debug for FairExecutorBuilder<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FairExecutorBuilder")
            .field("queues", &self.queues)
            .field("slice", &self.slice)
            .field("rejoin_credit", &self.rejoin_credit)
            .field("host_interval", &self.host_interval)
            .field("propagate_panics", &self.propagate_panics)
            .finish()
    }
}
