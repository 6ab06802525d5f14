//! A task that joins a task of its own pool: one that has not started runs
//! inline on the joining worker, so a pool whose every worker waits this
//! way still completes, and the task is counted once.

mod support;

use std::sync::Arc;
use std::thread;

use rt_elastic::ElasticPool;
use support::without_hanging;

fn one_worker() -> Arc<ElasticPool> {
    Arc::new(
        ElasticPool::builder()
            .core_threads(1)
            .max_threads(1)
            .build()
            .unwrap(),
    )
}

#[test]
fn a_task_joining_a_task_it_queued_on_a_pool_of_one_worker_runs_it_on_its_own_thread() {
    without_hanging(|| {
        let pool = one_worker();
        let inner = pool.clone();
        let (joiner, joined) = pool
            .spawn(move || {
                let child = inner.spawn(|| thread::current().id());
                (thread::current().id(), child.join().unwrap())
            })
            .join()
            .unwrap();
        assert_eq!(joiner, joined);
    })
}

#[test]
fn a_task_run_inline_by_its_joiner_is_counted_once() {
    without_hanging(|| {
        let pool = one_worker();
        let inner = pool.clone();
        let sum = pool
            .spawn(move || {
                let children: Vec<_> = (1..=3u32).map(|i| inner.spawn(move || i)).collect();
                children.into_iter().map(|c| c.join().unwrap()).sum::<u32>()
            })
            .join();
        assert_eq!(sum, Ok(6));
        pool.shutdown();
        let m = pool.metrics();
        assert_eq!((m.submitted, m.completed, m.cancelled), (4, 4, 0));
    })
}

#[test]
fn a_task_joining_or_awaiting_its_own_handle_panics_instead_of_hanging() {
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::mpsc;

    use rt_elastic::JoinHandle;
    use support::quietly;

    without_hanging(|| {
        let pool = one_worker();
        for block_on in [false, true] {
            let (handle_tx, handle_rx) = mpsc::channel::<JoinHandle<()>>();
            let (panicked_tx, panicked_rx) = mpsc::channel();
            let task = pool.spawn(move || {
                let me = handle_rx.recv().unwrap();
                let waited = quietly(|| {
                    catch_unwind(AssertUnwindSafe(|| {
                        if block_on {
                            futures::executor::block_on(me)
                        } else {
                            me.join()
                        }
                    }))
                });
                panicked_tx.send(waited.is_err()).unwrap();
            });
            handle_tx.send(task).unwrap();
            assert!(panicked_rx.recv().unwrap(), "block_on: {block_on}");
        }
        // The worker is still there for the next task.
        assert_eq!(pool.spawn(|| 7).join(), Ok(7));
    })
}
