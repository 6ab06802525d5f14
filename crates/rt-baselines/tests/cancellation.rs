//! A task cancelled before it starts never runs its body.

#[macro_use]
mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::{blocked_pool, Gate, Strategy};
use rt_handle::{CancellationToken, JoinError, Priority};
use rt_testkit::without_hanging;

on_every_strategy!(
    a_task_whose_token_was_cancelled_before_start_never_runs,
    a_task_whose_token_is_live_runs_and_can_see_its_context,
);

fn a_task_whose_token_was_cancelled_before_start_never_runs(executor: impl Strategy) {
    let token = CancellationToken::new();
    token.cancel();
    let ran = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&ran);
    let handle = executor.spawn_cancellable(Priority::High, &token, move |_ctx| {
        flag.store(true, Ordering::SeqCst);
    });
    assert_eq!(handle.join(), Err(JoinError::Cancelled));
    executor.shut_down();
    assert!(
        !ran.load(Ordering::SeqCst),
        "the body of a cancelled task ran"
    );
}

fn a_task_whose_token_is_live_runs_and_can_see_its_context(executor: impl Strategy) {
    let token = CancellationToken::new();
    let handle = executor.spawn_cancellable(Priority::Normal, &token, |ctx| ctx.is_cancelled());
    assert_eq!(handle.join(), Ok(false));
}

#[test]
fn a_queued_task_whose_token_is_cancelled_while_it_waits_never_runs() {
    without_hanging(|| {
        let gate = Arc::new(Gate::default());
        let pool = blocked_pool(&gate);
        let token = CancellationToken::new();
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        let cancelled = pool.spawn_cancellable(Priority::Normal, &token, move |_| {
            flag.store(true, Ordering::SeqCst);
        });
        let unrelated = pool.spawn(|| "runs");
        token.cancel();
        gate.open();
        assert_eq!(cancelled.join(), Err(JoinError::Cancelled));
        assert_eq!(unrelated.join(), Ok("runs"));
        assert!(!ran.load(Ordering::SeqCst));
    })
}

#[test]
fn a_queued_task_cancelled_through_its_handle_never_runs_and_the_pool_goes_on() {
    without_hanging(|| {
        let gate = Arc::new(Gate::default());
        let pool = blocked_pool(&gate);
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        let cancelled = pool.spawn(move || flag.store(true, Ordering::SeqCst));
        let next = pool.spawn(|| 2);
        assert!(cancelled.cancel());
        gate.open();
        assert_eq!(cancelled.join(), Err(JoinError::Cancelled));
        assert_eq!(next.join(), Ok(2));
        pool.shutdown();
        assert!(!ran.load(Ordering::SeqCst));
    })
}
