//! [`UnitRef`]: how the jobs of a run (a graph's, a pipeline's) reach the
//! run they hold a unit of (`RUN.md`, "Units: why everything a job touches
//! is alive").

use std::fmt;
use std::sync::Arc;

use crate::release::Pending;

/// A pointer to a run that owns itself while it has units of work out:
/// a graph's run (`RunRef`, `state.rs`) or a pipeline's (`pipeline::schedule`).
///
/// The run lives in an `Arc`; when it starts it also takes a reference to
/// itself ([`hold`](Self::hold)), which the unit that ends it takes back
/// ([`give_back`](Self::give_back)), so whoever holds a unit may
/// dereference this pointer.
pub(crate) struct UnitRef<T>(*const T);

impl<T> Clone for UnitRef<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for UnitRef<T> {}

impl<T> fmt::Debug for UnitRef<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("UnitRef").field(&self.0).finish()
    }
}

// SAFETY: the run is `Sync`; the pointer is only dereferenced by a holder
// of a unit, which keeps the run alive.
unsafe impl<T: Sync> Send for UnitRef<T> {}
// SAFETY: as above.
unsafe impl<T: Sync> Sync for UnitRef<T> {}

impl<T> UnitRef<T> {
    /// The run's reference to itself while it has work out, taken when it
    /// starts and given back by the unit that ends it
    /// ([`give_back`](Self::give_back)).
    pub(crate) fn hold(run: &Arc<T>) -> Self {
        Self(Arc::into_raw(Arc::clone(run)))
    }

    /// The run.
    ///
    /// # Safety
    ///
    /// The caller holds a unit of work of the run (or a reference to its
    /// `Arc`).
    #[inline]
    pub(crate) unsafe fn get<'a>(self) -> &'a T {
        // SAFETY: alive while the caller holds a unit or an `Arc`.
        unsafe { &*self.0 }
    }

    /// The pointer, untyped, for a callback that gives it its type back
    /// ([`from_erased`](Self::from_erased)).
    pub(crate) fn erase(self) -> *const () {
        self.0.cast()
    }

    /// The pointer [`erase`](Self::erase) gave.
    ///
    /// # Safety
    ///
    /// `erased` came from `erase` of a `UnitRef<T>`.
    pub(crate) unsafe fn from_erased(erased: *const ()) -> Self {
        Self(erased.cast())
    }

    /// Gives back the caller's unit of the run, counted by `pending` (the
    /// run's own counter). If it was the last, the run's reference to
    /// itself is the caller's now, to end the run with.
    ///
    /// # Safety
    ///
    /// `self` was made by [`hold`](Self::hold), the caller holds a unit of
    /// the run, and `pending` is the counter of the run's units.
    pub(crate) unsafe fn give_back(self, pending: impl FnOnce(&T) -> &Pending) -> Option<Arc<T>> {
        // SAFETY: the caller holds a unit.
        if !pending(unsafe { self.get() }).done() {
            return None;
        }
        // SAFETY: made by `hold` from this `Arc`, released only here, by
        // the last unit: nobody uses the pointer after this.
        Some(unsafe { Arc::from_raw(self.0) })
    }
}
