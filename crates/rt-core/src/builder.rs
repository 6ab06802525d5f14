//! Configuring and starting a runtime.

use std::fmt;
use std::io;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::Arc;

use crate::BuildError;
use rt_handle::raw::check_thread_name;
use rt_queue::{work_queues_up_to, PriorityPolicy};

use crate::fork_join::helping;
use crate::idle::Counted;
use crate::observe::hooks::Hooks;
use crate::runtime::Runtime;
use crate::shared::{Config, Shared};
use crate::worker::adopted;
use crate::worker::thread::WorkerThread;

impl Runtime {
    /// Starts a runtime with `threads` workers and default settings.
    ///
    /// # Errors
    ///
    /// [`BuildError::ZeroThreads`] for zero; [`BuildError::Spawn`] if the OS
    /// refuses a thread.
    pub fn new(threads: usize) -> Result<Self, BuildError> {
        Builder::new().threads(threads).build()
    }

    /// A [`Builder`] to configure threads, names and stack size.
    pub fn builder() -> Builder {
        Builder::new()
    }
}

impl Default for Runtime {
    /// A runtime with one worker per available CPU.
    ///
    /// # Panics
    ///
    /// If the OS refuses to start a worker thread; use [`Runtime::builder`]
    /// to handle that as an error.
    fn default() -> Self {
        Builder::new()
            .build()
            .expect("failed to start the default runtime")
    }
}

/// The default prefix of worker thread names.
pub const DEFAULT_THREAD_NAME: &str = "rt-worker";

/// The default stack size of a worker thread: 32 MiB of address space, of
/// which only the pages a task actually touches take memory.
///
/// Recursion inside the pool goes as deep as the stack: measured on x86-64
/// (release build, a recursive function whose frame holds little besides
/// the call), one level of [`join`](crate::join()) recursion takes about
/// 300 bytes and one level of spawn-and-join (a task that spawns a task and
/// joins it, run inline) about 750 bytes, so 32 MiB hold over 100,000
/// levels of `join` and over 40,000 of spawn-and-join (a debug build needs
/// about four times as much per level: 1.2 KB and 3.7 KB). A worker that
/// needs more overflows its stack, and Rust's guard page stops the whole
/// process with "thread '...' has overflowed its stack"; never silently.
/// Set another size with [`Builder::stack_size`].
pub const DEFAULT_STACK_SIZE: usize = 32 << 20;

/// The most worker threads a runtime accepts. Each worker costs its queues
/// (a few KiB) and a thread before the OS can refuse anything, so without a
/// limit a mistyped `threads(1_000_000)` would allocate gigabytes and start
/// tens of thousands of threads before failing.
pub const MAX_THREADS: usize = 4096;

/// The most compensating threads a runtime starts, beyond its
/// [`threads`](Builder::threads), to keep one of its workers free while
/// the others wait (on tasks of other runtimes, say). The rule and its
/// limit: [`Runtime`]'s docs, "Waiting across runtimes".
pub const MAX_COMPENSATING_THREADS: usize = 64;

/// Configures a [`Runtime`]; [`build`](Builder::build) starts it.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::sync::Arc;
///
/// let started = Arc::new(AtomicUsize::new(0));
/// let s = started.clone();
/// let rt = rt_core::Runtime::builder()
///     .threads(2)
///     .thread_name("compute")
///     .stack_size(4 << 20)
///     .queue_capacity(1_000)
///     .before_worker_start(move |_worker| {
///         s.fetch_add(1, Ordering::SeqCst);
///     })
///     .build()?;
/// let name = rt.spawn(|| std::thread::current().name().map(str::to_owned)).join()?;
/// assert!(matches!(name.as_deref(), Some("compute-0") | Some("compute-1")));
/// rt.shutdown();
/// assert_eq!(started.load(Ordering::SeqCst), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
#[doc(alias = "ThreadPoolBuilder")]
pub struct Builder {
    threads: Option<usize>,
    thread_name: String,
    stack_size: Option<usize>,
    queue_capacity: Option<usize>,
    move_stacked_wakes: bool,
    policy: PriorityPolicy,
    measure_cpu_time: bool,
    record_latency: bool,
    use_current_thread: bool,
    hooks: Hooks,
}

impl Default for Builder {
    fn default() -> Self {
        Self::new()
    }
}

impl Builder {
    /// A builder with the defaults: one worker per available CPU, threads
    /// named `rt-worker-0`, `rt-worker-1`, ..., stacks of
    /// [`DEFAULT_STACK_SIZE`],
    /// an unbounded queue, no hooks, and workers' CPU affinity left alone.
    pub fn new() -> Self {
        Self {
            threads: None,
            thread_name: DEFAULT_THREAD_NAME.to_owned(),
            stack_size: None,
            queue_capacity: None,
            move_stacked_wakes: false,
            policy: PriorityPolicy::Strict,
            measure_cpu_time: false,
            record_latency: false,
            use_current_thread: false,
            hooks: Hooks::default(),
        }
    }

    /// Number of worker threads. Zero is refused by [`build`](Self::build).
    #[doc(alias("num_threads", "worker_threads"))]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Prefix of worker thread names: workers are `prefix-0`, `prefix-1`, ...
    pub fn thread_name(mut self, prefix: impl Into<String>) -> Self {
        self.thread_name = prefix.into();
        self
    }

    /// Stack size of each worker thread, in bytes (default
    /// [`DEFAULT_STACK_SIZE`], 32 MiB, which bounds how deep recursion with
    /// `join`, `scope` or spawn-and-join can go; see there). A size below
    /// [`MIN_STACK_SIZE`](crate::MIN_STACK_SIZE) (128 KiB), even 0, is raised to it: a worker's own
    /// frames need that much.
    #[doc(alias = "thread_stack_size")]
    pub fn stack_size(mut self, bytes: usize) -> Self {
        self.stack_size = Some(bytes);
        self
    }

    /// Bounds the number of externally submitted tasks waiting in the queues
    /// (all priorities together) at `capacity`. When it is reached,
    /// `try_spawn`/`try_execute` hand the closure back as
    /// [`SubmitError::Saturated`](rt_handle::SubmitError::Saturated) and
    /// `spawn`/`execute` block until a worker takes a task. Tasks spawned by
    /// tasks are never refused (they go to the worker's own deque), so a full
    /// queue cannot deadlock the pool. Zero is refused by
    /// [`build`](Self::build). The default is unbounded.
    #[doc(alias("bounded", "max_queue_size"))]
    pub fn queue_capacity(mut self, capacity: usize) -> Self {
        self.queue_capacity = Some(capacity);
        self
    }

    /// Whether a worker may move a woken peer that the kernel queued
    /// behind it on the same CPU (default `false`; only Linux has an
    /// effect).
    ///
    /// Linux places a woken thread on the CPU of the thread that woke it or
    /// on the one it last ran on; when both are busy, a woken worker can
    /// wait behind a running one for milliseconds while another CPU sits
    /// idle, and a burst runs at the speed of one worker. With this on, a
    /// worker that finishes a task while a peer it rang over 200 µs ago has
    /// still not run reads that peer's current CPU affinity and narrows it
    /// by its own CPU (`sched_setaffinity` on the pool's own thread), which
    /// moves the peer at once if it was stuck there; the peer puts back
    /// exactly the mask it had as soon as it runs, unless the mask was
    /// changed meanwhile, and a peer allowed a single CPU is never moved.
    ///
    /// Turn it on for a small machine (a few CPUs, say a 2-vCPU VM) where
    /// bursts of short tasks start while every worker is parked: measured on
    /// one, bursts after idle took 2.02 ms with it against 3.54 ms without
    /// (`cargo run --release -p rt-core --example stacked_wakes`). Leave it
    /// off when something else manages the workers' CPU affinity while they
    /// run. The mechanism is in the crate's `idle/WAKE_PLACEMENT.md`;
    /// [`Metrics::nudged_wakes`] counts the moves.
    ///
    /// [`Metrics::nudged_wakes`]: crate::Metrics::nudged_wakes
    pub fn move_stacked_wakes(mut self, enabled: bool) -> Self {
        self.move_stacked_wakes = enabled;
        self
    }

    /// How workers choose between priority classes that all have work:
    /// [`PriorityPolicy::Strict`] (the default: High, then Normal, then
    /// Background, so a steady High load starves the others) or
    /// [`PriorityPolicy::Weighted`], which shares each worker's CPU time
    /// among the classes with work in proportion to their weights and
    /// starves none, while a High task within its share still starts as
    /// soon as a worker finishes its current task. A zero weight is
    /// refused by [`build`](Self::build). The scheduler: the crate's
    /// `WEIGHTED_SHARES.md`.
    ///
    /// ```
    /// use rt_core::{Priority, PriorityPolicy, Runtime};
    ///
    /// let rt = Runtime::builder()
    ///     .threads(2)
    ///     .priority_policy(PriorityPolicy::Weighted { high: 16, normal: 4, background: 1 })
    ///     .build()?;
    /// let cleanup = rt.spawn_with_priority(Priority::Background, || "runs even under load");
    /// assert!(cleanup.join().is_ok());
    /// assert!(rt.stats().cpu_time_at(Priority::Background).is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn priority_policy(mut self, policy: PriorityPolicy) -> Self {
        self.policy = policy;
        self
    }

    /// Whether workers measure each task's CPU time, reported per class by
    /// [`Runtime::stats`](crate::Runtime::stats) (`cpu_time`). Off by
    /// default under the strict policy (it costs two clock reads per task);
    /// always on under a weighted one, which needs it.
    pub fn measure_cpu_time(mut self, enabled: bool) -> Self {
        self.measure_cpu_time = enabled;
        self
    }

    /// Whether workers record each task's queue delay (submission to
    /// start) and run time into per-priority histograms, reported by
    /// [`Runtime::stats`](crate::Runtime::stats) (`latency`). Only tasks
    /// whose body ran (completed or panicked) are recorded: a task
    /// cancelled before it started is not. Off by default: it costs a
    /// clock read at submission and two per task.
    ///
    /// ```
    /// use rt_core::{Priority, Runtime};
    ///
    /// let rt = Runtime::builder().threads(2).record_latency(true).build()?;
    /// rt.spawn(|| ()).join()?;
    /// rt.shutdown();
    /// let normal = rt.stats().latency.unwrap()[Priority::Normal];
    /// assert_eq!(normal.run_time.count, 1);
    /// println!("queued p99: {:?}", normal.queue_delay.p99);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn record_latency(mut self, enabled: bool) -> Self {
        self.record_latency = enabled;
        self
    }

    rt_handle::hook_builder_methods!();

    /// Makes the calling thread worker 0 of the runtime that
    /// [`build`](Self::build) starts, instead of starting a thread for it
    /// (rayon's `use_current_thread`). The thread goes on running its own
    /// code: it never runs the worker loop, so it runs the runtime's work
    /// only inside its own calls into the runtime (a [`join`](crate::join()),
    /// a scope, an [`install`](crate::Runtime::install), a
    /// [`yield_now`](crate::yield_now), waiting for a broadcast). What it
    /// spawns goes onto its own deque, where the other workers take it, so
    /// with one worker nothing runs the tasks it spawns unless it yields to
    /// them. The worker hooks do not run on it.
    ///
    /// It stays worker 0 until the runtime is shut down or dropped on this
    /// thread (outside any of its calls into the runtime), or until the
    /// thread exits; what its deque still holds then goes to the injectors.
    /// A runtime shut down from another thread can finish without it.
    ///
    /// ```
    /// let rt = rt_core::Runtime::builder().threads(2).use_current_thread().build()?;
    /// assert_eq!(rt_core::current_thread_index(), Some(0));
    /// let (a, b) = rt_core::join(|| rt_core::current_thread_index(), || 2);
    /// assert_eq!((a, b), (Some(0), 2));
    /// drop(rt);
    /// assert_eq!(rt_core::current_thread_index(), None);
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    pub fn use_current_thread(mut self) -> Self {
        self.use_current_thread = true;
        self
    }

    /// Starts the workers.
    ///
    /// A hook that panics is caught and counted in
    /// [`Metrics::hook_panics`](crate::Metrics::hook_panics); it never stops a
    /// worker.
    ///
    /// # Errors
    ///
    /// [`BuildError::ZeroThreads`] for zero threads,
    /// [`BuildError::TooManyThreads`] for more than [`MAX_THREADS`],
    /// [`BuildError::ZeroCapacity`] for a zero queue capacity,
    /// [`BuildError::ZeroWeight`] for a weighted policy with a zero weight,
    /// [`BuildError::InvalidThreadName`] for a name prefix with a NUL byte,
    /// [`BuildError::AlreadyAWorker`] if
    /// [`use_current_thread`](Self::use_current_thread) is asked on a
    /// thread that is a worker already; [`BuildError::Spawn`] if the OS
    /// refuses to start a thread, after the workers already started have
    /// been shut down again.
    pub fn build(self) -> Result<Runtime, BuildError> {
        self.build_with(WorkerThread::spawn)
    }

    /// Starts the workers with `spawn`, called once per worker (in index
    /// order, on this thread, before this returns) with a
    /// [`WorkerThread`] to run on a thread of the caller's choosing:
    /// rayon's `spawn_handler`. [`WorkerThread::spawn`] is what
    /// [`build`](Self::build) passes.
    ///
    /// Threads `spawn` starts are the caller's: the runtime never joins
    /// them, but its shutdown waits until each has returned from `run`.
    /// Compensating threads (see [`Runtime`]'s docs) are started by the
    /// runtime itself, as with `build`.
    ///
    /// ```
    /// let rt = rt_core::Runtime::builder().threads(2).build_with(|worker| {
    ///     std::thread::Builder::new()
    ///         .name(format!("custom-{}", worker.index()))
    ///         .spawn(|| worker.run())
    ///         .map(drop)
    /// })?;
    /// let name = rt.spawn(|| std::thread::current().name().map(str::to_owned)).join()?;
    /// assert!(name.is_some_and(|n| n.starts_with("custom-")));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`build`](Self::build); [`BuildError::Spawn`] with the
    /// error `spawn` returned. The workers started before are shut down
    /// again first.
    ///
    /// # Panics
    ///
    /// If `spawn` panics: the workers started before are shut down, then
    /// the panic resumes.
    pub fn build_with<S>(self, mut spawn: S) -> Result<Runtime, BuildError>
    where
        S: FnMut(WorkerThread) -> io::Result<()>,
    {
        let threads = self
            .threads
            .unwrap_or_else(rt_handle::raw::available_threads);
        if threads == 0 {
            return Err(BuildError::ZeroThreads);
        }
        if threads > MAX_THREADS {
            return Err(BuildError::TooManyThreads {
                requested: threads,
                max: MAX_THREADS,
            });
        }
        if self.queue_capacity == Some(0) {
            return Err(BuildError::ZeroCapacity);
        }
        check_thread_name(&self.thread_name)?;
        if let Err(class) = self.policy.validate() {
            return Err(BuildError::ZeroWeight { class });
        }
        if self.use_current_thread && crate::worker::current_index().is_some() {
            return Err(BuildError::AlreadyAWorker);
        }
        let spares = MAX_COMPENSATING_THREADS.min(MAX_THREADS - threads);
        let (global, locals) = work_queues_up_to(threads, threads + spares);
        // Raised as `ThreadSettings` raises it, so that `WorkerThread::
        // stack_size` tells a spawn handler the size a worker needs.
        let stack_size = self
            .stack_size
            .unwrap_or(DEFAULT_STACK_SIZE)
            .max(rt_handle::MIN_STACK_SIZE);
        let shared = Arc::new(Shared::new(
            global,
            Config {
                threads,
                adopted: self.use_current_thread,
                thread_name: self.thread_name,
                stack_size,
                capacity: self.queue_capacity,
                move_stacked_wakes: self.move_stacked_wakes,
                hooks: self.hooks,
                policy: self.policy,
                measure_cpu_time: self.measure_cpu_time,
                record_latency: self.record_latency,
            },
        ));
        shared.register_cancel_listener();
        // Before any worker starts (or this thread is adopted): joins on
        // the workers find their help through it.
        helping::RUNTIME.register();
        let mut locals = locals.into_iter();
        if self.use_current_thread {
            let first = locals.next().expect("a runtime has a worker 0");
            adopted::adopt(&shared, first)?;
        }
        // Every worker as a `WorkerThread` first: one that is never handed
        // to `spawn` (after a failure) is dropped unrun, which tells the
        // runtime not to wait for it.
        let mut workers = locals
            .map(|queues| WorkerThread::new(&shared, queues, Counted::No))
            .collect::<Vec<_>>()
            .into_iter();
        for worker in workers.by_ref() {
            let index = worker.index();
            match catch_unwind(AssertUnwindSafe(|| spawn(worker))) {
                Ok(Ok(())) => {}
                Ok(Err(source)) => {
                    drop(workers);
                    Runtime { shared }.shutdown();
                    return Err(BuildError::Spawn { index, source });
                }
                Err(payload) => {
                    drop(workers);
                    Runtime { shared }.shutdown();
                    resume_unwind(payload);
                }
            }
        }
        Ok(Runtime { shared })
    }
}

impl fmt::Debug for Builder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("threads", &self.threads)
            .field("thread_name", &self.thread_name)
            .field("stack_size", &self.stack_size)
            .field("queue_capacity", &self.queue_capacity)
            .field("move_stacked_wakes", &self.move_stacked_wakes)
            .field("priority_policy", &self.policy)
            .field("measure_cpu_time", &self.measure_cpu_time)
            .field("record_latency", &self.record_latency)
            .field("use_current_thread", &self.use_current_thread)
            .field("hooks", &self.hooks)
            .finish()
    }
}
