//! Configuring a pool (rayon's `ThreadPoolBuilder`, and the deprecated
//! `Configuration`), and the threads it starts (`ThreadBuilder`).
//!
//! A pool is an rt-core [`Runtime`](rt_core::Runtime): the builder turns
//! rayon's settings into rt-core's, and starts each worker through
//! [`rt_core::Builder::build_with`], calling the thread-name closure and
//! the spawn handler once per worker, in index order, as rayon does.

use std::any::Any;
use std::error::Error;
use std::fmt;
use std::io;
use std::sync::Arc;

use crate::error::ThreadPoolBuildError;
use crate::registry::{PanicHandler, Registry};
use crate::thread_pool::ThreadPool;

type StartHandler = dyn Fn(usize) + Send + Sync;
type ExitHandler = dyn Fn(usize) + Send + Sync;

/// Configures a pool: its thread count, names and stack size, the
/// handlers around its threads and for panics nobody waits for, and how
/// its threads start (rayon's `ThreadPoolBuilder`).
///
/// ```
/// let pool = rayon_core::ThreadPoolBuilder::new()
///     .num_threads(2)
///     .thread_name(|i| format!("compute-{i}"))
///     .build()
///     .unwrap();
/// let name = pool.install(|| std::thread::current().name().map(str::to_owned));
/// assert!(name.is_some_and(|n| n.starts_with("compute-")));
/// ```
pub struct ThreadPoolBuilder<S = DefaultSpawn> {
    num_threads: usize,
    use_current_thread: bool,
    panic_handler: Option<Box<PanicHandler>>,
    get_thread_name: Option<Box<dyn FnMut(usize) -> String>>,
    stack_size: Option<usize>,
    start_handler: Option<Box<StartHandler>>,
    exit_handler: Option<Box<ExitHandler>>,
    spawn_handler: S,
    breadth_first: bool,
}

impl Default for ThreadPoolBuilder {
    fn default() -> Self {
        Self {
            num_threads: 0,
            use_current_thread: false,
            panic_handler: None,
            get_thread_name: None,
            stack_size: None,
            start_handler: None,
            exit_handler: None,
            spawn_handler: DefaultSpawn,
            breadth_first: false,
        }
    }
}

impl ThreadPoolBuilder {
    /// A builder with the defaults: as many threads as `RAYON_NUM_THREADS`
    /// says, or one per available CPU; no names; rt's default stack size
    /// ([`rt_core::DEFAULT_STACK_SIZE`]); no handlers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds a pool whose threads are started inside
    /// [`std::thread::scope`], each through `wrapper` (which must call
    /// [`ThreadBuilder::run`]), then calls `with_pool` with it; returns
    /// once the pool has been dropped and every thread has exited. The
    /// threads may borrow what outlives the call (rayon's `build_scoped`).
    ///
    /// ```
    /// let answer = 42;
    /// let seen = rayon_core::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .build_scoped(
    ///         |thread| {
    ///             assert_eq!(answer, 42); // borrowed by every thread
    ///             thread.run()
    ///         },
    ///         |pool| pool.install(|| answer + 1),
    ///     )
    ///     .unwrap();
    /// assert_eq!(seen, 43);
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`build`](ThreadPoolBuilder::build).
    pub fn build_scoped<W, F, R>(self, wrapper: W, with_pool: F) -> Result<R, ThreadPoolBuildError>
    where
        W: Fn(ThreadBuilder) + Sync,
        F: FnOnce(&ThreadPool) -> R,
    {
        std::thread::scope(|scope| {
            let pool = self
                .spawn_handler(|thread| {
                    let mut builder = std::thread::Builder::new();
                    if let Some(name) = thread.name() {
                        builder = builder.name(name.to_owned());
                    }
                    if let Some(size) = thread.stack_size() {
                        builder = builder.stack_size(size);
                    }
                    builder.spawn_scoped(scope, || wrapper(thread))?;
                    Ok(())
                })
                .build()?;
            Ok(with_pool(&pool))
        })
    }
}

impl<S> ThreadPoolBuilder<S>
where
    S: ThreadSpawn,
{
    /// Starts the pool.
    ///
    /// # Errors
    ///
    /// If the OS refuses a thread or the spawn handler returns an error
    /// (the threads already started then exit again), or if
    /// [`use_current_thread`](Self::use_current_thread) was asked on a
    /// thread that is a worker already.
    pub fn build(self) -> Result<ThreadPool, ThreadPoolBuildError> {
        let adopts = self.use_current_thread;
        let (builder, registry, mut spawn) = self.into_parts();
        let runtime = builder.build_with(|worker| spawn.start(worker))?;
        if adopts {
            adopted_by(&registry);
        }
        Ok(ThreadPool::from_runtime(runtime))
    }

    /// Starts the global pool with this configuration: rt's global
    /// runtime ([`rt_core::Runtime::global`]), which every crate's rayon
    /// code and rt's own free functions share. Call it before anything
    /// uses the global pool.
    ///
    /// # Errors
    ///
    /// If the global pool exists already (configured before, or started by
    /// a first use), and those of [`build`](Self::build).
    pub fn build_global(self) -> Result<(), ThreadPoolBuildError> {
        let adopts = self.use_current_thread;
        let (builder, registry, mut spawn) = self.into_parts();
        builder.build_global_with(|worker| spawn.start(worker))?;
        registry.make_global();
        if adopts {
            adopted_by(&registry);
        }
        Ok(())
    }

    /// rt-core's builder for these settings, the pool's registry, and the
    /// spawner that names each thread and hands it to the spawn handler.
    fn into_parts(self) -> (rt_core::Builder, Arc<Registry>, Spawner<S>) {
        let registry = Registry::new(self.panic_handler);
        let threads = if self.num_threads > 0 {
            self.num_threads
        } else {
            default_num_threads()
        };
        // rayon's rule: a count beyond what the pool supports is clamped.
        let mut builder = rt_core::Runtime::builder().threads(threads.min(rt_core::MAX_THREADS));
        if let Some(bytes) = self.stack_size {
            builder = builder.stack_size(bytes);
        }
        if self.use_current_thread {
            builder = builder.use_current_thread();
        }
        let start = self.start_handler;
        let on_start = Arc::clone(&registry);
        builder = builder.before_worker_start(move |index| {
            on_start.enter();
            if let Some(start) = &start {
                guard(&on_start, || start(index));
            }
        });
        let exit = self.exit_handler;
        let on_exit = Arc::clone(&registry);
        builder = builder.after_worker_stop(move |index| {
            if let Some(exit) = &exit {
                guard(&on_exit, || exit(index));
            }
            Registry::leave();
        });
        let spawner = Spawner {
            get_thread_name: self.get_thread_name,
            stack_size: self.stack_size,
            spawn_handler: self.spawn_handler,
        };
        let _ = self.breadth_first;
        (builder, registry, spawner)
    }
}

/// The calling thread was adopted as worker 0 of the pool of `registry`: it
/// runs no start handler (as in rayon), but the pool's panics that reach it
/// go to the pool's handler.
fn adopted_by(registry: &Arc<Registry>) {
    registry.enter();
}

/// Runs a start or exit handler; its panic goes to the pool's panic
/// handler (rayon's rule).
fn guard(registry: &Registry, handler: impl FnOnce()) {
    if let Err(payload) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(handler)) {
        registry.handle_panic(payload);
    }
}

/// rayon's default thread count: `RAYON_NUM_THREADS` if it holds a
/// positive number, else the deprecated `RAYON_RS_NUM_CPUS`, else one per
/// available CPU.
fn default_num_threads() -> usize {
    let from = |variable| {
        std::env::var(variable)
            .ok()
            .and_then(|value| value.parse::<usize>().ok())
            .filter(|&n| n > 0)
    };
    from("RAYON_NUM_THREADS")
        .or_else(|| from("RAYON_RS_NUM_CPUS"))
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// Names each worker and hands it to the spawn handler.
struct Spawner<S> {
    get_thread_name: Option<Box<dyn FnMut(usize) -> String>>,
    stack_size: Option<usize>,
    spawn_handler: S,
}

impl<S: ThreadSpawn> Spawner<S> {
    fn start(&mut self, worker: rt_core::WorkerThread) -> io::Result<()> {
        let name = self
            .get_thread_name
            .as_mut()
            .map(|name| name(worker.index()));
        self.spawn_handler.spawn(ThreadBuilder {
            name,
            stack_size: self.stack_size,
            worker,
        })
    }
}

impl<S> ThreadPoolBuilder<S> {
    /// Starts the pool's threads with `spawn`, called once per thread with
    /// a [`ThreadBuilder`] that must be [`run`](ThreadBuilder::run) on the
    /// thread it starts (rayon's `spawn_handler`). Compensating threads,
    /// which rt starts while every worker waits on other pools, are plain
    /// threads started by rt (see the crate docs).
    ///
    /// ```
    /// let pool = rayon_core::ThreadPoolBuilder::new()
    ///     .num_threads(2)
    ///     .spawn_handler(|thread| {
    ///         std::thread::spawn(|| thread.run());
    ///         Ok(())
    ///     })
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(pool.install(|| 40 + 2), 42);
    /// ```
    pub fn spawn_handler<F>(self, spawn: F) -> ThreadPoolBuilder<CustomSpawn<F>>
    where
        F: FnMut(ThreadBuilder) -> io::Result<()>,
    {
        ThreadPoolBuilder {
            spawn_handler: CustomSpawn(spawn),
            num_threads: self.num_threads,
            use_current_thread: self.use_current_thread,
            panic_handler: self.panic_handler,
            get_thread_name: self.get_thread_name,
            stack_size: self.stack_size,
            start_handler: self.start_handler,
            exit_handler: self.exit_handler,
            breadth_first: self.breadth_first,
        }
    }

    /// Names each thread with `closure(index)`, called once per thread,
    /// in index order, while the pool is built (a panic in it makes
    /// `build` panic, once the threads already started have exited).
    pub fn thread_name<F>(mut self, closure: F) -> Self
    where
        F: FnMut(usize) -> String + 'static,
    {
        self.get_thread_name = Some(Box::new(closure));
        self
    }

    /// The number of threads; 0 (the default) takes `RAYON_NUM_THREADS`, or
    /// the number of available CPUs. A count beyond
    /// [`max_num_threads`](crate::max_num_threads) is clamped to it.
    pub fn num_threads(mut self, num_threads: usize) -> Self {
        self.num_threads = num_threads;
        self
    }

    /// Makes the calling thread worker 0 of the pool (rayon's
    /// `use_current_thread`): it runs the pool's work only inside its own
    /// calls into the pool (a join, a scope, an install, a yield), and the
    /// start and exit handlers do not run on it. It stays worker 0 until
    /// the pool is dropped on this thread, or the thread exits.
    pub fn use_current_thread(mut self) -> Self {
        self.use_current_thread = true;
        self
    }

    /// Receives the panics nobody waits for: of [`spawn`](crate::spawn),
    /// [`spawn_broadcast`](crate::spawn_broadcast), and the start and exit
    /// handlers. Without one, such a panic aborts the process; a panic of
    /// the handler itself aborts too.
    pub fn panic_handler<H>(mut self, panic_handler: H) -> Self
    where
        H: Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    {
        self.panic_handler = Some(Box::new(panic_handler));
        self
    }

    /// The stack size of each thread, in bytes (default: rt's
    /// [`DEFAULT_STACK_SIZE`](rt_core::DEFAULT_STACK_SIZE), 32 MiB of
    /// address space; rayon leaves the platform's 2 MiB).
    pub fn stack_size(mut self, stack_size: usize) -> Self {
        self.stack_size = Some(stack_size);
        self
    }

    /// Deprecated in rayon; it has no effect here (use
    /// [`scope_fifo`](crate::scope_fifo) and [`spawn_fifo`](crate::spawn_fifo)).
    #[deprecated(note = "use `scope_fifo` and `spawn_fifo` for similar effect")]
    pub fn breadth_first(mut self) -> Self {
        self.breadth_first = true;
        self
    }

    /// Runs `start_handler(index)` on each thread before it takes any work.
    /// Its panic goes to the panic handler.
    pub fn start_handler<H>(mut self, start_handler: H) -> Self
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.start_handler = Some(Box::new(start_handler));
        self
    }

    /// Runs `exit_handler(index)` on each thread once the pool has been
    /// dropped and the thread has no more work. Its panic goes to the panic
    /// handler.
    pub fn exit_handler<H>(mut self, exit_handler: H) -> Self
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.exit_handler = Some(Box::new(exit_handler));
        self
    }
}

impl<S> fmt::Debug for ThreadPoolBuilder<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let set = |present: bool| if present { "Some(..)" } else { "None" };
        f.debug_struct("ThreadPoolBuilder")
            .field("num_threads", &self.num_threads)
            .field("use_current_thread", &self.use_current_thread)
            .field("get_thread_name", &set(self.get_thread_name.is_some()))
            .field("panic_handler", &set(self.panic_handler.is_some()))
            .field("stack_size", &self.stack_size)
            .field("start_handler", &set(self.start_handler.is_some()))
            .field("exit_handler", &set(self.exit_handler.is_some()))
            .field("breadth_first", &self.breadth_first)
            .finish()
    }
}

/// A thread of a pool being built, for a spawn handler to start and
/// [`run`](Self::run) (rayon's `ThreadBuilder`).
pub struct ThreadBuilder {
    name: Option<String>,
    stack_size: Option<usize>,
    worker: rt_core::WorkerThread,
}

impl ThreadBuilder {
    /// The thread's index in its pool.
    pub fn index(&self) -> usize {
        self.worker.index()
    }

    /// The name [`ThreadPoolBuilder::thread_name`] gave the thread, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The stack size [`ThreadPoolBuilder::stack_size`] asked for, if any.
    pub fn stack_size(&self) -> Option<usize> {
        self.stack_size
    }

    /// Runs the thread's part of the pool until the pool has been dropped
    /// and its work is done. A `ThreadBuilder` dropped without running
    /// leaves the pool one thread short (a broadcast then panics instead of
    /// waiting for it).
    pub fn run(self) {
        self.worker.run();
    }
}

impl fmt::Debug for ThreadBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ThreadBuilder")
            .field("index", &self.index())
            .field("name", &self.name)
            .field("stack_size", &self.stack_size)
            .finish()
    }
}

mod sealed {
    /// Only this crate's spawners implement [`ThreadSpawn`](super::ThreadSpawn).
    pub trait Sealed {}
}

/// How a pool starts its threads: [`DefaultSpawn`], or a spawn handler
/// ([`CustomSpawn`]). Sealed: implemented by this crate only.
pub trait ThreadSpawn: sealed::Sealed {
    /// Starts a thread that calls [`ThreadBuilder::run`].
    ///
    /// # Errors
    ///
    /// The OS's refusal, or the spawn handler's error.
    fn spawn(&mut self, thread: ThreadBuilder) -> io::Result<()>;
}

/// Starts each thread with `std::thread::Builder`: the name given, if any,
/// and the stack size given, else rt's default.
#[derive(Debug, Default)]
pub struct DefaultSpawn;

impl sealed::Sealed for DefaultSpawn {}

impl ThreadSpawn for DefaultSpawn {
    fn spawn(&mut self, thread: ThreadBuilder) -> io::Result<()> {
        let mut builder = std::thread::Builder::new();
        if let Some(name) = thread.name() {
            builder = builder.name(name.to_owned());
        }
        let stack = thread
            .stack_size()
            .unwrap_or_else(|| thread.worker.stack_size());
        builder.stack_size(stack).spawn(|| thread.run())?;
        Ok(())
    }
}

/// Starts each thread with the user's spawn handler.
pub struct CustomSpawn<F>(F);

impl<F> sealed::Sealed for CustomSpawn<F> {}

impl<F> ThreadSpawn for CustomSpawn<F>
where
    F: FnMut(ThreadBuilder) -> io::Result<()>,
{
    fn spawn(&mut self, thread: ThreadBuilder) -> io::Result<()> {
        (self.0)(thread)
    }
}

impl<F> fmt::Debug for CustomSpawn<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CustomSpawn(..)")
    }
}

/// rayon's old configuration type.
#[deprecated(note = "Use `ThreadPoolBuilder`")]
#[derive(Default)]
pub struct Configuration {
    builder: ThreadPoolBuilder,
}

#[allow(deprecated)]
impl Configuration {
    /// A configuration with the defaults.
    pub fn new() -> Configuration {
        Configuration {
            builder: ThreadPoolBuilder::new(),
        }
    }

    /// Builds a pool.
    ///
    /// # Errors
    ///
    /// Those of [`ThreadPoolBuilder::build`], boxed.
    pub fn build(self) -> Result<ThreadPool, Box<dyn Error + 'static>> {
        self.builder.build().map_err(Box::from)
    }

    /// See [`ThreadPoolBuilder::thread_name`].
    pub fn thread_name<F>(mut self, closure: F) -> Self
    where
        F: FnMut(usize) -> String + 'static,
    {
        self.builder = self.builder.thread_name(closure);
        self
    }

    /// See [`ThreadPoolBuilder::num_threads`].
    pub fn num_threads(mut self, num_threads: usize) -> Configuration {
        self.builder = self.builder.num_threads(num_threads);
        self
    }

    /// See [`ThreadPoolBuilder::panic_handler`].
    pub fn panic_handler<H>(mut self, panic_handler: H) -> Configuration
    where
        H: Fn(Box<dyn Any + Send>) + Send + Sync + 'static,
    {
        self.builder = self.builder.panic_handler(panic_handler);
        self
    }

    /// See [`ThreadPoolBuilder::stack_size`].
    pub fn stack_size(mut self, stack_size: usize) -> Self {
        self.builder = self.builder.stack_size(stack_size);
        self
    }

    /// See [`ThreadPoolBuilder::breadth_first`].
    pub fn breadth_first(mut self) -> Self {
        self.builder = self.builder.breadth_first();
        self
    }

    /// See [`ThreadPoolBuilder::start_handler`].
    pub fn start_handler<H>(mut self, start_handler: H) -> Configuration
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.builder = self.builder.start_handler(start_handler);
        self
    }

    /// See [`ThreadPoolBuilder::exit_handler`].
    pub fn exit_handler<H>(mut self, exit_handler: H) -> Configuration
    where
        H: Fn(usize) + Send + Sync + 'static,
    {
        self.builder = self.builder.exit_handler(exit_handler);
        self
    }

    /// The builder this configuration is.
    pub(crate) fn into_builder(self) -> ThreadPoolBuilder {
        self.builder
    }
}

// Here, beside `Configuration`, rather than in thread_pool.rs: the pool
// does not need to know the deprecated configuration type, while this
// file needs the pool (`build` returns one).
impl ThreadPool {
    /// Builds a pool from the deprecated [`Configuration`](crate::Configuration).
    ///
    /// # Errors
    ///
    /// Those of [`ThreadPoolBuilder::build`](crate::ThreadPoolBuilder::build), boxed.
    #[deprecated(note = "Use `ThreadPoolBuilder::build`")]
    #[allow(deprecated)]
    pub fn new(configuration: Configuration) -> Result<ThreadPool, Box<dyn Error>> {
        configuration.into_builder().build().map_err(Box::from)
    }
}

#[allow(deprecated)]
impl fmt::Debug for Configuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.builder.fmt(f)
    }
}

/// Builds the global pool from a [`Configuration`] (rayon's deprecated
/// `initialize`).
///
/// # Errors
///
/// Those of [`ThreadPoolBuilder::build_global`], boxed.
#[deprecated(note = "use `ThreadPoolBuilder::build_global`")]
#[allow(deprecated)]
pub fn initialize(config: Configuration) -> Result<(), Box<dyn Error>> {
    config.into_builder().build_global().map_err(Box::from)
}
