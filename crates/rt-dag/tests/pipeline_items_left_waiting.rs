//! A pipeline stopped by a failure leaves items waiting at a later serial
//! stage (for the failed item, which never comes): they are dropped as
//! every other item the pipeline drops, a panic in their `Drop` contained,
//! never on the caller's thread as an unwind out of `run`.

mod common;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, EXPECTED};
use rt_core::Runtime;
use rt_dag::{Pipeline, PipelineError};
use rt_testkit::{without_hanging, Gate};

/// An item whose `Drop` panics unless a serial stage defused it; every
/// drop is counted.
struct Bomb {
    id: u64,
    armed: bool,
    drops: Arc<AtomicUsize>,
}

impl Drop for Bomb {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
        if self.armed {
            panic!("{EXPECTED}: item {} dropped armed", self.id);
        }
    }
}

/// The item that fails in the parallel stage.
const FAILING: u64 = 5;

#[test]
fn items_waiting_at_a_later_serial_stage_when_a_parallel_stage_fails_are_dropped_without_unwinding_out_of_run(
) {
    without_hanging(|| {
        quiet_expected_panics();
        let rt = Runtime::new(2).unwrap();
        let drops = Arc::new(AtomicUsize::new(0));
        let produced = Arc::new(AtomicUsize::new(0));
        // Opened once the item after the failing one has left the parallel
        // stage: it then waits at the serial stage for the failing item,
        // which never comes, and stays there until the pipeline is over.
        let next_passed = Arc::new(Gate::new());
        let mut next = 0u64;
        let pipeline = {
            let (drops, produced, next_passed) =
                (drops.clone(), produced.clone(), next_passed.clone());
            let produce = move || {
                if next == 40 {
                    return None;
                }
                next += 1;
                produced.fetch_add(1, Ordering::SeqCst);
                Some(Bomb {
                    id: next - 1,
                    armed: true,
                    drops: drops.clone(),
                })
            };
            Pipeline::from_fn(4, produce)
                .parallel(move |mut item: Bomb| {
                    if item.id == FAILING {
                        next_passed.wait();
                        item.armed = false; // not dropped armed while unwinding
                        panic!("{EXPECTED}: the parallel stage fails");
                    }
                    if item.id == FAILING + 1 {
                        next_passed.open();
                    }
                    item
                })
                .serial(|mut item: Bomb| item.armed = false)
        };
        let result = catch_unwind(AssertUnwindSafe(|| pipeline.run(&rt)));
        let Ok(result) = result else {
            panic!("`run` unwound: an item waiting at the serial stage was dropped on the caller's thread, uncontained");
        };
        assert!(
            matches!(
                result,
                Err(PipelineError::Panicked {
                    item: FAILING,
                    stage: 1,
                    completed: FAILING,
                    ..
                })
            ),
            "{result:?}"
        );
        assert_eq!(
            drops.load(Ordering::SeqCst),
            produced.load(Ordering::SeqCst),
            "every item produced was dropped once"
        );
    })
}
