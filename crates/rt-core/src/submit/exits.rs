//! Waiting for every worker thread to have exited, and joining them.

use std::sync::Mutex as StdMutex;
use std::thread::JoinHandle as ThreadHandle;
use std::time::Duration;

use rt_handle::raw::{unpoison, Termination};

use crate::sync::Mutex;

/// Counts workers that have left their loop; waiters return once all have.
/// Keeps their threads' handles, for `shutdown` to join.
pub(crate) struct WorkerExits {
    /// (workers started, workers exited).
    counts: Mutex<(usize, usize)>,
    all_exited: Termination,
    /// The threads to join; `None` once detached (the global runtime's:
    /// it lives until the process exits, and a finished thread nobody joins
    /// is one ThreadSanitizer reports as leaked).
    threads: StdMutex<Option<Vec<ThreadHandle<()>>>>,
    /// Held by the one caller joining the threads.
    joining: StdMutex<()>,
}

impl WorkerExits {
    pub(crate) fn new(workers: usize) -> Self {
        let exits = Self {
            counts: Mutex::new((workers, 0)),
            all_exited: Termination::new(),
            threads: StdMutex::new(Some(Vec::new())),
            joining: StdMutex::new(()),
        };
        if workers == 0 {
            // No thread to wait for (a runtime of its adopted thread alone).
            exits.all_exited.set();
        }
        exits
    }

    /// Keeps a worker thread's handle for [`join`](Self::join) (or lets the
    /// thread go, once detached).
    pub(crate) fn add_thread(&self, thread: ThreadHandle<()>) {
        if let Some(threads) = unpoison(self.threads.lock()).as_mut() {
            threads.push(thread);
        }
    }

    /// Lets every worker thread go: nobody will join them.
    pub(crate) fn detach(&self) {
        unpoison(self.threads.lock()).take();
    }

    /// Waits until every worker exited, joining the threads the runtime
    /// started (unless they were detached); threads a spawn handler started
    /// are waited for through the count. A second caller waits until the
    /// first has joined them all.
    pub(crate) fn join(&self) {
        let _joining = unpoison(self.joining.lock());
        loop {
            // Not holding the list's lock while joining: a worker may still
            // start a compensating worker (`add_thread`) until the runtime
            // terminates, which the workers being joined are waiting for.
            let taken = match unpoison(self.threads.lock()).as_mut() {
                Some(threads) => std::mem::take(threads),
                None => return self.wait(),
            };
            if taken.is_empty() {
                return self.wait();
            }
            for thread in taken {
                // Workers catch every task panic; a worker thread that still
                // died has nothing left to report here.
                let _ = thread.join();
            }
        }
    }

    /// A compensating worker is about to start.
    pub(crate) fn add_worker(&self) {
        unpoison(self.counts.lock()).0 += 1;
    }

    /// A compensating worker counted by `add_worker` did not start after all.
    pub(crate) fn remove_worker(&self) {
        self.update_counts(|counts| counts.0 -= 1);
    }

    pub(crate) fn mark_exited(&self) {
        self.update_counts(|counts| counts.1 += 1);
    }

    /// Changes the (workers, exited) counts, then sets `all_exited` if
    /// every worker has exited.
    fn update_counts(&self, change: impl FnOnce(&mut (usize, usize))) {
        let mut counts = unpoison(self.counts.lock());
        change(&mut counts);
        if counts.1 >= counts.0 {
            self.all_exited.set();
        }
    }

    pub(crate) fn wait(&self) {
        self.all_exited.wait();
    }

    /// False if the workers were still running when `timeout` passed.
    pub(crate) fn wait_timeout(&self, timeout: Duration) -> bool {
        self.all_exited.wait_timeout(timeout)
    }
}
