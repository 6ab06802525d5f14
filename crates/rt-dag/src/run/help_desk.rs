//! The run's work within reach of the worker that waits for it (`RUN.md`,
//! "Waiting").
//!
//! A run started on a worker of the work-stealing runtime waits on that
//! worker. The jobs other workers submit go to *their* deques, which a
//! waiting worker may not take from (rt-core's `JOIN_HELPING.md`: a wait
//! never steals what may be unrelated work). Without a desk, the waiter
//! could run only what it queued itself, and once that was done it parked
//! while the run went on with one worker fewer: the same graph took up to
//! twice as long inside `install` as from `main`.
//!
//! So a run with a desk puts each job it hands out on the desk, where the
//! waiter takes them, and keeps a *ticket* out at the executor: a job that
//! takes jobs off the desk and runs them until the desk is empty, on any
//! worker. At most one ticket waits unstarted at a time (a job handed out
//! submits one if none waits; a ticket that starts and sees more work on
//! the desk submits the next), so the executor sees about one ticket per
//! worker that joins in, not one per job. Every job on the desk is run by
//! whoever takes it first; the waiter alone would run them all, so none is
//! ever left behind.
use std::mem::ManuallyDrop;
use std::sync::atomic::{fence, AtomicBool, Ordering};
use std::sync::Arc;

use crossbeam_deque::{Injector, Steal};
use rt_handle::Job;
use rt_queue::Priority;

use super::launch::{self, ExecutorPtr, Work};

/// Where a run's jobs wait for the worker waiting for the run, or for a
/// ticket.
pub(crate) struct HelpDesk {
    jobs: Injector<Job>,
    /// A ticket waits at the executor, unstarted.
    ticket_out: AtomicBool,
    /// The waiter is about to park, or parked: a job put on the desk
    /// unparks it.
    parking: AtomicBool,
    /// The waiting thread.
    waiter: std::thread::Thread,
    /// The run's executor, for the tickets: used only by holders of a job
    /// of the desk, which holds a unit of the run (`ExecutorPtr`).
    executor: ExecutorPtr,
}

impl HelpDesk {
    /// A desk for the current thread, which is to wait for a run on
    /// `executor`.
    pub(crate) fn for_this_thread(executor: ExecutorPtr) -> Self {
        Self {
            jobs: Injector::new(),
            ticket_out: AtomicBool::new(false),
            parking: AtomicBool::new(false),
            waiter: std::thread::current(),
            executor,
        }
    }

    /// Puts `job` on the desk, and a ticket at the executor if none waits
    /// there. The caller holds a unit of the run.
    pub(crate) fn hand(self: &Arc<Self>, job: Job) {
        self.jobs.push(job);
        // With the fence in `will_park`: either the waiter's look after its
        // fence sees the job, or this load sees it parking. With the one in
        // `Ticket::start`: either that ticket's look sees the job, or this
        // sees that no ticket waits any more.
        fence(Ordering::SeqCst);
        if self.parking.load(Ordering::Relaxed) && self.parking.swap(false, Ordering::AcqRel) {
            self.waiter.unpark();
        }
        self.send_ticket();
    }

    /// Submits a ticket unless one waits unstarted. The caller holds a unit
    /// of the run.
    fn send_ticket(self: &Arc<Self>) {
        if self.ticket_out.load(Ordering::Relaxed) || self.ticket_out.swap(true, Ordering::AcqRel) {
            return;
        }
        // SAFETY: the caller holds a unit of the run (`ExecutorPtr`).
        let executor = unsafe { self.executor.get() };
        launch::submit(executor, Priority::Normal, Ticket(self.clone()));
    }

    /// The oldest job on the desk, if any.
    pub(crate) fn take(&self) -> Option<Job> {
        loop {
            match self.jobs.steal() {
                Steal::Success(job) => return Some(job),
                Steal::Empty => return None,
                Steal::Retry => {}
            }
        }
    }

    /// Whether a job is on the desk.
    pub(crate) fn has_job(&self) -> bool {
        !self.jobs.is_empty()
    }

    /// The waiter is about to park: a job put on the desk from now on
    /// unparks it. Then it looks at the desk once more before parking.
    pub(crate) fn will_park(&self) {
        self.parking.store(true, Ordering::Relaxed);
        fence(Ordering::SeqCst);
    }

    /// The waiter is awake again.
    pub(crate) fn awake(&self) {
        self.parking.store(false, Ordering::Relaxed);
    }
}

/// A ticket at the executor: started, it runs the desk's jobs until there
/// is none (none at all if the waiter took them first); dropped unstarted
/// (the executor refused or discarded it: it is shut down), it drops them,
/// each of which reports itself not run, as the executor would have made
/// of the jobs themselves.
struct Ticket(Arc<HelpDesk>);

impl Work for Ticket {
    fn start(self) {
        let this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped again: the `Arc` is moved
        // out once.
        let desk = unsafe { std::ptr::read(&this.0) };
        desk.ticket_out.store(false, Ordering::Relaxed);
        fence(Ordering::SeqCst);
        while let Some(job) = desk.take() {
            if desk.has_job() {
                // More than this thread takes now: another worker may join
                // in. The job taken holds a unit of the run.
                desk.send_ticket();
            }
            job.run();
        }
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.0.ticket_out.store(false, Ordering::Relaxed);
        while let Some(job) = self.0.take() {
            drop(job);
        }
    }
}
