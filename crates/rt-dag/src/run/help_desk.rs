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
//! So such a run schedules its own jobs, on the threads that take part in
//! it: the *participants*. The waiter is one; a worker becomes one by
//! running a *ticket*, a job the desk submits to the executor, which takes
//! the run's jobs and runs them until there is none left. Each participant
//! has a deque of its own (`crossbeam_deque::Worker`): the jobs it
//! releases go there, it takes back the newest first, and the others steal
//! the oldest, as workers do. Jobs handed out by a thread that is not a
//! participant go to a shared queue. Every job of the run is so within the
//! waiter's reach, at about the cost of a worker's own deque. At most one
//! ticket waits unstarted at a time (a job handed out submits one if none
//! waits), so the executor sees about one ticket per worker that joins in,
//! not one per job.

use std::cell::Cell;
use std::mem::ManuallyDrop;
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crossbeam_deque::{Injector, Steal, Stealer, Worker};
use rt_handle::Job;
use rt_queue::Priority;

use super::launch::{self, ExecutorPtr, Startable};

/// Where a run's jobs wait for the threads that take part in the run.
pub(crate) struct HelpDesk {
    /// Jobs handed out by threads that are not participants.
    shared: Injector<Job>,
    /// The participants' deques, for stealing.
    stealers: Mutex<Vec<(usize, Stealer<Job>)>>,
    /// How many participants there are besides the waiter (`stealers`).
    helpers: AtomicUsize,
    /// The next participant's identity.
    next_id: AtomicUsize,
    /// A ticket waits at the executor, unstarted.
    ticket_out: AtomicBool,
    /// The waiter is about to park, or parked.
    parking: AtomicBool,
    /// The waiting thread.
    waiter: std::thread::Thread,
    /// The run's executor, for the tickets: used only by holders of a job
    /// of the run, which holds a unit of the run (`ExecutorPtr`).
    executor: ExecutorPtr,
}

/// One thread taking part in a run: its deque, on its stack while it
/// takes part.
struct Participant {
    desk: *const HelpDesk,
    id: usize,
    local: Worker<Job>,
    /// The participant this thread was before (a run inside a job of
    /// another run), restored when this one ends.
    outer: *const Participant,
}

std::thread_local! {
    /// The participant the current thread is now, if any.
    static CURRENT: Cell<*const Participant> = const { Cell::new(ptr::null()) };
}

impl HelpDesk {
    /// A desk for the current thread, which is to wait for a run on
    /// `executor`.
    pub(crate) fn for_this_thread(executor: ExecutorPtr) -> Self {
        Self {
            shared: Injector::new(),
            stealers: Mutex::new(Vec::new()),
            helpers: AtomicUsize::new(0),
            next_id: AtomicUsize::new(0),
            ticket_out: AtomicBool::new(false),
            parking: AtomicBool::new(false),
            waiter: std::thread::current(),
            executor,
        }
    }

    /// Hands `job` out: to the current thread's deque if it takes part in
    /// the run, else to the shared queue; unparks the waiter if it is
    /// parking, and submits a ticket if none waits. The caller holds a unit
    /// of the run.
    #[inline]
    pub(crate) fn hand(self: &Arc<Self>, job: Job) {
        let me: *const HelpDesk = &**self;
        let kept = CURRENT.with(|current| {
            // SAFETY: a participant is registered only while it lives on
            // this thread's stack (`take_part`).
            match unsafe { current.get().as_ref() } {
                Some(p) if ptr::eq(p.desk, me) => {
                    p.local.push(job);
                    None
                }
                _ => Some(job),
            }
        });
        if let Some(job) = kept {
            self.shared.push(job);
        }
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

    /// The run's executor, for a node to reach.
    ///
    /// # Safety
    ///
    /// The caller holds a unit of the run (the executor outlives the run's
    /// units, `ExecutorPtr`).
    pub(crate) unsafe fn executor(&self) -> &dyn rt_handle::Executor {
        // SAFETY: the caller's promise.
        unsafe { self.executor.get() }
    }

    /// Runs `f` with the current thread taking part in the run: the jobs it
    /// hands out meanwhile go to its own deque, which the others steal
    /// from.
    pub(crate) fn take_part<R>(&self, f: impl FnOnce() -> R) -> R {
        struct Leave<'a>(&'a HelpDesk, Box<Participant>);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                let id = self.1.id;
                self.0
                    .stealers
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .retain(|(other, _)| *other != id);
                self.0.helpers.fetch_sub(1, Ordering::Relaxed);
                let outer = self.1.outer;
                let _ = CURRENT.try_with(|current| current.set(outer));
                // Whatever is left (a job that unwound past its run, which
                // never happens: jobs contain their panics) goes to the
                // shared queue rather than being lost.
                while let Some(job) = self.1.local.pop() {
                    self.0.shared.push(job);
                }
            }
        }
        let participant = Box::new(Participant {
            desk: self,
            id: self.next_id.fetch_add(1, Ordering::Relaxed),
            local: Worker::new_lifo(),
            outer: CURRENT.with(Cell::get),
        });
        self.stealers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((participant.id, participant.local.stealer()));
        self.helpers.fetch_add(1, Ordering::Relaxed);
        CURRENT.with(|current| current.set(&*participant));
        let _leave = Leave(self, participant);
        f()
    }

    /// The next job for the current thread, a participant: its own newest,
    /// else the shared queue's oldest, else one stolen from another
    /// participant.
    pub(crate) fn take(&self) -> Option<Job> {
        let me: *const HelpDesk = self;
        let own = CURRENT.with(|current| {
            // SAFETY: as in `hand`.
            match unsafe { current.get().as_ref() } {
                Some(p) if ptr::eq(p.desk, me) => Some((p.id, p.local.pop())),
                _ => None,
            }
        });
        let id = match own {
            Some((_, Some(job))) => return Some(job),
            Some((id, None)) => Some(id),
            None => None,
        };
        if let Some(job) = steal_from(|| self.shared.steal()) {
            return Some(job);
        }
        if self.helpers.load(Ordering::Relaxed) == 0 {
            return None;
        }
        let stealers = self.stealers.lock().unwrap_or_else(|e| e.into_inner());
        stealers
            .iter()
            .filter(|(other, _)| Some(*other) != id)
            .find_map(|(_, stealer)| steal_from(|| stealer.steal()))
    }

    /// Whether a job is waiting anywhere on the desk.
    pub(crate) fn has_job(&self) -> bool {
        if !self.shared.is_empty() {
            return true;
        }
        if self.helpers.load(Ordering::Relaxed) == 0 {
            return false;
        }
        let stealers = self.stealers.lock().unwrap_or_else(|e| e.into_inner());
        stealers.iter().any(|(_, stealer)| !stealer.is_empty())
    }

    /// The waiter is about to park: a job handed out from now on unparks
    /// it (or, missed, the waiter looks again when its nap ends: `wait.rs`).
    pub(crate) fn will_park(&self) {
        self.parking.store(true, Ordering::SeqCst);
    }

    /// The waiter is awake again.
    pub(crate) fn awake(&self) {
        self.parking.store(false, Ordering::Relaxed);
    }
}

/// One steal, retried while the queue says so.
fn steal_from(mut steal: impl FnMut() -> Steal<Job>) -> Option<Job> {
    loop {
        match steal() {
            Steal::Success(job) => return Some(job),
            Steal::Empty => return None,
            Steal::Retry => {}
        }
    }
}

/// A ticket at the executor: started, its thread takes part in the run and
/// runs its jobs until it finds none (none at all if the others took them
/// first); dropped unstarted (the executor refused or discarded it: it is
/// shut down), it drops the shared queue's jobs, each of which reports
/// itself not run, as the executor would have made of the jobs themselves.
struct Ticket(Arc<HelpDesk>);

impl Startable for Ticket {
    fn start(self) {
        let this = ManuallyDrop::new(self);
        // SAFETY: `this` is never used or dropped again: the `Arc` is moved
        // out once.
        let desk = unsafe { ptr::read(&this.0) };
        desk.ticket_out.store(false, Ordering::Relaxed);
        desk.take_part(|| {
            while let Some(job) = desk.take() {
                job.run();
            }
        });
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        self.0.ticket_out.store(false, Ordering::Relaxed);
        while let Some(job) = steal_from(|| self.0.shared.steal()) {
            drop(job);
        }
    }
}
