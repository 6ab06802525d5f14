//! Waits that cross runtimes never deadlock: a worker waiting on another
//! runtime leaves its own runtime a worker free (a compensating thread when
//! every worker waits), as rayon-core's `mutual_install` tests ask.

mod support;

use std::time::Duration;

use rt_core::Runtime;
use support::without_hanging;

#[test]
fn two_one_thread_runtimes_can_install_into_each_other() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let ok = a.install(|| b.install(|| a.install(|| true)));
        assert!(ok);
    });
}

#[test]
fn mutual_installs_complete_with_sleeps_inside() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let ok = a.install(|| {
            std::thread::sleep(Duration::from_millis(20));
            b.install(|| {
                std::thread::sleep(Duration::from_millis(20));
                a.install(|| {
                    std::thread::sleep(Duration::from_millis(20));
                    true
                })
            })
        });
        assert!(ok);
    });
}

#[test]
fn installs_nested_five_deep_across_two_runtimes_complete() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let depth = a.install(|| b.install(|| a.install(|| b.install(|| a.install(|| 5)))));
        assert_eq!(depth, 5);
    });
}

#[test]
fn a_task_joining_a_task_of_another_runtime_that_joins_back_completes() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = std::sync::Arc::new(Runtime::new(1).unwrap());
        let a = std::sync::Arc::new(a);
        let (a2, b2) = (a.clone(), b.clone());
        let outer = a.spawn(move || {
            let a3 = a2.clone();
            let inner = b2.spawn(move || a3.spawn(|| 21).join().unwrap() * 2);
            inner.join().unwrap()
        });
        assert_eq!(outer.join(), Ok(42));
    });
}

#[test]
fn a_compensating_thread_shows_in_stats_and_retires_after_the_wait() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let seen = a.install(|| {
            b.install(|| {
                a.install(|| {
                    (
                        rt_core::current_thread_index(),
                        a.stats().compensating_threads,
                    )
                })
            })
        });
        assert_eq!(
            seen,
            (Some(1), 1),
            "a's second thread ran the inner install"
        );
        assert_eq!(a.threads(), 1);
        a.shutdown();
        let stats = a.stats();
        assert_eq!(stats.compensating_threads, 0);
        assert_eq!(stats.workers.len(), 2);
    });
}
