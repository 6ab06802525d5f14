//! A pipeline of pipes chosen at run time (Taskflow's scalable pipeline):
//! a list of any length, serial and parallel, the first a serial source
//! that stops the stream; the pipes can be replaced between runs, and a
//! list that cannot run is an error.

mod common;

use std::sync::atomic::{AtomicU64, Ordering};

use common::{Inline, Pool};
use rt_core::Runtime;
use rt_dag::{Executor, Pipe, Pipeline, PipelineError, StageKind};
use rt_testkit::without_hanging;

/// `pipes` pipes over `lines` lines: each adds 1 to its line's buffer, the
/// last checks it; returns how many tokens went through.
fn tokens_through(executor: &impl Executor, lines: usize, pipes: usize) -> u64 {
    let buffers: Vec<AtomicU64> = (0..lines).map(|_| AtomicU64::new(0)).collect();
    let buffers = &buffers;
    let mut list = vec![Pipe::serial(move |ctx| {
        if ctx.token() == 300 {
            ctx.stop();
        } else {
            buffers[ctx.line()].store(ctx.token() * 100, Ordering::Relaxed);
        }
    })];
    for pipe in 1..pipes {
        let f = move |ctx: &mut rt_dag::StageContext| {
            let was = buffers[ctx.line()].fetch_add(1, Ordering::Relaxed);
            assert_eq!(was, ctx.token() * 100 + pipe as u64 - 1);
        };
        list.push(if pipe % 2 == 0 {
            Pipe::serial(f)
        } else {
            Pipe::parallel(f)
        });
    }
    let pipeline = Pipeline::from_pipes(lines, list);
    assert_eq!(pipeline.stages().len(), pipes);
    pipeline.run(executor).unwrap().items()
}

#[test]
fn any_number_of_pipes_over_any_number_of_lines_carry_every_token_through_each_pipe_in_order() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for lines in [1, 2, 5] {
            for pipes in [1, 2, 3, 8] {
                assert_eq!(tokens_through(&rt, lines, pipes), 300);
                assert_eq!(tokens_through(&Inline, lines, pipes), 300);
                assert_eq!(tokens_through(&Pool::new(2), lines, pipes), 300);
            }
        }
    })
}

#[test]
fn the_pipes_can_be_replaced_between_runs_and_the_tokens_go_on_counting() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let first = AtomicU64::new(0);
        let second = AtomicU64::new(0);
        let mut pipeline = Pipeline::from_pipes(
            2,
            vec![
                Pipe::serial(|ctx| {
                    if ctx.token() == 5 {
                        ctx.stop();
                    }
                }),
                Pipe::parallel(|_| {
                    first.fetch_add(1, Ordering::Relaxed);
                }),
            ],
        );
        pipeline.run_mut(&rt).unwrap();
        pipeline.set_pipes(vec![
            Pipe::serial(|ctx| {
                if ctx.token() == 12 {
                    ctx.stop();
                }
            }),
            Pipe::serial(|_| {
                second.fetch_add(1, Ordering::Relaxed);
            }),
            Pipe::parallel(|_| ()),
        ]);
        assert_eq!(
            pipeline.stages().collect::<Vec<_>>(),
            [StageKind::Serial, StageKind::Serial, StageKind::Parallel]
        );
        let report = pipeline.run_mut(&rt).unwrap();
        assert_eq!((report.items(), report.tokens()), (7, 12));
        drop(pipeline);
        assert_eq!((first.into_inner(), second.into_inner()), (5, 7));
    })
}

#[test]
fn a_pipeline_of_no_pipes_or_of_a_parallel_first_pipe_is_refused_when_it_runs() {
    without_hanging(|| {
        let none: Vec<Pipe> = Vec::new();
        assert_eq!(
            Pipeline::from_pipes(2, none).run(&Inline),
            Err(PipelineError::NoPipes)
        );
        let parallel_first = vec![Pipe::parallel(|ctx| ctx.stop())];
        assert_eq!(
            Pipeline::from_pipes(2, parallel_first).run(&Inline),
            Err(PipelineError::FirstPipeParallel)
        );
    })
}
