//! `join(a, b)`: run two closures, potentially in parallel, with no heap
//! allocation. Design: `JOIN_HELPING.md`.
//!
//! The caller puts `b` in a [`StackJob`] on its own stack and links a
//! [`JoinFrame`] for it into the running unit's private list, then runs `a`
//! (while fewer of the unit's pending halves are private than three plus
//! log2 of the workers, or at every 64th fork: otherwise it runs `a` then
//! `b` in place; `FORKS.md`).
//! Each unit keeps exactly one of its pending halves where thieves can take
//! it: at every `join` that links its half (and at every checkpoint), if
//! the unit's deque holds nothing of it, the unit's *oldest* pending half
//! is *shared* (pushed onto the deque), the largest piece of work a thief
//! can take. Every other half stays private. So a unit that recurses
//! pushes once per level it climbs back, and once per steal, not once per
//! fork; and a worker that frees up finds the largest piece within 64 forks
//! of the owner, or at its next checkpoint (rt-par's folds make one every
//! 20 µs). After `a`, the caller runs `b` itself if its half is
//! still private (the common case: a few stores, no atomic
//! read-modify-write and no fence), pops it back if it was shared but not
//! taken, or waits for the thief, helping meanwhile.

use std::panic::{self, catch_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::thread;

use rt_handle::raw::drop_quietly;
use rt_queue::Priority;

use crate::fork_join::helping::{self, Target};
use crate::fork_join::install::install;
use crate::fork_join::stack_job::{share, FnContext, Outcome, StackJob};
use crate::observe::trace::Source;
use crate::runtime::Runtime;
use crate::worker::entry::Entry;
use crate::worker::entry::WorkId;
use crate::worker::{self, WorkerContext};

impl Runtime {
    /// Runs `a` and `b` on this runtime, potentially in parallel, and
    /// returns both results: rayon's `join`. The closures may borrow from
    /// the caller's stack.
    ///
    /// Called from a task of this runtime, `b` can become available to idle
    /// workers while the caller runs `a` (when, and when a deep `join` runs
    /// both halves in place instead: [`join`](crate::join())), and the
    /// caller runs `b` itself if nobody took it, with no heap allocation.
    /// From any other thread the pair runs on the runtime's workers while
    /// the caller blocks (as [`install`](Self::install)). If either panics,
    /// the other still runs to completion, then the panic resumes here.
    ///
    /// ```
    /// let rt = rt_core::Runtime::new(2)?;
    /// let data = vec![1, 2, 3, 4];
    /// let (left, right) = rt.join(|| data[..2].iter().sum::<i32>(), || data[2..].iter().sum::<i32>());
    /// assert_eq!(left + right, 10);
    /// # Ok::<(), rt_core::BuildError>(())
    /// ```
    pub fn join<A, B, RA, RB>(&self, a: A, b: B) -> (RA, RB)
    where
        A: FnOnce() -> RA + Send,
        B: FnOnce() -> RB + Send,
        RA: Send,
        RB: Send,
    {
        let context = FnContext::MIGRATED;
        let shared = &self.shared;
        install(shared, Priority::Normal, move || {
            worker::with_local(shared, |worker| match worker {
                Some(worker) if worker.in_unit() => join_on(worker, |_| a(), |_| b(), context),
                _ => join_sequential(|_| a(), |_| b(), context),
            })
        })
    }
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
///
/// # When `b` can run elsewhere
///
/// A fork costs almost nothing because only one pending half per task is
/// offered to other workers at a time: the oldest one (the outermost
/// `join`'s `b`), the largest piece of work there is to take; rayon offers
/// every `b` at once, and pays a deque push and pop per fork for it. Once a
/// thief took it, the next `join` that links its half (within 64 `join`s of
/// the task) offers the next oldest. A `join` made
/// while enough older halves of the task wait to be offered (three, plus
/// log2 of the workers: four on two workers) runs `a` then `b` on the
/// calling thread, except at every 64th `join` of the task, much as
/// chili's `join` does. So the outermost `b` can always run in parallel
/// with its `a`, whatever `a` does, and an inner `b` once the halves around
/// it were taken. An `a` that blocks until its `b` has run (a barrier or a
/// channel between the halves) waits for another worker to free up, as
/// with rayon, and for ever on one worker or when the `join` is that deep:
/// the halves of a `join` must not wait for each other.
#[inline]
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    join_context(|_| a(), |_| b())
}

/// [`join`], with each closure told whether it runs on another thread than
/// the caller's ([`FnContext::migrated`]): rayon's `join_context`, for code
/// that splits its work further only when another worker took part of it.
///
/// ```
/// let rt = rt_core::Runtime::new(2)?;
/// let (a, _) = rt.install(|| {
///     rt_core::join_context(|ctx| ctx.migrated(), |_| ())
/// });
/// assert!(!a, "`a` runs on the caller");
/// # Ok::<(), rt_core::BuildError>(())
/// ```
#[inline(always)]
pub fn join_context<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    // Deep in a recursion on a worker, the common fork runs the pair in
    // place. This part is small enough to inline into the caller, so such
    // a recursion makes no call of its own; the other forks make one.
    let fork = worker::with_current(|worker| match worker {
        Some(worker) if worker.is_parallel() && worker.in_unit() => fork_rule(worker),
        Some(worker) if worker.is_parallel() && worker.is_adopted() => Fork::Adopted,
        Some(worker) => {
            // Alone, nobody could take `b`: no need to share it.
            if worker.in_unit() {
                worker.let_more_urgent_in(worker.priority());
            }
            Fork::InPlace
        }
        None => Fork::NoRuntime,
    });
    match fork {
        Fork::InPlace => join_sequential(a, b, FnContext::HERE),
        _ => join_out_of_line(fork, a, b),
    }
}

/// How a `join` runs its pair, by where it was made.
#[derive(Clone, Copy)]
enum Fork {
    /// `a` then `b` in place, with no frame: deep in a unit
    /// ([`fork_rule`]), or on a worker alone.
    InPlace,
    /// `b` waits in a frame of the unit's list while `a` runs.
    Linked,
    /// On a thread adopted as a worker, outside a unit.
    Adopted,
    /// On a thread of no runtime.
    NoRuntime,
}

/// The forks that do not run in place ([`Fork::InPlace`] never comes
/// here), behind one call site in the caller. A linked fork and one on an
/// adopted thread outside a unit (the pair then runs in a unit of its own)
/// go on on this worker; one on a thread of no runtime runs on the global
/// runtime while the caller blocks.
#[inline(never)]
fn join_out_of_line<A, B, RA, RB>(fork: Fork, a: A, b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    if let Fork::NoRuntime = fork {
        let shared = &Runtime::global().shared;
        return install(shared, Priority::Normal, move || {
            worker::with_local(shared, |worker| match worker {
                Some(worker) if worker.in_unit() => join_on(worker, a, b, FnContext::MIGRATED),
                _ => join_sequential(a, b, FnContext::MIGRATED),
            })
        });
    }
    worker::with_current(|worker| {
        let worker = worker.expect("the fork was made on this worker");
        match fork {
            Fork::Adopted => worker.in_a_unit(|| join_on(worker, a, b, FnContext::HERE)),
            _ => join_linked(worker, a, b, FnContext::HERE),
        }
    })
}

/// `a` then `b` on the calling thread, with `join`'s panic rule: `b` runs
/// even if `a` panicked, and then the panic resumes (`a`'s, if both did).
#[inline(always)]
pub(crate) fn join_sequential<A, B, RA, RB>(a: A, b: B, context: FnContext) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA,
    B: FnOnce(FnContext) -> RB,
{
    let ra = catch_unwind(AssertUnwindSafe(|| a(context)));
    let rb = catch_unwind(AssertUnwindSafe(|| b(context)));
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

/// `join` on `worker`, inside a unit, with other workers that could take
/// `b`; `context` is what the closures are told when they run here.
#[inline]
pub(crate) fn join_on<A, B, RA, RB>(
    worker: &WorkerContext<'_>,
    a: A,
    b: B,
    context: FnContext,
) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    match fork_rule(worker) {
        Fork::InPlace => join_sequential(a, b, context),
        _ => join_linked(worker, a, b, context),
    }
}

/// What every fork inside a unit does first, and how its pair runs: the
/// fork is a checkpoint for more urgent work queued here and counts
/// towards [`LINK_EVERY`]; the pair runs in place once enough of the
/// unit's pending halves are private (`worker.private_halves()`).
#[inline(always)]
fn fork_rule(worker: &WorkerContext<'_>) -> Fork {
    let unit = worker.unit().expect("a join runs inside a unit");
    worker.let_more_urgent_in(unit.priority);
    let forks = unit.forks.get().wrapping_add(1);
    unit.forks.set(forks);
    if unit.private.get() >= worker.private_halves() && forks % LINK_EVERY != 0 {
        // Enough pending halves wait to be shared before this one would
        // be: run the pair here, as on one worker.
        Fork::InPlace
    } else {
        Fork::Linked
    }
}

/// A `join` whose [`fork_rule`] said [`Fork::Linked`]: `b` waits in a
/// frame of the unit's list while `a` runs.
fn join_linked<A, B, RA, RB>(worker: &WorkerContext<'_>, a: A, b: B, context: FnContext) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let unit = worker.unit().expect("a join runs inside a unit");
    let job = StackJob::new(b);
    let frame = job.frame(unit.newest.get());
    unit.newest.set(&frame);
    unit.private.set(unit.private.get() + 1);
    offer_pending(worker);
    let ra = catch_unwind(AssertUnwindSafe(|| a(context)));
    // Joins nest: the halves linked after ours were unlinked when their
    // joins returned, so ours is the newest.
    debug_assert!(ptr::eq(unit.newest.get(), &frame));
    let rb = if frame.is_shared.get() {
        // Ours was the newest shared half, so the older ones are the
        // shared ones now.
        unit.newest.set(frame.older);
        unit.newest_shared.set(frame.older);
        finish_shared(worker, &job, context)
    } else {
        unit.newest.set(frame.older);
        unit.private.set(unit.private.get() - 1);
        job.run_here(context)
    };
    join_results(ra, rb)
}

/// A `join` links its second half into the unit's list (where a later
/// `join` or checkpoint of the unit can share it) while fewer of the
/// unit's pending halves are private than the worker's `private_halves`
/// (three, plus log2 of the workers), and at every this many forks of the
/// unit whatever the count; otherwise it runs the pair in place, as
/// chili's `join` does past three queued jobs (it links every 64th): the
/// halves linked already are older, hence larger, and are shared first.
const LINK_EVERY: u32 = 64;

/// Shares the running unit's oldest pending half if the unit has nothing in
/// its deque for a thief already: what a `join` does before it runs `a`,
/// and what a checkpoint does.
#[inline]
pub(crate) fn offer_pending(worker: &WorkerContext<'_>) {
    if nothing_to_steal(worker) {
        share_oldest(worker);
    }
}

/// Whether the unit has nothing left in the deque for a thief: one shared
/// half at a time is enough (a thief takes one); sharing more while the
/// first waits would only cost pushes and pops.
#[inline]
fn nothing_to_steal(worker: &WorkerContext<'_>) -> bool {
    worker
        .unit()
        .is_none_or(|unit| !worker.deques().holds_above(unit.priority, unit.base))
}

/// Shares the unit's oldest pending half not yet shared: pushes it onto
/// the worker's deque.
fn share_oldest(worker: &WorkerContext<'_>) {
    let Some(unit) = worker.unit() else {
        return;
    };
    let boundary = unit.newest_shared.get();
    let mut frame = unit.newest.get();
    if frame == boundary {
        return; // every pending half is shared already
    }
    // SAFETY: the frames in the list belong to joins of the running unit
    // that have not returned, so they are on this thread's stack, below
    // this call.
    unsafe {
        while (*frame).older != boundary {
            frame = (*frame).older;
        }
        (*frame).is_shared.set(true);
    }
    unit.newest_shared.set(frame);
    unit.private.set(unit.private.get() - 1);
    // SAFETY: as above; the job outlives the frame's join, which does not
    // return before it has popped the entry back or seen the latch set
    // (`finish_shared`).
    let entry = unsafe { share(&*frame, worker.thread()) };
    worker.push(unit.priority, Entry::Frame(entry));
}

/// After `a`, for a half that was shared: take it back from the top of the
/// deque if nobody took it, else wait for whoever did. A panic of the half
/// comes back as its `Err`.
fn finish_shared<F, R>(
    worker: &WorkerContext<'_>,
    job: &StackJob<F, R>,
    context: FnContext,
) -> thread::Result<R>
where
    F: FnOnce(FnContext) -> R + Send,
    R: Send,
{
    let unit = worker.unit().expect("a join runs inside a unit");
    let id = WorkId::of_frame(NonNull::from(job).cast());
    // Whatever lies above our half was pushed after it, by `a`'s work: run
    // it on the way (it is this unit's).
    while let Some(entry) = worker.deques().pop_above(unit.priority, unit.base) {
        if entry.id() == Some(id) {
            // Our own entry: taking it back is the third way, besides
            // running and giving back, that ends its life.
            std::mem::forget(entry);
            return job.run_here(context);
        }
        worker.run_nested(entry, unit.priority, Source::Helping);
    }
    let target = Target::Half {
        latch: job.latch(),
        id,
        runner: job.runner(),
    };
    helping::wait_for(worker, &target);
    match job.outcome() {
        Outcome::Ran(result) => result,
        Outcome::Returned => job.run_here(context),
    }
}
