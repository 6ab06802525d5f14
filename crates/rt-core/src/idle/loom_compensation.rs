//! Loom models of compensation (`COMPENSATION.md`): a worker that waits
//! while it is the only free one makes a compensating worker live, which
//! runs the queued task the wait depends on; a compensating worker that
//! retires while a task is pushed never leaves it queued; and the runtime
//! still terminates, with the compensating worker exiting too.
//!
//! What runs is the runtime's own code: the real `IdleSignal`
//! (`begin_wait`, `end_wait`, the retire path of `register`), and the loop
//! every worker runs (`idle::next_task`), the compensating worker
//! starting counted as searching, as `run_worker` starts it. The queues
//! are the count stand-in of `loom_idle_signal.rs`; the waiting worker's
//! park is a loop that yields until the task it waits for has run.
//!
//! A lost wake-up or a compensating worker that never comes leaves the
//! waiting worker spinning on a task nobody runs, which loom reports as a
//! deadlock (every thread blocked or yielding forever).
//!
//! Run: `cargo xtask loom`.

use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use loom::sync::{Arc, Mutex};
use loom::thread::{self, JoinHandle};

use crate::idle::loom_idle_signal::{check_bounded, StandInQueue};
use crate::idle::{next_task, Counted, WorkSource};
use crate::idle::{Compensation, IdleSignal};

struct Pool {
    idle: IdleSignal,
    queue: StandInQueue,
    /// The task the waiting worker waits for has run.
    done: AtomicBool,
    ran: AtomicUsize,
    tasks: usize,
    all_ran: AtomicBool,
    spare: Mutex<Option<JoinHandle<()>>>,
}

impl Pool {
    /// One core worker, room for one compensating worker.
    fn new(tasks: usize) -> Arc<Self> {
        Arc::new(Self {
            idle: IdleSignal::new(1, 2, false),
            queue: StandInQueue::new(),
            done: AtomicBool::new(false),
            ran: AtomicUsize::new(0),
            tasks,
            all_ran: AtomicBool::new(false),
            spare: Mutex::new(None),
        })
    }

    fn push(&self) {
        self.queue.push();
        self.idle.notify_one(|| self.queue.len());
    }

    fn run(&self) {
        self.done.store(true, Ordering::Release);
        if self.ran.fetch_add(1, Ordering::AcqRel) + 1 == self.tasks {
            // Stands in for shutdown, as in `loom_idle_signal.rs`.
            self.all_ran.store(true, Ordering::Release);
            self.idle.notify_all();
        }
    }

    fn work(&self, me: usize, counted: Counted) {
        let mut counted = counted;
        while next_task(&self.idle, me, self, counted).is_some() {
            counted = Counted::No;
            self.run();
        }
        assert_eq!(self.ran.load(Ordering::Acquire), self.tasks);
    }

    /// What `Shared::waiting` does around a park, with the compensating
    /// worker's thread started as `Shared::start_spare` starts it.
    fn wait_until_done(pool: &Arc<Self>) {
        if let Compensation::Start(index) = pool.idle.begin_wait() {
            let spare = pool.clone();
            let handle = thread::spawn(move || spare.work(index, Counted::AsSearching));
            *pool.spare.lock().unwrap() = Some(handle);
        }
        while !pool.done.load(Ordering::Acquire) {
            thread::yield_now();
        }
        pool.idle.end_wait();
    }
}

impl WorkSource for Pool {
    type Task = ();

    fn find(&self) -> Option<()> {
        self.queue.take().then_some(())
    }

    fn sees_work(&self) -> bool {
        self.queue.sees_work()
    }

    fn may_exit(&self) -> bool {
        self.all_ran.load(Ordering::Acquire)
    }
}

/// The only worker of a runtime waits for a task that is pushed at any
/// moment (before it waits, while the compensating worker starts, while
/// that one searches or sleeps): the compensating worker runs it, and
/// both workers exit once it ran.
#[test]
fn loom_compensation_runs_the_task_the_only_worker_waits_for() {
    check_bounded(2, || {
        let pool = Pool::new(1);
        let worker = {
            let pool = pool.clone();
            thread::spawn(move || {
                Pool::wait_until_done(&pool);
                pool.work(0, Counted::No);
            })
        };
        pool.push();
        worker.join().unwrap();
        if let Some(spare) = pool.spare.lock().unwrap().take() {
            spare.join().unwrap();
        }
        assert!(!pool.sees_work());
    });
}

/// As above, with the task pushed only once the compensating worker's
/// thread exists, so that the push races that worker's search, its
/// registration and its sleep (where retiring while the only free worker
/// would strand the task).
#[test]
fn loom_a_task_pushed_while_the_compensating_worker_searches_or_sleeps_is_run() {
    check_bounded(2, || {
        let pool = Pool::new(1);
        let worker = {
            let pool = pool.clone();
            thread::spawn(move || {
                Pool::wait_until_done(&pool);
                pool.work(0, Counted::No);
            })
        };
        while pool.spare.lock().unwrap().is_none() {
            thread::yield_now();
        }
        pool.push();
        worker.join().unwrap();
        if let Some(spare) = pool.spare.lock().unwrap().take() {
            spare.join().unwrap();
        }
        assert!(!pool.sees_work());
    });
}

/// The waiting worker's wait ends at once (what it waited for completed),
/// so the compensating worker it started retires when it runs dry, while
/// a task is pushed: whichever worker is free runs it, and the retiring
/// one never strands it.
#[test]
fn loom_a_compensating_worker_retiring_while_a_task_is_pushed_leaves_no_task_behind() {
    check_bounded(3, || {
        let pool = Pool::new(1);
        // What the wait depends on is already done.
        pool.done.store(true, Ordering::Relaxed);
        let worker = {
            let pool = pool.clone();
            thread::spawn(move || {
                Pool::wait_until_done(&pool);
                pool.work(0, Counted::No);
            })
        };
        pool.push();
        worker.join().unwrap();
        if let Some(spare) = pool.spare.lock().unwrap().take() {
            spare.join().unwrap();
        }
        assert!(!pool.sees_work());
    });
}
