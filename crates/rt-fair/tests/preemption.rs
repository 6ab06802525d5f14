//! `yield_maybe` yields when the running queue's slice is used up, or when a
//! queue with an earlier virtual deadline becomes runnable; otherwise it is
//! free.

mod support;

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

use rt_fair::{yield_maybe, yield_now, FairExecutorBuilder};
use rt_testkit::without_hanging;
use support::spin;

#[test]
fn a_task_spinning_on_yield_maybe_runs_one_full_slice_before_it_yields() {
    without_hanging(|| {
        let slice = Duration::from_millis(10);
        let executor = FairExecutorBuilder::new()
            .with_queue(0, 1)
            .with_time_slice(slice)
            .build()
            .unwrap();
        let queue = executor.queue(0).unwrap();
        let other_ran = Rc::new(Cell::new(0u32));
        let done = Rc::new(Cell::new(false));
        // A neighbour in the same queue that counts its turns.
        let (count, stop) = (Rc::clone(&other_ran), Rc::clone(&done));
        let neighbour = queue.spawn(async move {
            while !stop.get() {
                count.set(count.get() + 1);
                yield_now().await;
            }
        });
        let runs = Rc::new(RefCell::new(Vec::new()));
        let (seen, record, stop) = (Rc::clone(&other_ran), Rc::clone(&runs), Rc::clone(&done));
        let spinner = queue.spawn(async move {
            let end = Instant::now() + Duration::from_millis(150);
            let mut run_start = Instant::now();
            while Instant::now() < end {
                spin(Duration::from_micros(50));
                let turns = seen.get();
                yield_maybe().await;
                if seen.get() != turns {
                    // The neighbour ran: we had yielded.
                    record.borrow_mut().push(run_start.elapsed());
                    run_start = Instant::now();
                }
            }
            stop.set(true);
        });
        executor.block_on(async {
            spinner.await.unwrap();
            neighbour.await.unwrap();
        });
        let runs = runs.borrow();
        assert!(
            runs.len() >= 3,
            "yielded only {} times in 150 ms",
            runs.len()
        );
        // The median, not every run: when the OS takes the thread away (time
        // the executor charges to the queue like any other), one run can end
        // early and its neighbour late; their median is still the slice.
        let mut sorted: Vec<_> = runs.to_vec();
        sorted.sort();
        let median = sorted[sorted.len() / 2];
        assert!(
            median + Duration::from_micros(60) >= slice,
            "median run {median:?} for a {slice:?} slice: {runs:?}"
        );
        assert!(
            median < 3 * slice,
            "median run {median:?} for a {slice:?} slice"
        );
    })
}

#[test]
fn yield_maybe_does_not_yield_while_the_slice_lasts_and_nothing_else_waits() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new()
            .with_queue(0, 1)
            .with_time_slice(Duration::from_secs(1))
            .build()
            .unwrap();
        let task = executor.queue(0).unwrap().spawn(async {
            let end = Instant::now() + Duration::from_millis(20);
            let mut iterations = 0u64;
            while Instant::now() < end {
                iterations += 1;
                yield_maybe().await;
            }
            iterations
        });
        let iterations = executor.block_on(task).unwrap();
        assert!(iterations > 1_000, "{iterations}");
        // One poll: the loop never gave the executor the thread back.
        assert_eq!(executor.stats().queue(0).unwrap().polls, 1);
    })
}

#[test]
fn a_heavier_queue_woken_from_another_thread_preempts_a_spinning_lighter_one() {
    without_hanging(|| {
        let slice = Duration::from_millis(200);
        let executor = FairExecutorBuilder::new()
            .with_queue("fg", 8)
            .with_queue("bg", 1)
            .with_time_slice(slice)
            .build()
            .unwrap();
        let stop = Rc::new(Cell::new(false));
        let halt = Rc::clone(&stop);
        let background = executor.queue("bg").unwrap().spawn(async move {
            while !halt.get() {
                spin(Duration::from_micros(50));
                yield_maybe().await;
            }
        });
        let (tx, rx) = tokio::sync::oneshot::channel::<Instant>();
        let foreground = executor.queue("fg").unwrap().spawn(async move {
            let sent = rx.await.unwrap();
            stop.set(true);
            sent.elapsed()
        });
        let sender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            tx.send(Instant::now()).unwrap();
        });
        let latency = executor.block_on(async {
            let latency = foreground.await.unwrap();
            background.await.unwrap();
            latency
        });
        sender.join().unwrap();
        // Without preemption the foreground task would wait for the rest of the
        // background queue's 200 ms slice.
        assert!(latency < slice / 4, "foreground waited {latency:?}");
        // The background task gave the thread back (at least) once to let it in.
        assert!(executor.stats().queue("bg").unwrap().polls >= 2);
    })
}

#[test]
fn a_runnable_lighter_queue_waits_until_the_heavier_queue_has_used_its_slice() {
    without_hanging(|| {
        let slice = Duration::from_millis(40);
        let executor = FairExecutorBuilder::new()
            .with_queue("fg", 8)
            .with_queue("bg", 1)
            .with_time_slice(slice)
            .build()
            .unwrap();
        let started = Instant::now();
        let background = executor
            .queue("bg")
            .unwrap()
            .spawn(async move { started.elapsed() });
        let foreground = executor.queue("fg").unwrap().spawn(async move {
            while started.elapsed() < Duration::from_millis(100) {
                spin(Duration::from_micros(50));
                yield_maybe().await;
            }
        });
        let waited = executor.block_on(async {
            foreground.await.unwrap();
            background.await.unwrap()
        });
        // Both queues are runnable from the start; the foreground queue's
        // virtual deadline (slice / 8) is earlier than the background's
        // (slice / 1), so it runs first and keeps the CPU for its whole slice.
        assert!(waited >= slice, "background ran after only {waited:?}");
        assert!(
            waited < Duration::from_millis(100),
            "background starved: {waited:?}"
        );
    })
}
