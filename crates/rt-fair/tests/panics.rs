//! A panicking task is reported to its handle by default, or re-raised from
//! `run_until` / `block_on` with `with_panic_propagation(true)`.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};

use rt_fair::{yield_now, FairExecutorBuilder, JoinError};
use support::DropFlag;

use rt_handle::raw::payload_message as panic_text;
use rt_testkit::without_hanging;

#[test]
fn by_default_a_task_panic_becomes_a_join_error_and_the_executor_carries_on() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let (guard, dropped) = DropFlag::new();
        let bad = queue.spawn(async move {
            let _guard = guard;
            yield_now().await;
            panic!("request {} was malformed", 17);
        });
        let good = queue.spawn(async {
            yield_now().await;
            yield_now().await;
            "still serving"
        });
        let (bad, good) = executor.block_on(async { (bad.await, good.await) });
        assert_eq!(
            bad,
            Err(JoinError::Panicked("request 17 was malformed".into()))
        );
        assert_eq!(good, Ok("still serving"));
        assert!(dropped.get());
        let stats = executor.stats();
        assert_eq!((stats.queues[0].panicked, stats.queues[0].live()), (1, 0));
    })
}

#[test]
fn a_task_that_panics_with_a_struct_gives_its_handle_that_struct() {
    #[derive(Debug, PartialEq)]
    struct Refused {
        code: u16,
    }
    without_hanging(|| {
        let executor = FairExecutorBuilder::new().with_queue(0, 1).build().unwrap();
        let queue = executor.queue(0).unwrap();
        let bad = queue.spawn(async { std::panic::panic_any::<Refused>(Refused { code: 413 }) });
        let error = executor.block_on(bad).unwrap_err();
        assert!(error.is_panic());
        assert_eq!(
            error.to_string(),
            format!("task panicked: {}", rt_handle::NON_STRING_PAYLOAD)
        );
        let payload = error.into_panic();
        assert_eq!(
            payload.downcast_ref::<Refused>(),
            Some(&Refused { code: 413 })
        );
    })
}

#[test]
fn with_propagation_a_task_panic_is_re_raised_from_block_on() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new()
            .with_queue(0, 1)
            .with_panic_propagation(true)
            .build()
            .unwrap();
        let queue = executor.queue(0).unwrap();
        let bad = queue.spawn(async { panic!("disk on fire") });
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            executor.block_on(std::future::pending::<()>())
        }));
        let payload = outcome.expect_err("the panic must leave block_on");
        assert_eq!(panic_text(payload.as_ref()), "disk on fire");
        // The task is gone and its handle says why; the executor still works.
        let after = queue.spawn(async { 5 });
        assert_eq!(
            executor.block_on(bad),
            Err(JoinError::Panicked("disk on fire".into()))
        );
        assert_eq!(executor.block_on(after), Ok(5));
    })
}

#[test]
fn with_propagation_a_task_panic_is_re_raised_from_run_until_inside_tokio() {
    without_hanging(|| {
        let executor = FairExecutorBuilder::new()
            .with_queue(0, 1)
            .with_panic_propagation(true)
            .build()
            .unwrap();
        let queue = executor.queue(0).unwrap();
        let host = support::tokio_host();
        let local = tokio::task::LocalSet::new();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            local.block_on(
                &host,
                executor.run_until(async {
                    let _ = queue
                        .spawn(async {
                            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
                            panic!("{}", String::from("owned message"))
                        })
                        .await;
                    unreachable!("run_until must unwind before the handle resolves");
                }),
            )
        }));
        let payload = outcome.expect_err("the panic must leave run_until");
        assert_eq!(panic_text(payload.as_ref()), "owned message");
    })
}
