//! Lifecycle hooks run on the right worker, in order, and a panicking hook
//! is survived and counted.

mod support;

use std::sync::{Arc, Mutex};

use rt_core::Runtime;
use support::{quietly, without_hanging};

type Log = Arc<Mutex<Vec<(String, usize, Option<usize>)>>>;

fn recorder(log: &Log, what: &'static str) -> impl Fn(usize) + Send + Sync + 'static {
    let log = log.clone();
    move |worker| {
        let on = rt_core::current_thread_index();
        log.lock().unwrap().push((what.to_owned(), worker, on));
    }
}

#[test]
fn hooks_run_in_order_on_the_worker_they_name() {
    without_hanging(|| {
        let log: Log = Arc::default();
        let rt = Runtime::builder()
            .threads(2)
            .before_worker_start(recorder(&log, "start"))
            .after_worker_stop(recorder(&log, "stop"))
            .before_task(recorder(&log, "before"))
            .after_task(recorder(&log, "after"))
            .build()
            .unwrap();
        let handles: Vec<_> = (0..20).map(|i| rt.spawn(move || i)).collect();
        handles.into_iter().for_each(|h| drop(h.join()));
        rt.shutdown();
        let log = log.lock().unwrap();
        for worker in 0..2 {
            let mine: Vec<&str> = log
                .iter()
                .filter(|(_, w, _)| *w == worker)
                .map(|(what, _, _)| what.as_str())
                .collect();
            assert_eq!(mine.first(), Some(&"start"), "worker {worker}: {mine:?}");
            assert_eq!(mine.last(), Some(&"stop"), "worker {worker}: {mine:?}");
            // Between start and stop: before/after pairs, properly nested.
            for pair in mine[1..mine.len() - 1].chunks(2) {
                assert_eq!(pair, ["before", "after"], "worker {worker}: {mine:?}");
            }
        }
        // Task hooks run on the worker they name; the stop hook runs after the
        // worker left its loop, so it no longer counts as inside the pool.
        for (what, worker, on) in log.iter() {
            match what.as_str() {
                "stop" => assert_eq!(*on, None),
                _ => assert_eq!(*on, Some(*worker), "{what} hook on the wrong worker"),
            }
        }
        let tasks = log.iter().filter(|(w, _, _)| w == "before").count();
        assert_eq!(tasks, 20);
    })
}

#[test]
fn a_panicking_hook_is_caught_counted_and_the_worker_keeps_working() {
    without_hanging(|| {
        let rt = Runtime::builder()
            .threads(1)
            .before_worker_start(|_| panic!("start hook"))
            .before_task(|_| panic!("task hook"))
            .after_task(|_| panic!("after hook"))
            .build()
            .unwrap();
        let results = quietly(|| {
            let hs: Vec<_> = (0..10).map(|i| rt.spawn(move || i * 2)).collect();
            let r: Vec<_> = hs.into_iter().map(|h| h.join().unwrap()).collect();
            rt.shutdown();
            r
        });
        assert_eq!(results, (0..10).map(|i| i * 2).collect::<Vec<_>>());
        let m = rt.metrics();
        assert_eq!(m.hook_panics, 1 + 10 + 10, "{m:?}");
        assert_eq!(m.completed, 10);
        assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled);
    })
}
