//! Who hears of a task's completion besides its handle: nobody, for a
//! plain task, or the scope the task belongs to.

use std::any::Any;
use std::ptr::NonNull;

use crate::token::TokenLink;

/// What a scope hears from its tasks: implemented by an executor's scope
/// (see [`Job::scoped`](crate::Job::scoped)).
///
/// The payload of a panic nobody joined is handed over (a scope re-raises
/// one when it ends, say); one the scope does not keep should be dropped
/// with [`drop_quietly`](crate::raw::drop_quietly), since a payload's
/// `Drop` may panic.
///
/// ```
/// use std::any::Any;
/// use std::sync::Mutex;
/// use rt_handle::Job;
/// use rt_handle::raw::ScopeCompletion;
///
/// /// Keeps the payload of the first unjoined panic.
/// #[derive(Default)]
/// struct FirstPanic(Mutex<Option<Box<dyn Any + Send>>>);
///
/// impl ScopeCompletion for FirstPanic {
///     fn task_completed(&self, unjoined_panic: Option<Box<dyn Any + Send>>) {
///         if let Some(payload) = unjoined_panic {
///             self.handle_dropped_a_panic(payload);
///         }
///     }
///     fn handle_dropped_a_panic(&self, payload: Box<dyn Any + Send>) {
///         let mut first = self.0.lock().unwrap();
///         if first.is_none() {
///             *first = Some(payload);
///         } else {
///             rt_handle::raw::drop_quietly(payload);
///         }
///     }
/// }
///
/// let scope = FirstPanic::default();
/// // SAFETY: the job runs below, while `scope` lives.
/// let (job, handle) = unsafe { Job::scoped(&scope, || -> u8 { std::panic::panic_any(7_u8) }) };
/// drop(handle);
/// # let prev = std::panic::take_hook(); std::panic::set_hook(Box::new(|_| {}));
/// job.run();
/// # std::panic::set_hook(prev);
/// let payload = scope.0.lock().unwrap().take().unwrap();
/// assert_eq!(payload.downcast_ref::<u8>(), Some(&7));
/// ```
pub trait ScopeCompletion: Sync {
    /// A task of the scope completed (ran, panicked, or was cancelled or
    /// rejected), and everything else it owned has been dropped.
    /// `unjoined_panic`: the payload of its panic, if it panicked and its
    /// handle was already gone.
    fn task_completed(&self, unjoined_panic: Option<Box<dyn Any + Send>>);
    /// A handle of the scope was dropped without joining a task that
    /// panicked with `payload`.
    fn handle_dropped_a_panic(&self, payload: Box<dyn Any + Send>);
}

/// A scoped task's pointer to its scope. A raw pointer, not a reference:
/// the cell outlives the scope (a stale queue entry may still hold it), and
/// a reference that dangles must not exist even unused. It is dereferenced
/// only by the completion and by the handle, both of which happen before
/// the scope ends (`Job::scoped`'s contract), through the vtable's `scope`
/// (`TaskRef::tell_completed`, `TaskRef::tell_dropped_panic`).
pub(crate) struct ScopeRef(NonNull<dyn ScopeCompletion>);

impl ScopeRef {
    /// The pointer to `scope`, its lifetime erased: the caller keeps the
    /// scope alive for as long as the task may reach it (`Job::scoped`).
    pub(crate) fn new(scope: &dyn ScopeCompletion) -> Self {
        let scope: NonNull<dyn ScopeCompletion + '_> = NonNull::from(scope);
        // SAFETY: only the trait object's lifetime bound is erased, not its
        // layout; the pointer is dereferenced only while the scope lives.
        Self(unsafe {
            std::mem::transmute::<NonNull<dyn ScopeCompletion + '_>, NonNull<dyn ScopeCompletion>>(
                scope,
            )
        })
    }
}

// SAFETY: the scope is `Sync` (a `ScopeCompletion` supertrait), and is
// reached through this pointer only while it is alive.
unsafe impl Send for ScopeRef {}
// SAFETY: as above.
unsafe impl Sync for ScopeRef {}

/// What a task cell keeps besides its stage to tell of its completion:
/// `()` for a plain task (the completer then drops an unjoined panic
/// quietly), a [`ScopeRef`] for a task of a scope. Read by the cell type's
/// vtable entry `scope`, which is `None` for a type outside scopes.
pub(crate) trait Completion: Send + Sync {
    /// Whether the task belongs to a scope.
    const IN_SCOPE: bool;
    /// Whether the task was queued with a cancellation token (its
    /// completion is then a [`TokenLink`]).
    const HAS_TOKEN: bool = false;
    /// The scope; asked only when [`IN_SCOPE`](Self::IN_SCOPE).
    fn scope(&self) -> NonNull<dyn ScopeCompletion>;
    /// The task's link in its token's list; `None` (known to the compiler)
    /// for a type without a token.
    #[inline(always)]
    fn token(&self) -> Option<&TokenLink> {
        None
    }
}

impl Completion for () {
    const IN_SCOPE: bool = false;
    fn scope(&self) -> NonNull<dyn ScopeCompletion> {
        unreachable!("a plain task has no scope")
    }
}

impl Completion for ScopeRef {
    const IN_SCOPE: bool = true;
    #[inline]
    fn scope(&self) -> NonNull<dyn ScopeCompletion> {
        self.0
    }
}

impl Completion for TokenLink {
    const IN_SCOPE: bool = false;
    const HAS_TOKEN: bool = true;
    fn scope(&self) -> NonNull<dyn ScopeCompletion> {
        unreachable!("a task queued with a token has no scope")
    }
    #[inline(always)]
    fn token(&self) -> Option<&TokenLink> {
        Some(self)
    }
}
