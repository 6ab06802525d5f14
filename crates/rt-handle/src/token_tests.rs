//! Unit tests of cancellation told at once: a token's list of queued tasks
//! (`token.rs`) and the executor's cancel listener
//! (`raw::listeners`). Run under miri with its leak checker
//! too (`cargo xtask miri`): a cell freed twice, or never, shows there.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::thread;

use crate::raw::{listeners, CancelListener, Discarded, JobControl, PoolId};
use crate::{CancellationToken, Job, JoinError, JoinHandle, Priority, RunOutcome, TaskStatus};

/// Counts its drops.
struct Capture(Arc<AtomicUsize>);

impl Drop for Capture {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

/// A stand-in executor's cancel listener, registered under the identity of
/// its own allocation (so tests running at once never share one).
#[derive(Default)]
struct Listener {
    cancelled: [AtomicUsize; Priority::COUNT],
    stale: [AtomicUsize; Priority::COUNT],
}

impl CancelListener for Listener {
    fn cancelled_while_queued(&self, class: Priority) {
        self.stale[class.index()].fetch_add(1, Ordering::SeqCst);
        self.cancelled[class.index()].fetch_add(1, Ordering::SeqCst);
    }
    fn cancelled_entry_taken(&self, class: Priority) {
        self.stale[class.index()].fetch_sub(1, Ordering::SeqCst);
    }
}

impl Listener {
    fn cancelled(&self, class: Priority) -> usize {
        self.cancelled[class.index()].load(Ordering::SeqCst)
    }
    fn stale(&self, class: Priority) -> usize {
        self.stale[class.index()].load(Ordering::SeqCst)
    }
}

/// An executor that registered a listener: deregisters when dropped.
struct Pool {
    listener: Arc<Listener>,
}

impl Pool {
    fn new() -> Self {
        let pool = Self {
            listener: Arc::default(),
        };
        let weak: Weak<dyn CancelListener> = Arc::downgrade(&pool.listener) as _;
        listeners::register(pool.id(), weak);
        pool
    }

    fn id(&self) -> PoolId {
        PoolId::of(&self.listener)
    }

    /// Accepts `job` at `class`, as an executor's submission does.
    fn accept(&self, job: &Job, class: Priority) {
        job.set_owner(self.id(), class);
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        listeners::deregister(self.id());
    }
}

fn counted_job(
    token: &CancellationToken,
    ran: &Arc<AtomicUsize>,
    drops: &Arc<AtomicUsize>,
) -> (Job, JoinHandle<()>) {
    let (ran, capture) = (ran.clone(), Capture(drops.clone()));
    Job::cancellable(token, move |_| {
        let _capture = capture;
        ran.fetch_add(1, Ordering::SeqCst);
    })
}

#[test]
fn a_token_cancels_its_queued_tasks_before_cancel_returns() {
    let token = CancellationToken::new();
    let (ran, drops) = (Arc::default(), Arc::default());
    let tasks: Vec<_> = (0..100)
        .map(|_| counted_job(&token, &ran, &drops))
        .collect();
    assert_eq!(token.queued_tasks(), 100);
    token.cancel();
    assert_eq!(token.queued_tasks(), 0);
    assert_eq!(
        drops.load(Ordering::SeqCst),
        100,
        "every body dropped by cancel"
    );
    for (job, handle) in tasks {
        assert_eq!(handle.status(), TaskStatus::Cancelled);
        assert!(handle.is_finished());
        // No executor was told: the stale entry counts the cancellation.
        assert_eq!(job.run(), RunOutcome::Cancelled);
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
    }
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert_eq!(drops.load(Ordering::SeqCst), 100, "and never again");
}

#[test]
fn every_way_a_job_ends_takes_it_off_its_tokens_list() {
    let token = CancellationToken::new();
    let (ran, drops) = (Arc::default(), Arc::default());
    let made = || counted_job(&token, &ran, &drops);

    let (run, run_handle) = made();
    let (alone, alone_handle) = made();
    let (dropped, dropped_handle) = made();
    let (cancelled, cancelled_handle) = made();
    let (discarded, discarded_handle) = made();
    let (inline, inline_handle) = made();
    assert_eq!(token.queued_tasks(), 6);

    assert_eq!(run.run(), RunOutcome::Completed);
    drop(alone_handle);
    assert_eq!(alone.run(), RunOutcome::Completed); // runs alone, no claim
    drop(dropped);
    assert!(cancelled.cancel());
    assert_eq!(discarded.discard(), Discarded::Cancelled);
    // A joiner's inline run does not consume the queue side: the entry
    // stays on the list until it is taken.
    let tag = crate::raw::RunnerTag::new(1).unwrap();
    assert_eq!(
        inline_handle.core().run_inline(tag, None),
        Some(RunOutcome::Completed)
    );
    assert_eq!(token.queued_tasks(), 1);
    assert_eq!(inline.run(), RunOutcome::Stale);
    assert_eq!(token.queued_tasks(), 0);

    assert_eq!(run_handle.join(), Ok(()));
    assert_eq!(dropped_handle.join(), Err(JoinError::Rejected));
    assert_eq!(cancelled_handle.join(), Err(JoinError::Cancelled));
    assert_eq!(discarded_handle.join(), Err(JoinError::Cancelled));
    assert_eq!(inline_handle.join(), Ok(()));
    assert_eq!(ran.load(Ordering::SeqCst), 3);
    assert_eq!(drops.load(Ordering::SeqCst), 6);
    token.cancel(); // nothing left to cancel
}

#[test]
fn a_token_cancelled_before_a_job_is_made_keeps_no_list_and_skips_the_body() {
    let token = CancellationToken::new();
    token.cancel();
    let (ran, drops) = (Arc::default(), Arc::default());
    let (job, handle) = counted_job(&token, &ran, &drops);
    assert_eq!(token.queued_tasks(), 0);
    assert_eq!(handle.status(), TaskStatus::Queued);
    assert_eq!(job.run(), RunOutcome::Cancelled);
    assert_eq!(handle.join(), Err(JoinError::Cancelled));
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
}

#[test]
fn a_handle_cancel_tells_the_executor_which_counts_it_once() {
    let pool = Pool::new();
    let (job, handle) = Job::new(|| 1);
    pool.accept(&job, Priority::High);
    assert!(handle.cancel());
    assert_eq!(handle.status(), TaskStatus::Cancelled);
    assert_eq!(pool.listener.cancelled(Priority::High), 1);
    assert_eq!(pool.listener.stale(Priority::High), 1);
    // The stale entry counts nothing and leaves the gauge.
    assert_eq!(job.run(), RunOutcome::Stale);
    assert_eq!(pool.listener.stale(Priority::High), 0);
    assert_eq!(pool.listener.cancelled(Priority::High), 1);
    assert_eq!(handle.join(), Err(JoinError::Cancelled));
}

#[test]
fn a_token_cancel_tells_each_executor_with_the_class_each_task_was_queued_at() {
    let (a, b) = (Pool::new(), Pool::new());
    let token = CancellationToken::new();
    let (ran, drops) = (Arc::default(), Arc::default());
    let mut entries = Vec::new();
    for (pool, class) in [
        (&a, Priority::High),
        (&a, Priority::Background),
        (&b, Priority::Normal),
        (&b, Priority::Normal),
    ] {
        let (job, handle) = counted_job(&token, &ran, &drops);
        pool.accept(&job, class);
        entries.push((job, handle));
    }
    // Made but not accepted by anyone: cancelled, counted by its entry.
    let (unowned, unowned_handle) = counted_job(&token, &ran, &drops);
    token.cancel();
    assert_eq!(a.listener.cancelled(Priority::High), 1);
    assert_eq!(a.listener.cancelled(Priority::Background), 1);
    assert_eq!(b.listener.cancelled(Priority::Normal), 2);
    assert_eq!(b.listener.stale(Priority::Normal), 2);
    assert_eq!(drops.load(Ordering::SeqCst), 5);
    for (job, handle) in entries {
        assert_eq!(handle.status(), TaskStatus::Cancelled);
        assert_eq!(job.run(), RunOutcome::Stale);
    }
    assert_eq!(b.listener.stale(Priority::Normal), 0);
    assert_eq!(a.listener.stale(Priority::High), 0);
    assert_eq!(unowned.run(), RunOutcome::Cancelled);
    assert_eq!(unowned_handle.join(), Err(JoinError::Cancelled));
    assert_eq!(ran.load(Ordering::SeqCst), 0);
}

#[test]
fn a_drain_or_a_drop_of_a_told_entry_counts_nothing() {
    let pool = Pool::new();
    let (drained, drained_handle) = Job::new(|| 1);
    let (dropped, dropped_handle) = Job::new(|| 2);
    pool.accept(&drained, Priority::Normal);
    pool.accept(&dropped, Priority::Normal);
    assert!(drained_handle.cancel());
    assert!(dropped_handle.cancel());
    assert_eq!(pool.listener.stale(Priority::Normal), 2);
    assert_eq!(drained.discard(), Discarded::Stale);
    drop(dropped);
    assert_eq!(pool.listener.stale(Priority::Normal), 0);
    assert_eq!(pool.listener.cancelled(Priority::Normal), 2);
    assert_eq!(drained_handle.join(), Err(JoinError::Cancelled));
    assert_eq!(dropped_handle.join(), Err(JoinError::Cancelled));
}

#[test]
fn an_executor_gone_from_the_registry_is_not_told() {
    let pool = Pool::new();
    let (job, handle) = Job::new(|| 1);
    pool.accept(&job, Priority::Normal);
    let listener = pool.listener.clone();
    drop(pool); // deregisters
    assert!(handle.cancel());
    assert_eq!(listener.cancelled(Priority::Normal), 0);
    assert_eq!(job.run(), RunOutcome::Cancelled, "the entry counts it");
}

#[test]
fn a_panic_in_a_captures_drop_during_a_token_cancel_is_contained() {
    struct Bomb;
    impl Drop for Bomb {
        fn drop(&mut self) {
            panic!("a capture's drop panics");
        }
    }
    let token = CancellationToken::new();
    let (ran, drops) = (Arc::default(), Arc::default());
    let (bomb_job, bomb_handle) = Job::cancellable(&token, |_| {
        let _bomb = Bomb;
    });
    let others: Vec<_> = (0..3).map(|_| counted_job(&token, &ran, &drops)).collect();
    let unwound = crate::tests::quiet_panics(|| catch_unwind(AssertUnwindSafe(|| token.cancel())));
    assert!(unwound.is_ok(), "cancel does not unwind");
    assert_eq!(bomb_handle.status(), TaskStatus::Cancelled);
    assert_eq!(drops.load(Ordering::SeqCst), 3);
    for (job, handle) in others {
        assert_eq!(handle.status(), TaskStatus::Cancelled);
        drop(job);
    }
    drop(bomb_job);
    assert_eq!(bomb_handle.join(), Err(JoinError::Cancelled));
}

#[test]
fn a_captures_drop_may_cancel_the_same_token_and_spawn_with_it() {
    type Made = Arc<Mutex<Vec<(Job, JoinHandle<()>)>>>;
    struct Reenter {
        token: CancellationToken,
        made: Made,
    }
    impl Drop for Reenter {
        fn drop(&mut self) {
            self.token.cancel();
            let made = Job::cancellable(&self.token, |_| {});
            self.made.lock().unwrap().push(made);
        }
    }
    let token = CancellationToken::new();
    let made = Arc::new(Mutex::new(Vec::new()));
    let (job, handle) = {
        let reenter = Reenter {
            token: token.clone(),
            made: made.clone(),
        };
        Job::cancellable(&token, move |_| drop(reenter))
    };
    token.cancel();
    assert_eq!(handle.status(), TaskStatus::Cancelled);
    let (late, late_handle) = made.lock().unwrap().pop().unwrap();
    // Made with a cancelled token: not listed, skipped when it starts.
    assert_eq!(token.queued_tasks(), 0);
    assert_eq!(late.run(), RunOutcome::Cancelled);
    assert_eq!(late_handle.join(), Err(JoinError::Cancelled));
    drop(job);
}

#[test]
fn a_cancelled_task_whose_handle_and_job_are_gone_is_freed_by_whoever_is_last() {
    // The handle goes first, then the token cancels (and so frees the
    // cell itself, or leaves it to the job), then the job goes: miri's leak
    // checker and use-after-free checks watch every order.
    let token = CancellationToken::new();
    let (ran, drops) = (Arc::default(), Arc::default());
    let (job, handle) = counted_job(&token, &ran, &drops);
    drop(handle);
    token.cancel();
    assert_eq!(job.run(), RunOutcome::Cancelled);
    let (job, handle) = counted_job(&token, &ran, &drops);
    drop(handle);
    drop(job);
    assert_eq!(drops.load(Ordering::SeqCst), 2);
    // Each cell holds a reference to the token until it is freed.
    assert_eq!(token.references(), 1, "both cells were freed");
}

#[test]
fn a_token_cancelled_while_its_jobs_run_on_other_threads_ends_each_task_once() {
    rt_testkit::without_hanging(|| {
        let rounds = if cfg!(miri) { 3 } else { 200 };
        for _ in 0..rounds {
            let pool = Arc::new(Pool::new());
            let token = CancellationToken::new();
            let (ran, drops) = (Arc::new(AtomicUsize::new(0)), Arc::default());
            let n = if cfg!(miri) { 4 } else { 16 };
            let mut jobs = Vec::new();
            let mut handles = Vec::new();
            for i in 0..n {
                let (job, handle) = counted_job(&token, &ran, &drops);
                pool.accept(&job, Priority::ALL[i % 3]);
                jobs.push(job);
                // Half of the handles are dropped at once.
                if i % 2 == 0 {
                    handles.push(handle);
                }
            }
            let runner = {
                let pool = pool.clone();
                thread::spawn(move || {
                    let outcomes: Vec<RunOutcome> = jobs.into_iter().map(|job| job.run()).collect();
                    drop(pool);
                    outcomes
                })
            };
            token.cancel();
            let outcomes = runner.join().unwrap();
            let counted_by_runner = outcomes.iter().filter(|o| **o != RunOutcome::Stale).count();
            // A job the runner took after the token was cancelled, before
            // the canceller reached it, is the runner's to count.
            let cancelled_by_runner = outcomes
                .iter()
                .filter(|o| **o == RunOutcome::Cancelled)
                .count();
            let told: usize = Priority::ALL
                .iter()
                .map(|p| pool.listener.cancelled(*p))
                .sum();
            assert_eq!(counted_by_runner + told, n, "every task counted once");
            for p in Priority::ALL {
                assert_eq!(pool.listener.stale(p), 0);
            }
            let ran = ran.load(Ordering::SeqCst);
            assert_eq!(
                ran + told + cancelled_by_runner,
                n,
                "a task runs, or is cancelled by the token's canceller or by the runner that saw the token cancelled"
            );
            for handle in handles {
                match handle.join() {
                    Ok(()) | Err(JoinError::Cancelled) => {}
                    Err(other) => panic!("{other}"),
                }
            }
            assert_eq!(drops.load(Ordering::SeqCst), n);
            assert_eq!(token.queued_tasks(), 0);
        }
    })
}

#[test]
fn two_threads_cancelling_one_token_both_return_with_every_task_cancelled() {
    rt_testkit::without_hanging(|| {
        let rounds = if cfg!(miri) { 2 } else { 100 };
        for _ in 0..rounds {
            let token = CancellationToken::new();
            let (ran, drops) = (Arc::new(AtomicUsize::new(0)), Arc::default());
            let n = if cfg!(miri) { 70 } else { 300 };
            let (jobs, handles): (Vec<_>, Vec<_>) =
                (0..n).map(|_| counted_job(&token, &ran, &drops)).unzip();
            let handles = Arc::new(handles);
            let other = {
                let (token, handles) = (token.clone(), handles.clone());
                thread::spawn(move || {
                    token.cancel();
                    handles.iter().all(|h| h.status() == TaskStatus::Cancelled)
                })
            };
            token.cancel();
            assert!(handles.iter().all(|h| h.status() == TaskStatus::Cancelled));
            assert!(other.join().unwrap());
            for job in jobs {
                assert_eq!(job.run(), RunOutcome::Cancelled);
            }
            for handle in Arc::try_unwrap(handles).ok().unwrap() {
                assert_eq!(handle.join(), Err(JoinError::Cancelled));
            }
            assert_eq!(drops.load(Ordering::SeqCst), n);
            assert_eq!(ran.load(Ordering::SeqCst), 0);
        }
    })
}

#[test]
fn a_joiner_parked_on_a_task_is_woken_by_its_tokens_cancel() {
    rt_testkit::without_hanging(|| {
        let token = CancellationToken::new();
        let (job, handle) = Job::cancellable(&token, |_| 5);
        let joiner = thread::spawn(move || handle.join());
        thread::sleep(std::time::Duration::from_millis(if cfg!(miri) {
            1
        } else {
            20
        }));
        token.cancel();
        assert_eq!(joiner.join().unwrap(), Err(JoinError::Cancelled));
        drop(job);
    })
}
