//! A bounded queue refuses or blocks external submissions when full, and
//! never loses one.

mod support;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use rt_core::{BuildError, Executor, JoinError, Priority, Runtime, SubmitError};
use rt_handle::Job;
use support::{counting_waker, occupy_all_workers, wait_until, without_hanging, Gate};

fn bounded(threads: usize, capacity: usize) -> Runtime {
    Runtime::builder()
        .threads(threads)
        .queue_capacity(capacity)
        .build()
        .unwrap()
}

#[test]
fn a_zero_capacity_is_a_build_error() {
    without_hanging(|| {
        assert!(matches!(
            Runtime::builder().queue_capacity(0).build(),
            Err(BuildError::ZeroCapacity)
        ));
    })
}

#[test]
fn a_saturated_queue_hands_closures_back_and_accepts_again_once_drained() {
    without_hanging(|| {
        let rt = bounded(1, 4);
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let accepted: Vec<_> = (0..4).map(|i| rt.try_spawn(move || i).unwrap()).collect();
        match rt.try_spawn(|| 99) {
            Err(SubmitError::Saturated(f)) => assert_eq!(f(), 99, "the closure comes back intact"),
            other => panic!("expected Saturated, got {other:?}"),
        }
        assert!(rt.try_execute(|| ()).unwrap_err().is_saturated());
        gate.open();
        for (i, h) in accepted.into_iter().enumerate() {
            assert_eq!(h.join(), Ok(i));
        }
        drop(blockers);
        // Drained: room again.
        assert_eq!(rt.try_spawn(|| 7).unwrap().join(), Ok(7));
    })
}

#[test]
fn eight_producers_against_a_capacity_of_sixteen_lose_nothing() {
    without_hanging(|| {
        let rt = Arc::new(bounded(2, 16));
        let ran = Arc::new(AtomicUsize::new(0));
        let mut producers = Vec::new();
        for _ in 0..8 {
            let (rt, ran) = (rt.clone(), ran.clone());
            producers.push(thread::spawn(move || {
                let (mut accepted, mut returned) = (0usize, 0usize);
                for i in 0..2_000u64 {
                    let ran = ran.clone();
                    let work = move || {
                        std::hint::black_box(i);
                        ran.fetch_add(1, Ordering::Relaxed);
                    };
                    match rt.try_execute(work) {
                        Ok(()) => accepted += 1,
                        Err(SubmitError::Saturated(_back)) => returned += 1,
                        Err(SubmitError::Shutdown(_)) => panic!("not shut down"),
                    }
                }
                (accepted, returned)
            }));
        }
        let (mut accepted, mut returned) = (0, 0);
        for p in producers {
            let (a, r) = p.join().unwrap();
            accepted += a;
            returned += r;
        }
        rt.shutdown();
        assert_eq!(accepted + returned, 16_000);
        assert_eq!(
            ran.load(Ordering::Relaxed),
            accepted,
            "every accepted task ran"
        );
        let m = rt.metrics();
        assert_eq!(m.submitted as usize, accepted);
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
    })
}

#[test]
fn spawn_on_a_full_queue_blocks_until_a_worker_takes_a_task() {
    without_hanging(|| {
        let rt = Arc::new(bounded(1, 1));
        let gate = Gate::new();
        let _blockers = occupy_all_workers(&rt, &gate);
        let first = rt.spawn(|| 1); // fills the queue
        let returned = Arc::new(AtomicBool::new(false));
        let (rt2, r) = (rt.clone(), returned.clone());
        let blocked = thread::spawn(move || {
            let h = rt2.spawn(|| 2);
            r.store(true, Ordering::SeqCst);
            h.join()
        });
        thread::sleep(Duration::from_millis(50));
        assert!(!returned.load(Ordering::SeqCst), "spawn must wait for room");
        gate.open();
        assert_eq!(first.join(), Ok(1));
        assert_eq!(blocked.join().unwrap(), Ok(2));
    })
}

#[test]
fn shutdown_releases_a_spawner_blocked_on_a_full_queue_with_rejected() {
    without_hanging(|| {
        let rt = Arc::new(bounded(1, 1));
        let gate = Gate::new();
        let _blockers = occupy_all_workers(&rt, &gate);
        let queued = rt.spawn(|| 1);
        let rt2 = rt.clone();
        let blocked = thread::spawn(move || rt2.spawn(|| 2).join());
        thread::sleep(Duration::from_millis(20));
        let rt3 = rt.clone();
        let stopper = thread::spawn(move || rt3.shutdown());
        assert_eq!(blocked.join().unwrap(), Err(JoinError::Rejected));
        gate.open();
        stopper.join().unwrap();
        assert_eq!(queued.join(), Ok(1), "accepted work still ran");
    })
}

#[test]
fn tasks_spawned_from_inside_the_pool_are_never_refused_by_a_full_queue() {
    without_hanging(|| {
        let rt = Arc::new(bounded(2, 1));
        let inner = rt.clone();
        let sum = rt
            .spawn(move || {
                let children: Vec<_> = (0..100u64)
                    .map(|i| {
                        inner
                            .try_spawn(move || i)
                            .expect("local spawns are never refused")
                    })
                    .collect();
                children.into_iter().map(|h| h.join().unwrap()).sum::<u64>()
            })
            .join();
        assert_eq!(sum, Ok(4950));
    })
}

#[test]
fn try_submit_on_a_full_queue_hands_the_job_back_as_saturated() {
    without_hanging(|| {
        let rt = bounded(1, 1);
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let filler = rt.spawn(|| 1);
        let (job, handle) = Job::new(|| 2);
        let refused = rt.try_submit(Priority::Normal, job).unwrap_err();
        assert!(refused.is_saturated());
        gate.open();
        rt.submit(Priority::Normal, refused.into_inner()).unwrap();
        assert_eq!(filler.join(), Ok(1));
        assert_eq!(handle.join(), Ok(2));
        drop(blockers);
    })
}

#[test]
fn a_waker_registered_on_a_full_queue_is_woken_when_a_worker_takes_a_task() {
    without_hanging(|| {
        let rt = bounded(1, 1);
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let filler = rt.spawn(|| 1);
        let (wakes, waker) = counting_waker();
        rt.wake_when_capacity(&waker);
        assert_eq!(wakes.get(), 0, "no place is free yet");
        gate.open();
        wait_until("the waker is woken", || wakes.get() == 1);
        assert_eq!(filler.join(), Ok(1));
        drop(blockers);
    })
}

#[test]
fn a_waker_registered_on_a_full_queue_is_woken_at_shutdown() {
    without_hanging(|| {
        let rt = Arc::new(bounded(1, 1));
        let gate = Gate::new();
        let blockers = occupy_all_workers(&rt, &gate);
        let filler = rt.spawn(|| 1);
        let (wakes, waker) = counting_waker();
        rt.wake_when_capacity(&waker);
        let closer = {
            let rt = rt.clone();
            thread::spawn(move || rt.shutdown())
        };
        wait_until("the waker is woken", || wakes.get() >= 1);
        let (job, _handle) = Job::new(|| 2);
        assert!(rt
            .try_submit(Priority::Normal, job)
            .unwrap_err()
            .is_shutdown());
        gate.open();
        closer.join().unwrap();
        assert_eq!(filler.join(), Ok(1));
        drop(blockers);
    })
}
