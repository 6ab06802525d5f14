//! `join(a, b)`: run two closures, potentially in parallel, with no heap
//! allocation. Design: `JOIN_HELPING.md`.
//!
//! The caller puts `b` in a [`StackJob`] on its own stack and links a
//! [`JoinFrame`] for it into the running unit's private list, then runs `a`.
//! Nothing is pushed anywhere unless another worker wants work: a worker
//! with nothing to do raises the runtime's demand count, and a joiner that
//! waits for a half this worker runs raises its slot's request count; a
//! `join` that sees either makes the *oldest* pending half of its unit
//! stealable (pushes it onto its deque), which is the largest piece of work
//! a thief can take. After `a`, the caller runs `b` itself if its half is
//! still private (the common case: a few stores, no atomic read-modify-write
//! and no fence), pops it back if it was pushed but not taken, or waits for
//! the thief, helping meanwhile.

use std::cell::Cell;
use std::panic::{self, catch_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::thread;

use rt_handle::support::drop_quietly;

use crate::trace::Source;

use crate::entry::{Entry, FrameVTable};
use crate::helping::Target;
use crate::stack_job::{make_stealable, Outcome, StackJob};
use crate::worker::{self, WorkerContext};
use crate::Runtime;

/// One pending `join` half in its unit's private list, on the joiner's
/// stack: enough for any later `join` of the unit to make it stealable
/// without knowing its types.
pub(crate) struct JoinFrame {
    /// The next older pending half of the unit.
    older: *const JoinFrame,
    /// The half's `StackJob`, and the functions that run it.
    job: NonNull<()>,
    vtable: &'static FrameVTable,
    stealable: Cell<bool>,
}

/// Runs `a` and `b`, potentially in parallel, and returns both results:
/// rayon's `join`, for recursive divide-and-conquer code.
///
/// On a worker of a runtime (inside a task, a scope or another `join`), the
/// pair runs on that runtime: `b` becomes available to idle workers while
/// the caller runs `a`, and the caller runs `b` itself if nobody took it,
/// with no heap allocation. On any other thread the pair runs on the
/// [global runtime](crate::Runtime::global) (started on first use) while
/// the caller blocks, as rayon's `join` does. Both closures may borrow from
/// the caller's stack. If either panics, the other still runs to
/// completion, then the panic (`a`'s, if both did) resumes in the caller.
///
/// ```
/// fn fib(n: u64) -> u64 {
///     if n < 2 {
///         return n;
///     }
///     let (a, b) = rt_core::join(|| fib(n - 1), || fib(n - 2));
///     a + b
/// }
///
/// let rt = rt_core::Runtime::new(2)?;
/// assert_eq!(rt.install(|| fib(20)), 6765); // on the runtime's workers
/// assert_eq!(fib(10), 55); // on the global runtime's workers
/// # Ok::<(), rt_core::BuildError>(())
/// ```
///
/// How deep `join` recursion can go is set by the workers' stack size; see
/// [`Builder::stack_size`](crate::Builder::stack_size).
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    worker::with_any(|worker| match worker {
        // Alone, nobody could take `b`: no need to offer it.
        Some(worker) if worker.parallel => worker.join(a, b),
        Some(_) => join_sequential(a, b),
        None => Runtime::global().join(a, b),
    })
}

/// `a` then `b` on the calling thread, with `join`'s panic rule: `b` runs
/// even if `a` panicked, and then the panic resumes (`a`'s, if both did).
#[inline(always)]
pub(crate) fn join_sequential<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB,
{
    let ra = catch_unwind(AssertUnwindSafe(a));
    let rb = catch_unwind(AssertUnwindSafe(b));
    join_results(ra, rb)
}

/// Both results of a `join`, or the panic to resume: `a`'s if both halves
/// panicked (rayon's rule; `b`'s payload is dropped, quietly), else the
/// one that did.
#[inline(always)]
fn join_results<RA, RB>(ra: thread::Result<RA>, rb: thread::Result<RB>) -> (RA, RB) {
    match (ra, rb) {
        (Ok(ra), Ok(rb)) => (ra, rb),
        (Err(payload), rb) => {
            if let Err(other) = rb {
                drop_quietly(other);
            }
            panic::resume_unwind(payload)
        }
        (Ok(_), Err(payload)) => panic::resume_unwind(payload),
    }
}

impl WorkerContext {
    /// `join` on this worker, with other workers that could take `b`. Not
    /// inlined into `join`: its frame is larger than the sequential path's,
    /// which would pay for it on one worker.
    #[inline(never)]
    pub(crate) fn join<A, B, RA, RB>(&self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        if !self.in_unit() {
            // Outside a unit (a hook) there is nowhere to account for `b`.
            return join_sequential(a, b);
        }
        let job = StackJob::new(b);
        let (newest, _) = self.join_list();
        let frame = JoinFrame {
            older: newest.get(),
            job: NonNull::from(&job).cast(),
            vtable: &StackJob::<B, RB>::VTABLE,
            stealable: Cell::new(false),
        };
        newest.set(&frame);
        if self.wants_work() && self.nothing_to_steal() {
            self.make_oldest_stealable();
        }
        let ra = catch_unwind(AssertUnwindSafe(a));
        // Joins nest: the halves linked after ours were unlinked when their
        // joins returned, so ours is the newest.
        debug_assert!(ptr::eq(newest.get(), &frame));
        newest.set(frame.older);
        let rb = if frame.stealable.get() {
            // Ours was the newest stealable half, so the older ones are
            // the stealable ones now.
            self.join_list().1.set(frame.older);
            self.finish_stealable(&job)
        } else {
            job.run_here()
        };
        join_results(ra, rb)
    }

    /// Whether another worker wants work: then a `join` makes its unit's
    /// oldest pending half stealable.
    #[inline]
    fn wants_work(&self) -> bool {
        // Relaxed: hints; a half made stealable one join late only delays a
        // thief.
        self.demand().load(crate::sync::Ordering::Relaxed) != 0 || self.slot().has_requests()
    }

    /// Whether this unit has nothing left in the deque for a thief: one
    /// half made stealable at a time is enough (a thief takes one); making
    /// more while the first waits would only cost pushes and pops.
    fn nothing_to_steal(&self) -> bool {
        !self.queues().holds_above(self.priority(), self.unit_base())
    }

    /// Makes the unit's oldest pending half that is not yet stealable
    /// stealable: pushes it onto this worker's deque.
    fn make_oldest_stealable(&self) {
        let (newest, newest_stealable) = self.join_list();
        let boundary = newest_stealable.get();
        let mut frame = newest.get();
        if frame == boundary {
            return; // every pending half is stealable already
        }
        // SAFETY: the frames in the list belong to joins of the running
        // unit that have not returned, so they are on this thread's stack,
        // below this call.
        unsafe {
            while (*frame).older != boundary {
                frame = (*frame).older;
            }
            (*frame).stealable.set(true);
        }
        newest_stealable.set(frame);
        // SAFETY: as above; the job outlives the frame's join, which does
        // not return before it has popped the entry back or seen the job
        // settled (`finish_stealable`).
        let entry = unsafe { make_stealable((*frame).job, (*frame).vtable, self.index()) };
        self.push(self.priority(), Entry::Frame(entry));
    }

    /// After `a`, for a half that was made stealable: take it back from the
    /// top of the deque if nobody took it, else wait for whoever did. A
    /// panic of the half comes back as its `Err`.
    fn finish_stealable<F, R>(&self, job: &StackJob<F, R>) -> thread::Result<R>
    where
        F: FnOnce() -> R + Send,
        R: Send,
    {
        let priority = self.priority();
        let base = self.unit_base();
        let id = ptr::from_ref(job).addr();
        // Whatever lies above our half was pushed after it, by `a`'s work:
        // run it on the way (it is this unit's).
        while let Some(entry) = self.queues().pop_above(priority, base) {
            if entry.id() == id {
                // Our own entry: taking it back is the third way, besides
                // running and giving back, that ends its life.
                std::mem::forget(entry);
                return job.run_here();
            }
            self.run_nested(entry, priority, Source::Helping);
        }
        self.wait_for(&Target::Half(job));
        match job.outcome() {
            Outcome::Ran(result) => result,
            Outcome::Returned => job.run_here(),
        }
    }
}
