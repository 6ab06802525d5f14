//! Tasks that spawn tasks and join them, from inside the pool: the join
//! never deadlocks, runs an unstarted task inline, helps only with related
//! work, and every task is counted once.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use rt_core::{CancellationToken, JoinError, Priority, Runtime, TaskStatus};
use support::{quietly, without_hanging, Gate, Latch};

/// Fibonacci by spawning one half and computing the other, then joining.
fn fib(rt: &Arc<Runtime>, n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let inner = rt.clone();
    let h = rt.spawn(move || fib(&inner, n - 1));
    let b = fib(rt, n - 2);
    h.join().unwrap() + b
}

fn spawn_and_join_fib_is_right_on(workers: usize) {
    without_hanging(move || {
        let rt = Arc::new(Runtime::new(workers).unwrap());
        let inner = rt.clone();
        let n = if cfg!(miri) { 6 } else { 18 };
        assert_eq!(rt.spawn(move || fib(&inner, n)).join(), Ok(fib_seq(n)));
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed, "each task counted once: {m:?}");
    });
}

fn fib_seq(n: u64) -> u64 {
    (0..n).fold((0, 1), |(a, b), _| (b, a + b)).0
}

#[test]
fn fib_by_spawn_and_join_completes_on_one_worker() {
    spawn_and_join_fib_is_right_on(1);
}

#[test]
fn fib_by_spawn_and_join_completes_on_two_workers() {
    spawn_and_join_fib_is_right_on(2);
}

#[test]
fn a_joined_task_that_has_not_started_runs_on_the_joining_worker() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let gate = Gate::new();
        let (inner, g) = (rt.clone(), gate.clone());
        // Keep the other worker busy so nobody can steal the child.
        let started = Latch::new(1);
        let s = started.clone();
        let blocker = rt.spawn(move || {
            s.count_down();
            g.wait();
        });
        started.wait();
        let parent = rt.spawn(move || {
            let me = rt_core::current_thread_index();
            let child = inner.spawn(rt_core::current_thread_index);
            (me, child.join().unwrap())
        });
        let (parent_worker, child_worker) = parent.join().unwrap();
        assert_eq!(parent_worker, child_worker);
        gate.open();
        blocker.join().unwrap();
    });
}

#[test]
fn a_task_run_inline_by_its_joiner_is_counted_once_and_its_queue_entry_is_skipped() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let runs = Arc::new(AtomicUsize::new(0));
        let (inner, r) = (rt.clone(), runs.clone());
        rt.spawn(move || {
            // Spawned first and joined last: not at the top of the deque
            // when joined, so its entry stays queued after the joiner ran it.
            let first = {
                let r = r.clone();
                inner.spawn(move || r.fetch_add(1, Ordering::SeqCst))
            };
            let second = {
                let r = r.clone();
                inner.spawn(move || r.fetch_add(1, Ordering::SeqCst))
            };
            first.join().unwrap();
            second.join().unwrap();
        })
        .join()
        .unwrap();
        rt.shutdown();
        assert_eq!(runs.load(Ordering::SeqCst), 2, "each body ran once");
        let m = rt.metrics();
        assert_eq!((m.submitted, m.completed), (3, 3), "{m:?}");
    });
}

#[test]
fn a_join_never_runs_an_unrelated_task_that_needs_the_lock_the_joiner_holds() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let lock = Arc::new(Mutex::new(0));
        let (inner, l) = (rt.clone(), lock.clone());
        let holder = rt.spawn(move || {
            let mut guard = l.lock().unwrap();
            // An unrelated task that takes the same lock, queued from
            // outside this task (through another thread), before the join.
            let queued = {
                let (rt, l) = (inner.clone(), l.clone());
                thread::spawn(move || rt.spawn(move || *l.lock().unwrap() += 10))
                    .join()
                    .unwrap()
            };
            let child = inner.spawn(|| 1);
            *guard += child.join().unwrap(); // must not run `queued` here
            drop(guard);
            queued
        });
        let queued = holder.join().unwrap();
        queued.join().unwrap();
        assert_eq!(*lock.lock().unwrap(), 11);
    });
}

#[test]
fn a_chain_of_1500_spawns_each_joining_the_next_completes_on_one_worker() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        fn chain(rt: &Arc<Runtime>, left: usize) -> usize {
            if left == 0 {
                return 0;
            }
            let inner = rt.clone();
            rt.spawn(move || chain(&inner, left - 1)).join().unwrap() + 1
        }
        let depth = if cfg!(miri) { 20 } else { 1_500 };
        let inner = rt.clone();
        assert_eq!(rt.spawn(move || chain(&inner, depth)).join(), Ok(depth));
    });
}

#[test]
fn a_task_cancelled_before_it_started_is_never_run_by_its_joiner() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let ran = Arc::new(AtomicBool::new(false));
        let (inner, r) = (rt.clone(), ran.clone());
        let outcome = rt
            .spawn(move || {
                let child = inner.spawn(move || r.store(true, Ordering::SeqCst));
                assert!(child.cancel());
                child.join()
            })
            .join()
            .unwrap();
        assert_eq!(outcome, Err(JoinError::Cancelled));
        rt.shutdown();
        assert!(!ran.load(Ordering::SeqCst));
        let m = rt.metrics();
        assert_eq!((m.submitted, m.completed, m.cancelled), (2, 1, 1), "{m:?}");
    });
}

#[test]
fn a_task_whose_token_was_cancelled_is_reported_cancelled_to_its_joiner() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let outcome = rt
            .spawn(move || {
                let token = CancellationToken::new();
                let child = inner.spawn_cancellable(Priority::Normal, &token, |_| 5);
                token.cancel();
                child.join()
            })
            .join()
            .unwrap();
        assert_eq!(outcome, Err(JoinError::Cancelled));
    });
}

#[test]
fn a_panic_in_a_joined_child_reaches_the_joiner_and_the_worker_survives() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let outcome = quietly(|| {
            rt.spawn(move || inner.spawn(|| -> u8 { panic!("child failed") }).join())
                .join()
                .unwrap()
        });
        assert_eq!(outcome, Err(JoinError::Panicked("child failed".into())));
        assert_eq!(rt.spawn(|| 3).join(), Ok(3));
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!((m.submitted, m.completed, m.panicked), (3, 2, 1), "{m:?}");
    });
}

#[test]
fn joining_a_task_running_on_another_worker_waits_for_it() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let (started, release) = (Latch::new(1), Gate::new());
        let (s, g) = (started.clone(), release.clone());
        let running = rt.spawn(move || {
            s.count_down();
            g.wait();
            7
        });
        started.wait();
        let joiner = rt.spawn(move || running.join());
        thread::sleep(Duration::from_millis(20));
        assert!(!joiner.is_finished());
        release.open();
        assert_eq!(joiner.join(), Ok(Ok(7)));
    });
}

#[test]
fn joining_from_outside_the_pool_blocks_as_before() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (started, gate) = (Latch::new(1), Gate::new());
        let (s, g) = (started.clone(), gate.clone());
        let task = rt.spawn(move || {
            s.count_down();
            g.wait();
            "done"
        });
        started.wait();
        assert_eq!(task.status(), TaskStatus::Running);
        let opener = thread::spawn(move || {
            thread::sleep(Duration::from_millis(10));
            gate.open();
        });
        assert_eq!(task.join(), Ok("done"));
        opener.join().unwrap();
    });
}

#[test]
fn joining_a_task_of_another_runtime_from_inside_a_task_waits_without_running_it_here() {
    without_hanging(|| {
        let a = Arc::new(
            Runtime::builder()
                .threads(1)
                .thread_name("a")
                .build()
                .unwrap(),
        );
        let b = Runtime::builder()
            .threads(1)
            .thread_name("b")
            .build()
            .unwrap();
        let from_b = b.spawn(|| thread::current().name().map(str::to_owned));
        let joined = a.spawn(move || from_b.join()).join().unwrap();
        assert_eq!(joined, Ok(Some("b-0".to_owned())));
    });
}

#[test]
fn metrics_are_exact_after_shutdown_however_tasks_ran() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let inner = rt.clone();
        let n = if cfg!(miri) { 5 } else { 16 };
        let total = rt.spawn(move || fib(&inner, n)).join().unwrap();
        assert_eq!(total, fib_seq(n));
        rt.shutdown();
        let m = rt.metrics();
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
    });
}
