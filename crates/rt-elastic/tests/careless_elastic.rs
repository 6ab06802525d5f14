//! `ElasticPool` as a new user tries it: odd builder arguments, spawning
//! after shutdown, stopping twice, shutting down or dropping it from its
//! own tasks, stats meanwhile.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use rt_elastic::{BuildError, ElasticPool, JoinError, Priority};
use support::{occupy, quietly, without_hanging, Gate};

#[test]
fn the_basics_spawn_join_execute_and_await() {
    without_hanging(|| {
        let pool = ElasticPool::builder().build().unwrap();
        assert_eq!(pool.spawn(|| 2 + 2).join(), Ok(4));
        let (tx, rx) = mpsc::channel();
        pool.execute(move || tx.send(5).unwrap()).unwrap();
        assert_eq!(rx.recv().unwrap(), 5);
        let v = futures::executor::block_on(pool.spawn_with_priority(Priority::High, || 6));
        assert_eq!(v, Ok(6));
        assert!(pool
            .spawn(rt_elastic::current_worker)
            .join()
            .unwrap()
            .is_some());
        assert_eq!(rt_elastic::current_worker(), None);
    });
}

#[test]
fn impossible_sizes_are_build_errors() {
    without_hanging(|| {
        assert!(matches!(
            ElasticPool::builder().max_threads(0).build(),
            Err(BuildError::MaxBelowCore { .. })
        ));
        assert!(matches!(
            ElasticPool::builder()
                .core_threads(4)
                .max_threads(2)
                .build(),
            Err(BuildError::MaxBelowCore { core: 4, max: 2 })
        ));
        assert!(matches!(
            ElasticPool::builder().queue_capacity(0).build(),
            Err(BuildError::ZeroCapacity)
        ));
        assert!(matches!(
            ElasticPool::builder()
                .core_timeout(true)
                .keep_alive(Duration::ZERO)
                .build(),
            Err(BuildError::ZeroKeepAlive)
        ));
    });
}

#[test]
fn zero_core_threads_starts_a_worker_on_the_first_spawn() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(0)
            .max_threads(1)
            .build()
            .unwrap();
        assert_eq!(pool.stats().live_workers, 0);
        assert_eq!(pool.spawn(|| 1).join(), Ok(1));
        pool.shutdown();
    });
}

#[test]
fn huge_keep_alive_and_capacity_work() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(3)
            .queue_capacity(1)
            .keep_alive(Duration::MAX)
            .build()
            .unwrap();
        let gate = Gate::new();
        // One runs, one waits in the queue, one overflows it: a second
        // worker starts, which then idles with an endless keep-alive.
        let blockers: Vec<_> = (0..3)
            .map(|_| {
                let gate = gate.clone();
                pool.spawn(move || gate.wait())
            })
            .collect();
        assert_eq!(pool.stats().live_workers, 2);
        gate.open();
        blockers.into_iter().for_each(|b| b.join().unwrap());
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(pool.stats().live_workers, 2);
        assert_eq!(pool.spawn(|| 1).join(), Ok(1));
        pool.shutdown();
        let big = ElasticPool::builder()
            .queue_capacity(usize::MAX)
            .max_threads(usize::MAX)
            .core_threads(1)
            .build()
            .unwrap();
        assert_eq!(big.spawn(|| 2).join(), Ok(2));
    });
}

#[test]
fn a_zero_stack_size_gives_workers_that_still_run_tasks() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(2)
            .stack_size(0)
            .build()
            .unwrap();
        let hs: Vec<_> = (0..10).map(|i| pool.spawn(move || i)).collect();
        assert_eq!(hs.into_iter().map(|h| h.join().unwrap()).sum::<i32>(), 45);
    });
}

#[test]
fn a_thread_name_with_a_nul_byte_is_refused_or_works_but_never_panics() {
    without_hanging(|| {
        let built = ElasticPool::builder()
            .core_threads(1)
            .thread_name("bad\0name")
            .build();
        if let Ok(pool) = built {
            let spawned = quietly(|| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pool.spawn(|| 1).join()))
            });
            assert_eq!(spawned.expect("spawn panicked"), Ok(1));
        }
    });
}

#[test]
fn every_way_of_submitting_after_shutdown_is_refused_and_stop_twice_is_harmless() {
    without_hanging(|| {
        let pool = ElasticPool::builder().core_threads(1).build().unwrap();
        pool.shutdown();
        assert_eq!(pool.spawn(|| 1).join(), Err(JoinError::Rejected));
        assert!(pool.try_spawn(|| 1).unwrap_err().is_shutdown());
        assert!(pool.execute(|| ()).unwrap_err().is_shutdown());
        assert_eq!(pool.stop(), 0);
        assert_eq!(pool.stop(), 0);
        pool.shutdown();
        pool.wait_termination();
    });
}

#[test]
fn stop_twice_cancels_the_queue_once() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(1)
            .build()
            .unwrap();
        let gate = Gate::new();
        let busy = occupy(&pool, &gate);
        let queued: Vec<_> = (0..4).map(|i| pool.spawn(move || i)).collect();
        assert_eq!(pool.stop(), 4);
        assert_eq!(pool.stop(), 0);
        gate.open();
        busy.join().unwrap();
        for h in queued {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        pool.wait_termination();
    });
}

#[test]
fn the_last_reference_dropped_inside_its_own_task_lets_queued_work_finish() {
    without_hanging(|| {
        let pool = Arc::new(ElasticPool::builder().core_threads(1).build().unwrap());
        let ran = Arc::new(AtomicUsize::new(0));
        let (go_tx, go_rx) = mpsc::channel::<()>();
        let last = pool.clone();
        pool.spawn(move || {
            go_rx.recv().unwrap();
            drop(last);
        });
        let handles: Vec<_> = (0..20)
            .map(|_| {
                let ran = ran.clone();
                pool.spawn(move || {
                    ran.fetch_add(1, Ordering::SeqCst);
                })
            })
            .collect();
        drop(pool);
        go_tx.send(()).unwrap();
        handles.into_iter().for_each(|h| h.join().unwrap());
        assert_eq!(ran.load(Ordering::SeqCst), 20);
    });
}

#[test]
fn stats_during_and_after_shutdown_add_up() {
    without_hanging(|| {
        let pool = Arc::new(
            ElasticPool::builder()
                .core_threads(1)
                .max_threads(4)
                .queue_capacity(4)
                .build()
                .unwrap(),
        );
        for _ in 0..50 {
            pool.spawn(|| std::thread::sleep(Duration::from_micros(200)));
        }
        let reader = {
            let pool = pool.clone();
            std::thread::spawn(move || {
                for _ in 0..100 {
                    let s = pool.stats();
                    assert!(s.live_workers <= 4);
                    assert!(s.metrics.finished() <= s.metrics.submitted);
                }
            })
        };
        pool.shutdown();
        reader.join().unwrap();
        let s = pool.stats();
        assert_eq!(s.metrics.submitted, 50);
        assert_eq!(s.metrics.finished(), 50);
        assert_eq!(s.live_workers, 0);
    });
}

#[test]
fn cancels_racing_the_workers_leave_every_task_run_or_cancelled_exactly_once() {
    without_hanging(|| {
        let pool = ElasticPool::builder().core_threads(2).build().unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let mut cancelled = 0;
        for _ in 0..10 {
            let handles: Vec<_> = (0..5_000)
                .map(|_| {
                    let ran = ran.clone();
                    pool.spawn(move || {
                        ran.fetch_add(1, Ordering::Relaxed);
                    })
                })
                .collect();
            let won = handles.iter().filter(|h| h.cancel()).count();
            cancelled += won;
            let joined = handles
                .into_iter()
                .map(|h| h.join())
                .filter(|r| *r == Err(JoinError::Cancelled))
                .count();
            assert_eq!(won, joined);
        }
        pool.shutdown();
        assert_eq!(ran.load(Ordering::Relaxed) + cancelled, 50_000);
        let m = pool.metrics();
        assert_eq!(m.cancelled as usize, cancelled);
        assert_eq!(m.submitted, m.finished());
    });
}
