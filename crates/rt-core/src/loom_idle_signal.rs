//! Loom model of the idle doorbell (`IDLE_SIGNAL.md`): a push concurrent with
//! workers going to sleep never leaves a task queued while every worker
//! sleeps.
//!
//! The real `IdleSignal` runs under loom; the crossbeam queues, which loom
//! cannot model, are replaced by [`StandInQueue`], a count of queued tasks
//! with the orderings the real queues give (a Release push, an Acquire
//! emptiness check). The worker loop is the runtime's own (`worker.rs`,
//! `main_loop`) with the spinning left out: scan, start searching, scan,
//! stop searching, register, re-check, then unregister or sleep; a searcher
//! that finds work calls `found_work`, which rings for one more worker when
//! it was the last searcher.
//!
//! Interleavings covered: every order of the pusher's push, `SeqCst` fence
//! and `searching`/`sleepers` loads against each worker's scan, searcher
//! count changes, registration, fence, re-check and park; a push that skips
//! the ring because a worker is searching, while that searcher stops
//! searching and registers; a ring that lands before the worker waits on its
//! bell and one that lands after; a worker woken for a task a peer took
//! first; two pushes racing two workers that register in either order.
//!
//! A lost wake-up leaves a task queued with every worker parked and the test
//! thread waiting to join them: loom reports that as a deadlock. Workers stop
//! once every task has run (the one that runs the last rings everyone), so a
//! run that loses no wake-up always ends.
//!
//! Run: `RUSTFLAGS="--cfg loom" cargo test -p rt-core --lib --release loom_`.

use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::idle_signal::IdleSignal;

/// The queues, reduced to how many tasks wait in them.
pub(crate) struct StandInQueue {
    queued: AtomicUsize,
}

impl StandInQueue {
    pub(crate) fn new() -> Self {
        Self {
            queued: AtomicUsize::new(0),
        }
    }

    /// Makes one task visible, like a push onto an injector or a deque.
    pub(crate) fn push(&self) {
        self.queued.fetch_add(1, Ordering::Release);
    }

    /// Takes one task if there is one, like a successful `find`.
    pub(crate) fn take(&self) -> bool {
        let mut queued = self.queued.load(Ordering::Acquire);
        while queued > 0 {
            match self.queued.compare_exchange(
                queued,
                queued - 1,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return true,
                Err(actual) => queued = actual,
            }
        }
        false
    }

    /// The re-check after registering (`WorkerQueues::sees_work`).
    pub(crate) fn sees_work(&self) -> bool {
        self.queued.load(Ordering::Acquire) > 0
    }
}

struct Pool {
    idle: IdleSignal,
    queue: StandInQueue,
    /// Tasks run so far; when it reaches `tasks`, everyone stops.
    ran: AtomicUsize,
    all_ran: AtomicBool,
    tasks: usize,
}

impl Pool {
    fn new(workers: usize, tasks: usize) -> Arc<Self> {
        Arc::new(Self {
            idle: IdleSignal::new(workers, false),
            queue: StandInQueue::new(),
            ran: AtomicUsize::new(0),
            all_ran: AtomicBool::new(false),
            tasks,
        })
    }

    /// What a spawn does: push, then ring (`Shared::submit_external`,
    /// `push_local`).
    fn spawn(&self) {
        self.queue.push();
        self.idle.notify_one();
    }

    fn run_one(&self) {
        if self.ran.fetch_add(1, Ordering::AcqRel) + 1 == self.tasks {
            // Not part of the protocol under test: it only lets a model
            // that lost no wake-up end.
            self.all_ran.store(true, Ordering::Release);
            self.idle.notify_all();
        }
    }

    /// The worker loop of `worker.rs` (`main_loop`), minus spinning and
    /// shutdown: a worker that finds nothing counts itself as searching,
    /// stops searching before it registers, and is counted as searching
    /// again when it is rung or withdraws its registration.
    fn work(&self, me: usize) {
        loop {
            if self.queue.take() {
                self.run_one();
                continue;
            }
            self.idle.start_searching();
            loop {
                if self.queue.take() {
                    self.idle.found_work();
                    self.run_one();
                    break;
                }
                self.idle.stop_searching();
                self.idle.register(me);
                if self.queue.sees_work() {
                    self.idle.unregister(me);
                    continue;
                }
                if self.all_ran.load(Ordering::Acquire) {
                    self.idle.unregister(me);
                    return;
                }
                self.idle.sleep(me);
            }
        }
    }
}

/// Starts `workers` workers, spawns `tasks` tasks from the test thread, and
/// waits for the workers to stop.
fn push_while_workers_go_idle(workers: usize, tasks: usize) {
    let pool = Pool::new(workers, tasks);
    let threads: Vec<_> = (0..workers)
        .map(|me| {
            let pool = pool.clone();
            thread::spawn(move || pool.work(me))
        })
        .collect();
    for _ in 0..tasks {
        pool.spawn();
    }
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(pool.ran.load(Ordering::Acquire), tasks);
    assert!(!pool.queue.sees_work());
}

/// Checks `model` with at most `preemptions` preemptions per execution:
/// loom then explores every interleaving that needs no more than that many
/// forced thread switches, which keeps the two-worker models to seconds.
pub(crate) fn check_bounded(preemptions: usize, model: impl Fn() + Sync + Send + 'static) {
    let mut builder = loom::model::Builder::new();
    builder.preemption_bound = Some(preemptions);
    builder.check(model);
}

/// One worker, one push: every interleaving, unbounded.
#[test]
fn a_push_racing_a_worker_going_to_sleep_always_wakes_it() {
    loom::model(|| push_while_workers_go_idle(1, 1));
}

/// One push, two workers; bounded to 2 preemptions.
#[test]
fn a_push_racing_two_workers_going_to_sleep_leaves_no_task_behind() {
    check_bounded(2, || push_while_workers_go_idle(2, 1));
}

/// Two pushes and two workers: the second push can find a searcher (and
/// skip the ring), the sleeper stack emptied by the first push, or a worker
/// woken for a task that its peer took. Bounded to 2 preemptions.
#[test]
fn two_pushes_racing_two_workers_going_to_sleep_leave_no_task_behind() {
    check_bounded(2, || push_while_workers_go_idle(2, 2));
}
