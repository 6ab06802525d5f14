//! Tasks inside one queue run first-in first-out.

use std::cell::RefCell;
use std::rc::Rc;

use rt_fair::FairExecutorBuilder;
use rt_testkit::without_hanging;
use tokio::sync::oneshot;

#[test]
fn tasks_of_one_queue_start_in_the_order_they_were_spawned() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let order = Rc::new(RefCell::new(Vec::new()));
        let handles: Vec<_> = (0..100)
            .map(|i| {
                let order = Rc::clone(&order);
                queue.spawn(async move { order.borrow_mut().push(i) })
            })
            .collect();
        executor.block_on(async {
            for h in handles {
                h.await.unwrap();
            }
        });
        assert_eq!(*order.borrow(), (0..100).collect::<Vec<_>>());
    })
}

#[test]
fn woken_tasks_of_one_queue_run_in_the_order_they_were_woken() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let order = Rc::new(RefCell::new(Vec::new()));
        let mut senders = Vec::new();
        let mut handles = Vec::new();
        for i in 0..5 {
            let (tx, rx) = oneshot::channel::<()>();
            senders.push(tx);
            let order = Rc::clone(&order);
            handles.push(queue.spawn(async move {
                rx.await.unwrap();
                order.borrow_mut().push(i);
            }));
        }
        // Spawned last, so it runs after every waiter has registered its waker.
        let wake_order = [3, 0, 4, 1, 2];
        handles.push(queue.spawn(async move {
            let mut senders: Vec<_> = senders.into_iter().map(Some).collect();
            for i in wake_order {
                senders[i].take().unwrap().send(()).unwrap();
            }
        }));
        executor.block_on(async {
            for h in handles {
                h.await.unwrap();
            }
        });
        assert_eq!(*order.borrow(), wake_order);
    })
}

#[test]
fn a_task_that_yields_goes_behind_the_tasks_already_queued() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let order = Rc::new(RefCell::new(Vec::new()));
        let log = |name: &'static str| {
            let order = Rc::clone(&order);
            move || order.borrow_mut().push(name)
        };
        let (first, again) = (log("a"), log("a again"));
        let a = queue.spawn(async move {
            first();
            rt_fair::yield_now().await;
            again();
        });
        let b_log = log("b");
        let b = queue.spawn(async move { b_log() });
        executor.block_on(async {
            a.await.unwrap();
            b.await.unwrap();
        });
        assert_eq!(*order.borrow(), ["a", "b", "a again"]);
    })
}
