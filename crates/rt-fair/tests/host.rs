//! Inside a host runtime, the executor gives the thread back often enough
//! for the host's timers, and sleeps without spinning when idle.

mod support;

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use rt_fair::{yield_maybe, FairExecutorBuilder};
use rt_testkit::without_hanging;
use support::spin;

#[test]
fn host_timers_fire_on_time_while_a_task_spins_on_yield_maybe() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new()
            .with_queue(0, 1)
            .with_time_slice(Duration::from_secs(1))
            .build()
            .unwrap();
        let queue = executor.queue(0).unwrap();
        let stop = Rc::new(Cell::new(false));
        let halt = Rc::clone(&stop);
        let spinner = queue.spawn(async move {
            while !halt.get() {
                spin(Duration::from_micros(50));
                yield_maybe().await;
            }
        });
        let sleeper = queue.spawn(async move {
            let start = Instant::now();
            tokio::time::sleep(Duration::from_millis(5)).await;
            stop.set(true);
            start.elapsed()
        });
        let local = tokio::task::LocalSet::new();
        let slept = local.block_on(
            &support::tokio_host(),
            executor.run_until(async {
                let slept = sleeper.await.unwrap();
                spinner.await.unwrap();
                slept
            }),
        );
        // The slice is 1 s, but the host is due a turn every 250 µs.
        assert!(slept < Duration::from_millis(100), "slept {slept:?}");
    })
}

#[test]
fn an_idle_executor_inside_tokio_is_woken_by_a_timer_and_uses_no_cpu_meanwhile() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let local = tokio::task::LocalSet::new();
        local.block_on(
            &support::tokio_host(),
            executor.run_until(async {
                let task = queue.spawn(tokio::time::sleep(Duration::from_millis(50)));
                task.await.unwrap();
            }),
        );
        // One poll to start the sleep, one after the timer fired: no busy loop.
        assert_eq!(executor.stats().queues[0].polls, 2);
    })
}

#[test]
fn block_on_parks_until_a_wake_from_another_thread() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<u32>();
        let task = executor
            .queue(0)
            .unwrap()
            .spawn(async move { rx.await.unwrap() });
        let sender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            tx.send(9).unwrap();
        });
        assert_eq!(executor.block_on(task), Ok(9));
        sender.join().unwrap();
        assert_eq!(executor.stats().queues[0].polls, 2);
    })
}
