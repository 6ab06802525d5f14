//! A task cancelled while queued shows as cancelled from the moment
//! `cancel()` returns: its handle's `status()`, the runtime's `metrics()`
//! (`cancelled`) and `stats()` (`queued`, per class) agree at once, with
//! the only worker busy, so nobody has taken the task's queue entry yet.
//! Once the worker is released and the runtime shut down, the counts are
//! exact (`submitted == completed + panicked + cancelled`) and no cancelled
//! body ran.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::{CancellationToken, JoinError, JoinHandle, Priority, Runtime, TaskStatus};
use support::{occupy_all_workers, without_hanging, Gate};

const N: usize = 50;

/// A body that counts its runs.
fn counting(ran: &Arc<AtomicUsize>) -> impl FnOnce() + Send + 'static {
    let ran = ran.clone();
    move || {
        ran.fetch_add(1, Ordering::SeqCst);
    }
}

/// After the worker is released and the runtime shut down: every count is
/// exact, `cancelled` is what it was when the cancels returned, and no
/// cancelled body ran.
fn shut_down_and_check(rt: &Runtime, gate: &Gate, cancelled: u64, ran: &AtomicUsize) {
    gate.open();
    rt.shutdown();
    let m = rt.metrics();
    assert_eq!(m.submitted, m.completed + m.panicked + m.cancelled, "{m:?}");
    assert_eq!(
        m.cancelled, cancelled,
        "no cancellation counted twice: {m:?}"
    );
    assert_eq!(ran.load(Ordering::SeqCst), 0, "a cancelled body ran");
    assert_eq!(rt.stats().queued_total(), 0);
}

#[test]
fn queued_tasks_cancelled_by_their_handles_show_as_cancelled_in_status_stats_and_metrics() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let _busy = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let handles: Vec<_> = (0..N).map(|_| rt.spawn(counting(&ran))).collect();
        assert_eq!(rt.stats().queued_total(), N);
        assert!(handles.iter().all(|h| h.status() == TaskStatus::Queued));
        let before = rt.metrics();

        for h in &handles {
            assert!(h.cancel());
        }

        // At once: no sleep, no polling.
        assert!(handles.iter().all(|h| h.status() == TaskStatus::Cancelled));
        let m = rt.metrics();
        assert_eq!(m.cancelled, before.cancelled + N as u64, "{m:?}");
        assert!(m.submitted >= m.finished(), "{m:?}");
        let stats = rt.stats();
        assert_eq!(stats.queued_total(), 0, "{stats:?}");
        assert_eq!(stats.queued_at(Priority::Normal), 0);
        for h in handles {
            assert_eq!(h.join(), Err(JoinError::Cancelled));
        }
        shut_down_and_check(&rt, &gate, N as u64, &ran);
    })
}

#[test]
fn a_token_cancel_shows_at_once_in_each_priority_class() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let _busy = occupy_all_workers(&rt, &gate);
        let ran = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        let unrelated = CancellationToken::new();
        let mut handles: Vec<JoinHandle<()>> = Vec::new();
        let per_class = [3, 5, 7];
        for (class, n) in Priority::ALL.into_iter().zip(per_class) {
            for _ in 0..n {
                let body = counting(&ran);
                handles.push(rt.spawn_cancellable(class, &token, move |_| body()));
            }
        }
        // One more Normal task with another token: it stays queued.
        let kept = rt.spawn_cancellable(Priority::Normal, &unrelated, |_| 7);
        assert_eq!(rt.stats().queued.high, 3);
        assert_eq!(rt.stats().queued.normal, 6);
        assert_eq!(rt.stats().queued.background, 7);

        token.cancel();

        assert!(handles.iter().all(|h| h.status() == TaskStatus::Cancelled));
        assert_eq!(kept.status(), TaskStatus::Queued);
        let stats = rt.stats();
        assert_eq!(
            (
                stats.queued.high,
                stats.queued.normal,
                stats.queued.background
            ),
            (0, 1, 0),
            "{stats:?}"
        );
        assert_eq!(stats.metrics.cancelled, 15);
        assert_eq!(rt.metrics().cancelled, 15);
        assert_eq!(token.queued_tasks(), 0);
        assert_eq!(unrelated.queued_tasks(), 1);

        gate.open();
        assert_eq!(kept.join(), Ok(7));
        shut_down_and_check(&rt, &gate, 15, &ran);
    })
}

#[test]
fn tasks_of_a_scope_cancelled_through_their_handles_show_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let gate = Gate::new();
        let _busy = occupy_all_workers(&rt, &gate);
        let ran = AtomicUsize::new(0);
        // Opened here, its tasks on the runtime (the only worker is busy).
        rt.in_place_scope(|s| {
            let handles: Vec<_> = (0..N)
                .map(|_| {
                    s.spawn(|| {
                        ran.fetch_add(1, Ordering::SeqCst);
                    })
                })
                .collect();
            assert_eq!(rt.stats().queued_total(), N);
            for h in &handles {
                assert!(h.cancel());
            }
            assert!(handles.iter().all(|h| h.status() == TaskStatus::Cancelled));
            assert_eq!(rt.metrics().cancelled, N as u64);
            assert_eq!(rt.stats().queued_total(), 0);
            // The scope ends without waiting for the worker: every task of
            // it has ended.
        });
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        let ran = AtomicUsize::new(0);
        shut_down_and_check(&rt, &gate, N as u64, &ran);
    })
}

#[test]
fn two_runtimes_sharing_a_token_each_count_their_own_tasks_at_once() {
    without_hanging(|| {
        let (a, b) = (Runtime::new(1).unwrap(), Runtime::new(1).unwrap());
        let (gate_a, gate_b) = (Gate::new(), Gate::new());
        let _busy_a = occupy_all_workers(&a, &gate_a);
        let _busy_b = occupy_all_workers(&b, &gate_b);
        let ran = Arc::new(AtomicUsize::new(0));
        let token = CancellationToken::new();
        let on_a: Vec<_> = (0..4)
            .map(|_| {
                let body = counting(&ran);
                a.spawn_cancellable(Priority::High, &token, move |_| body())
            })
            .collect();
        let on_b: Vec<_> = (0..9)
            .map(|_| {
                let body = counting(&ran);
                b.spawn_cancellable(Priority::Background, &token, move |_| body())
            })
            .collect();

        token.cancel();

        assert!(on_a
            .iter()
            .chain(&on_b)
            .all(|h| h.status() == TaskStatus::Cancelled));
        assert_eq!(a.metrics().cancelled, 4);
        assert_eq!(b.metrics().cancelled, 9);
        assert_eq!(a.stats().queued_total(), 0);
        assert_eq!(b.stats().queued_total(), 0);
        shut_down_and_check(&a, &gate_a, 4, &ran);
        shut_down_and_check(&b, &gate_b, 9, &ran);
    })
}

#[test]
fn a_task_cancelled_through_its_handle_from_inside_a_task_shows_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let body = counting(&ran);
        // On the only worker: the task it spawns is queued on its own deque
        // until it returns.
        let seen = rt.install(|| {
            let h = rt.spawn(body);
            assert!(h.cancel());
            (
                h.status(),
                rt.metrics().cancelled,
                rt.stats().queued_total(),
            )
        });
        assert_eq!(seen, (TaskStatus::Cancelled, 1, 0));
        let gate = Gate::new();
        shut_down_and_check(&rt, &gate, 1, &ran);
    })
}
