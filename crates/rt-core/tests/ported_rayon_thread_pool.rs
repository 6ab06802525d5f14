//! rayon-core's own thread-pool tests (`rayon-core/src/thread_pool/test.rs`,
//! `rayon-core/src/test.rs`, `rayon-core/tests/init_zero_threads.rs`,
//! `rayon-core/tests/stack_overflow_crash.rs`' large-stack half), ported:
//! `ThreadPool` is `Runtime`, `start_handler`/`exit_handler` are
//! `before_worker_start`/`after_worker_stop`, `current_thread_index` is
//! `current_thread_index`, and rayon's registry's "workers stopped" is the
//! `after_worker_stop` count once the runtime is dropped.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Barrier, Mutex};
use std::time::Duration;

use rt_core::{current_thread_index, BuildError, Runtime};
use support::{quietly, without_hanging};

fn counter() -> (Arc<AtomicUsize>, impl Fn(usize) + Send + Sync + 'static) {
    let count = Arc::new(AtomicUsize::new(0));
    let c = count.clone();
    (count, move |_| {
        c.fetch_add(1, Ordering::SeqCst);
    })
}

fn join_a_lot(n: usize) {
    if n > 0 {
        rt_core::join(|| join_a_lot(n - 1), || join_a_lot(n - 1));
    }
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_install_propagates_to_the_caller() {
    without_hanging(|| {
        let rt = Runtime::builder().build().unwrap();
        quietly(|| rt.install(|| panic!("Hello, world!")));
    });
}

#[test]
fn every_worker_stops_once_a_runtime_that_did_work_is_dropped() {
    without_hanging(|| {
        let (stopped, on_stop) = counter();
        {
            let rt = Runtime::builder()
                .threads(22)
                .after_worker_stop(on_stop)
                .build()
                .unwrap();
            rt.install(|| join_a_lot(16));
            assert_eq!(rt.threads(), 22);
        }
        assert_eq!(stopped.load(Ordering::SeqCst), 22);
    });
}

#[test]
fn every_sleeping_worker_stops_once_the_runtime_is_dropped() {
    without_hanging(|| {
        let (stopped, on_stop) = counter();
        {
            let _rt = Runtime::builder()
                .threads(22)
                .after_worker_stop(on_stop)
                .build()
                .unwrap();
            std::thread::sleep(Duration::from_secs(1));
        }
        assert_eq!(stopped.load(Ordering::SeqCst), 22);
    });
}

#[test]
fn a_stack_the_os_refuses_is_a_build_error_and_started_workers_stop_again() {
    without_hanging(|| {
        let (started, on_start) = counter();
        let (stopped, on_stop) = counter();
        let built = Runtime::builder()
            .threads(10)
            .stack_size(isize::MAX as usize)
            .before_worker_start(on_start)
            .after_worker_stop(on_stop)
            .build();
        assert!(matches!(built, Err(BuildError::Spawn { .. })));
        let started = started.load(Ordering::SeqCst);
        assert!(started <= 1);
        assert_eq!(started, stopped.load(Ordering::SeqCst));
    });
}

#[test]
fn install_from_inside_the_same_one_worker_runtime_runs_inline() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        assert!(rt.install(|| rt.install(|| true)));
    });
}

#[test]
fn mutual_installs_between_two_one_worker_runtimes_complete() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        assert!(a.install(|| b.install(|| a.install(|| true))));
    });
}

#[test]
fn mutual_installs_complete_when_each_runtime_had_time_to_fall_asleep() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let ok = a.install(|| {
            b.install(|| {
                std::thread::sleep(Duration::from_secs(1));
                a.install(|| {
                    std::thread::sleep(Duration::from_secs(1));
                    true
                })
            })
        });
        assert!(ok);
    });
}

#[test]
fn a_runtime_of_22_workers_reports_22_threads() {
    without_hanging(|| {
        let rt = Runtime::builder().threads(22).build().unwrap();
        assert_eq!(rt.threads(), 22);
        assert_eq!(rt.stats().threads, 22);
    });
}

#[test]
fn on_one_worker_scope_tasks_spawned_by_the_body_run_newest_first() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let vec = rt.install(|| {
            let vec = Mutex::new(vec![]);
            rt.scope(|s| {
                let vec = &vec;
                for i in 0..10 {
                    s.spawn(move || vec.lock().unwrap().push(i));
                }
            });
            vec.into_inner().unwrap()
        });
        assert_eq!(vec, (0..10).rev().collect::<Vec<i32>>());
    });
}

#[test]
fn on_one_worker_tasks_spawned_inside_install_run_newest_first() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let (tx, rx) = channel();
        rt.install(|| {
            for i in 0..10 {
                let tx = tx.clone();
                rt.spawn(move || tx.send(i).unwrap());
            }
        });
        drop(tx);
        assert_eq!(
            rx.iter().collect::<Vec<i32>>(),
            (0..10).rev().collect::<Vec<_>>()
        );
    });
}

/// One scope open on each of ten one-worker runtimes, nested, and a task
/// spawned into every one of them from the innermost body (which runs on
/// the last runtime's worker). rayon passes the scopes down in a `Vec`;
/// std's two-lifetime `Scope` makes each level's `'scope` distinct, so
/// each level passes down a closure that spawns into its scope.
fn nest<'a>(
    runtimes: &[Runtime],
    spawners: Vec<&'a (dyn Fn() + Sync + 'a)>,
    counter: &AtomicUsize,
) {
    match runtimes.split_first() {
        Some((rt, tail)) => rt.scope(|s| {
            let here = || {
                s.spawn(|| {
                    counter.fetch_add(1, Ordering::Relaxed);
                });
            };
            let mut spawners: Vec<&(dyn Fn() + Sync)> = spawners;
            spawners.push(&here);
            nest(tail, spawners, counter);
        }),
        None => spawners.iter().for_each(|spawn| spawn()),
    }
}

#[test]
fn scopes_nested_across_ten_runtimes_each_run_a_task_spawned_from_the_innermost() {
    without_hanging(|| {
        let runtimes: Vec<Runtime> = (0..10).map(|_| Runtime::new(1).unwrap()).collect();
        let counter = AtomicUsize::new(0);
        nest(&runtimes, vec![], &counter);
        assert_eq!(counter.into_inner(), runtimes.len());
    });
}

#[test]
fn a_sequential_scope_off_the_pool_lets_its_body_wait_for_its_task() {
    without_hanging(|| {
        let (tx, rx) = channel();
        let rx = &rx;
        rt_core::scope(move |s| {
            s.spawn(move || tx.send(()).unwrap());
            rx.recv().unwrap();
        });
    });
}

#[test]
fn a_scope_body_may_wait_for_its_own_task_on_a_two_worker_runtime() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (tx, rx) = channel();
        let rx = Mutex::new(rx);
        let rx = &rx;
        rt.scope(move |s| {
            s.spawn(move || tx.send(()).unwrap());
            rx.lock().unwrap().recv().unwrap();
        });
    });
}

#[test]
fn current_thread_index_is_none_outside_and_below_the_thread_count_inside() {
    without_hanging(|| {
        let rt = Runtime::builder().threads(22).build().unwrap();
        assert_eq!(current_thread_index(), None);
        let index = rt.install(|| current_thread_index().unwrap());
        assert!(index < 22);
    });
}

#[test]
fn build_returns_before_the_start_hooks_finish_and_every_worker_runs_its_hook() {
    without_hanging(|| {
        let n = 16;
        let called = Arc::new(AtomicUsize::new(0));
        let barrier = Arc::new(Barrier::new(n + 1));
        let (b, c) = (barrier.clone(), called.clone());
        let _rt = Runtime::builder()
            .threads(n)
            .before_worker_start(move |_| {
                c.fetch_add(1, Ordering::SeqCst);
                b.wait();
            })
            .build()
            .unwrap();
        barrier.wait();
        assert_eq!(called.load(Ordering::SeqCst), n);
    });
}

#[test]
fn every_worker_runs_its_exit_hook_before_drop_returns() {
    without_hanging(|| {
        let n = 16;
        let (stopped, on_stop) = counter();
        drop(
            Runtime::builder()
                .threads(n)
                .after_worker_stop(on_stop)
                .build()
                .unwrap(),
        );
        assert_eq!(stopped.load(Ordering::SeqCst), n);
    });
}

/// rayon's `exit_callback_called` verbatim: the exit hooks wait on a
/// barrier with the thread that dropped the pool. rayon's drop does not
/// wait for its workers; `Runtime`'s drop joins them (documented), so the
/// hooks wait for a thread that waits for them.
#[test]
#[ignore = "intentional difference: dropping a Runtime joins its workers, so exit hooks must not wait for the dropping thread"]
fn exit_hooks_may_wait_for_the_thread_that_dropped_the_runtime() {
    without_hanging(|| {
        let n = 16;
        let called = Arc::new(AtomicUsize::new(0));
        let barrier = Arc::new(Barrier::new(n + 1));
        let (b, c) = (barrier.clone(), called.clone());
        drop(
            Runtime::builder()
                .threads(n)
                .after_worker_stop(move |_| {
                    c.fetch_add(1, Ordering::SeqCst);
                    b.wait();
                })
                .build()
                .unwrap(),
        );
        barrier.wait();
        assert_eq!(called.load(Ordering::SeqCst), n);
    });
}

#[test]
fn panicking_start_and_exit_hooks_are_counted_and_never_reach_the_panic_handler() {
    without_hanging(|| {
        let n = 16;
        let handled = Arc::new(AtomicUsize::new(0));
        let h = handled.clone();
        let rt = quietly(|| {
            let rt = Runtime::builder()
                .threads(n)
                .before_worker_start(|_| panic!("ensure panic handler is called when starting"))
                .after_worker_stop(|_| panic!("ensure panic handler is called when exiting"))
                .panic_handler(move |_, _| {
                    h.fetch_add(1, Ordering::SeqCst);
                })
                .build()
                .unwrap();
            assert_eq!(rt.spawn(|| 5).join(), Ok(5));
            rt.shutdown();
            rt
        });
        assert_eq!(rt.metrics().hook_panics, 2 * n as u64);
        assert_eq!(handled.load(Ordering::SeqCst), 0);
    });
}

#[test]
fn every_builder_method_can_be_chained_and_built() {
    without_hanging(|| {
        Runtime::builder()
            .thread_name("thread_name")
            .threads(5)
            .panic_handler(|_, _| {})
            .stack_size(4_000_000)
            .before_worker_start(|_| {})
            .after_worker_stop(|_| {})
            .before_task(|_| {})
            .after_task(|_| {})
            .queue_capacity(10)
            .record_latency(true)
            .measure_cpu_time(true)
            .move_stacked_wakes(true)
            .build()
            .unwrap();
    });
}

#[test]
fn a_default_builder_and_a_default_runtime_build() {
    without_hanging(|| {
        rt_core::Builder::default().build().unwrap();
        let rt = Runtime::default();
        assert_eq!(rt.spawn(|| 1).join(), Ok(1));
    });
}

#[test]
fn a_build_error_is_send_and_sync() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<BuildError>();
}

#[test]
fn zero_threads_is_an_error_not_a_default_sized_runtime() {
    without_hanging(|| {
        // rayon takes `num_threads(0)` as "pick for me"; here it is refused.
        assert!(matches!(
            Runtime::builder().threads(0).build(),
            Err(BuildError::ZeroThreads)
        ));
    });
}

fn force_stack_overflow(depth: u32) {
    let mut buffer = [0u8; 1024 * 1024];
    std::hint::black_box(&mut buffer);
    if depth > 0 {
        force_stack_overflow(depth - 1);
    }
}

#[test]
fn a_large_configured_stack_holds_32_mib_of_frames() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .stack_size(48 * 1024 * 1024)
            .build()
            .unwrap();
        rt.install(|| force_stack_overflow(32));
    });
}

thread_local! {
    static LOCAL: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
}

/// `rayon-core/tests/scoped_threadpool.rs`' `missing_scoped_tls`: a
/// thread-local set by the caller is not what the closure sees on a worker.
#[test]
fn a_thread_local_set_by_the_caller_is_not_set_inside_install() {
    without_hanging(|| {
        LOCAL.with(|l| l.set(42));
        let rt = Runtime::new(2).unwrap();
        assert_eq!(rt.install(|| LOCAL.with(|l| l.get())), 0);
        assert_eq!(LOCAL.with(|l| l.get()), 42);
    });
}

/// The small-stack half of `rayon-core/tests/stack_overflow_crash.rs`: a
/// worker whose stack is too small for its task stops the process (Rust's
/// guard page), never silently. Run in a child process.
#[test]
fn a_task_overflowing_a_small_worker_stack_stops_the_process_in_a_child() {
    if std::env::var_os("RT_OVERFLOW_CHILD").is_some() {
        let rt = Runtime::builder()
            .threads(1)
            .stack_size(8 * 1024 * 1024)
            .build()
            .unwrap();
        rt.install(|| force_stack_overflow(32));
        return;
    }
    without_hanging(|| {
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "a_task_overflowing_a_small_worker_stack_stops_the_process_in_a_child",
                "--nocapture",
            ])
            .env("RT_OVERFLOW_CHILD", "1")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(!status.success());
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert!(matches!(status.signal(), Some(6) | Some(11)), "{status:?}");
        }
    });
}
