//! A pipeline's line count is checked when it runs (none, or more than
//! `Pipeline::MAX_LINES`, is an error, never a panic), and what a run sets
//! up follows the lines its items use, not the lines it may use: a
//! pipeline of a hundred million lines over ten items allocates about as
//! much as one of ten lines.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use common::Inline;
use rt_dag::{Pipeline, PipelineError};
use rt_testkit::without_hanging;

/// Counts the bytes each thread allocates: the pipelines measured here run
/// on `Inline`, so everything they allocate is counted on the measuring
/// thread, whatever the other tests of this binary do at the same time.
struct Counting;

thread_local! {
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator, counting.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // A thread being torn down has no counter left; its bytes are not
        // a measured pipeline's.
        let _ = ALLOCATED.try_with(|bytes| bytes.set(bytes.get() + layout.size()));
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, forwarded.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn more_lines_than_a_pipeline_may_have_is_an_error_not_a_panic() {
    without_hanging(|| {
        let result = Pipeline::from_iter(usize::MAX, 0..10)
            .parallel(|x| x)
            .run(&Inline);
        assert_eq!(
            result,
            Err(PipelineError::TooManyLines { lines: usize::MAX })
        );
        let most = Pipeline::<u8>::MAX_LINES;
        let result = Pipeline::from_iter(most + 1, 0..10)
            .serial(|x| x)
            .run(&Inline);
        assert_eq!(result, Err(PipelineError::TooManyLines { lines: most + 1 }));
    })
}

#[test]
fn a_pipeline_of_no_lines_is_an_error_whichever_way_it_runs() {
    without_hanging(|| {
        let mut pipeline = Pipeline::from_iter(0, 0..10).parallel(|x| x);
        assert_eq!(pipeline.run_mut(&Inline), Err(PipelineError::ZeroLines));
        pipeline.set_lines(3);
        assert_eq!(pipeline.run_mut(&Inline).unwrap().items(), 10);
    })
}

/// Bytes allocated by building and running a pipeline of three stages over
/// ten items on `lines` lines.
fn allocated_by_ten_items_on(lines: usize) -> usize {
    let before = ALLOCATED.with(Cell::get);
    let out = Pipeline::from_iter(lines, 0..10u64)
        .parallel(|x| x + 1)
        .serial(|x| x * 2)
        .collect(&Inline)
        .unwrap();
    assert_eq!(out, (0..10).map(|x| (x + 1) * 2).collect::<Vec<_>>());
    ALLOCATED.with(Cell::get) - before
}

#[test]
fn a_pipeline_of_far_more_lines_than_items_sets_up_only_the_lines_its_items_use() {
    without_hanging(|| {
        let ten = allocated_by_ten_items_on(10);
        let many = allocated_by_ten_items_on(100_000_000);
        let most = allocated_by_ten_items_on(Pipeline::<u64>::MAX_LINES);
        // The same lines come into use: a little more at most (the
        // segments round up to powers of two).
        assert!(many <= 2 * ten + 4096, "{many} bytes against {ten}");
        assert!(most <= 2 * ten + 4096, "{most} bytes against {ten}");
    })
}
