//! Loom model of shutdown (`SHUTDOWN.md`): the real `SubmitGate` and
//! `IdleSignal` with a task that spawns a child while shutdown runs. No
//! worker may exit while accepted work remains, and shutdown returns only
//! after both tasks ran.
//!
//! The queues are the doorbell model's stand-in (a count per kind of task:
//! parents, which spawn one child each, and children); the worker loop is
//! `main_loop` of `worker.rs` without spinning; a submission is
//! `Shared::submit_external` and shutdown is `Shared::begin_shutdown`
//! followed by joining the workers.
//!
//! Interleavings covered: the parent submitted before the gate closes and
//! run before, during or after `begin_shutdown`, so its child is pushed
//! while peers read the gate, re-check the queues, try to terminate or
//! sleep; the last busy worker going idle while another already sleeps; and,
//! in the second model, a submitter entering the gate just before or just
//! after it closes (accepted and run, or refused), including the window in
//! which it holds the gate open after `close`.
//!
//! Each worker checks, at the moment it exits, that every accepted task has
//! finished; a worker left asleep with nobody to wake it shows up as a
//! deadlock of the joining thread.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p rt-core --lib --release loom_`.

use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::idle_signal::{IdleSignal, Wake};
use crate::loom_idle_signal::{check_bounded, StandInQueue};
use crate::submit_gate::{AfterLeave, SubmitGate};

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

impl Pool {
    fn new(workers: usize) -> Arc<Self> {
        Arc::new(Self {
            idle: IdleSignal::new(workers, false),
            gate: SubmitGate::new(),
            parents: StandInQueue::new(),
            children: StandInQueue::new(),
            spawned: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
        })
    }

    /// `Shared::submit_external` with a parent task. False if refused.
    fn submit_parent(&self) -> bool {
        if let Err(after) = self.gate.enter() {
            self.after_leave(after);
            return false;
        }
        self.parents.push();
        let after = self.gate.leave_accepted();
        self.idle.notify_one();
        self.after_leave(after);
        true
    }

    fn after_leave(&self, after: AfterLeave) {
        if after == AfterLeave::WakeAll {
            self.idle.notify_all();
        }
    }

    /// `Shared::begin_shutdown`.
    fn begin_shutdown(&self) {
        self.gate.close();
        self.idle.notify_all();
    }

    /// A parent's body: spawn the child onto this worker's queue
    /// (`push_local`: push, count, ring).
    fn run_parent(&self) {
        self.children.push();
        self.spawned.fetch_add(1, Ordering::Relaxed);
        self.idle.notify_one();
        self.finished.fetch_add(1, Ordering::Relaxed);
    }

    fn run_child(&self) {
        self.finished.fetch_add(1, Ordering::Relaxed);
    }

    fn sees_work(&self) -> bool {
        self.parents.sees_work() || self.children.sees_work()
    }

    /// `main_loop` of `worker.rs`, without spinning.
    fn work(&self, me: usize) {
        loop {
            if self.take_and_run() {
                continue;
            }
            self.idle.start_searching();
            loop {
                if self.take_and_run_found() {
                    break;
                }
                self.idle.stop_searching();
                self.idle.register(me);
                let may_exit = self.gate.is_closed_and_quiet();
                if self.sees_work() {
                    self.idle.unregister(me);
                    continue;
                }
                if may_exit && self.idle.try_terminate() {
                    return self.assert_nothing_pending(me);
                }
                if self.idle.sleep(me) == Wake::Terminated {
                    return self.assert_nothing_pending(me);
                }
            }
        }
    }

    /// One scan: runs a parent or a child if one is queued.
    fn take_and_run(&self) -> bool {
        if self.parents.take() {
            self.run_parent();
        } else if self.children.take() {
            self.run_child();
        } else {
            return false;
        }
        true
    }

    /// One scan while searching: a task found ends the search first.
    fn take_and_run_found(&self) -> bool {
        if self.parents.take() {
            self.idle.found_work();
            self.run_parent();
        } else if self.children.take() {
            self.idle.found_work();
            self.run_child();
        } else {
            return false;
        }
        true
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
