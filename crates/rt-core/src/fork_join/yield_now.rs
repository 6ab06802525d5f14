//! Yielding: code running on a worker lets one other piece of queued work
//! run there and then goes on (rayon's `yield_now` and `yield_local`).

use rt_queue::ClassSet;

use crate::runtime::Runtime;
use crate::worker::{self, Reach, WorkerContext};

/// What a yield did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Yield {
    /// Another piece of work ran, and has finished.
    Executed,
    /// There was nothing to run.
    Idle,
}

impl Runtime {
    /// [`yield_now`](crate::yield_now()), if called on a worker of this
    /// runtime; `None` elsewhere.
    pub fn yield_now(&self) -> Option<Yield> {
        worker::with_local(&self.shared, |worker| {
            worker.map(|w| yield_on(w, Reach::Anywhere))
        })
    }

    /// [`yield_local`](crate::yield_local()), if called on a worker of
    /// this runtime; `None` elsewhere.
    pub fn yield_local(&self) -> Option<Yield> {
        worker::with_local(&self.shared, |worker| {
            worker.map(|w| yield_on(w, Reach::Local))
        })
    }
}

/// Runs one piece of queued work on this worker, if there is one, and
/// returns: a letter addressed to this worker (a broadcast's share), else
/// a task of the running code's own (spawned and not yet taken), else one
/// from the injectors or another worker's deque. `None` on a thread that
/// is not a worker. Rayon's `yield_now`: a loop that polls something
/// lets the runtime get on with other work meanwhile.
///
/// Whatever runs here interrupts the calling code on the same thread: it
/// must not wait for that code (a join of its handle would wait for
/// itself, and panics as a self-join does). What it spawns and does not
/// join goes to the runtime's queues.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use std::sync::Arc;
///
/// let rt = rt_core::Runtime::new(1)?;
/// let ran = Arc::new(AtomicBool::new(false));
/// rt.install(|| {
///     let flag = Arc::clone(&ran);
///     rt.execute(move || flag.store(true, Ordering::SeqCst)).unwrap(); // queued here
///     assert_eq!(rt_core::yield_now(), Some(rt_core::Yield::Executed));
///     assert!(ran.load(Ordering::SeqCst));
///     assert_eq!(rt_core::yield_now(), Some(rt_core::Yield::Idle));
/// });
/// assert_eq!(rt_core::yield_now(), None); // not a worker
/// # Ok::<(), rt_core::BuildError>(())
/// ```
pub fn yield_now() -> Option<Yield> {
    worker::with_current(|worker| worker.map(|w| yield_on(w, Reach::Anywhere)))
}

/// [`yield_now`], looking only at this worker's own mailbox and deques
/// (rayon's `yield_local`): never at the injectors or another worker's.
pub fn yield_local() -> Option<Yield> {
    worker::with_current(|worker| worker.map(|w| yield_on(w, Reach::Local)))
}

fn yield_on(worker: &WorkerContext<'_>, reach: Reach) -> Yield {
    if worker.run_letter() {
        return Yield::Executed;
    }
    // Found before a unit is opened for it (on an adopted thread between
    // its calls into the runtime): the thread's own tasks are then below
    // no unit, and it may take the newest.
    match worker.find_foreign(ClassSet::ALL, reach) {
        Some(found) => {
            worker.in_a_unit(|| worker.run_foreign(found));
            Yield::Executed
        }
        None => Yield::Idle,
    }
}
