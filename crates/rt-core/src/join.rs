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
use std::ptr;
use std::thread;

use rt_queue::TaskSource;

use crate::entry::{Entry, FrameRef};
use crate::helping::Target;
use crate::stack_job::{Outcome, StackJob};
use crate::worker::{self, WorkerContext};

/// One pending `join` half in its unit's private list.
pub(crate) struct JoinFrame {
    /// The half's queue entry, taken when it is made stealable.
    entry: Cell<Option<FrameRef>>,
    promoted: Cell<bool>,
    older: Cell<*const JoinFrame>,
    newer: Cell<*const JoinFrame>,
}

/// Runs `a` and `b`, potentially in parallel, and returns both results:
/// rayon's `join`, for recursive divide-and-conquer code.
///
/// On a worker of a runtime (inside a task, a scope or another `join`), the
/// pair runs on that runtime: `b` becomes available to idle workers while
/// the caller runs `a`, and the caller runs `b` itself if nobody took it,
/// with no heap allocation. On any other thread both run sequentially on
/// the caller, `a` then `b`. Both closures may borrow from the caller's
/// stack. If either panics, the other still runs to completion, then the
/// panic (`a`'s, if both did) resumes in the caller.
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
/// assert_eq!(fib(10), 55); // sequentially, on this thread
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
        Some(worker) => worker.join(a, b),
        None => join_sequential(a, b),
    })
}

/// `a` then `b` on the calling thread, with `join`'s panic rule.
pub(crate) fn join_sequential<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB,
{
    let ra = catch_unwind(AssertUnwindSafe(a));
    let rb = catch_unwind(AssertUnwindSafe(b));
    both(ra, rb)
}

/// Both results, or the first panic.
fn both<RA, RB>(ra: thread::Result<RA>, rb: thread::Result<RB>) -> (RA, RB) {
    match (ra, rb) {
        (Ok(ra), Ok(rb)) => (ra, rb),
        (Err(payload), _) | (_, Err(payload)) => panic::resume_unwind(payload),
    }
}

impl WorkerContext {
    /// `join` on this worker.
    pub(crate) fn join<A, B, RA, RB>(&self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        if self.shared.slots.len() == 1 || !self.in_unit() {
            // Alone, nobody could take `b`; outside a unit (a hook) there is
            // nowhere to account for it.
            return join_sequential(a, b);
        }
        let job = StackJob::new(b, self.slot());
        let frame = JoinFrame {
            // SAFETY: `job` stays in place until this function returns, and
            // it returns only after running `b` itself (the entry was never
            // pushed, or was popped back) or after `wait_for_half` saw the
            // latch settled.
            entry: Cell::new(Some(unsafe { job.frame_ref() })),
            promoted: Cell::new(false),
            older: Cell::new(ptr::null()),
            newer: Cell::new(ptr::null()),
        };
        self.link(&frame);
        if self.wants_work() {
            self.promote_oldest();
        }
        let ra = catch_unwind(AssertUnwindSafe(a));
        let rb = if frame.promoted.get() {
            self.finish_promoted(&job)
        } else {
            self.unlink_newest(&frame);
            job.run_here()
        };
        both(ra, rb)
    }

    /// Whether another worker wants work: then a `join` makes its unit's
    /// oldest pending half stealable.
    #[inline]
    fn wants_work(&self) -> bool {
        // Relaxed: hints; a promotion one join late only delays a thief.
        self.shared.demand.load(crate::sync::Ordering::Relaxed) != 0 || self.slot().has_requests()
    }

    fn link(&self, frame: &JoinFrame) {
        let (oldest, newest) = self.join_list();
        let top = newest.get();
        frame.older.set(top);
        // SAFETY: frames in the list belong to joins of the running unit,
        // still on this thread's stack below this one (see `unlink_newest`).
        match unsafe { top.as_ref() } {
            Some(top) => top.newer.set(frame),
            None => oldest.set(frame),
        }
        newest.set(frame);
    }

    /// Removes `frame`, the newest in the list: joins nest, so the frames
    /// linked after it were unlinked (or promoted) when their joins returned.
    fn unlink_newest(&self, frame: &JoinFrame) {
        let (oldest, newest) = self.join_list();
        debug_assert!(ptr::eq(newest.get(), frame));
        let older = frame.older.get();
        // SAFETY: as in `link`.
        match unsafe { older.as_ref() } {
            Some(older) => older.newer.set(ptr::null()),
            None => oldest.set(ptr::null()),
        }
        newest.set(older);
    }

    /// Makes the unit's oldest pending half stealable.
    fn promote_oldest(&self) {
        let (oldest, newest) = self.join_list();
        // SAFETY: as in `link`.
        let Some(frame) = (unsafe { oldest.get().as_ref() }) else {
            return;
        };
        let newer = frame.newer.get();
        // SAFETY: as in `link`.
        match unsafe { newer.as_ref() } {
            Some(newer) => newer.older.set(ptr::null()),
            None => newest.set(ptr::null()),
        }
        oldest.set(newer);
        frame.promoted.set(true);
        let entry = frame.entry.take().expect("a pending half holds its entry");
        self.push(self.priority(), Entry::Frame(entry));
    }

    /// After `a`, for a half that was made stealable: take it back from the
    /// top of the deque if nobody took it, else wait for whoever did.
    fn finish_promoted<F, R>(&self, job: &StackJob<'_, F, R>) -> thread::Result<R>
    where
        F: FnOnce() -> R + Send,
        R: Send,
    {
        let priority = self.priority();
        let base = self.unit_base()[priority.index()];
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
            self.run_nested(entry, priority, TaskSource::Local);
        }
        self.wait_for(&Target::Half(job));
        match job.outcome() {
            Outcome::Ran(result) => result,
            Outcome::Returned => job.run_here(),
        }
    }
}
