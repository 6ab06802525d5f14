//! Configuring a pool before it is built. [`Builder::build`] itself is in
//! `pool.rs`, beside the pool it makes, so that this file does not need the
//! pool's type and the pool's file can name the builder.

use std::fmt;
use std::marker::PhantomData;

/// Items each worker's queue holds when no capacity is configured.
pub const DEFAULT_QUEUE_CAPACITY: usize = 64;
/// Worker threads are named `"{prefix}-{index}"`; this is the default prefix.
pub const DEFAULT_THREAD_NAME: &str = "rt-burst";

/// Builds a [`BurstPool`](crate::BurstPool); from
/// [`BurstPool::builder`](crate::BurstPool::builder).
///
/// ```
/// use rt_burst::BurstPool;
///
/// let mut pool = BurstPool::builder().queue_capacity(8).thread_name("frame").build()?;
/// pool.spawn_worker(|frame: u32| assert!(frame < 100));
/// pool.send(42)?;
/// pool.shutdown();
/// assert!(BurstPool::<u32>::builder().queue_capacity(0).build().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Builder<T> {
    pub(crate) queue_capacity: usize,
    pub(crate) thread_name: String,
    item: PhantomData<fn(T)>,
}

impl<T: Send + 'static> Builder<T> {
    pub(crate) fn new() -> Self {
        Self {
            queue_capacity: DEFAULT_QUEUE_CAPACITY,
            thread_name: DEFAULT_THREAD_NAME.to_owned(),
            item: PhantomData,
        }
    }

    /// Items each worker's queue holds (default
    /// [`DEFAULT_QUEUE_CAPACITY`]). When every queue is full, `send` returns
    /// [`SendError::Full`](crate::SendError::Full). Zero is
    /// `BuildError::ZeroCapacity`.
    pub fn queue_capacity(mut self, capacity: usize) -> Self {
        self.queue_capacity = capacity;
        self
    }

    /// Names worker threads `"{prefix}-{index}"` (default
    /// [`DEFAULT_THREAD_NAME`]). Linux shows the first 15 bytes.
    pub fn thread_name(mut self, prefix: impl Into<String>) -> Self {
        self.thread_name = prefix.into();
        self
    }
}

impl<T> fmt::Debug for Builder<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("queue_capacity", &self.queue_capacity)
            .field("thread_name", &self.thread_name)
            .finish()
    }
}
