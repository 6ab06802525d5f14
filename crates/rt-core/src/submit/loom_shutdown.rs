//! Loom models of shutdown (`SHUTDOWN.md`): the real `SubmitGate` and
//! `IdleSignal` with a task that spawns a child while shutdown runs. No
//! worker may exit while accepted work remains, and shutdown returns only
//! after both tasks ran.
//!
//! What runs is the runtime's own code: workers run `next_task` of
//! `idle/mod.rs` (with `may_exit` reading the gate as
//! `WorkerContext::may_exit` does); a submission is `gate::admit`
//! then `gate::publish`, the sequence `submit::submit` runs for an
//! external submission (without a bounded queue); a task's spawn pushes and
//! rings as `WorkerContext::push` does; shutdown is `begin_shutdown`'s
//! close-then-wake, followed by joining the workers. The queues are the
//! doorbell model's stand-in (a count per kind of task: parents, which spawn
//! one child each, and children).
//!
//! Interleavings covered: the parent submitted before the gate closes and
//! run before, during or after the shutdown, so its child is pushed while
//! peers read the gate, re-check the queues, try to terminate or sleep; the
//! last busy worker going idle while another already sleeps; and, in the
//! second model, a submitter entering the gate just before or just after it
//! closes (accepted and run, or refused), including the window in which it
//! holds the gate open after `close`.
//!
//! Each worker checks, at the moment it exits, that every accepted task has
//! finished; a worker left asleep with nobody to wake it shows up as a
//! deadlock of the joining thread.
//!
//! Run: `cargo xtask loom`.

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::idle::loom_idle_signal::{check_bounded, StandInQueue};
use crate::idle::IdleSignal;
use crate::idle::{next_task, Counted, WorkSource};
use crate::shared::gate::{self, Submission, SubmitGate};

struct Pool {
    idle: IdleSignal,
    gate: SubmitGate,
    /// Queued tasks that spawn one child when they run.
    parents: StandInQueue,
    children: StandInQueue,
    /// Children accepted (spawned by a task, so never refused).
    spawned: AtomicUsize,
    /// Tasks that finished, parents and children.
    finished: AtomicUsize,
}

#[derive(Clone, Copy)]
enum Task {
    Parent,
    Child,
}

impl Pool {
    fn new(workers: usize) -> Arc<Self> {
        Arc::new(Self {
            idle: IdleSignal::new(workers, workers, false),
            gate: SubmitGate::new(),
            parents: StandInQueue::new(),
            children: StandInQueue::new(),
            spawned: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
        })
    }

    /// The tasks queued, the backlog a push hands the doorbell.
    fn queued(&self) -> usize {
        self.parents.len() + self.children.len()
    }

    /// An external submission of a parent task. False if refused.
    fn submit_parent(&self) -> bool {
        if !gate::admit(&self.gate, &self.idle) {
            return false;
        }
        gate::publish(
            &self.gate,
            &self.idle,
            Submission::Task,
            || self.parents.push(),
            || self.queued(),
        );
        true
    }

    /// `Shared::begin_shutdown` (no bounded queue to wake).
    fn begin_shutdown(&self) {
        self.gate.close();
        self.idle.notify_all();
    }

    fn run(&self, task: Task) {
        if let Task::Parent = task {
            // `WorkerContext::push`: count, push, ring.
            self.spawned.fetch_add(1, Ordering::Relaxed);
            self.children.push();
            self.idle.notify_one(|| self.queued());
        }
        self.finished.fetch_add(1, Ordering::Relaxed);
    }

    fn work(&self, me: usize) {
        while let Some(task) = next_task(&self.idle, me, self, Counted::No) {
            self.run(task);
        }
        self.assert_nothing_pending(me);
    }

    /// Called by an exiting worker. The exit decision was made under the
    /// doorbell mutex after every worker registered, and every count below
    /// was written before its writer registered (or before it left the
    /// gate), so plain loads see the final values.
    fn assert_nothing_pending(&self, me: usize) {
        let accepted = self.gate.accepted() as usize + self.spawned.load(Ordering::Relaxed);
        let finished = self.finished.load(Ordering::Relaxed);
        assert_eq!(
            finished,
            accepted,
            "worker {me} exited with {} accepted task(s) not run",
            accepted - finished
        );
    }
}

impl WorkSource for Pool {
    type Task = Task;

    fn find(&self) -> Option<Task> {
        if self.parents.take() {
            Some(Task::Parent)
        } else if self.children.take() {
            Some(Task::Child)
        } else {
            None
        }
    }

    fn sees_work(&self) -> bool {
        self.parents.sees_work() || self.children.sees_work()
    }

    fn may_exit(&self) -> bool {
        self.gate.is_closed_and_quiet()
    }
}

fn start_workers(pool: &Arc<Pool>, workers: usize) -> Vec<thread::JoinHandle<()>> {
    (0..workers)
        .map(|me| {
            let pool = pool.clone();
            thread::spawn(move || pool.work(me))
        })
        .collect()
}

/// `Runtime::shutdown` from outside the pool: begin, then join every worker.
fn shutdown(pool: &Pool, workers: Vec<thread::JoinHandle<()>>) {
    pool.begin_shutdown();
    for worker in workers {
        worker.join().unwrap();
    }
}

/// Two workers; bounded to 2 preemptions.
#[test]
fn a_task_spawning_a_child_during_shutdown_runs_both_before_shutdown_returns() {
    check_bounded(2, || {
        let pool = Pool::new(2);
        let workers = start_workers(&pool, 2);
        assert!(pool.submit_parent(), "the gate is open before shutdown");
        shutdown(&pool, workers);
        assert_eq!(pool.finished.load(Ordering::Relaxed), 2);
        assert!(!pool.sees_work());
    });
}

/// One worker, a submitter and the shutting-down thread; bounded to 3
/// preemptions.
#[test]
fn a_submission_racing_shutdown_is_either_refused_or_run_with_its_child() {
    check_bounded(3, || {
        let pool = Pool::new(1);
        let workers = start_workers(&pool, 1);
        let submitter = {
            let pool = pool.clone();
            thread::spawn(move || pool.submit_parent())
        };
        shutdown(&pool, workers);
        let accepted = submitter.join().unwrap();
        let expected = if accepted { 2 } else { 0 };
        assert_eq!(pool.finished.load(Ordering::Relaxed), expected);
        assert!(!pool.sees_work());
    });
}
