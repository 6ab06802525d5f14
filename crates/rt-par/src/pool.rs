//! rayon's thread-pool API, for code that builds its own pools: a
//! [`ThreadPool`] is an [`rt_core::Runtime`], and `join` is the runtime's
//! (rayon code that calls `rayon::join` or builds a pool ports by changing
//! the crate name; `rayon::scope` is `rt_core::scope`, whose tasks take no
//! argument, as in `std::thread::scope`).

use std::fmt;

pub use rt_core::{join, BuildError as ThreadPoolBuildError};

/// Builds a [`ThreadPool`] (rayon's `ThreadPoolBuilder`).
///
/// ```
/// use rt_par::prelude::*;
/// let pool = rt_par::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// assert_eq!(pool.current_num_threads(), 2);
/// assert_eq!(pool.install(|| (0..10).into_par_iter().sum::<i32>()), 45);
/// ```
#[derive(Debug, Default, Clone)]
pub struct ThreadPoolBuilder {
    threads: Option<usize>,
    thread_name: Option<String>,
}

impl ThreadPoolBuilder {
    /// A builder with the defaults: one worker per available core.
    pub fn new() -> Self {
        ThreadPoolBuilder::default()
    }

    /// The number of workers (0: one per available core).
    pub fn num_threads(mut self, threads: usize) -> Self {
        self.threads = (threads > 0).then_some(threads);
        self
    }

    /// The prefix of the workers' thread names.
    pub fn thread_name_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.thread_name = Some(prefix.into());
        self
    }

    /// Starts the pool.
    pub fn build(self) -> Result<ThreadPool, ThreadPoolBuildError> {
        // Without a count, the runtime's own default: one per core.
        let mut builder = rt_core::Runtime::builder();
        if let Some(threads) = self.threads {
            builder = builder.threads(threads);
        }
        if let Some(name) = self.thread_name {
            builder = builder.thread_name(name);
        }
        Ok(ThreadPool {
            runtime: builder.build()?,
        })
    }
}

/// A pool of workers that parallel iterators run on with
/// [`install`](Self::install) (rayon's `ThreadPool`): a runtime.
pub struct ThreadPool {
    runtime: rt_core::Runtime,
}

impl fmt::Debug for ThreadPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadPool")
            .field("threads", &self.runtime.threads())
            .finish()
    }
}

impl ThreadPool {
    /// Runs `op` on a worker of this pool; the parallel iterators in it run
    /// on the pool.
    pub fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        self.runtime.install(op)
    }

    /// The number of workers.
    pub fn current_num_threads(&self) -> usize {
        self.runtime.threads()
    }

    /// `join` on this pool.
    pub fn join<A, B, RA, RB>(&self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        self.runtime.join(a, b)
    }

    /// The runtime behind the pool.
    pub fn runtime(&self) -> &rt_core::Runtime {
        &self.runtime
    }
}
