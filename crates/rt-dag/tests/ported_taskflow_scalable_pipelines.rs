//! Taskflow's own tests of scalable pipelines (pipes chosen at run time),
//! ported from `unittests/test_scalable_pipelines.cpp`: cases
//! `ScalablePipeline.Basics`, `ScalablePipeline.move`, `ScalablePipeline`,
//! `ScalablePipeline.Reset`, `ScalablePipeline.IterativeReset`,
//! `ScalablePipeline.LinesReset` and `ScalablePipeline.Ifelse` (1, 3, 5 and
//! 7 lines on 1 and 2 workers).
//!
//! Taskflow's `ScalablePipeline(lines, first, last)` is
//! `Pipeline::from_pipes(lines, pipes)`; `reset(first, last)` is
//! `set_pipes`, `reset(lines, first, last)` is `set_lines` and `set_pipes`
//! (with `reset`, which Taskflow's also does to the tokens), `reset()` is
//! `reset`; `num_lines`, `num_pipes`, `num_tokens` are `lines`, `stages`,
//! `tokens`. A graph holds its pipeline node's pipeline, so where Taskflow
//! resets the pipeline from a task of the same taskflow (`Reset`,
//! `IterativeReset`), the port sets the pipes through
//! `TaskGraph::pipeline_mut` before the run, or counts each run's tokens
//! in the first pipe.

mod common;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rt_core::Runtime;
use rt_dag::{Pipe, Pipeline, StageContext, TaskGraph};
use rt_testkit::without_hanging;

const TOKENS: u64 = 1111;

#[test]
fn scalable_pipeline_basics_and_move_keep_lines_pipes_and_tokens() {
    without_hanging(|| {
        let pipes: Vec<Pipe> = (0..10).map(|_| Pipe::serial(|_| ())).collect();
        let pipeline = Pipeline::from_pipes(1, pipes);
        assert_eq!(
            (pipeline.lines(), pipeline.stages().len(), pipeline.tokens()),
            (1, 10, 0)
        );
        let moved = pipeline;
        assert_eq!(
            (moved.lines(), moved.stages().len(), moved.tokens()),
            (1, 10, 0)
        );
    })
}

/// The pipes of `scalable_pipeline`: pipe 0 stops at token 1111 (or at
/// `stop_at`'s answer) and writes `num_pipes * token` to its line's
/// buffer, each later one adds 1, each checks the buffer, the last counts.
fn counting_pipes(
    pipes: usize,
    data: &Arc<Vec<AtomicUsize>>,
    n: &Arc<AtomicUsize>,
    stop_at: impl Fn(u64) -> bool + Send + Sync + Clone + 'static,
) -> Vec<Pipe<'static>> {
    (0..pipes)
        .map(|_| {
            let (data, n, stop_at) = (data.clone(), n.clone(), stop_at.clone());
            Pipe::serial(move |ctx: &mut StageContext| {
                let token = ctx.token() as usize;
                if ctx.pipe() == 0 {
                    if stop_at(ctx.token()) {
                        ctx.stop();
                        return;
                    }
                    data[ctx.line()].store(pipes * token, Ordering::Relaxed);
                } else {
                    data[ctx.line()].fetch_add(1, Ordering::Relaxed);
                }
                assert_eq!(
                    data[ctx.line()].load(Ordering::Relaxed),
                    token * pipes + ctx.pipe()
                );
                if ctx.pipe() == pipes - 1 {
                    n.fetch_add(1, Ordering::Relaxed);
                }
            })
        })
        .collect()
}

fn shared(lines: usize) -> (Arc<Vec<AtomicUsize>>, Arc<AtomicUsize>) {
    (
        Arc::new((0..lines).map(|_| AtomicUsize::new(0)).collect()),
        Arc::new(AtomicUsize::new(0)),
    )
}

#[test]
fn scalable_pipeline_carries_1111_tokens_through_1_to_10_pipes_on_1_to_10_lines() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for lines in 1..=10 {
            for pipes in 1..=10 {
                let (data, n) = shared(lines);
                let mut graph = TaskGraph::new();
                let pipes = counting_pipes(pipes, &data, &n, |t| t == TOKENS);
                graph.add_pipeline(Pipeline::from_pipes(lines, pipes));
                assert!(graph.run(&rt).all_completed());
                assert_eq!(n.load(Ordering::Relaxed), TOKENS as usize);
            }
        }
    })
}

#[test]
fn scalable_pipeline_reset_sets_the_pipes_after_the_graph_was_built() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for lines in 1..=10 {
            for pipes in 1..=10 {
                let (data, n) = shared(lines);
                let mut graph = TaskGraph::new();
                let init = graph.add_task(|_| ());
                let none: Vec<Pipe> = Vec::new();
                let node = graph
                    .add_pipeline_after(&[init], Pipeline::from_pipes(lines, none))
                    .unwrap();
                graph
                    .pipeline_mut::<()>(node)
                    .unwrap()
                    .set_pipes(counting_pipes(pipes, &data, &n, |t| t == TOKENS));
                assert!(graph.run(&rt).all_completed());
                assert_eq!(n.load(Ordering::Relaxed), TOKENS as usize);
            }
        }
    })
}

#[test]
fn scalable_pipeline_iterative_reset_runs_the_pipeline_node_again_from_a_condition_loop() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for lines in 1..=10 {
            for pipes in [1, 2, 5, 10] {
                let (data, n) = shared(lines);
                let mut graph = TaskGraph::new();
                let init = graph.add_task(|_| ());
                // Taskflow resets the tokens between the rounds; here they
                // go on, and each round stops 1111 tokens after the last.
                let stop = Arc::new(AtomicU64::new(TOKENS));
                let stop_at = {
                    let stop = stop.clone();
                    move |t| t == stop.load(Ordering::Relaxed)
                };
                let all = counting_pipes(pipes, &data, &n, stop_at);
                let node = graph
                    .add_pipeline_after(&[init], Pipeline::from_pipes(lines, all))
                    .unwrap();
                let nn = n.clone();
                let mut round = 0;
                let cond = graph
                    .add_condition_after(&[node], move |_| {
                        assert_eq!(nn.load(Ordering::Relaxed), TOKENS as usize * (round + 1));
                        round += 1;
                        stop.fetch_add(TOKENS, Ordering::Relaxed);
                        if round <= 3 {
                            0
                        } else {
                            1
                        }
                    })
                    .unwrap();
                graph.set_branches(cond, &[node]).unwrap();
                let outcome = graph.run(&rt);
                assert!(outcome.all_completed(), "{outcome:?}");
                assert_eq!(outcome.runs(node), Ok(4));
                assert_eq!(n.load(Ordering::Relaxed), 4 * TOKENS as usize);
            }
        }
    })
}

#[test]
fn scalable_pipeline_lines_reset_changes_the_lines_and_the_pipes_between_runs() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for pipes in 1..=10 {
            let n = Arc::new(AtomicUsize::new(0));
            let none: Vec<Pipe> = Vec::new();
            let mut pipeline = Pipeline::from_pipes(1, none);
            for lines in 1..=10 {
                let data = Arc::new((0..lines).map(|_| AtomicUsize::new(0)).collect());
                pipeline.set_lines(lines);
                pipeline.set_pipes(counting_pipes(pipes, &data, &n, |t| t == TOKENS));
                pipeline.reset();
                pipeline.run_mut(&rt).unwrap();
                assert_eq!(n.load(Ordering::Relaxed), TOKENS as usize * lines);
            }
        }
    })
}

/// Taskflow's `ifelse_spipe_ans`: what the three pipes make of `a`.
fn ifelse_answer(mut a: i64) -> i64 {
    if a / 2 != 0 {
        a += 8;
    }
    a = if a > 4897 { a - 1834 } else { a + 3 };
    if (a + 9) / 4 < 50 {
        a + 1
    } else {
        a + 17
    }
}

fn ifelse(lines: usize, workers: usize) {
    let rt = Runtime::new(workers).unwrap();
    let max_n = 200;
    let mut seed = 1u64;
    let source: Arc<Vec<i64>> = Arc::new(
        (0..max_n)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((seed >> 33) % 9962) as i64
            })
            .collect(),
    );
    let buffer: Arc<Vec<Mutex<[i64; 4]>>> =
        Arc::new((0..lines).map(|_| Mutex::new([0; 4])).collect());
    let none: Vec<Pipe> = Vec::new();
    let mut pipeline = Pipeline::from_pipes(lines, none);
    for n in 1..max_n as u64 {
        let collection = Arc::new(Mutex::new(Vec::new()));
        let (src, buf1, buf2, buf3, out) = (
            source.clone(),
            buffer.clone(),
            buffer.clone(),
            buffer.clone(),
            collection.clone(),
        );
        pipeline.set_pipes(vec![
            Pipe::serial(move |ctx| {
                if ctx.token() == n {
                    ctx.stop();
                    return;
                }
                let value = src[ctx.token() as usize];
                buf1[ctx.line()].lock().unwrap()[ctx.pipe()] =
                    if value / 2 == 0 { value } else { value + 8 };
            }),
            Pipe::parallel(move |ctx| {
                let mut b = buf2[ctx.line()].lock().unwrap();
                let before = b[ctx.pipe() - 1];
                b[ctx.pipe()] = if before > 4897 {
                    before - 1834
                } else {
                    before + 3
                };
            }),
            Pipe::serial(move |ctx| {
                let mut b = buf3[ctx.line()].lock().unwrap();
                let before = b[ctx.pipe() - 1];
                b[ctx.pipe()] = if (before + 9) / 4 < 50 {
                    before + 1
                } else {
                    before + 17
                };
                out.lock().unwrap().push(b[ctx.pipe()]);
            }),
        ]);
        pipeline.reset();
        pipeline.run_mut(&rt).unwrap();
        let collection = collection.lock().unwrap();
        for k in 0..n as usize {
            assert_eq!(collection[k], ifelse_answer(source[k]));
        }
    }
}

#[test]
fn scalable_pipeline_ifelse_three_pipes_set_anew_for_each_of_199_runs() {
    without_hanging(|| {
        for lines in [1, 3, 5, 7] {
            for workers in [1, 2] {
                ifelse(lines, workers);
            }
        }
    })
}
