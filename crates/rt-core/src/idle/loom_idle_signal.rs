//! Loom models of the idle doorbell (`IDLE_SIGNAL.md`): pushes concurrent
//! with workers searching and going to sleep never leave a task queued while
//! every worker sleeps.
//!
//! What runs is the runtime's own code: the workers run `next_task` of
//! `idle/mod.rs` (the loop every worker of the runtime runs, with its
//! spin rounds at zero and one `yield_now` under loom) over the real
//! `IdleSignal`, and a push is what `WorkerContext::push` does (push, then
//! `notify_one`). Only the queues are stand-ins: loom cannot run
//! crossbeam-deque, so [`StandInQueue`] keeps a count of queued tasks with
//! the orderings the real queues give (a Release push, an Acquire take and
//! emptiness check). A task is either plain or a *spawner*, which pushes one
//! plain child when it runs, as a task spawning from inside the pool does.
//!
//! Interleavings covered: every order of a pusher's push, `SeqCst` fence and
//! `searching`/`sleepers` loads against each worker's scan, searcher count
//! changes, registration, fence, re-check, park and post-wake fence; the
//! searching path, where a push skips its ring because a worker searches,
//! and that searcher then stops searching and registers, or takes another
//! task and, as the last searcher, rings for one more worker; a ring that
//! lands before the worker waits on its bell and one that lands after; a
//! worker woken for a task a peer took first.
//!
//! Workers end through the runtime's own exit path: once every task has run
//! (the worker that ran the last sets `may_exit` and rings everyone), the
//! last worker to register terminates the doorbell and all return. A lost
//! wake-up leaves a task queued with every worker parked and the test thread
//! waiting to join them: loom reports that as a deadlock.
//!
//! Run: `cargo xtask loom` (`RUSTFLAGS="--cfg loom" cargo test -p rt-core
//! --lib --profile loom loom_`).

use loom::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::idle::IdleSignal;
use crate::idle::{next_task, Counted, WorkSource};

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

    /// The tasks queued, a racy look like crossbeam-deque's `len`: what a
    /// pusher hands the doorbell as its backlog.
    pub(crate) fn len(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
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

#[derive(Clone, Copy)]
enum Task {
    Plain,
    Spawner,
}

struct Pool {
    idle: IdleSignal,
    spawners: StandInQueue,
    plain: StandInQueue,
    /// Tasks run so far; when it reaches `tasks`, everyone may stop.
    ran: AtomicUsize,
    all_ran: AtomicBool,
    tasks: usize,
}

impl Pool {
    fn new(workers: usize, tasks: usize) -> Arc<Self> {
        Arc::new(Self {
            idle: IdleSignal::new(workers, workers, false),
            spawners: StandInQueue::new(),
            plain: StandInQueue::new(),
            ran: AtomicUsize::new(0),
            all_ran: AtomicBool::new(false),
            tasks,
        })
    }

    /// What `WorkerContext::push` and an external submission do after
    /// counting: make the task visible, then ring.
    fn push(&self, task: Task) {
        match task {
            Task::Plain => self.plain.push(),
            Task::Spawner => self.spawners.push(),
        }
        self.idle
            .notify_one(|| self.plain.len() + self.spawners.len());
    }

    fn run(&self, task: Task) {
        if let Task::Spawner = task {
            self.push(Task::Plain);
        }
        if self.ran.fetch_add(1, Ordering::AcqRel) + 1 == self.tasks {
            // Stands in for shutdown, to let a model that lost no wake-up
            // end; not part of the protocol under test.
            self.all_ran.store(true, Ordering::Release);
            self.idle.notify_all();
        }
    }

    fn work(&self, me: usize) {
        while let Some(task) = next_task(&self.idle, me, self, Counted::No) {
            self.run(task);
        }
        assert_eq!(self.ran.load(Ordering::Acquire), self.tasks);
    }
}

impl WorkSource for Pool {
    type Task = Task;

    fn find(&self) -> Option<Task> {
        if self.spawners.take() {
            Some(Task::Spawner)
        } else if self.plain.take() {
            Some(Task::Plain)
        } else {
            None
        }
    }

    fn sees_work(&self) -> bool {
        self.spawners.sees_work() || self.plain.sees_work()
    }

    fn may_exit(&self) -> bool {
        self.all_ran.load(Ordering::Acquire)
    }
}

/// Starts `workers` workers, pushes `pushed` from the test thread (each
/// spawner adds one child to the total), and waits for the workers to stop.
fn push_while_workers_go_idle(workers: usize, pushed: &[Task]) {
    let spawned = pushed.iter().filter(|t| matches!(t, Task::Spawner)).count();
    let pool = Pool::new(workers, pushed.len() + spawned);
    let threads: Vec<_> = (0..workers)
        .map(|me| {
            let pool = pool.clone();
            thread::spawn(move || pool.work(me))
        })
        .collect();
    for &task in pushed {
        pool.push(task);
    }
    for t in threads {
        t.join().unwrap();
    }
    assert!(!pool.sees_work());
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
    loom::model(|| push_while_workers_go_idle(1, &[Task::Plain]));
}

/// One push, two workers; bounded to 2 preemptions.
#[test]
fn a_push_racing_two_workers_going_to_sleep_leaves_no_task_behind() {
    check_bounded(2, || push_while_workers_go_idle(2, &[Task::Plain]));
}

/// Two pushes and two workers: the second push can find a searcher (and
/// skip the ring), the sleeper stack emptied by the first push, or a worker
/// woken for a task that its peer took. Bounded to 2 preemptions.
#[test]
fn two_pushes_racing_two_workers_going_to_sleep_leave_no_task_behind() {
    check_bounded(2, || {
        push_while_workers_go_idle(2, &[Task::Plain, Task::Plain])
    });
}

/// The searching path from inside the pool: a worker runs a task that
/// spawns a child while its peer is searching, registering or asleep, so
/// the child's push may skip its ring for a searcher that then stops
/// searching. Bounded to 2 preemptions.
#[test]
fn a_child_pushed_while_a_peer_searches_is_run() {
    check_bounded(2, || push_while_workers_go_idle(2, &[Task::Spawner]));
}
