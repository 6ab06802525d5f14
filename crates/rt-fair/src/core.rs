//! The executor's state on its own thread: the task arena, the ready queues,
//! the scheduler and the counters; spawning, polling one task, aborting.
//!
//! Rule that keeps the `RefCell`s sound under re-entrancy: no user code (a
//! future's `poll` or `drop`, a waker) ever runs while one of them is
//! borrowed. A task may therefore spawn, abort other tasks, read stats or
//! drop handles from inside its poll.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use crate::context;
use rt_handle::raw::drop_quietly;
use rt_handle::raw::payload_message;
use rt_handle::PanicMessage;
use rt_queue::eevdf::{Eevdf, Entity, Request};

use crate::error::JoinError;
use crate::shared::{Header, Shared};
use crate::stats::Counters;
use crate::sync::Arc;
use crate::task::{Arena, BoxFuture, Finish, TaskSlot};

/// Settings fixed at build time.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub(crate) weights: Vec<u32>,
    pub(crate) slice: Duration,
    pub(crate) rejoin_credit: Duration,
    pub(crate) host_interval: Duration,
    pub(crate) propagate_panics: bool,
}

/// Scheduling state, borrowed only by executor code (never across a poll).
struct Sched {
    eevdf: Eevdf,
    /// Runnable tasks per queue, FIFO.
    ready: Vec<VecDeque<Arc<Header>>>,
    counters: Vec<Counters>,
    /// Reused buffer for draining the wake list.
    inbox: VecDeque<Arc<Header>>,
}

pub(crate) struct Core {
    pub(crate) shared: Arc<Shared>,
    pub(crate) config: Config,
    tasks: RefCell<Arena>,
    sched: RefCell<Sched>,
    running: Cell<bool>,
}

/// Marks the executor as running; a second `run_until` from inside one of
/// its own tasks would corrupt the loop's state, so it panics instead.
pub(crate) struct Running<'a>(&'a Core);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.running.set(false);
    }
}

impl Core {
    pub(crate) fn new(config: Config) -> Rc<Self> {
        let n = config.weights.len();
        let slice_ns = u64::try_from(config.slice.as_nanos()).unwrap_or(u64::MAX);
        Rc::new(Self {
            shared: Arc::new(Shared::new(n)),
            tasks: RefCell::new(Arena::default()),
            sched: RefCell::new(Sched {
                eevdf: Eevdf::new(
                    config.weights.iter().map(|&w| Entity::new(w)).collect(),
                    Request::Slice(slice_ns),
                    u64::try_from(config.rejoin_credit.as_nanos()).unwrap_or(u64::MAX),
                ),
                ready: (0..n).map(|_| VecDeque::new()).collect(),
                counters: (0..n).map(|_| Counters::new()).collect(),
                inbox: VecDeque::new(),
            }),
            running: Cell::new(false),
            config,
        })
    }

    pub(crate) fn enter(&self) -> Running<'_> {
        assert!(
            !self.running.replace(true),
            "rt-fair: run_until or block_on called while this executor is already \
             running (from inside one of its own tasks?)"
        );
        Running(self)
    }

    /// Spawns a task whose output plumbing is erased (by `JoinHandle::spawn`,
    /// which wraps the future and keeps its join state): stores it, queues
    /// it, and returns its header.
    pub(crate) fn spawn(&self, queue: usize, task: BoxFuture, join: Rc<dyn Finish>) -> Arc<Header> {
        let header = {
            let mut tasks = self.tasks.borrow_mut();
            let header = Header::new(tasks.next_index(), queue, Arc::clone(&self.shared));
            tasks.insert(TaskSlot {
                header: Arc::clone(&header),
                future: Some(task),
                join,
                abort_requested: false,
            });
            header
        };
        self.sched.borrow_mut().counters[queue].spawned += 1;
        self.shared.schedule(Arc::clone(&header));
        header
    }

    /// Aborts a task: drops it now, or flags it if it is being polled.
    pub(crate) fn abort(&self, header: &Arc<Header>) {
        if header.is_done() {
            return;
        }
        let slot = {
            let mut tasks = self.tasks.borrow_mut();
            match tasks.get_mut(header.index) {
                None => return,
                Some(slot) if slot.future.is_none() => {
                    slot.abort_requested = true;
                    return;
                }
                Some(_) => tasks.remove(header.index),
            }
        };
        if let Some(slot) = slot {
            self.retire(slot, None, JoinError::Cancelled);
        }
    }

    /// Ends a task that did not complete (aborted or panicked): forget every
    /// queue entry of it, count it, drop its future, tell its handle.
    ///
    /// Never unwinds into its caller (`abort`, which user code calls, or the
    /// executor loop): a panic from the future's destructor is contained, as
    /// tokio contains it. The handle of an aborted task whose future panicked
    /// in its destructor reports [`JoinError::Panicked`] with that payload
    /// (tokio's `is_panic`); a task that had already panicked keeps its
    /// first panic, and the destructor's payload is dropped quietly. The
    /// counters follow `error` (an abort counts as aborted even when its
    /// drop panicked).
    fn retire(&self, slot: TaskSlot, polled: Option<BoxFuture>, error: JoinError) {
        let TaskSlot {
            header,
            future,
            join,
            ..
        } = slot;
        header.set_done();
        {
            let mut sched = self.sched.borrow_mut();
            sched.ready[header.queue].retain(|h| !Arc::ptr_eq(h, &header));
            let c = &mut sched.counters[header.queue];
            // Only a panic or an abort (`Cancelled`) ends a task here.
            if error.is_panic() {
                c.finished += 1;
                c.panicked += 1;
            } else {
                c.aborted += 1;
            }
        }
        self.shared.forget(&header);
        // User code (the destructors) runs here with no `RefCell` borrowed.
        let error = drop_contained((future, polled), error);
        join.fail(error);
    }

    /// Takes the woken tasks into their queues, retires empty queues from
    /// the competition, picks a queue by EEVDF and pops its oldest task.
    /// `None` when nothing is runnable.
    pub(crate) fn next(&self) -> Option<Arc<Header>> {
        self.shared.clear_preempt();
        let mut sched = self.sched.borrow_mut();
        let s = &mut *sched;
        self.shared.drain(&mut s.inbox);
        for header in s.inbox.drain(..) {
            if !header.is_done() {
                s.eevdf.activate(header.queue);
                s.ready[header.queue].push_back(header);
            }
        }
        for (q, ready) in s.ready.iter().enumerate() {
            if ready.is_empty() {
                s.eevdf.deactivate(q);
            }
        }
        let task = loop {
            let q = s.eevdf.pick()?;
            match pop_live(&mut s.ready[q]) {
                Some(task) => break task,
                None => s.eevdf.deactivate(q),
            }
        };
        Some(task)
    }

    /// Polls one task picked by [`Core::next`]. `start` is when the previous
    /// poll ended (the time in between, the executor's bookkeeping, is
    /// charged to this task's queue too); `host_due` is when the host runtime
    /// wants the thread back. Returns when the poll ended.
    ///
    /// With panic propagation on, a panic of the task is re-raised here,
    /// after the task has been retired.
    pub(crate) fn poll_task(
        &self,
        header: Arc<Header>,
        start: Instant,
        host_due: Option<Instant>,
    ) -> Instant {
        let q = header.queue;
        let Some(mut future) = self
            .tasks
            .borrow_mut()
            .get_mut(header.index)
            .and_then(|slot| slot.future.take())
        else {
            return start; // unreachable: a queued task that is not done has its future
        };
        header.start_poll();
        let shared = &self.shared;
        let start_ns = shared.ns_since_epoch(start);
        let slice_end = {
            let mut sched = self.sched.borrow_mut();
            let delay = start_ns.saturating_sub(header.ready_at());
            sched.counters[q].delay.record(delay);
            sched.eevdf.preempt_windows(|queue, window| {
                let at = |ns: u64| start_ns.saturating_add(ns);
                shared.set_window(queue, window.map(|(from, until)| (at(from), at(until))));
            });
            start_ns.saturating_add(sched.eevdf.remaining_ns())
        };
        let host_due = host_due.map_or(u64::MAX, |due| shared.ns_since_epoch(due));
        context::set_slice_end(Some(slice_end.min(host_due)));
        let waker = Waker::from(Arc::clone(&header));
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            future.as_mut().poll(&mut Context::from_waker(&waker))
        }));
        context::set_slice_end(None);
        let end = Instant::now();
        {
            let mut sched = self.sched.borrow_mut();
            let ns =
                u64::try_from(end.saturating_duration_since(start).as_nanos()).unwrap_or(u64::MAX);
            sched.eevdf.charge(q, ns);
            let c = &mut sched.counters[q];
            c.polls += 1;
            c.cpu_ns = c.cpu_ns.saturating_add(ns);
        }
        match outcome {
            Ok(Poll::Pending) => {
                let slot = {
                    let mut tasks = self.tasks.borrow_mut();
                    let Some(slot) = tasks.get_mut(header.index) else {
                        return end;
                    };
                    if !slot.abort_requested {
                        slot.future = Some(future);
                        return end;
                    }
                    tasks.remove(header.index)
                };
                if let Some(slot) = slot {
                    self.retire(slot, Some(future), JoinError::Cancelled);
                }
            }
            Ok(Poll::Ready(())) => {
                header.set_done();
                let slot = self.tasks.borrow_mut().remove(header.index);
                self.sched.borrow_mut().counters[q].finished += 1;
                drop((slot, future));
            }
            Err(payload) => {
                let slot = self.tasks.borrow_mut().remove(header.index);
                // The payload goes to the handle, unless panics propagate:
                // then it leaves `run_until`, and the handle has the
                // message alone.
                let (message, propagated) = if self.config.propagate_panics {
                    let message = PanicMessage::from(payload_message(payload.as_ref()));
                    (message, Some(payload))
                } else {
                    (PanicMessage::from_payload(payload), None)
                };
                if let Some(slot) = slot {
                    // A second panic from the future's destructor is lost in
                    // favour of the first (`retire` contains it).
                    self.retire(slot, Some(future), JoinError::Panicked(message));
                }
                if let Some(payload) = propagated {
                    resume_unwind(payload);
                }
            }
        }
        end
    }

    /// A copy of every queue's counters, in queue order.
    pub(crate) fn counters(&self) -> Vec<Counters> {
        self.sched.borrow().counters.clone()
    }
}

/// Pops the oldest task that is not done (stale entries of finished tasks
/// are skipped).
fn pop_live(queue: &mut VecDeque<Arc<Header>>) -> Option<Arc<Header>> {
    while let Some(header) = queue.pop_front() {
        if !header.is_done() {
            return Some(header);
        }
    }
    None
}

/// Drops what is left of a task that ends with `error`, containing a panic
/// of its destructors: the error to report to the task's handle. An abort
/// whose drop panicked becomes that panic, with its payload (as tokio
/// reports it); a task that had already panicked keeps its own panic, and
/// the destructor's payload is dropped quietly.
fn drop_contained<V>(leftovers: V, error: JoinError) -> JoinError {
    match catch_unwind(AssertUnwindSafe(move || drop(leftovers))) {
        Ok(()) => error,
        Err(payload) => match error {
            first @ JoinError::Panicked(_) => {
                drop_quietly(payload);
                first
            }
            _ => JoinError::Panicked(PanicMessage::from_payload(payload)),
        },
    }
}

impl Drop for Core {
    /// Drops every task still alive (their handles report `Cancelled`, or
    /// `Panicked` if the future's destructor panicked) and refuses later
    /// wakes. A destructor's panic never leaves `drop(executor)`: each
    /// future is dropped on its own, so one that panics neither skips the
    /// others nor, by unwinding through them, aborts the process.
    fn drop(&mut self) {
        drop(self.shared.close());
        self.sched.get_mut().ready.clear();
        for slot in self.tasks.get_mut().take_all() {
            slot.header.set_done();
            let TaskSlot { future, join, .. } = slot;
            join.fail(drop_contained(future, JoinError::Cancelled));
        }
    }
}

impl std::fmt::Debug for Core {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Core")
            .field("config", &self.config)
            .field("running", &self.running.get())
            .finish_non_exhaustive()
    }
}
