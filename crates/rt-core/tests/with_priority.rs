//! `with_priority`: the work an operation forks is queued at the priority
//! it names, on a worker and from any other thread; the priority ends with
//! the operation, even when it panics.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};

use rt_core::{current_thread_index, Priority, Runtime};
use support::{quietly, without_hanging};

/// The priorities the trace recorded for the tasks `op` forked, in start
/// order (`op` itself runs as an installed closure, not a task).
fn scope_task_priorities(rt: &Runtime, op: impl FnOnce() + Send) -> Vec<Priority> {
    assert!(rt.start_trace(1_000));
    rt.install(op);
    let trace = rt.stop_trace();
    let mut tasks: Vec<_> = trace.tasks.iter().collect();
    tasks.sort_by_key(|t| t.start_ns);
    tasks.iter().map(|t| t.priority).collect()
}

#[test]
fn scope_tasks_forked_inside_with_priority_are_queued_at_that_priority() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let priorities = scope_task_priorities(&rt, || {
            rt_core::with_priority(Priority::Background, || {
                rt_core::scope(|s| {
                    for _ in 0..4 {
                        s.spawn(|| ());
                    }
                });
            });
        });
        assert_eq!(priorities, vec![Priority::Background; 4]);
    });
}

#[test]
fn the_outer_priority_is_back_once_with_priority_returns() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let priorities = scope_task_priorities(&rt, || {
            rt_core::with_priority(Priority::High, || {
                rt_core::with_priority(Priority::Background, || ());
                rt_core::scope(|s| {
                    s.spawn(|| ());
                });
            });
            rt_core::scope(|s| {
                s.spawn(|| ());
            });
        });
        assert_eq!(priorities, vec![Priority::High, Priority::Normal]);
    });
}

#[test]
fn a_panic_inside_with_priority_resumes_in_the_caller_and_the_priority_ends() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let priorities = scope_task_priorities(&rt, || {
            let caught = quietly(|| {
                catch_unwind(AssertUnwindSafe(|| {
                    rt_core::with_priority(Priority::Background, || -> () { panic!("inside") })
                }))
            });
            let payload = caught.expect_err("the panic resumes in the caller");
            assert_eq!(payload.downcast_ref::<&str>(), Some(&"inside"));
            rt_core::scope(|s| {
                s.spawn(|| ());
            });
        });
        assert_eq!(priorities, vec![Priority::Normal]);
    });
}

#[test]
fn with_priority_on_a_worker_runs_on_the_calling_thread() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let (outer, inner) = rt.install(|| {
            let outer = std::thread::current().id();
            (
                outer,
                rt_core::with_priority(Priority::High, || std::thread::current().id()),
            )
        });
        assert_eq!(outer, inner);
    });
}

#[test]
fn with_priority_outside_any_runtime_runs_on_a_worker_of_the_global_runtime() {
    without_hanging(|| {
        let (worker, sum) = rt_core::with_priority(Priority::High, || {
            let (a, b) = rt_core::join(|| 20, || 22);
            (current_thread_index(), a + b)
        });
        assert!(worker.is_some());
        assert_eq!(sum, 42);
    });
}

#[test]
fn joins_inside_with_priority_return_both_results() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        fn sum(values: &[u64]) -> u64 {
            if values.len() <= 64 {
                return values.iter().sum();
            }
            let (l, r) = values.split_at(values.len() / 2);
            let (a, b) = rt_core::join(|| sum(l), || sum(r));
            a + b
        }
        let values: Vec<u64> = (1..=10_000).collect();
        for p in Priority::ALL {
            let total = rt.install(|| rt_core::with_priority(p, || sum(&values)));
            assert_eq!(total, 50_005_000);
        }
    });
}
