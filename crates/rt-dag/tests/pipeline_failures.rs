//! A panic in a stage stops the pipeline and names the item and the stage;
//! nothing is lost or run twice; cancellation and a shut-down executor stop
//! it too.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use common::{quiet_expected_panics, Inline, EXPECTED};
use rt_core::Runtime;
use rt_dag::{CancellationToken, Pipeline, PipelineError};
use rt_testkit::without_hanging;

#[test]
fn a_panic_in_a_stage_names_the_item_and_the_stage_and_the_earlier_items_go_through() {
    without_hanging(|| {
        quiet_expected_panics();
        let rt = Runtime::new(2).unwrap();
        let mut written = Vec::new();
        let result = Pipeline::from_iter(4, 0..1_000u32)
            .parallel(|x| x)
            .serial(|x| {
                if x == 37 {
                    panic!("{EXPECTED}: item 37");
                }
                x
            })
            .parallel(|x| x)
            .serial(|x| written.push(x))
            .run(&rt);
        assert_eq!(
            result,
            Err(PipelineError::Panicked {
                item: 37,
                stage: 2,
                message: format!("{EXPECTED}: item 37"),
                completed: 37
            })
        );
        assert_eq!(written, (0..37).collect::<Vec<_>>());
        let message = result.unwrap_err().to_string();
        assert!(
            message.contains("stage 2") && message.contains("item 37"),
            "{message}"
        );
    })
}

/// An item that counts its drops.
struct Counted {
    id: u64,
    drops: Arc<Vec<AtomicUsize>>,
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.drops[self.id as usize].fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn every_item_produced_is_dropped_once_and_no_stage_runs_twice_on_an_item_whatever_panics() {
    without_hanging(|| {
        quiet_expected_panics();
        let rt = Runtime::new(2).unwrap();
        const ITEMS: usize = 300;
        // A panic at every stage (the source is stage 0), at items early
        // and late.
        for stage in 0..=4usize {
            for panic_at in [0u64, 1, 150, 299] {
                let drops = Arc::new((0..ITEMS).map(|_| AtomicUsize::new(0)).collect::<Vec<_>>());
                let runs: Arc<Vec<AtomicUsize>> =
                    Arc::new((0..ITEMS * 5).map(|_| AtomicUsize::new(0)).collect());
                let produced = Arc::new(AtomicUsize::new(0));
                let visit = |s: usize, item: &Counted| {
                    runs[item.id as usize * 5 + s].fetch_add(1, Ordering::SeqCst);
                    if s == stage && item.id == panic_at {
                        panic!("{EXPECTED}: stage {s}");
                    }
                };
                let mut next = 0u64;
                let result = {
                    let (drops, produced) = (drops.clone(), produced.clone());
                    Pipeline::from_fn(6, move || {
                        if next as usize == ITEMS {
                            return None;
                        }
                        let item = Counted {
                            id: next,
                            drops: drops.clone(),
                        };
                        next += 1;
                        produced.fetch_add(1, Ordering::SeqCst);
                        visit(0, &item);
                        Some(item)
                    })
                    .parallel(|item| {
                        visit(1, &item);
                        item
                    })
                    .serial(|item| {
                        visit(2, &item);
                        item
                    })
                    .parallel(|item| {
                        visit(3, &item);
                        item
                    })
                    .serial(|item| visit(4, &item))
                    .run(&rt)
                };
                let Err(PipelineError::Panicked {
                    item,
                    stage: at,
                    completed,
                    ..
                }) = result
                else {
                    panic!("stage {stage}, item {panic_at}: {result:?}");
                };
                assert_eq!((item, at), (panic_at, stage));
                assert_eq!(
                    completed, panic_at,
                    "the items before the failed one went through"
                );
                let produced = produced.load(Ordering::SeqCst);
                for id in 0..ITEMS {
                    let expected = usize::from(id < produced);
                    assert_eq!(
                        drops[id].load(Ordering::SeqCst),
                        expected,
                        "drops of item {id}"
                    );
                    for s in 0..5 {
                        assert!(
                            runs[id * 5 + s].load(Ordering::SeqCst) <= 1,
                            "item {id} ran stage {s} twice"
                        );
                    }
                }
            }
        }
    })
}

#[test]
fn cancelling_stops_every_item_at_its_next_stage_and_reports_what_went_through() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let token = CancellationToken::new();
        let written = Mutex::new(Vec::new());
        let canceller = token.clone();
        let result = Pipeline::from_iter(4, 0..u64::MAX)
            .parallel(move |x| {
                if x == 500 {
                    canceller.cancel();
                }
                x
            })
            .serial(|x| written.lock().unwrap().push(x))
            .run_cancellable(&rt, &token);
        let Err(PipelineError::Cancelled { completed }) = result else {
            panic!("{result:?}");
        };
        let written = written.into_inner().unwrap();
        assert_eq!(written.len() as u64, completed);
        assert_eq!(written, (0..completed).collect::<Vec<_>>());
        assert!(completed <= 504);
    })
}

#[test]
fn a_pipeline_on_a_shut_down_runtime_is_rejected_instead_of_hanging() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        rt.shutdown();
        let drops = Arc::new(AtomicUsize::new(0));
        let result = Pipeline::from_iter(4, 0..10).parallel(|x| x).run(&rt);
        assert_eq!(
            result,
            Err(PipelineError::Rejected {
                item: 0,
                stage: 0,
                completed: 0
            })
        );
        drop(drops);
    })
}

#[test]
fn a_panic_in_the_source_stops_the_pipeline_at_the_item_it_was_producing() {
    without_hanging(|| {
        quiet_expected_panics();
        let mut n = 0u32;
        let out = Mutex::new(Vec::new());
        let result = Pipeline::from_fn(3, move || {
            n += 1;
            if n == 6 {
                panic!("{EXPECTED}: source");
            }
            Some(n)
        })
        .serial(|x| out.lock().unwrap().push(x))
        .run(&Inline);
        assert!(matches!(
            result,
            Err(PipelineError::Panicked {
                item: 5,
                stage: 0,
                completed: 5,
                ..
            })
        ));
        assert_eq!(*out.lock().unwrap(), vec![1, 2, 3, 4, 5]);
    })
}
