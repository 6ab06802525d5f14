//! The pool: its workers, starting them, stats, shutdown and `Drop`.

use std::fmt;
use std::io;
use std::sync::Arc;

use crate::builder::Builder;
use crate::mailbox::Mailbox;
use crate::stats::BurstStats;
use crate::BuildError;
use rt_handle::raw::{unpoison, ThreadSettings};

use crate::sync::{thread, AtomicBool, AtomicUsize, Mutex, Ordering};
use crate::worker;

impl<T: Send + 'static> Builder<T> {
    /// The pool, with no workers yet: add them with
    /// [`BurstPool::spawn_worker`].
    pub fn build(self) -> Result<BurstPool<T>, BuildError> {
        if self.queue_capacity == 0 {
            return Err(BuildError::ZeroCapacity);
        }
        Ok(BurstPool::from_builder(self))
    }
}

/// The producer's view of one worker.
pub(crate) struct Worker<T> {
    pub(crate) mailbox: Arc<Mailbox<T>>,
    pub(crate) thread: thread::Thread,
}

impl<T> Worker<T> {
    /// Unparks the worker if this caller wins its wake-up (after a push or
    /// a close).
    #[inline]
    pub(crate) fn wake(&self) {
        if self.mailbox.claim_wake() {
            self.mailbox.unpark(&self.thread);
        }
    }
}

/// A dispatcher for bursts: workers that each own a handler and a bounded
/// queue, fed round-robin, parked when idle and woken one by one, each at
/// most once per send or burst. See the [crate documentation](crate).
///
/// ```
/// use std::sync::mpsc;
/// use rt_burst::BurstPool;
///
/// let (done, results) = mpsc::channel();
/// let mut pool = BurstPool::new();
/// for _ in 0..2 {
///     let done = done.clone();
///     pool.spawn_worker(move |n: u64| done.send(n * n).unwrap());
/// }
/// pool.send_burst(1..=4)?;              // two items per worker, each woken once
/// pool.shutdown();                       // drains the queues, joins the workers
/// let mut squares: Vec<u64> = results.try_iter().collect();
/// squares.sort();
/// assert_eq!(squares, [1, 4, 9, 16]);
/// assert_eq!(pool.stats().handled(), 4);
/// # Ok::<(), rt_burst::SendError<Vec<u64>>>(())
/// ```
pub struct BurstPool<T: Send + 'static> {
    pub(crate) workers: Vec<Worker<T>>,
    /// The worker the next round-robin search starts at.
    pub(crate) cursor: AtomicUsize,
    pub(crate) closed: AtomicBool,
    joins: Mutex<Vec<thread::JoinHandle<()>>>,
    queue_capacity: usize,
    thread_name: String,
}

impl<T: Send + 'static> BurstPool<T> {
    /// A pool with the default queue capacity and thread names, and no
    /// workers yet.
    pub fn new() -> Self {
        Self::builder()
            .build()
            .expect("the default configuration is valid")
    }

    /// A [`Builder`] to set the queue capacity and thread names.
    pub fn builder() -> Builder<T> {
        Builder::new()
    }

    pub(crate) fn from_builder(builder: Builder<T>) -> Self {
        Self {
            workers: Vec::new(),
            cursor: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            joins: Mutex::new(Vec::new()),
            queue_capacity: builder.queue_capacity,
            thread_name: builder.thread_name,
        }
    }

    /// Starts a worker thread that runs `handler` on each item it is given,
    /// and returns its index (0, 1, 2, … in spawn order). Panics if the
    /// thread cannot be started, like [`std::thread::spawn`]; see
    /// [`try_spawn_worker`](Self::try_spawn_worker).
    pub fn spawn_worker<F>(&mut self, handler: F) -> usize
    where
        F: FnMut(T) + Send + 'static,
    {
        self.try_spawn_worker(handler)
            .expect("failed to spawn a burst worker thread")
    }

    /// Like [`spawn_worker`](Self::spawn_worker), but returns the error if
    /// the thread cannot be started: the operating system refuses it, or the
    /// name prefix has a NUL byte ([`io::ErrorKind::InvalidInput`]). A worker added after
    /// [`shutdown`](Self::shutdown) accepts nothing and exits at once.
    pub fn try_spawn_worker<F>(&mut self, handler: F) -> io::Result<usize>
    where
        F: FnMut(T) + Send + 'static,
    {
        let index = self.workers.len();
        let closed = self.closed.load(Ordering::Acquire);
        let mailbox = Arc::new(Mailbox::new(self.queue_capacity, closed));
        let own = Arc::clone(&mailbox);
        let settings = ThreadSettings::new(format!("{}-{index}", self.thread_name), None)?;
        let handle = thread::Builder::new()
            .name(settings.name)
            .spawn(move || worker::run(&own, handler))?;
        self.workers.push(Worker {
            mailbox,
            thread: handle.thread().clone(),
        });
        unpoison(self.joins.lock()).push(handle);
        Ok(index)
    }

    /// Number of workers started.
    pub fn workers(&self) -> usize {
        self.workers.len()
    }

    /// Items each worker's queue holds.
    pub fn queue_capacity(&self) -> usize {
        self.queue_capacity
    }

    /// True once [`shutdown`](Self::shutdown) was called (or began in `Drop`).
    pub fn is_shutdown(&self) -> bool {
        self.closed.load(Ordering::Acquire)
    }

    /// Per-worker counters: items handled, handler panics, items queued,
    /// parked or not. Exact after `shutdown`.
    pub fn stats(&self) -> BurstStats {
        BurstStats {
            workers: self.workers.iter().map(|w| w.mailbox.snapshot()).collect(),
        }
    }

    /// Stops accepting items (`send` then returns
    /// [`SendError::Closed`](crate::SendError::Closed)), lets every worker
    /// handle what it was already given, and joins the workers. Idempotent;
    /// a second concurrent call also returns only after the workers exited.
    /// Called from inside a handler of this pool, it closes the pool and
    /// returns without joining (a thread cannot join itself).
    pub fn shutdown(&self) {
        self.closed.store(true, Ordering::Release);
        for worker in &self.workers {
            worker.mailbox.close();
            worker.wake();
        }
        let me = thread::current().id();
        if self.workers.iter().any(|w| w.thread.id() == me) {
            return;
        }
        // Held while joining, so a concurrent second call waits for the
        // workers too.
        let mut joins = unpoison(self.joins.lock());
        for handle in joins.drain(..) {
            // Handler panics are caught in the worker loop, so a worker
            // thread itself never ends by a panic worth reporting.
            let _ = handle.join();
        }
    }
}

impl<T: Send + 'static> Default for BurstPool<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Send + 'static> Drop for BurstPool<T> {
    /// Same as [`shutdown`](BurstPool::shutdown): the queued items are
    /// handled, then the workers are joined.
    fn drop(&mut self) {
        self.shutdown();
    }
}

impl<T: Send + 'static> fmt::Debug for BurstPool<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BurstPool")
            .field("workers", &self.workers.len())
            .field("queue_capacity", &self.queue_capacity)
            .field("thread_name", &self.thread_name)
            .field("shutdown", &self.is_shutdown())
            .finish_non_exhaustive()
    }
}
