//! Each stage's call is told its line, the item's token and its stage;
//! the first stage ends the stream with `stop`, and a later stage that
//! calls it gets an error, not a panic or a hang.

mod common;

use std::sync::Mutex;

use common::Inline;
use rt_core::Runtime;
use rt_dag::{Pipe, Pipeline, PipelineError};
use rt_testkit::without_hanging;

#[test]
fn every_stage_is_told_its_line_the_token_and_its_stage() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let calls = Mutex::new(Vec::new());
        let report = Pipeline::from_fn_with_context(3, |ctx| {
            assert_eq!(ctx.pipe(), 0);
            (ctx.token() < 20).then_some(ctx.token())
        })
        .parallel_with_context(|token, ctx| {
            assert_eq!((ctx.token(), ctx.pipe()), (token, 1));
            calls.lock().unwrap().push((ctx.token(), ctx.line()));
            token
        })
        .serial_with_context(|token, ctx| assert_eq!((ctx.token(), ctx.pipe()), (token, 2)))
        .run(&rt)
        .unwrap();
        assert_eq!(report.items(), 20);
        let mut calls = calls.into_inner().unwrap();
        calls.sort();
        assert_eq!(
            calls,
            (0..20).map(|t| (t, t as usize % 3)).collect::<Vec<_>>()
        );
    })
}

#[test]
fn the_first_stage_ends_the_stream_with_stop_and_what_it_returned_then_is_dropped() {
    without_hanging(|| {
        let out = Pipeline::from_fn_with_context(2, |ctx| {
            if ctx.token() == 3 {
                ctx.stop();
            }
            Some(ctx.token())
        })
        .collect(&Inline)
        .unwrap();
        assert_eq!(out, [0, 1, 2]);
    })
}

#[test]
fn stop_called_in_a_later_stage_is_an_error_that_names_the_item_and_the_stage() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let result = Pipeline::from_pipes(
            4,
            vec![
                Pipe::serial(|ctx| {
                    if ctx.token() == 100 {
                        ctx.stop();
                    }
                }),
                Pipe::parallel(|_| ()),
                Pipe::serial(|ctx| {
                    if ctx.token() == 10 {
                        ctx.stop();
                    }
                }),
            ],
        )
        .run(&rt);
        assert_eq!(
            result,
            Err(PipelineError::StopOutsideTheFirstStage {
                item: 10,
                stage: 2,
                completed: 10
            })
        );
    })
}
