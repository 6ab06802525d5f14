//! Configuring and starting an elastic pool.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::BuildError;
use rt_handle::raw::check_thread_name;

use crate::config::Config;
use crate::hooks::Hooks;
use crate::shared::Shared;
use crate::worker;
use crate::ElasticPool;

/// The default prefix of worker thread names.
pub const DEFAULT_THREAD_NAME: &str = "rt-elastic";

/// The default keep-alive: how long a worker above the core size stays idle
/// before it exits.
pub const DEFAULT_KEEP_ALIVE: Duration = Duration::from_secs(60);

/// Configures an [`ElasticPool`]; [`build`](ElasticBuilder::build) creates it.
///
/// ```
/// use std::time::Duration;
/// use rt_elastic::ElasticPool;
///
/// let pool = ElasticPool::builder()
///     .core_threads(2)
///     .max_threads(8)
///     .queue_capacity(16)
///     .keep_alive(Duration::from_secs(30))
///     .thread_name("io")
///     .before_worker_start(|worker| println!("io-{worker} up"))
///     .build()?;
/// assert_eq!(pool.stats().live_workers, 0, "workers start lazily");
/// let name = pool.spawn(|| std::thread::current().name().map(str::to_owned)).join()?;
/// assert_eq!(name.as_deref(), Some("io-0"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct ElasticBuilder {
    core: Option<usize>,
    max: Option<usize>,
    capacity: Option<usize>,
    keep_alive: Duration,
    core_timeout: bool,
    prestart: bool,
    thread_name: String,
    stack_size: Option<usize>,
    hooks: Hooks,
}

// Here rather than in `pool.rs`, so that the pool's file does not need the
// builder's type while this one needs the pool's.
impl ElasticPool {
    /// An [`ElasticBuilder`] to configure the pool.
    pub fn builder() -> ElasticBuilder {
        ElasticBuilder::new()
    }
}

impl Default for ElasticBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl ElasticBuilder {
    /// A builder with the defaults: one core worker per available CPU (but
    /// no more than `max_threads`, if that is set), a maximum equal to the
    /// core size (at least 1), an unbounded queue, a
    /// keep-alive of [`DEFAULT_KEEP_ALIVE`], core workers that never time
    /// out, lazy start, threads named `rt-elastic-0`, `rt-elastic-1`, ...,
    /// the platform's stack size and no hooks.
    pub fn new() -> Self {
        Self {
            core: None,
            max: None,
            capacity: None,
            keep_alive: DEFAULT_KEEP_ALIVE,
            core_timeout: false,
            prestart: false,
            thread_name: DEFAULT_THREAD_NAME.to_owned(),
            stack_size: None,
            hooks: Hooks::default(),
        }
    }

    /// Workers the pool keeps even when they are idle (unless
    /// [`core_timeout`](Self::core_timeout)). Below this size every task
    /// starts a new worker (even while an earlier one is idle), or all start
    /// at build time with [`prestart`](Self::prestart).
    /// Zero is allowed: the pool then starts a worker only when it has none,
    /// or when the bounded queue is full.
    pub fn core_threads(mut self, threads: usize) -> Self {
        self.core = Some(threads);
        self
    }

    /// The most workers the pool ever has. The pool grows past the core
    /// size only when a bounded queue is full, so with the default unbounded
    /// queue this has no effect. Zero, or less than the core size, is
    /// refused by [`build`](Self::build). Defaults to the core size (at
    /// least 1).
    #[doc(alias = "max_blocking_threads")]
    pub fn max_threads(mut self, threads: usize) -> Self {
        self.max = Some(threads);
        self
    }

    /// Bounds the queue at `capacity` waiting tasks (all priorities
    /// together). When it is full, a task offered from outside the pool
    /// starts a new worker (below `max_threads`) that runs it; at
    /// `max_threads` the pool is saturated: `try_spawn`/`try_execute` hand
    /// the closure back as
    /// [`SubmitError::Saturated`](rt_handle::SubmitError::Saturated) and
    /// `spawn`/`execute` block until there is room. Tasks submitted by this
    /// pool's own tasks are always queued, past the bound if need be, so a
    /// saturated pool cannot deadlock on its own work. Zero is refused by
    /// [`build`](Self::build).
    pub fn queue_capacity(mut self, capacity: usize) -> Self {
        self.capacity = Some(capacity);
        self
    }

    /// An unbounded queue (the default): after the core size is reached,
    /// tasks queue and the pool never grows past it.
    pub fn unbounded_queue(mut self) -> Self {
        self.capacity = None;
        self
    }

    /// How long a worker above the core size (any worker, with
    /// [`core_timeout`](Self::core_timeout)) stays idle before it exits.
    /// Zero makes such workers exit as soon as they find the queue empty.
    #[doc(alias = "thread_keep_alive")]
    pub fn keep_alive(mut self, keep_alive: Duration) -> Self {
        self.keep_alive = keep_alive;
        self
    }

    /// Whether core workers also exit after the keep-alive; a pool that
    /// shrank to zero starts workers again as tasks arrive. Together with a
    /// zero keep-alive it is refused by [`build`](Self::build).
    pub fn core_timeout(mut self, core_timeout: bool) -> Self {
        self.core_timeout = core_timeout;
        self
    }

    /// Whether [`build`](Self::build) starts the core workers at once
    /// instead of one per task as tasks arrive.
    pub fn prestart(mut self, prestart: bool) -> Self {
        self.prestart = prestart;
        self
    }

    /// Prefix of worker thread names: workers are `prefix-0`, `prefix-1`, ...
    /// (each new worker gets the next index; indexes are never reused).
    pub fn thread_name(mut self, prefix: impl Into<String>) -> Self {
        self.thread_name = prefix.into();
        self
    }

    /// Stack size of each worker thread, in bytes (default: the platform's).
    /// A size below [`MIN_STACK_SIZE`](rt_handle::MIN_STACK_SIZE)
    /// (128 KiB), even 0, is raised to it.
    pub fn stack_size(mut self, bytes: usize) -> Self {
        self.stack_size = Some(bytes);
        self
    }

    rt_handle::hook_builder_methods!();

    /// Creates the pool, starting the core workers if
    /// [`prestart`](Self::prestart) is set.
    ///
    /// A hook that panics is caught and counted in
    /// [`Metrics::hook_panics`](crate::Metrics::hook_panics) (in
    /// [`ElasticStats::metrics`](crate::ElasticStats::metrics)); it
    /// never stops a worker.
    ///
    /// # Errors
    ///
    /// * [`BuildError::MaxBelowCore`] for a `max_threads` of zero or below
    ///   `core_threads`;
    /// * [`BuildError::ZeroCapacity`] for a zero `queue_capacity`;
    /// * [`BuildError::ZeroKeepAlive`] for a zero keep-alive with
    ///   `core_timeout(true)`;
    /// * [`BuildError::InvalidThreadName`] for a name prefix with a NUL byte;
    /// * [`BuildError::Spawn`] if the OS refuses to start a prestarted
    ///   worker, after the workers already started have been shut down.
    ///
    /// ```
    /// use rt_elastic::{BuildError, ElasticPool};
    ///
    /// let err = ElasticPool::builder().core_threads(4).max_threads(2).build().unwrap_err();
    /// assert!(matches!(err, BuildError::MaxBelowCore { core: 4, max: 2 }));
    /// ```
    pub fn build(self) -> Result<ElasticPool, BuildError> {
        let core = self.core.unwrap_or_else(|| {
            rt_handle::raw::available_threads().min(self.max.unwrap_or(usize::MAX))
        });
        let max = self.max.unwrap_or(core.max(1));
        if max == 0 || max < core {
            return Err(BuildError::MaxBelowCore { core, max });
        }
        if self.capacity == Some(0) {
            return Err(BuildError::ZeroCapacity);
        }
        if self.core_timeout && self.keep_alive.is_zero() {
            return Err(BuildError::ZeroKeepAlive);
        }
        check_thread_name(&self.thread_name)?;
        let config = Config {
            core,
            max,
            capacity: self.capacity,
            keep_alive: self.keep_alive,
            core_timeout: self.core_timeout,
            thread_name: self.thread_name,
            stack_size: self.stack_size,
        };
        let pool = ElasticPool {
            shared: Arc::new(Shared::new(config, self.hooks, worker::run)),
        };
        if self.prestart {
            for _ in 0..core {
                let index = pool.shared.lock().reserve_worker();
                if let Err(source) = pool.shared.start_worker(index, None) {
                    // Dropping the pool shuts the started workers down.
                    drop(pool);
                    return Err(BuildError::Spawn { index, source });
                }
            }
        }
        Ok(pool)
    }
}

impl fmt::Debug for ElasticBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ElasticBuilder")
            .field("core_threads", &self.core)
            .field("max_threads", &self.max)
            .field("queue_capacity", &self.capacity)
            .field("keep_alive", &self.keep_alive)
            .field("core_timeout", &self.core_timeout)
            .field("prestart", &self.prestart)
            .field("thread_name", &self.thread_name)
            .field("stack_size", &self.stack_size)
            .field("hooks", &self.hooks)
            .finish()
    }
}
