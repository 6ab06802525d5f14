//! Tasks need not be `Send`: they are only ever polled on the executor's
//! thread, even when they are woken from other threads.

mod support;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use rt_fair::{yield_now, FairExecutorBuilder};
use rt_testkit::without_hanging;

#[test]
fn futures_holding_rc_across_awaits_run_and_may_return_rc() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new()
            .with_queue((), 1)
            .build()
            .unwrap();
        let queue = executor.queue(()).unwrap();
        let shared = Rc::new(RefCell::new(Vec::new()));
        let handles: Vec<_> = (0..3)
            .map(|i| {
                let shared = Rc::clone(&shared);
                queue.spawn(async move {
                    let local = Rc::new(i); // !Send, held across the await
                    yield_now().await;
                    shared.borrow_mut().push(*local);
                    local
                })
            })
            .collect();
        let outputs: Vec<Rc<i32>> = executor.block_on(async {
            let mut out = Vec::new();
            for h in handles {
                out.push(h.await.unwrap());
            }
            out
        });
        assert_eq!(outputs.iter().map(|r| **r).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(*shared.borrow(), [0, 1, 2]);
    })
}

#[test]
fn tasks_spawn_tasks_onto_any_queue_from_inside() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new()
            .with_queue("parent", 1)
            .with_queue("child", 1)
            .build()
            .unwrap();
        let children = executor.queue("child").unwrap();
        let parent = executor.queue("parent").unwrap().spawn(async move {
            let state = Rc::new(RefCell::new(0));
            let mut handles = Vec::new();
            for i in 1..=10 {
                let state = Rc::clone(&state);
                handles.push(children.spawn(async move { *state.borrow_mut() += i }));
            }
            for h in handles {
                h.await.unwrap();
            }
            let total = *state.borrow();
            total
        });
        assert_eq!(executor.block_on(parent), Ok(55));
    })
}

#[test]
fn a_non_send_task_woken_by_a_timer_thread_resumes_on_the_executor_thread() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let home = std::thread::current().id();
        let task = executor.queue(0).unwrap().spawn(async move {
            let marker = Rc::new(());
            let (tx, rx) = tokio::sync::oneshot::channel();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(5));
                tx.send(()).unwrap();
            });
            rx.await.unwrap();
            (std::thread::current().id(), Rc::strong_count(&marker))
        });
        assert_eq!(executor.block_on(task), Ok((home, 1)));
    })
}
