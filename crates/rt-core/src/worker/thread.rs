//! A worker thread before it runs: what the runtime starts itself, or
//! hands to a spawn handler (`Builder::build_with`) for the user to start.

use std::fmt;
use std::io;
use std::sync::Arc;

use rt_handle::raw::ThreadSettings;
use rt_queue::WorkerQueues;

use crate::idle::Counted;
use crate::shared::Shared;
use crate::worker::entry::Entry;
use crate::worker::run_worker;

/// One worker of a runtime being built, not running yet: a spawn handler
/// ([`Builder::build_with`](crate::Builder::build_with)) receives one per
/// worker and starts a thread that calls [`run`](Self::run) (rayon's
/// `ThreadBuilder`).
///
/// A worker dropped without running never takes part: the runtime goes on
/// with the others, and a broadcast that would need it panics instead of
/// waiting for it (see [`Runtime::broadcast`](crate::Runtime::broadcast)).
///
/// ```
/// let mut threads = Vec::new();
/// let rt = rt_core::Runtime::builder().threads(2).build_with(|worker| {
///     assert!(worker.name().starts_with("rt-worker-"));
///     threads.push(std::thread::Builder::new().name(worker.name()).spawn(|| worker.run())?);
///     Ok(())
/// })?;
/// assert_eq!(rt.spawn(|| 2 + 2).join()?, 4);
/// drop(rt); // shuts down: every worker's `run` returns
/// for thread in threads {
///     thread.join().unwrap();
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct WorkerThread {
    shared: Arc<Shared>,
    index: usize,
    /// Taken by `run`; still here when the worker is dropped unrun.
    queues: Option<WorkerQueues<Entry>>,
    counted: Counted,
}

impl WorkerThread {
    pub(crate) fn new(shared: &Arc<Shared>, queues: WorkerQueues<Entry>, counted: Counted) -> Self {
        Self {
            shared: Arc::clone(shared),
            index: queues.index(),
            queues: Some(queues),
            counted,
        }
    }

    /// The worker's index in its runtime (what
    /// [`current_thread_index`](crate::current_thread_index) returns on it).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The name the runtime gives the worker's thread: the builder's
    /// [`thread_name`](crate::Builder::thread_name) prefix and the index,
    /// `rt-worker-0` by default.
    pub fn name(&self) -> String {
        format!("{}-{}", self.shared.thread_name(), self.index)
    }

    /// The stack size the runtime gives the worker's thread
    /// ([`Builder::stack_size`](crate::Builder::stack_size)).
    pub fn stack_size(&self) -> usize {
        self.shared.stack_size()
    }

    /// Runs the worker on the calling thread until the runtime has shut
    /// down and finished its work. Call it on a thread of its own: the
    /// runtime counts on every worker running.
    pub fn run(mut self) {
        let queues = self.queues.take().expect("a worker runs once");
        run_worker(Arc::clone(&self.shared), queues, self.counted);
    }

    /// Starts the worker on a thread of its own, named [`name`](Self::name)
    /// with [`stack_size`](Self::stack_size), which the runtime joins when
    /// it shuts down: what [`Builder::build`](crate::Builder::build) does
    /// with each worker.
    ///
    /// # Errors
    ///
    /// The OS's refusal to start the thread (the worker is then dropped
    /// unrun).
    pub fn spawn(self) -> io::Result<()> {
        let shared = Arc::clone(&self.shared);
        let settings = ThreadSettings::new(self.name(), Some(self.stack_size()))?;
        let handle = settings.builder().spawn(move || self.run())?;
        shared.exits().add_thread(handle);
        Ok(())
    }
}

impl Drop for WorkerThread {
    fn drop(&mut self) {
        if self.queues.is_some() {
            // Never ran: the runtime must not wait for it.
            self.shared.never_ran(self.index);
        }
    }
}

impl fmt::Debug for WorkerThread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkerThread")
            .field("index", &self.index)
            .field("name", &self.name())
            .field("stack_size", &self.stack_size())
            .finish()
    }
}
