//! Pipelines: items from a source through serial and parallel stages, at
//! most `lines` at a time, a serial stage seeing them in input order.

mod common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::{Inline, Pool};
use rt_core::Runtime;
use rt_dag::{Executor, Pipeline, PipelineError, StageKind};
use rt_testkit::{without_hanging, Latch};

/// A little work whose length varies with the item, so that parallel
/// stages finish out of order.
fn jitter(x: u64) {
    if x % 7 == 3 {
        std::thread::sleep(Duration::from_micros(300));
    }
}

fn a_serial_last_stage_sees_every_item_in_input_order_on(executor: &impl Executor) {
    let mut seen = Vec::new();
    let report = Pipeline::from_iter(4, 0..500u64)
        .parallel(|x| {
            jitter(x);
            x * 3
        })
        .serial(|x| x + 1)
        .parallel(|x| {
            jitter(x);
            x
        })
        .serial(|x| seen.push(x))
        .run(executor)
        .unwrap();
    assert_eq!(report.items(), 500);
    assert_eq!(seen, (0..500).map(|x| x * 3 + 1).collect::<Vec<_>>());
}

#[test]
fn a_serial_last_stage_sees_every_item_in_input_order_on_the_runtime() {
    without_hanging(|| {
        a_serial_last_stage_sees_every_item_in_input_order_on(&Runtime::new(2).unwrap())
    })
}

#[test]
fn a_serial_last_stage_sees_every_item_in_input_order_on_one_worker() {
    without_hanging(|| {
        a_serial_last_stage_sees_every_item_in_input_order_on(&Runtime::new(1).unwrap())
    })
}

#[test]
fn a_serial_last_stage_sees_every_item_in_input_order_on_a_pool() {
    without_hanging(|| a_serial_last_stage_sees_every_item_in_input_order_on(&Pool::new(3)))
}

#[test]
fn a_serial_last_stage_sees_every_item_in_input_order_inline() {
    without_hanging(|| a_serial_last_stage_sees_every_item_in_input_order_on(&Inline))
}

#[test]
fn collect_returns_the_outputs_in_the_order_of_their_items() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let out = Pipeline::from_iter(3, (0..1000u32).rev())
            .parallel(|x| {
                jitter(u64::from(x));
                x.to_string()
            })
            .collect(&rt)
            .unwrap();
        let expected: Vec<String> = (0..1000u32).rev().map(|x| x.to_string()).collect();
        assert_eq!(out, expected);
    })
}

/// An item that counts the items alive.
struct Tracked {
    alive: Arc<AtomicUsize>,
}

impl Tracked {
    fn new(alive: &Arc<AtomicUsize>, most: &Arc<AtomicUsize>) -> Self {
        let now = alive.fetch_add(1, Ordering::SeqCst) + 1;
        most.fetch_max(now, Ordering::SeqCst);
        Self {
            alive: alive.clone(),
        }
    }
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.alive.fetch_sub(1, Ordering::SeqCst);
    }
}

#[test]
fn at_most_lines_items_exist_at_once_however_long_the_stream() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for lines in [1, 2, 5] {
            let (alive, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
            let mut produced = 0u64;
            let (a, m) = (alive.clone(), most.clone());
            let report = Pipeline::from_fn(lines, move || {
                produced += 1;
                (produced <= 2_000).then(|| Tracked::new(&a, &m))
            })
            .parallel(|t| {
                jitter(7 * 3);
                t
            })
            .serial(|t| t)
            .parallel(drop)
            .run(&rt)
            .unwrap();
            assert_eq!(report.items(), 2_000);
            assert!(
                most.load(Ordering::SeqCst) <= lines,
                "lines {lines}: {}",
                most.load(Ordering::SeqCst)
            );
            assert_eq!(alive.load(Ordering::SeqCst), 0);
        }
    })
}

#[test]
fn a_parallel_stage_takes_several_items_at_once() {
    without_hanging(|| {
        // The first two items wait in the parallel stage for each other: the
        // pipeline finishes only if both are in it at the same time.
        let rt = Runtime::new(2).unwrap();
        let both = Latch::new(2);
        let report = Pipeline::from_iter(4, 0..10u32)
            .parallel(move |x| {
                if x < 2 {
                    both.count_down();
                    both.wait();
                }
                x
            })
            .run(&rt)
            .unwrap();
        assert_eq!(report.items(), 10);
    })
}

#[test]
fn a_serial_stage_never_takes_two_items_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let busy = AtomicBool::new(false);
        let mut count = 0;
        Pipeline::from_iter(8, 0..2_000u32)
            .parallel(|x| x)
            .serial(|x| {
                assert!(!busy.swap(true, Ordering::SeqCst), "two items at once");
                count += 1;
                jitter(u64::from(x));
                busy.store(false, Ordering::SeqCst);
            })
            .run(&rt)
            .unwrap();
        assert_eq!(count, 2_000);
    })
}

#[test]
fn an_empty_source_completes_with_no_item() {
    without_hanging(|| {
        let report = Pipeline::from_iter(4, std::iter::empty::<u8>())
            .parallel(|x| x)
            .run(&Runtime::new(2).unwrap())
            .unwrap();
        assert_eq!(report.items(), 0);
    })
}

#[test]
fn a_pipeline_of_a_source_alone_drains_it() {
    without_hanging(|| {
        let out = Pipeline::from_iter(2, 0..100).collect(&Inline).unwrap();
        assert_eq!(out, (0..100).collect::<Vec<_>>());
    })
}

#[test]
fn a_pipeline_without_lines_is_refused() {
    without_hanging(|| {
        let result = Pipeline::from_iter(0, 0..10).parallel(|x| x).run(&Inline);
        assert_eq!(result, Err(PipelineError::ZeroLines));
    })
}

#[test]
fn a_pipeline_describes_its_stages() {
    without_hanging(|| {
        let pipeline = Pipeline::from_iter(3, 0..1).parallel(|x| x).serial(|x| x);
        assert_eq!(pipeline.lines(), 3);
        assert_eq!(
            pipeline.stages().collect::<Vec<_>>(),
            vec![StageKind::Serial, StageKind::Parallel, StageKind::Serial]
        );
        assert!(format!("{pipeline:?}").contains("Parallel"));
    })
}

#[test]
fn a_pipeline_run_inside_a_task_of_a_one_worker_runtime_completes() {
    without_hanging(|| {
        let rt = Arc::new(Runtime::new(1).unwrap());
        let inner = rt.clone();
        let out = rt
            .spawn(move || {
                Pipeline::from_iter(4, 0..200)
                    .parallel(|x| x * 2)
                    .collect(&*inner)
            })
            .join()
            .unwrap()
            .unwrap();
        assert_eq!(out, (0..200).map(|x| x * 2).collect::<Vec<_>>());
    })
}
