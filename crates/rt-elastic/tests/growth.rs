//! The pool starts workers lazily up to the core size, queues after that,
//! and grows toward the maximum only when the bounded queue is full, giving
//! the new worker the task that did not fit.

mod support;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use rt_elastic::ElasticPool;
use support::{blocker, eventually, occupy, without_hanging, Gate, Latch};

#[test]
fn no_worker_exists_before_the_first_task() {
    without_hanging(|| {
        let pool = ElasticPool::builder().core_threads(3).build().unwrap();
        let stats = pool.stats();
        assert_eq!((stats.live_workers, stats.largest_pool_size), (0, 0));
    })
}

#[test]
fn each_task_starts_a_worker_until_the_core_size_is_reached() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(3)
            .max_threads(6)
            .build()
            .unwrap();
        let gate = Gate::new();
        let started = Latch::new(2);
        let handles: Vec<_> = (0..2).map(|_| blocker(&pool, &gate, &started)).collect();
        started.wait();
        assert_eq!(pool.stats().live_workers, 2, "one worker per task so far");

        let more = occupy(&pool, &gate);
        let stats = pool.stats();
        assert_eq!((stats.live_workers, stats.queued), (3, 0));
        gate.open();
        handles
            .into_iter()
            .chain([more])
            .for_each(|h| h.join().unwrap());
    })
}

#[test]
fn tasks_queue_once_the_core_workers_are_busy() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(2)
            .max_threads(4)
            .queue_capacity(10)
            .build()
            .unwrap();
        let gate = Gate::new();
        let started = Latch::new(2);
        let mut handles: Vec<_> = (0..2).map(|_| blocker(&pool, &gate, &started)).collect();
        started.wait();
        let never = Latch::new(usize::MAX);
        handles.extend((0..3).map(|_| blocker(&pool, &gate, &never)));
        let stats = pool.stats();
        assert_eq!((stats.live_workers, stats.queued), (2, 3), "{stats:?}");
        assert_eq!(stats.largest_pool_size, 2);
        gate.open();
        handles.into_iter().for_each(|h| h.join().unwrap());
    })
}

#[test]
fn an_unbounded_queue_never_grows_the_pool_past_core() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(4)
            .build()
            .unwrap();
        let gate = Gate::new();
        let mut handles = vec![occupy(&pool, &gate)];
        let never = Latch::new(usize::MAX);
        handles.extend((0..50).map(|_| blocker(&pool, &gate, &never)));
        let stats = pool.stats();
        assert_eq!((stats.live_workers, stats.queued), (1, 50));
        gate.open();
        handles.into_iter().for_each(|h| h.join().unwrap());
        assert_eq!(pool.stats().largest_pool_size, 1);
    })
}

#[test]
fn a_full_queue_grows_the_pool_and_the_new_worker_runs_the_task_that_did_not_fit() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(3)
            .queue_capacity(1)
            .build()
            .unwrap();
        let gate = Gate::new();
        let first = occupy(&pool, &gate);

        let queued_ran = Latch::new(1);
        let queued = blocker(&pool, &gate, &queued_ran); // fills the queue
        assert_eq!(pool.stats().queued, 1);

        let overflow_ran = Latch::new(1);
        let overflow = blocker(&pool, &gate, &overflow_ran); // does not fit: new worker
        overflow_ran.wait();
        let stats = pool.stats();
        assert_eq!(stats.live_workers, 2, "{stats:?}");
        assert_eq!(
            stats.queued, 1,
            "the queued task is still waiting: {stats:?}"
        );
        assert_eq!(stats.running, 2);
        assert_eq!(stats.largest_pool_size, 2);

        gate.open();
        for h in [first, queued, overflow] {
            h.join().unwrap();
        }
        queued_ran.wait();
    })
}

#[test]
fn the_pool_grows_up_to_max_and_remembers_its_largest_size() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(4)
            .queue_capacity(2)
            .build()
            .unwrap();
        let gate = Gate::new();
        // 1 core worker + 2 queued + 3 workers for the overflow = 6 tasks.
        let running = Latch::new(4);
        let handles: Vec<_> = (0..6).map(|_| blocker(&pool, &gate, &running)).collect();
        running.wait();
        let stats = pool.stats();
        assert_eq!(
            (stats.live_workers, stats.queued, stats.running),
            (4, 2, 4),
            "{stats:?}"
        );
        gate.open();
        handles.into_iter().for_each(|h| h.join().unwrap());
        eventually(&pool, "all workers idle", |s| {
            s.idle_workers == s.live_workers
        });
        assert_eq!(pool.stats().largest_pool_size, 4);
    })
}

#[test]
fn every_worker_gets_a_distinct_index_named_in_its_thread_name() {
    without_hanging(|| {
        let seen = Arc::new(Mutex::new(HashSet::new()));
        let recorder = seen.clone();
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(3)
            .queue_capacity(1)
            .thread_name("grow")
            .before_worker_start(move |index| {
                recorder.lock().unwrap().insert(index);
            })
            .build()
            .unwrap();
        let gate = Gate::new();
        let running = Latch::new(3);
        let handles: Vec<_> = (0..4)
            .map(|_| {
                let (gate, running) = (gate.clone(), running.clone());
                pool.spawn(move || {
                    running.count_down();
                    let name = std::thread::current().name().unwrap().to_owned();
                    let index = rt_elastic::current_worker().unwrap();
                    gate.wait();
                    (name, index)
                })
            })
            .collect();
        running.wait();
        gate.open();
        let mut names = HashSet::new();
        for h in handles {
            let (name, index) = h.join().unwrap();
            assert_eq!(name, format!("grow-{index}"));
            names.insert(name);
        }
        assert_eq!(
            names.len(),
            3,
            "three workers ran the four tasks: {names:?}"
        );
        assert_eq!(*seen.lock().unwrap(), HashSet::from([0, 1, 2]));
    })
}
