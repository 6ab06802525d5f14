//! The global runtime: `rt_core::spawn`, `join` and `scope` called from a
//! thread that is not a worker run on it, as rayon's do, and
//! `build_global` configures it once, before first use.

mod support;

use std::sync::{Barrier, Once};

use rt_core::{BuildError, Priority, Runtime};
use support::{wait_until, without_hanging};

/// Every test of this binary configures the global runtime the same way
/// before anything uses it: two workers, so that the tests can ask for
/// parallelism whatever the machine has.
fn two_global_workers() {
    static CONFIGURED: Once = Once::new();
    CONFIGURED.call_once(|| {
        Runtime::builder()
            .threads(2)
            .thread_name("global-test")
            .build_global()
            .expect("the first build_global configures the global runtime");
    });
}

#[test]
fn spawn_from_main_runs_the_task_on_a_worker_of_the_global_runtime() {
    without_hanging(|| {
        two_global_workers();
        let name = rt_core::spawn(|| std::thread::current().name().map(str::to_owned));
        let name = name.join().unwrap().unwrap();
        assert!(name.starts_with("global-test-"), "{name}");
    });
}

#[test]
fn spawn_with_priority_from_main_runs_the_task() {
    without_hanging(|| {
        two_global_workers();
        let h = rt_core::spawn_with_priority(Priority::High, rt_core::current_thread_index);
        assert!(h.join().unwrap().is_some());
    });
}

#[test]
fn join_from_main_runs_both_halves_in_parallel_on_the_global_runtime() {
    without_hanging(|| {
        two_global_workers();
        // Each half waits for the other: they must run at the same time.
        let barrier = Barrier::new(2);
        let (a, b) = rt_core::join(
            || {
                barrier.wait();
                rt_core::current_thread_index()
            },
            || {
                barrier.wait();
                rt_core::current_thread_index()
            },
        );
        assert!(a.is_some() && b.is_some() && a != b, "{a:?} {b:?}");
    });
}

#[test]
fn scope_from_main_runs_its_tasks_in_parallel_on_the_global_runtime() {
    without_hanging(|| {
        two_global_workers();
        let barrier = Barrier::new(2);
        let mut seen = [None, None];
        let (first, second) = seen.split_at_mut(1);
        rt_core::scope(|s| {
            s.spawn(|| {
                barrier.wait();
                first[0] = rt_core::current_thread_index();
            });
            s.spawn(|| {
                barrier.wait();
                second[0] = rt_core::current_thread_index();
            });
        });
        assert!(seen.iter().all(Option::is_some), "{seen:?}");
    });
}

#[test]
fn scope_from_main_runs_its_body_on_the_calling_thread_and_needs_no_send() {
    without_hanging(|| {
        two_global_workers();
        // An `Rc` is not `Send`: a body that holds one still compiles.
        let here = std::rc::Rc::new(std::thread::current().id());
        let ran_here = rt_core::scope(|s| {
            let task = s.spawn(rt_core::current_thread_index);
            assert!(task.join().unwrap().is_some(), "the task ran on a worker");
            std::thread::current().id() == *here
        });
        assert!(ran_here);
    });
}

#[test]
fn current_num_threads_off_the_pool_answers_for_the_global_runtime() {
    without_hanging(|| {
        two_global_workers();
        assert_eq!(rt_core::current_num_threads(), 2);
        assert_eq!(rt_core::current_thread_index(), None);
        assert_eq!(Runtime::global().threads(), 2);
    });
}

#[test]
fn inside_a_runtime_the_free_functions_use_that_runtime() {
    without_hanging(|| {
        two_global_workers();
        let rt = Runtime::builder()
            .threads(3)
            .thread_name("own")
            .build()
            .unwrap();
        let (threads, spawned_on) = rt.install(|| {
            let name = rt_core::spawn(|| std::thread::current().name().map(str::to_owned));
            (
                rt_core::current_num_threads(),
                name.join().unwrap().unwrap(),
            )
        });
        assert_eq!(threads, 3);
        assert!(spawned_on.starts_with("own-"), "{spawned_on}");
    });
}

#[test]
fn a_second_build_global_is_refused() {
    without_hanging(|| {
        two_global_workers();
        let again = Runtime::builder().threads(1).build_global();
        assert!(matches!(again, Err(BuildError::GlobalAlreadyBuilt)));
        assert_eq!(
            Runtime::global().threads(),
            2,
            "the first configuration stays"
        );
    });
}

#[test]
fn the_global_runtime_reports_its_tasks_in_its_metrics() {
    without_hanging(|| {
        two_global_workers();
        let before = Runtime::global().metrics().completed;
        rt_core::spawn(|| ()).join().unwrap();
        // The worker counts the task just after its handle saw it finish.
        wait_until("the task is counted", || {
            Runtime::global().metrics().completed > before
        });
    });
}
