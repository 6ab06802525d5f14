//! What a pool keeps beside its runtime: the panic handler, for the panics
//! nobody waits to see (of `spawn`, `spawn_broadcast`, the start and exit
//! handlers), and which pool's handler applies on the calling thread.
//!
//! Each worker of a pool built here holds its pool's [`Registry`] in a
//! thread-local, from its start handler to its exit handler (and the
//! adopted thread of `use_current_thread` from the build on). A job that
//! panics looks the handler up where it runs, which is always a worker of
//! the pool it was spawned into; on a thread with none (a worker of the
//! global pool that rt started on its own), the global pool's registry
//! applies. With no handler, the process aborts, as rayon documents.

use std::any::Any;
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

/// A pool's panic handler (rayon's `panic_handler`).
pub(crate) type PanicHandler = dyn Fn(Box<dyn Any + Send>) + Send + Sync;

/// What a pool keeps beside its runtime.
pub(crate) struct Registry {
    panic_handler: Option<Box<PanicHandler>>,
}

/// The registry of the global pool, once `build_global` configured it.
static GLOBAL: OnceLock<Arc<Registry>> = OnceLock::new();

std::thread_local! {
    /// The registry of the pool the calling thread is a worker of.
    static CURRENT: RefCell<Option<Arc<Registry>>> = const { RefCell::new(None) };
}

impl Registry {
    pub(crate) fn new(panic_handler: Option<Box<PanicHandler>>) -> Arc<Self> {
        Arc::new(Self { panic_handler })
    }

    /// Makes this the registry of the global pool (its first builder's).
    pub(crate) fn make_global(self: &Arc<Self>) {
        let _ = GLOBAL.set(Arc::clone(self));
    }

    /// The calling thread becomes one of this pool's workers.
    pub(crate) fn enter(self: &Arc<Self>) {
        let _ = CURRENT.try_with(|current| *current.borrow_mut() = Some(Arc::clone(self)));
    }

    /// The calling thread stops being one of this pool's workers.
    pub(crate) fn leave() {
        let _ = CURRENT.try_with(|current| current.borrow_mut().take());
    }

    /// Hands a panic nobody waits for to this pool's handler, or aborts
    /// the process if it has none, or if the handler panics itself
    /// (rayon's rule: a panic is never unobserved).
    pub(crate) fn handle_panic(&self, payload: Box<dyn Any + Send>) {
        match &self.panic_handler {
            Some(handler) => {
                let abort = AbortIfPanic;
                handler(payload);
                std::mem::forget(abort);
            }
            None => abort_unhandled(),
        }
    }
}

/// Hands a panic nobody waits for to the handler of the pool the calling
/// thread works for (see the module docs).
pub(crate) fn handle_panic(payload: Box<dyn Any + Send>) {
    let current = CURRENT
        .try_with(|current| current.borrow().clone())
        .ok()
        .flatten()
        .or_else(|| GLOBAL.get().cloned());
    match current {
        Some(registry) => registry.handle_panic(payload),
        None => abort_unhandled(),
    }
}

/// Aborts when dropped: while a panic handler runs, a panic of its own
/// ends the process.
struct AbortIfPanic;

impl Drop for AbortIfPanic {
    fn drop(&mut self) {
        eprintln!("rayon-core (rt): the panic handler panicked; aborting");
        std::process::abort();
    }
}

fn abort_unhandled() -> ! {
    eprintln!(
        "rayon-core (rt): a spawned job panicked and the pool has no panic handler \
         (ThreadPoolBuilder::panic_handler); aborting, as rayon does"
    );
    std::process::abort();
}
