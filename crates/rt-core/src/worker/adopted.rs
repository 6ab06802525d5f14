//! The thread that builds a runtime, adopted as its worker 0
//! (`Builder::use_current_thread`, rayon's `use_current_thread`).
//!
//! The thread keeps running its own code: it never runs the worker loop,
//! so it takes the runtime's work only inside its own calls into the
//! runtime (a `join`, a scope, an `install`, a yield, the wait of a
//! broadcast), as rayon's adopted thread does. Everything else about it is
//! a worker's: [`current_thread_index`](crate::current_thread_index) says
//! 0, what it spawns goes onto its own deque (where the other workers
//! steal it), its joins share their halves, and a broadcast posts a letter
//! to it.
//!
//! It is not counted where the runtime counts workers that take queued work
//! by themselves: not in the doorbell's live workers (so the runtime can
//! shut down while the thread does something else), not among the threads
//! `shutdown` waits for, and its waits are not compensated. Its context lives in a thread-local box until the runtime
//! is shut down or dropped on this thread (outside any of its calls into
//! the runtime), or until the thread exits; whatever its deques still hold
//! then goes to the injectors.

use std::cell::RefCell;
use std::ptr;
use std::sync::Arc;

use crate::BuildError;
use rt_queue::{Priority, WorkerQueues};

use crate::shared::Shared;
use crate::worker::entry::{Entry, FrameAction};
use crate::worker::{set_current, with_context, WorkerContext, WorkerKind};

/// The adopted worker of this thread, if any: its context, which the
/// worker thread-local points at while the thread is adopted (so a join of
/// a task's handle on this thread finds the worker's help, as on a looping
/// worker).
struct Adopted {
    /// Boxed, as `shared` is, so that what refers to it stays valid while
    /// the `Adopted` moves into its box.
    context: Box<WorkerContext<'static>>,
    /// Boxed: the context holds a reference to the `Arc` itself (as a
    /// looping worker's context does to the `Arc` in `run_worker`'s frame).
    #[allow(clippy::redundant_allocation)]
    shared: Box<Arc<Shared>>,
}

std::thread_local! {
    static ADOPTED: RefCell<Option<Box<Adopted>>> = const { RefCell::new(None) };
}

/// Makes the calling thread worker 0 of the runtime owning `shared`, on
/// `queues`.
///
/// # Errors
///
/// [`BuildError::AlreadyAWorker`] if the thread is already a worker of a
/// runtime (adopted or not).
pub(crate) fn adopt(shared: &Arc<Shared>, queues: WorkerQueues<Entry>) -> Result<(), BuildError> {
    if with_context(|worker| worker.is_some()) {
        return Err(BuildError::AlreadyAWorker);
    }
    let shared = Box::new(Arc::clone(shared));
    // SAFETY: the context borrows the `Arc` in the box, which `Adopted`
    // owns, never moves (it is boxed) and drops after the context.
    let runtime: &'static Arc<Shared> = unsafe { &*ptr::from_ref(&*shared) };
    let context = Box::new(WorkerContext::new(runtime, queues, WorkerKind::Adopted));
    let adopted = Box::new(Adopted { context, shared });
    adopted.context.slot().register_thread();
    // The boxes do not move while the thread-local holds them: the
    // pointers stay valid until `Adopted::drop` resets them.
    set_current(ptr::from_ref(&*adopted.context));
    ADOPTED.with(|slot| *slot.borrow_mut() = Some(adopted));
    Ok(())
}

/// Ends the calling thread's adoption by the runtime owning `shared`, if
/// it is that runtime's adopted worker and runs none of its work right
/// now (else it stays adopted until the thread exits). True if it ended.
pub(crate) fn release(shared: &Arc<Shared>) -> bool {
    let taken = ADOPTED.try_with(|slot| {
        let mut slot = slot.borrow_mut();
        match slot.as_ref() {
            Some(adopted) if Arc::ptr_eq(&adopted.shared, shared) && !adopted.context.in_unit() => {
                slot.take()
            }
            _ => None,
        }
    });
    // Dropped outside the borrow: its drop may run user code (a task's
    // destructor) that asks for the thread-local again.
    matches!(taken, Ok(Some(_)))
}

impl Drop for Adopted {
    fn drop(&mut self) {
        let context = ptr::from_ref(&*self.context);
        if with_context(|current| current.is_some_and(|c| ptr::eq(c, context.cast()))) {
            set_current(ptr::null());
        }
        // What the thread spawned and nobody stole yet: to the injectors,
        // where the runtime's workers find it (or, if they have all
        // exited, where the runtime's shutdown cancels it).
        for priority in Priority::ALL {
            while let Some(entry) = self.context.deques().pop(priority) {
                self.shared.requeue(priority, entry);
            }
        }
        // A broadcast waiting for worker 0, or made later, is told it will
        // never run there (`BROADCAST.md`, "A worker that never runs").
        for letter in self.context.slot().mailbox().close() {
            letter.frame.execute(FrameAction::GiveBack);
        }
    }
}
