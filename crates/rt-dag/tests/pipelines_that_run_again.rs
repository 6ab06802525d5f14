//! A pipeline runs again through `run_mut`: each run goes on from the
//! source's state, the tokens go on counting over the runs, and `reset`
//! counts them from 0 again.

mod common;

use std::sync::Mutex;

use common::{Inline, Pool};
use rt_core::Runtime;
use rt_dag::{Executor, Pipeline, StageContext};
use rt_testkit::without_hanging;

fn a_pipeline_run_three_times_counts_its_tokens_over_the_runs_on(executor: &impl Executor) {
    let seen = Mutex::new(Vec::new());
    let mut per_run = 0u64;
    let mut pipeline = Pipeline::from_fn_with_context(3, move |ctx: &mut StageContext| {
        // Seven items a run.
        if per_run == 7 {
            per_run = 0;
            return None;
        }
        per_run += 1;
        Some(ctx.token())
    })
    .serial_with_context(|token, ctx| {
        assert_eq!(token, ctx.token());
        assert_eq!(ctx.line() as u64, ctx.token() % 3);
        seen.lock().unwrap().push(token);
    });
    for run in 1..=3u64 {
        let report = pipeline.run_mut(executor).unwrap();
        assert_eq!(report.items(), 7);
        assert_eq!(report.tokens(), 7 * run);
        assert_eq!(pipeline.tokens(), 7 * run);
    }
    drop(pipeline);
    assert_eq!(seen.into_inner().unwrap(), (0..21).collect::<Vec<_>>());
}

#[test]
fn a_pipeline_run_three_times_counts_its_tokens_over_the_runs_on_the_runtime() {
    without_hanging(|| {
        a_pipeline_run_three_times_counts_its_tokens_over_the_runs_on(&Runtime::new(2).unwrap())
    })
}

#[test]
fn a_pipeline_run_three_times_counts_its_tokens_over_the_runs_inline() {
    without_hanging(|| a_pipeline_run_three_times_counts_its_tokens_over_the_runs_on(&Inline))
}

#[test]
fn a_pipeline_run_three_times_counts_its_tokens_over_the_runs_on_a_pool() {
    without_hanging(|| a_pipeline_run_three_times_counts_its_tokens_over_the_runs_on(&Pool::new(3)))
}

#[test]
fn an_iterator_source_goes_on_where_the_previous_run_stopped() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut out = Vec::new();
        {
            let mut pipeline = Pipeline::from_iter(4, 0..10u32)
                .parallel(|x| x * 10)
                .serial(|x| out.push(x));
            assert_eq!(pipeline.run_mut(&rt).unwrap().items(), 10);
            // The iterator is used up: the second run has no item.
            assert_eq!(pipeline.run_mut(&rt).unwrap().items(), 0);
            assert_eq!(pipeline.tokens(), 10);
        }
        assert_eq!(out, (0..10).map(|x| x * 10).collect::<Vec<_>>());
    })
}

#[test]
fn reset_counts_the_tokens_from_zero_again_and_the_next_item_travels_on_line_zero() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let lines_seen = Mutex::new(Vec::new());
        let mut pipeline = Pipeline::from_fn_with_context(4, |ctx| {
            if ctx.token() == 6 {
                ctx.stop();
            }
            Some(())
        })
        .serial_with_context(|(), ctx| lines_seen.lock().unwrap().push((ctx.token(), ctx.line())));
        pipeline.run_mut(&rt).unwrap();
        assert_eq!(pipeline.tokens(), 6);
        pipeline.reset();
        assert_eq!(pipeline.tokens(), 0);
        pipeline.run_mut(&rt).unwrap();
        drop(pipeline);
        let seen = lines_seen.into_inner().unwrap();
        let expected: Vec<(u64, usize)> = (0..6).map(|t| (t, t as usize % 4)).collect();
        assert_eq!(seen, [expected.clone(), expected].concat());
    })
}

#[test]
fn a_pipeline_whose_run_failed_runs_again_from_a_clean_state() {
    without_hanging(|| {
        common::quiet_expected_panics();
        let rt = Runtime::new(2).unwrap();
        let mut fail = true;
        let mut written = Vec::new();
        {
            let mut pipeline = Pipeline::from_fn_with_context(2, |ctx| {
                (ctx.token() % 10 != 9 || ctx.is_stopped()).then(|| ctx.token())
            })
            .serial(move |token| {
                if fail && token == 4 {
                    fail = false;
                    panic!("{}: once", common::EXPECTED);
                }
                token
            })
            .serial(|token| written.push(token));
            assert!(pipeline.run_mut(&rt).is_err());
            // Tokens 5..9 were produced, or not, before the failure stopped
            // the source: the next run starts at the next token.
            let next = pipeline.tokens();
            assert!((5..=9).contains(&next), "{next}");
            let report = pipeline.run_mut(&rt).unwrap();
            assert_eq!(report.tokens() % 10, 9);
        }
        assert_eq!(&written[..4], &[0, 1, 2, 3]);
        assert!(
            written[4..].windows(2).all(|w| w[0] + 1 == w[1]),
            "{written:?}"
        );
    })
}
