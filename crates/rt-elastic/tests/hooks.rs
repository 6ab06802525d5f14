//! Lifecycle hooks run on the worker they name, in order, and a panicking
//! hook is caught, counted, and survived.

mod support;

use std::sync::{Arc, Mutex};

use rt_elastic::ElasticPool;
use support::{quietly, without_hanging};

type Log = Arc<Mutex<Vec<(&'static str, usize, Option<usize>)>>>;

fn recorder(log: &Log, what: &'static str) -> impl Fn(usize) + Send + Sync + 'static {
    let log = log.clone();
    move |worker| {
        let on = rt_elastic::current_worker();
        log.lock().unwrap().push((what, worker, on));
    }
}

#[test]
fn hooks_run_in_order_on_the_worker_they_name() {
    without_hanging(|| {
        let log: Log = Arc::default();
        let pool = ElasticPool::builder()
            .core_threads(2)
            .max_threads(4)
            .queue_capacity(2)
            .before_worker_start(recorder(&log, "start"))
            .after_worker_stop(recorder(&log, "stop"))
            .before_task(recorder(&log, "before"))
            .after_task(recorder(&log, "after"))
            .build()
            .unwrap();
        let handles: Vec<_> = (0..20).map(|i| pool.spawn(move || i)).collect();
        handles.into_iter().for_each(|h| drop(h.join()));
        pool.shutdown();
        let log = log.lock().unwrap();
        let workers = pool.stats().largest_pool_size;
        for worker in 0..workers {
            let mine: Vec<&str> = log
                .iter()
                .filter(|(_, w, _)| *w == worker)
                .map(|(what, _, _)| *what)
                .collect();
            assert_eq!(mine.first(), Some(&"start"), "worker {worker}: {mine:?}");
            assert_eq!(mine.last(), Some(&"stop"), "worker {worker}: {mine:?}");
            for pair in mine[1..mine.len() - 1].chunks(2) {
                assert_eq!(pair, ["before", "after"], "worker {worker}: {mine:?}");
            }
        }
        for (what, worker, on) in log.iter() {
            match *what {
                "stop" => assert_eq!(*on, None, "the stop hook runs outside the loop"),
                _ => assert_eq!(*on, Some(*worker), "{what} hook on the wrong worker"),
            }
        }
        assert_eq!(log.iter().filter(|(w, _, _)| *w == "before").count(), 20);
    })
}

#[test]
fn a_panicking_hook_is_caught_counted_and_the_worker_keeps_working() {
    without_hanging(|| {
        let pool = ElasticPool::builder()
            .core_threads(1)
            .max_threads(1)
            .before_worker_start(|_| panic!("start hook"))
            .before_task(|_| panic!("task hook"))
            .after_task(|_| panic!("after hook"))
            .after_worker_stop(|_| panic!("stop hook"))
            .panic_handler(|_, _| panic!("handler"))
            .build()
            .unwrap();
        let results = quietly(|| {
            let hs: Vec<_> = (0..10).map(|i| pool.spawn(move || i * 2)).collect();
            let r: Vec<_> = hs.into_iter().map(|h| h.join().unwrap()).collect();
            pool.execute(|| panic!("job")).unwrap();
            pool.shutdown();
            r
        });
        assert_eq!(results, (0..10).map(|i| i * 2).collect::<Vec<_>>());
        let stats = pool.stats();
        // start + 11 × (before + after) + the handler + stop.
        assert_eq!(stats.metrics.hook_panics, 1 + 22 + 1 + 1, "{stats:?}");
        assert_eq!((stats.metrics.completed, stats.metrics.panicked), (10, 1));
        assert_eq!(stats.largest_pool_size, 1);
    })
}
