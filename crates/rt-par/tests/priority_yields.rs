//! A prioritised parallel iterator yields to more urgent work: a task of a
//! more urgent class, queued while the iterator runs, starts at the next
//! checkpoint of any worker the iterator occupies (after at most one chunk
//! of about 20 µs, at least one item), not when the iterator is done.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use rt_core::{Priority, Runtime};
use rt_par::prelude::*;
use rt_testkit::without_hanging;

/// About `micros` of work.
fn busy(micros: u64) {
    let until = Instant::now() + Duration::from_micros(micros);
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// Runs an iterator of `items` items of about 1 ms each at `iterator`
/// priority on a runtime of `workers` workers, from a thread outside it;
/// once `before` items are done, spawns a task at `urgent` priority from
/// outside, and returns how many items were done when it started.
fn items_done_when_the_urgent_task_started(
    workers: usize,
    iterator: Priority,
    urgent: Priority,
    items: usize,
    before: usize,
) -> usize {
    let rt = Arc::new(Runtime::new(workers).unwrap());
    let done = Arc::new(AtomicUsize::new(0));
    let job = {
        let (rt, done) = (rt.clone(), done.clone());
        thread::spawn(move || {
            rt.install(|| {
                (0..items)
                    .into_par_iter()
                    .with_priority(iterator)
                    .for_each(|_| {
                        busy(1_000);
                        done.fetch_add(1, Ordering::SeqCst);
                    })
            })
        })
    };
    while done.load(Ordering::SeqCst) < before {
        thread::sleep(Duration::from_micros(200));
    }
    let seen = done.clone();
    let at_start = rt
        .spawn_with_priority(urgent, move || seen.load(Ordering::SeqCst))
        .join()
        .unwrap();
    job.join().unwrap();
    assert_eq!(
        done.load(Ordering::SeqCst),
        items,
        "the iterator still finishes"
    );
    at_start
}

/// The bound the docs state: the urgent task starts once a worker ends
/// its current item; a few items may finish meanwhile (one per worker,
/// plus slack for a loaded machine), never hundreds.
fn assert_started_soon(at_start: usize, before: usize, workers: usize) {
    let slack = 20 * workers;
    assert!(
        at_start <= before + slack,
        "the urgent task waited until {at_start} items were done (queued after {before})"
    );
}

#[test]
fn a_high_task_overtakes_a_background_iterator_on_two_workers() {
    without_hanging(|| {
        for _ in 0..3 {
            let at = items_done_when_the_urgent_task_started(
                2,
                Priority::Background,
                Priority::High,
                600,
                100,
            );
            assert_started_soon(at, 100, 2);
        }
    })
}

#[test]
fn a_high_task_overtakes_a_background_iterator_on_one_worker() {
    without_hanging(|| {
        let at = items_done_when_the_urgent_task_started(
            1,
            Priority::Background,
            Priority::High,
            400,
            50,
        );
        assert_started_soon(at, 50, 1);
    })
}

#[test]
fn a_normal_task_overtakes_a_background_iterator() {
    without_hanging(|| {
        let at = items_done_when_the_urgent_task_started(
            2,
            Priority::Background,
            Priority::Normal,
            600,
            100,
        );
        assert_started_soon(at, 100, 2);
    })
}

#[test]
fn a_high_task_overtakes_a_normal_iterator() {
    without_hanging(|| {
        for workers in [1, 2] {
            let at = items_done_when_the_urgent_task_started(
                workers,
                Priority::Normal,
                Priority::High,
                400,
                50,
            );
            assert_started_soon(at, 50, workers);
        }
    })
}

#[test]
fn a_task_of_the_same_class_waits_for_the_iterator_as_before() {
    // Yielding is to more urgent work only: a Background task queued behind
    // a Background iterator runs after it, as any queued task of its class
    // waits for the running ones.
    without_hanging(|| {
        let at = items_done_when_the_urgent_task_started(
            1,
            Priority::Background,
            Priority::Background,
            200,
            20,
        );
        assert_eq!(at, 200);
    })
}

#[test]
fn tasks_the_urgent_task_leaves_behind_run_once_and_do_not_wait_for_the_iterator() {
    // The High task spawns a detached High child and returns; the child is
    // not the iterator's work: it goes back to the runtime's queues and
    // runs at the next checkpoint too.
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let done = Arc::new(AtomicUsize::new(0));
        let child_at = Arc::new(AtomicUsize::new(usize::MAX));
        let job = {
            let (rt, done) = (rt.clone(), done.clone());
            thread::spawn(move || {
                rt.install(|| {
                    (0..300)
                        .into_par_iter()
                        .with_priority(Priority::Background)
                        .for_each(|_| {
                            busy(1_000);
                            done.fetch_add(1, Ordering::SeqCst);
                        })
                })
            })
        };
        while done.load(Ordering::SeqCst) < 30 {
            thread::sleep(Duration::from_micros(200));
        }
        let (inner, seen, at) = (rt.clone(), done.clone(), child_at.clone());
        rt.spawn_with_priority(Priority::High, move || {
            drop(inner.spawn_with_priority(Priority::High, move || {
                at.store(seen.load(Ordering::SeqCst), Ordering::SeqCst);
            }));
        })
        .join()
        .unwrap();
        job.join().unwrap();
        rt.shutdown();
        let at = child_at.load(Ordering::SeqCst);
        assert!(at <= 30 + 20, "the child ran after {at} items");
        assert_eq!(rt.metrics().completed, 2);
    })
}
