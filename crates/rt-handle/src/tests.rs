//! Unit tests of the task cell through its public faces.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use crate::raw::{Awaited, JobControl};
use crate::{CancellationToken, Executor, Job, JoinError, Priority, RunOutcome, TaskStatus};

pub(crate) fn quiet_panics<R>(f: impl FnOnce() -> R) -> R {
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = f();
    std::panic::set_hook(prev);
    r
}

#[test]
fn a_run_job_delivers_its_value_to_the_handle() {
    let (job, handle) = Job::new(|| String::from("done"));
    assert_eq!(handle.status(), TaskStatus::Queued);
    assert!(!handle.is_finished());
    assert_eq!(job.run(), RunOutcome::Completed);
    assert!(handle.is_finished());
    assert_eq!(handle.status(), TaskStatus::Finished);
    assert_eq!(handle.join().unwrap(), "done");
}

#[test]
fn join_parks_until_another_thread_runs_the_job() {
    rt_testkit::without_hanging(|| {
        let (job, handle) = Job::new(|| 7);
        let runner = thread::spawn(move || {
            thread::sleep(Duration::from_millis(20));
            job.run()
        });
        assert_eq!(handle.join(), Ok(7));
        assert_eq!(runner.join().unwrap(), RunOutcome::Completed);
    })
}

#[test]
fn a_panicking_body_becomes_a_panicked_error_with_its_message() {
    let (job, handle) = Job::new(|| -> () { panic!("bad input {}", 3) });
    assert_eq!(quiet_panics(|| job.run()), RunOutcome::Panicked);
    assert_eq!(handle.status(), TaskStatus::Panicked);
    assert_eq!(
        handle.join(),
        Err(JoinError::Panicked("bad input 3".into()))
    );
}

#[test]
fn a_dropped_job_rejects_its_handle_instead_of_leaving_it_waiting() {
    let (job, handle) = Job::new(|| 1);
    drop(job);
    assert_eq!(handle.status(), TaskStatus::Rejected);
    assert_eq!(handle.join(), Err(JoinError::Rejected));
}

#[test]
fn a_task_cancelled_while_queued_never_runs() {
    let ran = Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    let (job, handle) = Job::new(move || r.fetch_add(1, Ordering::SeqCst));
    assert!(handle.cancel());
    assert!(
        !handle.cancel(),
        "cancelling twice reports the second as a no-op"
    );
    assert_eq!(job.run(), RunOutcome::Cancelled);
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert_eq!(handle.join(), Err(JoinError::Cancelled));
}

#[test]
fn cancel_after_completion_changes_nothing() {
    let (job, handle) = Job::new(|| 5);
    job.run();
    assert!(!handle.cancel());
    assert_eq!(handle.join(), Ok(5));
}

#[test]
fn a_cancelled_token_skips_the_body_and_an_unrelated_token_does_not() {
    let cancelled = CancellationToken::new();
    let other = CancellationToken::new();
    let (skipped, skipped_handle) = Job::cancellable(&cancelled, |_| 1);
    let (runs, runs_handle) = Job::cancellable(&other, |ctx| ctx.is_cancelled());
    cancelled.cancel();
    assert_eq!(skipped.run(), RunOutcome::Cancelled);
    assert_eq!(runs.run(), RunOutcome::Completed);
    assert_eq!(skipped_handle.join(), Err(JoinError::Cancelled));
    assert_eq!(runs_handle.join(), Ok(false));
}

#[test]
fn a_result_whose_drop_panics_does_not_unwind_out_of_run() {
    struct Bomb;
    impl Drop for Bomb {
        fn drop(&mut self) {
            panic!("result drop");
        }
    }
    let (job, handle) = Job::new(|| Bomb);
    drop(handle); // detached: the runner drops the result
    assert_eq!(quiet_panics(|| job.run()), RunOutcome::Completed);
}

#[test]
fn captures_whose_drop_panics_do_not_unwind_out_of_cancel() {
    struct Bomb;
    impl Drop for Bomb {
        fn drop(&mut self) {
            panic!("capture drop");
        }
    }
    let bomb = Bomb;
    let (job, handle) = Job::new(move || drop(bomb));
    assert!(quiet_panics(|| job.cancel()));
    assert_eq!(handle.join(), Err(JoinError::Cancelled));
}

#[test]
fn detached_tasks_still_run() {
    let ran = Arc::new(AtomicUsize::new(0));
    let r = ran.clone();
    let (job, handle) = Job::new(move || r.fetch_add(1, Ordering::SeqCst));
    drop(handle);
    assert_eq!(job.run(), RunOutcome::Completed);
    assert_eq!(ran.load(Ordering::SeqCst), 1);
}

/// An executor that refuses everything, as a shut-down pool does.
struct Closed;

impl Executor for Closed {
    fn submit(&self, _: Priority, job: Job) -> Result<(), Job> {
        Err(job)
    }
}

#[test]
fn spawning_on_an_executor_that_refuses_yields_rejected_at_once() {
    assert_eq!(Closed.spawn(|| 1).join(), Err(JoinError::Rejected));
    let token = CancellationToken::new();
    let h = Closed.spawn_cancellable(Priority::High, &token, |_| 1);
    assert_eq!(h.join(), Err(JoinError::Rejected));
}

#[test]
fn many_threads_joining_many_tasks_each_get_their_own_value() {
    rt_testkit::without_hanging(|| {
        let mut jobs = Vec::new();
        let mut handles = Vec::new();
        for i in 0..1_000 {
            let (job, handle) = Job::new(move || i * 2);
            jobs.push(job);
            handles.push((i, handle));
        }
        let runner = thread::spawn(move || {
            for job in jobs {
                job.run();
            }
        });
        for (i, handle) in handles {
            assert_eq!(handle.join(), Ok(i * 2));
        }
        runner.join().unwrap();
    })
}

/// Tasks per leak test: few under miri (whose leak checker runs on this
/// crate: a cell never freed is a leak, one freed twice is undefined
/// behaviour), enough elsewhere to hit every order of letting go.
const LEAK_TEST_TASKS: usize = if cfg!(miri) { 40 } else { 2_000 };

/// Counts the live values of one test, so that a test can tell that every
/// task's result (and so its allocation's contents) was dropped.
struct Live(Arc<AtomicUsize>);

impl Live {
    fn new(count: &Arc<AtomicUsize>) -> Self {
        count.fetch_add(1, Ordering::Relaxed);
        Live(count.clone())
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

#[test]
fn handles_dropped_while_their_tasks_run_leave_nothing_behind() {
    rt_testkit::without_hanging(|| {
        let live = Arc::new(AtomicUsize::new(0));
        let mut jobs = Vec::new();
        let mut handles = Vec::new();
        for i in 0..LEAK_TEST_TASKS {
            let count = live.clone();
            let (job, handle) = Job::new(move || Live::new(&count));
            jobs.push(job);
            handles.push((i, handle));
        }
        let runner = thread::spawn(move || {
            for job in jobs {
                assert_eq!(job.run(), RunOutcome::Completed);
            }
        });
        for (i, handle) in handles {
            // Some before their task runs, some while, some after; every
            // third is joined instead.
            if i % 3 == 0 {
                drop(handle.join().unwrap());
            } else {
                drop(handle);
            }
        }
        runner.join().unwrap();
        assert_eq!(live.load(Ordering::Relaxed), 0, "every result was dropped");
    })
}

#[test]
fn jobs_dropped_unrun_while_their_handles_go_leave_nothing_behind() {
    rt_testkit::without_hanging(|| {
        let live = Arc::new(AtomicUsize::new(0));
        let mut jobs = Vec::new();
        let mut handles = Vec::new();
        for _ in 0..LEAK_TEST_TASKS {
            let capture = Live::new(&live);
            let (job, handle) = Job::new(move || drop(capture));
            jobs.push(job);
            handles.push(handle);
        }
        let queue = thread::spawn(move || drop(jobs));
        for (i, handle) in handles.into_iter().enumerate() {
            if i % 2 == 0 {
                assert!(matches!(handle.join(), Err(JoinError::Rejected)));
            } else {
                drop(handle);
            }
        }
        queue.join().unwrap();
        assert_eq!(live.load(Ordering::Relaxed), 0, "every capture was dropped");
    })
}

#[test]
fn a_task_of_a_scope_may_be_awaited_after_its_handle_is_gone() {
    struct Scope(AtomicUsize);
    impl crate::raw::ScopeCompletion for Scope {
        fn task_completed(&self, _unjoined_panic: Option<Box<dyn std::any::Any + Send>>) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
        fn handle_dropped_a_panic(&self, _payload: Box<dyn std::any::Any + Send>) {}
    }
    let scope = Scope(AtomicUsize::new(0));
    // SAFETY: the job runs below, before `scope` goes out of scope.
    let (job, handle) = unsafe { Job::scoped(&scope, || 1) };
    drop(handle);
    // The scope's end still waits for it.
    assert!(matches!(job.awaited(), Awaited::InScope(_)));
    assert_eq!(job.run(), RunOutcome::Completed);
    assert_eq!(scope.0.load(Ordering::Relaxed), 1);
}

#[test]
fn a_task_that_panics_with_a_non_string_payload_gives_that_payload_to_its_joiner() {
    #[derive(Debug, PartialEq)]
    struct Overheated {
        celsius: u16,
    }
    let (job, handle) = Job::new(|| std::panic::panic_any(Overheated { celsius: 413 }));
    assert_eq!(quiet_panics(|| job.run()), RunOutcome::Panicked);
    let error = handle.join().unwrap_err();
    assert_eq!(error, JoinError::Panicked(crate::NON_STRING_PAYLOAD.into()));
    let payload = error.into_panic();
    assert_eq!(
        payload.downcast_ref::<Overheated>(),
        Some(&Overheated { celsius: 413 })
    );
}

#[test]
fn dropping_a_handle_whose_finished_output_panics_in_drop_neither_unwinds_nor_leaks_the_task() {
    struct PanicsInDrop;
    impl Drop for PanicsInDrop {
        fn drop(&mut self) {
            panic!("output drop");
        }
    }
    let (job, handle) = Job::new(|| PanicsInDrop);
    assert_eq!(job.run(), RunOutcome::Completed);
    assert!(handle.is_finished());
    // Miri's leak checker sees the task's allocation freed.
    let dropped = quiet_panics(|| std::panic::catch_unwind(AssertUnwindSafe(|| drop(handle))));
    assert!(dropped.is_ok(), "the output's panic reached the dropper");
}

#[test]
fn dropping_an_unjoined_panic_whose_payload_panics_in_drop_neither_unwinds_nor_leaks_the_task() {
    struct PanicsInDrop;
    impl Drop for PanicsInDrop {
        fn drop(&mut self) {
            panic!("payload drop");
        }
    }
    let (job, handle) = Job::new(|| std::panic::panic_any(PanicsInDrop));
    assert_eq!(quiet_panics(|| job.run()), RunOutcome::Panicked);
    let dropped = quiet_panics(|| std::panic::catch_unwind(AssertUnwindSafe(|| drop(handle))));
    assert!(dropped.is_ok(), "the payload's panic reached the dropper");
}

mod thin_pointers {
    //! A queue entry and a handle are one pointer each: a queue can hold a
    //! job in one word, and take it back through a bare pointer.

    use std::future::Future;
    use std::mem::size_of;
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};

    use super::*;
    use crate::{JoinHandle, ScopedJoinHandle};

    #[test]
    fn a_job_and_its_handles_are_one_pointer_each() {
        assert_eq!(size_of::<Job>(), size_of::<usize>());
        assert_eq!(size_of::<Option<Job>>(), size_of::<usize>());
        assert_eq!(size_of::<JoinHandle<[u64; 8]>>(), size_of::<usize>());
        assert_eq!(
            size_of::<ScopedJoinHandle<'_, String>>(),
            size_of::<usize>()
        );
        assert_eq!(size_of::<crate::raw::TaskRef<'_>>(), size_of::<usize>());
    }

    #[test]
    fn a_job_turned_into_a_bare_pointer_and_back_runs_once() {
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let (job, handle) = Job::new(move || r.fetch_add(1, Ordering::SeqCst) + 10);
        let id = job.id();
        let raw = job.into_raw();
        assert_eq!(raw.cast::<u8>().addr().get(), id.get());
        // SAFETY: `raw` came from `into_raw` and is turned back once.
        let job = unsafe { Job::from_raw(raw) };
        assert_eq!(job.run(), RunOutcome::Completed);
        assert_eq!(handle.join(), Ok(10));
        assert_eq!(ran.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_detached_job_turned_into_a_bare_pointer_and_back_is_rejected_once_when_dropped() {
        let live = Arc::new(AtomicUsize::new(0));
        let capture = Live::new(&live);
        let job = Job::detached(move || drop(capture));
        // SAFETY: `raw` came from `into_raw` and is turned back once.
        let job = unsafe { Job::from_raw(job.into_raw()) };
        drop(job);
        assert_eq!(live.load(Ordering::Relaxed), 0, "the capture was dropped");
    }

    #[test]
    fn a_handle_awaited_to_completion_still_reports_how_its_task_ended() {
        let (job, mut handle) = Job::new(|| -> u8 { panic!("polled") });
        assert_eq!(quiet_panics(|| job.run()), RunOutcome::Panicked);
        let mut cx = Context::from_waker(Waker::noop());
        let ready = Pin::new(&mut handle).poll(&mut cx);
        assert_eq!(
            ready,
            Poll::Ready(Err(JoinError::Panicked("polled".into())))
        );
        assert!(handle.is_finished());
        assert_eq!(handle.status(), TaskStatus::Panicked);
        assert!(!handle.cancel(), "a finished task cannot be cancelled");
        let joined = quiet_panics(|| std::panic::catch_unwind(AssertUnwindSafe(|| handle.join())));
        assert!(
            joined.is_err(),
            "joining after Ready panics: the output is gone"
        );
    }
}

mod run_joined {
    //! `JobControl::run_joined`: a joiner that took its task's queue entry
    //! runs it without read-modify-writes; the handle then sees an
    //! ordinary completion and frees the cell.

    use super::*;
    use crate::raw::Joining;

    struct Counted(Arc<AtomicUsize>, u32);

    impl Drop for Counted {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn a_job_run_for_its_joiner_delivers_its_value_and_drops_its_captures_once() {
        let drops = Arc::new(AtomicUsize::new(0));
        let captured = Counted(drops.clone(), 21);
        let (job, handle) = Job::new(move || {
            let c = captured;
            c.1 * 2
        });
        assert_eq!(
            job.run_joined(Joining::new(handle.core()), None),
            RunOutcome::Completed
        );
        assert_eq!(handle.status(), TaskStatus::Finished);
        assert_eq!(handle.join(), Ok(42));
        assert_eq!(drops.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_panic_of_a_job_run_for_its_joiner_reaches_the_join() {
        let (job, handle) = Job::new(|| -> u8 { panic!("joined") });
        let outcome = quiet_panics(|| job.run_joined(Joining::new(handle.core()), None));
        assert_eq!(outcome, RunOutcome::Panicked);
        assert_eq!(handle.join(), Err(JoinError::Panicked("joined".into())));
    }

    #[test]
    fn a_job_cancelled_before_its_joiner_took_it_is_not_run() {
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let (job, handle) = Job::new(move || r.fetch_add(1, Ordering::SeqCst));
        assert!(handle.cancel());
        assert_eq!(
            job.run_joined(Joining::new(handle.core()), None),
            RunOutcome::Cancelled
        );
        assert_eq!(handle.join(), Err(JoinError::Cancelled));
        assert_eq!(ran.load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_scoped_job_run_for_its_joiner_tells_its_scope() {
        use crate::raw::ScopeCompletion;
        #[derive(Default)]
        struct Count(AtomicUsize);
        impl ScopeCompletion for Count {
            fn task_completed(&self, unjoined_panic: Option<Box<dyn std::any::Any + Send>>) {
                assert!(unjoined_panic.is_none());
                self.0.fetch_add(1, Ordering::SeqCst);
            }
            fn handle_dropped_a_panic(&self, _: Box<dyn std::any::Any + Send>) {}
        }
        let scope = Count::default();
        let value = 5;
        // SAFETY: the job runs below, while `scope` lives.
        let (job, handle) = unsafe { Job::scoped(&scope, || value + 1) };
        assert_eq!(
            job.run_joined(Joining::new(handle.core()), None),
            RunOutcome::Completed
        );
        assert_eq!(scope.0.load(Ordering::SeqCst), 1);
        assert_eq!(handle.join(), Ok(6));
    }

    #[test]
    #[should_panic(expected = "another task")]
    fn running_a_job_for_the_join_of_another_task_panics() {
        let (job, _handle) = Job::new(|| 1);
        let (_other_job, other) = Job::new(|| 2);
        job.run_joined(Joining::new(other.core()), None);
    }
}

/// `Job::scoped_detached`: a scope's task without a handle tells its scope
/// exactly once however it ends, after everything it owned was dropped
/// exactly once, with its panic's payload if it panicked.
mod scoped_detached {
    use std::any::Any;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    use crate::raw::{Discarded, JobControl, ScopeCompletion};
    use crate::{Job, RunOutcome};

    /// A scope that counts completions and keeps the panics' payloads.
    #[derive(Default)]
    struct Scope {
        completed: AtomicUsize,
        panics: Mutex<Vec<Box<dyn Any + Send>>>,
    }

    impl ScopeCompletion for Scope {
        fn task_completed(&self, unjoined_panic: Option<Box<dyn Any + Send>>) {
            if let Some(payload) = unjoined_panic {
                self.panics.lock().unwrap().push(payload);
            }
            self.completed.fetch_add(1, Ordering::SeqCst);
        }
        fn handle_dropped_a_panic(&self, _: Box<dyn Any + Send>) {
            unreachable!("a task without a handle has no handle to drop a panic");
        }
    }

    /// Counts its drops; the scope must hear of the task only after it.
    struct Capture<'a> {
        drops: &'a AtomicUsize,
        scope: &'a Scope,
    }

    impl Drop for Capture<'_> {
        fn drop(&mut self) {
            assert_eq!(
                self.scope.completed.load(Ordering::SeqCst),
                0,
                "the scope heard of the task before its captures were dropped"
            );
            self.drops.fetch_add(1, Ordering::SeqCst);
        }
    }

    fn quietly<R>(f: impl FnOnce() -> R) -> R {
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let result = f();
        std::panic::set_hook(hook);
        result
    }

    #[test]
    fn a_run_tells_the_scope_once_after_dropping_the_captures() {
        let (scope, drops, ran) = (Scope::default(), AtomicUsize::new(0), AtomicUsize::new(0));
        let capture = Capture {
            drops: &drops,
            scope: &scope,
        };
        // SAFETY: the job runs below, while `scope` lives.
        let job = unsafe {
            Job::scoped_detached(&scope, || {
                let _capture = capture;
                ran.fetch_add(1, Ordering::SeqCst);
            })
        };
        assert!(job.scope().is_some());
        assert_eq!(job.run(), RunOutcome::Completed);
        assert_eq!(ran.load(Ordering::SeqCst), 1);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(scope.completed.load(Ordering::SeqCst), 1);
        assert!(scope.panics.lock().unwrap().is_empty());
    }

    #[test]
    fn a_panic_goes_to_the_scope_with_its_payload_and_the_captures_are_dropped_once() {
        let (scope, drops) = (Scope::default(), AtomicUsize::new(0));
        let capture = Capture {
            drops: &drops,
            scope: &scope,
        };
        // SAFETY: the job runs below, while `scope` lives.
        let job = unsafe {
            Job::scoped_detached(&scope, move || {
                let _capture = capture;
                std::panic::panic_any(7_u8);
            })
        };
        let mut reported = false;
        let outcome = quietly(|| job.run_reporting(|_| reported = true));
        assert_eq!(outcome, RunOutcome::Panicked);
        assert!(
            !reported,
            "a scope's panic goes to the scope, not to the executor"
        );
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(scope.completed.load(Ordering::SeqCst), 1);
        let panics = scope.panics.lock().unwrap();
        assert_eq!(panics.len(), 1);
        assert_eq!(panics[0].downcast_ref::<u8>(), Some(&7));
    }

    #[test]
    fn a_rejected_job_drops_its_closure_once_and_tells_the_scope() {
        let (scope, drops) = (Scope::default(), AtomicUsize::new(0));
        let capture = Capture {
            drops: &drops,
            scope: &scope,
        };
        // SAFETY: the job is dropped below, while `scope` lives.
        let job = unsafe { Job::scoped_detached(&scope, move || drop(capture)) };
        drop(job);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(scope.completed.load(Ordering::SeqCst), 1);
        assert!(scope.panics.lock().unwrap().is_empty());
    }

    #[test]
    fn a_discarded_job_is_cancelled_and_tells_the_scope() {
        let (scope, drops) = (Scope::default(), AtomicUsize::new(0));
        let capture = Capture {
            drops: &drops,
            scope: &scope,
        };
        // SAFETY: the job is discarded below, while `scope` lives.
        let job = unsafe { Job::scoped_detached(&scope, move || drop(capture)) };
        assert_eq!(job.discard(), Discarded::Cancelled);
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(scope.completed.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_capture_whose_drop_panics_while_unwinding_is_contained() {
        struct Bomb;
        impl Drop for Bomb {
            fn drop(&mut self) {
                if !std::thread::panicking() {
                    panic!("drop");
                }
            }
        }
        let scope = Scope::default();
        let bomb = Bomb;
        // SAFETY: the job runs below, while `scope` lives.
        let job = unsafe {
            Job::scoped_detached(&scope, move || {
                let _bomb = bomb;
            })
        };
        // The closure returns, then its capture's drop panics: a panic of
        // the task, which goes to the scope.
        assert_eq!(quietly(|| job.run()), RunOutcome::Panicked);
        assert_eq!(scope.completed.load(Ordering::SeqCst), 1);
        assert_eq!(scope.panics.lock().unwrap().len(), 1);
    }
}
