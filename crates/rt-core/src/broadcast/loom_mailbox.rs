//! Loom models of a letter posted to a worker that is going to sleep
//! (`BROADCAST.md`, "No lost letter"): the worker always reads it.
//!
//! What runs is the runtime's own code: the real `Mailbox` (`post`,
//! `take`, `has_mail`), the real `IdleSignal` (`ring`, `register`,
//! `sleep`), and `next_task` of `idle/mod.rs`, over a work source that
//! reads the worker's mailbox first and re-checks it after registering, as
//! `WorkerContext::find` and `sees_work` do. The poster does what
//! `broadcast::post` does: post, then ring that worker. A lost letter
//! leaves a worker asleep with its letter unread and the test thread
//! waiting to join it: loom reports that as a deadlock.
//!
//! Run: `cargo xtask loom`.

use std::ptr::NonNull;

use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::broadcast::mailbox::{Letter, Mailbox};
use crate::idle::loom_idle_signal::{check_bounded, StandInQueue};
use crate::idle::IdleSignal;
use crate::idle::{next_task, Counted, WorkSource};
use crate::worker::entry::{FrameAction, FrameRef};
use rt_queue::Priority;

struct Pool {
    idle: IdleSignal,
    mailboxes: Vec<Mailbox>,
    /// Plain tasks, which any worker may take.
    queue: StandInQueue,
    ran: AtomicUsize,
    all_ran: AtomicBool,
    work: usize,
}

/// One worker's view of the pool: its own mailbox first.
struct Worker {
    pool: Arc<Pool>,
    me: usize,
}

/// What a worker took.
enum Work {
    Letter,
    Task,
}

/// A letter whose frame is never run: the model counts letters read.
fn letter() -> Letter {
    unsafe fn never(_: NonNull<()>, _: FrameAction) {}
    // SAFETY: the frame is never executed (the model drops the letter).
    let frame = unsafe { FrameRef::new(NonNull::dangling(), never) };
    Letter {
        frame,
        priority: Priority::Normal,
    }
}

impl Pool {
    fn new(workers: usize, work: usize) -> Arc<Self> {
        Arc::new(Self {
            idle: IdleSignal::new(workers, workers, false),
            mailboxes: (0..workers).map(|_| Mailbox::new()).collect(),
            queue: StandInQueue::new(),
            ran: AtomicUsize::new(0),
            all_ran: AtomicBool::new(false),
            work,
        })
    }

    /// What `broadcast::post` does for one worker.
    fn post(&self, to: usize) {
        assert!(self.mailboxes[to].post(letter()).is_ok());
        self.idle.ring(to);
    }

    fn push(&self) {
        self.queue.push();
        self.idle.notify_one(|| self.queue.len());
    }

    fn ran_one(&self) {
        if self.ran.fetch_add(1, Ordering::AcqRel) + 1 == self.work {
            // Stands in for shutdown, to let a model that lost nothing end.
            self.all_ran.store(true, Ordering::Release);
            self.idle.notify_all();
        }
    }
}

impl WorkSource for Worker {
    type Task = Work;

    fn find(&self) -> Option<Work> {
        if self.pool.mailboxes[self.me].has_mail() && self.pool.mailboxes[self.me].take().is_some()
        {
            return Some(Work::Letter);
        }
        self.pool.queue.take().then_some(Work::Task)
    }

    fn sees_work(&self) -> bool {
        self.pool.mailboxes[self.me].has_mail() || self.pool.queue.sees_work()
    }

    fn may_exit(&self) -> bool {
        self.pool.all_ran.load(Ordering::Acquire)
    }
}

/// Starts `workers` workers, posts a letter to each worker in `to` (and
/// pushes `tasks` plain tasks) from the test thread, and waits for the
/// workers to stop.
fn post_while_workers_go_idle(workers: usize, to: &[usize], tasks: usize) {
    let pool = Pool::new(workers, to.len() + tasks);
    let threads: Vec<_> = (0..workers)
        .map(|me| {
            let worker = Worker {
                pool: pool.clone(),
                me,
            };
            thread::spawn(move || {
                while let Some(_work) = next_task(&worker.pool.idle, me, &worker, Counted::No) {
                    worker.pool.ran_one();
                }
            })
        })
        .collect();
    for _ in 0..tasks {
        pool.push();
    }
    for &worker in to {
        pool.post(worker);
    }
    for t in threads {
        t.join().unwrap();
    }
    assert!(pool.mailboxes.iter().all(|m| !m.has_mail()));
}

/// One worker, one letter: every interleaving, unbounded.
#[test]
fn a_letter_racing_its_worker_going_to_sleep_is_read() {
    loom::model(|| post_while_workers_go_idle(1, &[0], 0));
}

/// Two workers, a letter for the second while the first takes a task:
/// the ring must reach the addressee, not whoever sleeps. Bounded to 2
/// preemptions.
#[test]
fn a_letter_for_one_of_two_workers_is_read_by_it() {
    check_bounded(2, || post_while_workers_go_idle(2, &[1], 1));
}

/// A letter for each of two workers (a broadcast). Bounded to 2
/// preemptions.
#[test]
fn a_letter_for_each_of_two_workers_is_read() {
    check_bounded(2, || post_while_workers_go_idle(2, &[0, 1], 0));
}
