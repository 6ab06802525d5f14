//! rt-fair used carelessly: futures whose destructors panic when the
//! executor drops them, handles awaited twice, tasks aborting themselves,
//! odd builder arguments.

mod support;

use std::process::Command;
use std::time::Duration;

use rt_fair::{yield_now, BuildError, FairExecutorBuilder, JoinError};
use rt_testkit::{quietly, without_hanging};

struct PanicOnDrop;

impl Drop for PanicOnDrop {
    fn drop(&mut self) {
        panic!("future dropped with a panic");
    }
}

#[test]
fn dropping_the_executor_with_a_pending_task_whose_future_panics_on_drop_is_contained() {
    without_hanging(|| {
        let ex = FairExecutorBuilder::new()
            .with_queue(0u8, 1)
            .build()
            .unwrap();
        let q = ex.queue(0).unwrap();
        let _task = q.spawn(async {
            let _p = PanicOnDrop;
            std::future::pending::<()>().await;
        });
        ex.block_on(yield_now());
        let dropped =
            quietly(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(ex))));
        assert!(
            dropped.is_ok(),
            "the panic escaped from dropping the executor"
        );
    });
}

/// Runs the scenario of `child` in a child process (a process abort must
/// not take this test binary down) and returns whether it exited normally.
fn in_child(child: &str) -> bool {
    let status = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            child,
            "--include-ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("RT_FAIR_CHILD", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    status.success()
}

#[test]
fn child_two_unpolled_tasks_with_panicking_destructors_dropped_with_the_executor() {
    if std::env::var_os("RT_FAIR_CHILD").is_none() {
        return; // only the scenario of the test below, in its own process
    }
    let ex = FairExecutorBuilder::new()
        .with_queue(0u8, 1)
        .build()
        .unwrap();
    let q = ex.queue(0).unwrap();
    let (a, b) = (PanicOnDrop, PanicOnDrop);
    let _t = q.spawn(async move {
        let _a = a;
    });
    let _u = q.spawn(async move {
        let _b = b;
    });
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| drop(ex)));
}

#[test]
fn dropping_the_executor_with_two_queued_futures_that_panic_on_drop_does_not_abort_the_process() {
    without_hanging(|| {
        assert!(in_child(
            "child_two_unpolled_tasks_with_panicking_destructors_dropped_with_the_executor"
        ));
    });
}

#[test]
fn the_basic_builder_errors_are_reported() {
    assert!(matches!(
        FairExecutorBuilder::<u8>::new().build(),
        Err(BuildError::NoQueues)
    ));
    assert!(matches!(
        FairExecutorBuilder::new().with_queue(0u8, 0).build(),
        Err(BuildError::ZeroWeight { index: 0 })
    ));
    assert!(matches!(
        FairExecutorBuilder::new()
            .with_queue(0u8, 1)
            .with_queue(0u8, 2)
            .build(),
        Err(BuildError::DuplicateKey { index: 1, first: 0 })
    ));
    assert!(matches!(
        FairExecutorBuilder::new()
            .with_queue(0u8, 1)
            .with_time_slice(Duration::ZERO)
            .build(),
        Err(BuildError::ZeroTimeSlice)
    ));
}

#[test]
fn extreme_weights_and_slices_still_run_every_task() {
    without_hanging(|| {
        let ex = FairExecutorBuilder::new()
            .with_queue(0u8, u32::MAX)
            .with_queue(1u8, 1)
            .with_time_slice(Duration::MAX)
            .with_rejoin_credit(Duration::MAX)
            .with_host_interval(Duration::MAX)
            .build()
            .unwrap();
        let (a, b) = (ex.queue(0).unwrap(), ex.queue(1).unwrap());
        let hs: Vec<_> = (0..20)
            .map(|i| {
                if i % 2 == 0 {
                    a.spawn(async move { i })
                } else {
                    b.spawn(async move { i })
                }
            })
            .collect();
        let sum = ex.block_on(async {
            let mut sum = 0;
            for h in hs {
                sum += h.await.unwrap();
            }
            sum
        });
        assert_eq!(sum, (0..20).sum());
        let tiny = FairExecutorBuilder::new()
            .with_queue(0u8, 1)
            .with_time_slice(Duration::from_nanos(1))
            .with_host_interval(Duration::ZERO)
            .build()
            .unwrap();
        let q = tiny.queue(0).unwrap();
        assert_eq!(tiny.block_on(q.spawn(async { 3 })), Ok(3));
    });
}

#[test]
fn a_task_aborting_itself_finishes_as_aborted() {
    without_hanging(|| {
        let ex = FairExecutorBuilder::new()
            .with_queue(0u8, 1)
            .build()
            .unwrap();
        let q = ex.queue(0).unwrap();
        let slot: std::rc::Rc<std::cell::OnceCell<rt_fair::JoinHandle<()>>> = Default::default();
        let s = slot.clone();
        let h = q.spawn(async move {
            yield_now().await;
            if let Some(me) = s.get() {
                me.abort();
            }
            yield_now().await;
        });
        let watcher = q.spawn(async {});
        assert!(slot.set(h).is_ok());
        ex.block_on(async {
            watcher.await.unwrap();
            for _ in 0..10 {
                yield_now().await;
            }
        });
        let h = std::rc::Rc::try_unwrap(slot)
            .ok()
            .unwrap()
            .into_inner()
            .unwrap();
        assert!(h.is_finished());
        assert_eq!(ex.block_on(h), Err(JoinError::Cancelled));
    });
}

#[test]
fn a_handle_polled_again_after_ready_panics_clearly() {
    without_hanging(|| {
        let ex = FairExecutorBuilder::new()
            .with_queue(0u8, 1)
            .build()
            .unwrap();
        let q = ex.queue(0).unwrap();
        let mut h = q.spawn(async { 1 });
        assert_eq!(ex.block_on(&mut h), Ok(1));
        let again = quietly(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| ex.block_on(&mut h)))
        });
        assert!(again.is_err());
    });
}

#[test]
fn aborting_a_finished_task_twice_keeps_its_value() {
    without_hanging(|| {
        let ex = FairExecutorBuilder::new()
            .with_queue(0u8, 1)
            .build()
            .unwrap();
        let q = ex.queue(0).unwrap();
        let h = q.spawn(async { 9 });
        ex.block_on(yield_now());
        ex.block_on(yield_now());
        h.abort();
        h.abort();
        assert_eq!(ex.block_on(h), Ok(9));
    });
}
