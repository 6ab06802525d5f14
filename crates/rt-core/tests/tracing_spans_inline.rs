//! With the `tracing` feature, a task that a joiner claims and runs inline
//! while its queue entry sits with another worker still runs in an
//! `rt.task` span (one per run: the stale entry makes none).
#![cfg(feature = "tracing")]

mod support;

use std::sync::{mpsc, Arc};

use rt_core::Runtime;
use support::spans::Spans;
use support::{without_hanging, Latch};

#[test]
fn a_task_a_joiner_runs_inline_still_runs_in_one_task_span() {
    let spans = Spans::install_globally();
    without_hanging(move || {
        let rt = Arc::new(Runtime::new(2).unwrap());
        let joiner_started = Latch::new(1);
        let (handle_tx, handle_rx) = mpsc::channel();
        let (joined_tx, joined_rx) = mpsc::channel();
        // The joiner blocks one worker until the handle arrives; the
        // spawner then runs on the other one, and holds it (with the new
        // task's entry in its deque) until the joiner is done.
        let started = joiner_started.clone();
        let joiner = rt.spawn(move || {
            started.count_down();
            let _join = tracing::info_span!("joiner").entered();
            let handle: rt_core::JoinHandle<u32> = handle_rx.recv().unwrap();
            let value = handle.join();
            joined_tx.send(()).unwrap();
            value
        });
        joiner_started.wait();
        let inner = rt.clone();
        let spawner = rt.spawn(move || {
            let _spawn = tracing::info_span!("spawner").entered();
            let handle = inner.spawn(|| tracing::info_span!("hash").in_scope(|| 7));
            handle_tx.send(handle).unwrap();
            joined_rx.recv().unwrap();
        });
        assert_eq!(joiner.join(), Ok(Ok(7)));
        assert_eq!(spawner.join(), Ok(()));
        drop(rt);
        let tasks = spans.parents_of("rt.task");
        assert_eq!(tasks.len(), 3, "{:?}", spans.all());
        // The joiner's span is the inline run's context.
        let in_joiner = tasks.iter().filter(|p| p.as_deref() == Some("joiner"));
        assert_eq!(in_joiner.count(), 1, "{:?}", spans.all());
        assert_eq!(spans.parents_of("hash"), vec![Some("rt.task".into())]);
    });
}
