//! `FairExecutor<K>`: queues by key, the loop, stats.

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::hash::Hash;
use std::pin::pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use crate::core::Core;
use crate::queue::QueueHandle;
use crate::run::{RunUntil, ThreadWaker};
use crate::stats::Stats;
use crate::sync::{thread, Arc};

/// A single-threaded executor with weighted queues scheduled by EEVDF (see
/// the [crate documentation](crate)). Built by
/// [`FairExecutorBuilder`](crate::FairExecutorBuilder); `!Send`: it and its tasks
/// live on one thread.
///
/// Dropping the executor drops every task still alive; their handles return
/// [`JoinError::Cancelled`](crate::JoinError::Cancelled).
///
/// The executor, its queue handles and join handles cannot leave the thread:
///
/// ```compile_fail
/// fn send<T: Send>(_: T) {}
/// let executor = rt_fair::FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
/// send(executor.queue(0).unwrap()); // error: `Weak<..>` cannot be sent between threads
/// ```
///
/// ```compile_fail
/// fn send<T: Send>(_: T) {}
/// send(rt_fair::FairExecutorBuilder::new().with_queue(0, 1).build().unwrap());
/// ```
pub struct FairExecutor<K> {
    core: Rc<Core>,
    keys: Vec<K>,
    index: HashMap<K, usize>,
}

impl<K: Eq + Hash + Copy> FairExecutor<K> {
    pub(crate) fn new(core: Rc<Core>, keys: Vec<K>, index: HashMap<K, usize>) -> Self {
        Self { core, keys, index }
    }

    /// A handle to spawn onto the queue with this key; `None` if there is no
    /// such queue.
    pub fn queue(&self, key: K) -> Option<QueueHandle> {
        self.index.get(&key).map(|&queue| QueueHandle {
            core: Rc::downgrade(&self.core),
            queue,
        })
    }

    /// The keys of the queues, in the builder's order.
    pub fn keys(&self) -> &[K] {
        &self.keys
    }

    /// Runs the executor inside a host runtime until `future` completes, and
    /// returns its output. Await it on the host, for example in a tokio
    /// current-thread runtime's `LocalSet`. The executor gives the thread
    /// back to the host at least every `host_interval` (and whenever it has
    /// nothing to run), so the host's timers and I/O keep working; tasks may
    /// use them.
    ///
    /// `future` is polled on this thread between tasks, whenever it is
    /// woken; it is not a task and belongs to no queue. Tasks still alive
    /// when it completes stay in their queues and run at the next
    /// `run_until` or `block_on`.
    ///
    /// ```
    /// use rt_fair::FairExecutorBuilder;
    ///
    /// let host = tokio::runtime::Builder::new_current_thread().enable_time().build().unwrap();
    /// let local = tokio::task::LocalSet::new();
    /// let executor = FairExecutorBuilder::new().with_queue(1u32, 1).build().unwrap();
    /// let queue = executor.queue(1).unwrap();
    /// let out = local.block_on(&host, executor.run_until(async move {
    ///     let task = queue.spawn(async {
    ///         tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    ///         "slept on tokio's timer"
    ///     });
    ///     task.await.unwrap()
    /// }));
    /// assert_eq!(out, "slept on tokio's timer");
    /// ```
    ///
    /// # Panics
    ///
    /// If called from inside one of this executor's own tasks (the executor
    /// is already running), or if a task panics and the executor was built
    /// `with_panic_propagation(true)`.
    pub fn run_until<'a, F: Future + 'a>(
        &'a self,
        future: F,
    ) -> impl Future<Output = F::Output> + 'a {
        RunUntil::new(&self.core, future, true)
    }

    /// Runs the executor on the current thread, with no host runtime, until
    /// `future` completes. The thread parks while nothing is runnable and is
    /// unparked by any task's waker (from any thread). Tasks cannot use a
    /// host's timers or I/O here.
    ///
    /// # Panics
    ///
    /// As [`FairExecutor::run_until`].
    pub fn block_on<F: Future>(&self, future: F) -> F::Output {
        let waker = Waker::from(Arc::new(ThreadWaker(thread::current())));
        let mut cx = Context::from_waker(&waker);
        let mut run = pin!(RunUntil::new(&self.core, future, false));
        loop {
            if let Poll::Ready(output) = run.as_mut().poll(&mut cx) {
                return output;
            }
            thread::park();
        }
    }

    /// Per-queue counters: polls, tasks spawned, finished, panicked and
    /// aborted, CPU time charged, and queue-delay percentiles.
    pub fn stats(&self) -> Stats<K> {
        let counters = self.core.counters();
        Stats {
            queues: counters
                .iter()
                .enumerate()
                .map(|(i, c)| c.snapshot(self.keys[i], self.core.config.weights[i]))
                .collect(),
        }
    }
}

impl<K: fmt::Debug> fmt::Debug for FairExecutor<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FairExecutor")
            .field("queues", &self.keys)
            .field("weights", &self.core.config.weights)
            .field("time_slice", &self.core.config.slice)
            .field("host_interval", &self.core.config.host_interval)
            .field("propagate_panics", &self.core.config.propagate_panics)
            .finish()
    }
}
