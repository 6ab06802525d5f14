//! Two runtimes used together without a plan: installs, joins, scopes and
//! handles crossing between them in both directions, one shut down or
//! dropped from the other's tasks.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rt_core::{current_thread_index, JoinError, Runtime};
use support::without_hanging;

fn fib(n: u64) -> u64 {
    if n < 2 {
        return n;
    }
    let (a, b) = rt_core::join(|| fib(n - 1), || fib(n - 2));
    a + b
}

#[test]
fn join_of_runtime_b_called_inside_an_install_on_a_runs_on_b() {
    without_hanging(|| {
        let a = Runtime::builder()
            .threads(1)
            .thread_name("a")
            .build()
            .unwrap();
        let b = Runtime::builder()
            .threads(1)
            .thread_name("b")
            .build()
            .unwrap();
        let names = a.install(|| {
            b.join(
                || std::thread::current().name().map(str::to_owned),
                || fib(12),
            )
        });
        assert_eq!(names.0.as_deref(), Some("b-0"));
        assert_eq!(names.1, 144);
    });
}

#[test]
fn a_task_of_a_joins_a_task_of_b_that_joins_a_task_of_a_on_one_worker_each() {
    without_hanging(|| {
        let a = Arc::new(Runtime::new(1).unwrap());
        let b = Arc::new(Runtime::new(1).unwrap());
        let (a2, b2) = (a.clone(), b.clone());
        let v = a
            .spawn(move || {
                let a3 = a2.clone();
                b2.spawn(move || a3.spawn(|| 40).join().unwrap() + 1)
                    .join()
                    .unwrap()
                    + 1
            })
            .join();
        assert_eq!(v, Ok(42));
    });
}

#[test]
fn tasks_of_two_one_worker_runtimes_joining_each_others_tasks_at_once_complete() {
    without_hanging(|| {
        let a = Arc::new(Runtime::new(1).unwrap());
        let b = Arc::new(Runtime::new(1).unwrap());
        let (a2, b2) = (a.clone(), b.clone());
        let (a3, b3) = (a.clone(), b.clone());
        let on_a = a.spawn(move || b2.spawn(|| fib(10)).join().unwrap());
        let on_b = b.spawn(move || a2.spawn(|| fib(11)).join().unwrap());
        assert_eq!(on_a.join(), Ok(55));
        assert_eq!(on_b.join(), Ok(89));
        drop((a3, b3));
    });
}

#[test]
fn a_scope_of_a_opened_in_a_task_of_b_runs_its_tasks_on_a() {
    without_hanging(|| {
        let a = Arc::new(
            Runtime::builder()
                .threads(2)
                .thread_name("a")
                .build()
                .unwrap(),
        );
        let b = Runtime::builder()
            .threads(1)
            .thread_name("b")
            .build()
            .unwrap();
        let a2 = a.clone();
        let names = b
            .spawn(move || {
                let mut names = vec![None; 4];
                a2.scope(|s| {
                    for n in names.iter_mut() {
                        s.spawn(move || *n = std::thread::current().name().map(str::to_owned));
                    }
                });
                names
            })
            .join()
            .unwrap();
        assert!(
            names
                .iter()
                .all(|n| n.as_deref().is_some_and(|n| n.starts_with("a-"))),
            "{names:?}"
        );
    });
}

#[test]
fn scope_tasks_on_a_install_into_b_which_spawns_back_into_the_scope() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let hits = AtomicUsize::new(0);
        a.scope(|s| {
            for _ in 0..4 {
                s.spawn(|| {
                    b.install(|| {
                        s.spawn(|| hits.fetch_add(1, Ordering::SeqCst));
                    });
                });
            }
        });
        assert_eq!(hits.load(Ordering::SeqCst), 4);
    });
}

#[test]
fn shutting_down_b_from_a_task_of_a_waits_for_bs_tasks_only() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Arc::new(Runtime::new(1).unwrap());
        let ran = Arc::new(AtomicUsize::new(0));
        for _ in 0..10 {
            let ran = ran.clone();
            b.spawn(move || {
                std::thread::sleep(Duration::from_millis(1));
                ran.fetch_add(1, Ordering::SeqCst);
            });
        }
        let b2 = b.clone();
        a.spawn(move || b2.shutdown()).join().unwrap();
        assert_eq!(ran.load(Ordering::SeqCst), 10);
        assert_eq!(b.spawn(|| ()).join(), Err(JoinError::Rejected));
        assert_eq!(a.spawn(|| 1).join(), Ok(1));
    });
}

#[test]
fn dropping_runtime_b_inside_a_task_of_a_completes() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(2).unwrap();
        let pending = b.spawn(|| fib(15));
        let v = a
            .spawn(move || {
                let v = pending.join().unwrap();
                drop(b);
                v
            })
            .join();
        assert_eq!(v, Ok(610));
    });
}

#[test]
fn install_into_a_shut_down_runtime_from_a_task_of_another_runs_on_the_caller() {
    without_hanging(|| {
        let a = Runtime::builder()
            .threads(1)
            .thread_name("a")
            .build()
            .unwrap();
        let b = Arc::new(
            Runtime::builder()
                .threads(1)
                .thread_name("b")
                .build()
                .unwrap(),
        );
        b.shutdown();
        let b2 = b.clone();
        let name = a
            .spawn(move || b2.install(|| std::thread::current().name().map(str::to_owned)))
            .join()
            .unwrap();
        assert_eq!(name.as_deref(), Some("a-0"));
    });
}

#[test]
fn current_thread_index_inside_b_install_from_a_is_bs_index() {
    without_hanging(|| {
        let a = Runtime::new(2).unwrap();
        let b = Runtime::new(3).unwrap();
        let (outer, inner, back) = a.install(|| {
            let outer = current_thread_index();
            let (inner, back) = b.install(|| (current_thread_index(), current_thread_index()));
            (outer, inner, back)
        });
        assert!(outer.is_some_and(|i| i < 2));
        assert!(inner.is_some_and(|i| i < 3 + rt_core::MAX_COMPENSATING_THREADS));
        assert_eq!(inner, back);
    });
}

#[test]
fn a_chain_of_installs_through_four_one_worker_runtimes_and_back_completes() {
    without_hanging(|| {
        let rts: Vec<Runtime> = (0..4).map(|_| Runtime::new(1).unwrap()).collect();
        let v = rts[0].install(|| {
            rts[1].install(|| {
                rts[2].install(|| rts[3].install(|| rts[0].install(|| rts[2].install(|| fib(10)))))
            })
        });
        assert_eq!(v, 55);
    });
}
