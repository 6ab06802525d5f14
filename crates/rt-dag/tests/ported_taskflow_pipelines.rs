//! Taskflow's own tests of pipelines that run again, as module tasks of a
//! graph, with their pipes told their line, token and pipe, ported from
//! `unittests/test_pipelines.cpp` (cases `Pipeline.1P(S)`,
//! `Pipeline.2P(SP)`, `Pipeline.3P(SPS)` and `Three.Parallel.Pipelines`,
//! each over 1 to 4 lines and workers) and
//! `unittests/test_data_pipelines.cpp` (cases `DataPipeline.1P(S)` and
//! `DataPipeline.3P(SPS)`).
//!
//! Taskflow's `composed_of(pipeline)` is `TaskGraph::add_pipeline`; its
//! `Pipeflow` is `StageContext`; `num_tokens()` is `Pipeline::tokens`,
//! read by the test task from the node's `PipelineReport`. Taskflow's
//! tests share plain variables between the pipes and the test task by
//! reference; the graph's closures are `'static`, so the state they share
//! is behind an `Arc<Mutex<..>>` here. `run_n(taskflow, 3, callback)` is a
//! loop of runs with the callback's resets between them.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use rt_core::Runtime;
use rt_dag::{NodeId, Pipe, Pipeline, PipelineReport, TaskGraph};
use rt_testkit::without_hanging;

const MAX_N: usize = 100;

/// Lines and workers, as Taskflow's cases `<L>L.<W>W` take them.
fn each_configuration(test: fn(usize, usize)) {
    for lines in 1..=4 {
        for workers in [1, 2, 4] {
            test(lines, workers);
        }
    }
}

/// The report of pipeline node `node`, read by a dependent.
fn report_of(deps: &rt_dag::DependencyResults<'_>, node: NodeId) -> PipelineReport {
    *deps.get::<PipelineReport>(node).unwrap()
}

/// `Pipeline.1P(S)` and `DataPipeline.1P(S)`: one serial pipe that stops
/// at `N`; the graph runs four times (`run_until` with a counter of 3).
/// Taskflow's predicate resets a copy of `j`, so the later runs stop at
/// their first call: the tokens stay `N`.
fn one_serial_pipe(lines: usize, workers: usize) {
    let rt = Runtime::new(workers).unwrap();
    for n in 0..=MAX_N {
        let j = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let jj = j.clone();
        let pipeline = Pipeline::from_pipes(
            lines,
            vec![Pipe::serial(move |ctx| {
                let at = jj.load(Ordering::Relaxed);
                if at == n {
                    ctx.stop();
                    return;
                }
                assert_eq!(ctx.token() % lines as u64, ctx.line() as u64);
                jj.store(at + 1, Ordering::Relaxed);
            })],
        );
        let module = graph.add_pipeline(pipeline);
        let jj = j.clone();
        graph
            .add_task_after(&[module], move |deps| {
                assert_eq!(jj.load(Ordering::Relaxed), n);
                assert_eq!(report_of(deps, module).tokens(), n as u64);
            })
            .unwrap();
        let mut counter = 3;
        let last = graph.run_until(&rt, |outcome| {
            // Asked before the first run too (then with no outcome).
            assert!(outcome.is_none_or(|outcome| outcome.all_completed()));
            let done = counter == 0;
            counter -= 1;
            done
        });
        assert!(last.expect("it ran").all_completed());
    }
}

#[test]
fn pipeline_1p_s_one_serial_pipe_in_a_module_task_run_four_times() {
    without_hanging(|| each_configuration(one_serial_pipe))
}

/// What `Pipeline.2P(SP)`'s pipes and test task share.
#[derive(Default)]
struct TwoPipes {
    j1: usize,
    j2: usize,
    collection: Vec<usize>,
    /// Per line, per pipe: what the pipe wrote for the next.
    buffer: Vec<[usize; 2]>,
    cnt: u64,
}

/// `Pipeline.2P(SP)`: a serial pipe writes `source[j] + 1` into its
/// line's buffer, a parallel one collects it; three runs, the state reset
/// between them (`cnt` counting them), the tokens `cnt * N`.
fn serial_then_parallel(lines: usize, workers: usize) {
    let rt = Runtime::new(workers).unwrap();
    for n in 0..=MAX_N {
        let shared = Arc::new(Mutex::new(TwoPipes {
            buffer: vec![[0; 2]; lines],
            cnt: 1,
            ..TwoPipes::default()
        }));
        let (s1, s2) = (shared.clone(), shared.clone());
        let pipeline = Pipeline::from_pipes(
            lines,
            vec![
                Pipe::serial(move |ctx| {
                    let mut s = s1.lock().unwrap();
                    if s.j1 == n {
                        ctx.stop();
                        return;
                    }
                    assert_eq!(ctx.token() % lines as u64, ctx.line() as u64);
                    let value = s.j1 + 1;
                    s.buffer[ctx.line()][ctx.pipe()] = value;
                    s.j1 += 1;
                }),
                Pipe::parallel(move |ctx| {
                    let mut s = s2.lock().unwrap();
                    assert!(s.j2 < n);
                    s.j2 += 1;
                    assert_eq!(ctx.token() % lines as u64, ctx.line() as u64);
                    let value = s.buffer[ctx.line()][ctx.pipe() - 1];
                    s.collection.push(value);
                }),
            ],
        );
        let mut graph = TaskGraph::new();
        let module = graph.add_pipeline(pipeline);
        let s = shared.clone();
        graph
            .add_task_after(&[module], move |deps| {
                let mut s = s.lock().unwrap();
                assert_eq!((s.j1, s.j2), (n, n));
                s.collection.sort_unstable();
                assert_eq!(s.collection, (1..=n).collect::<Vec<_>>());
                assert_eq!(report_of(deps, module).tokens(), s.cnt * n as u64);
            })
            .unwrap();
        for _ in 0..3 {
            assert!(graph.run(&rt).all_completed());
            let mut s = shared.lock().unwrap();
            s.j1 = 0;
            s.j2 = 0;
            s.collection.clear();
            s.buffer.iter_mut().for_each(|b| *b = [0; 2]);
            s.cnt += 1;
        }
    }
}

#[test]
fn pipeline_2p_sp_a_serial_and_a_parallel_pipe_in_a_module_task_run_three_times() {
    without_hanging(|| each_configuration(serial_then_parallel))
}

/// `Pipeline.3P(SPS)` and `DataPipeline.3P(SPS)`, as a data pipeline: a
/// serial source, a parallel `+ 1`, a serial stage that sees the items in
/// order; run three times as a module task.
fn serial_parallel_serial(lines: usize, workers: usize) {
    let rt = Runtime::new(workers).unwrap();
    for n in 0..=MAX_N {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let s = seen.clone();
        let mut produced = 0usize;
        let pipeline = Pipeline::from_fn_with_context(lines, move |ctx| {
            if produced == n {
                produced = 0; // Taskflow's callback resets j1
                ctx.stop();
                return None;
            }
            assert_eq!(ctx.token() % lines as u64, ctx.line() as u64);
            produced += 1;
            Some(produced - 1)
        })
        .parallel_with_context(|x, ctx| {
            assert_eq!(ctx.pipe(), 1);
            x + 1
        })
        .serial(move |x| s.lock().unwrap().push(x));
        let mut graph = TaskGraph::new();
        let module = graph.add_pipeline(pipeline);
        let s = seen.clone();
        let runs = Arc::new(AtomicUsize::new(0));
        let r = runs.clone();
        graph
            .add_task_after(&[module], move |deps| {
                let cnt = r.fetch_add(1, Ordering::Relaxed) as u64 + 1;
                let mut seen = s.lock().unwrap();
                assert_eq!(*seen, (1..=n).collect::<Vec<_>>());
                seen.clear();
                assert_eq!(report_of(deps, module).tokens(), cnt * n as u64);
            })
            .unwrap();
        for _ in 0..3 {
            assert!(graph.run(&rt).all_completed());
        }
    }
}

#[test]
fn pipeline_3p_sps_a_data_pipeline_in_a_module_task_sees_its_items_in_order_on_every_run() {
    without_hanging(|| each_configuration(serial_parallel_serial))
}

/// `Three.Parallel.Pipelines`: three pipelines (four serial pipes; two
/// serial and a parallel; a serial and a parallel) as module tasks between
/// an initial and a terminal task, each checked by a test task; three runs,
/// the tokens `cnt * N`.
fn three_parallel_pipelines(lines: usize, workers: usize) {
    let rt = Runtime::new(workers).unwrap();
    for n in 0..=MAX_N {
        let mut graph = TaskGraph::new();
        let initial = graph.add_task(|_| ());
        let kinds: [&[bool]; 3] = [
            &[true, true, true, true],
            &[true, true, false],
            &[true, false],
        ];
        let mut tests = Vec::new();
        let counts: Vec<Arc<Vec<AtomicUsize>>> = kinds
            .iter()
            .map(|k| Arc::new((0..k.len()).map(|_| AtomicUsize::new(0)).collect()))
            .collect();
        for (kinds, count) in kinds.iter().zip(&counts) {
            let pipes = kinds.iter().enumerate().map(|(pipe, &serial)| {
                let count = count.clone();
                let f = move |ctx: &mut rt_dag::StageContext| {
                    assert_eq!(ctx.pipe(), pipe);
                    assert_eq!(ctx.token() % lines as u64, ctx.line() as u64);
                    if pipe == 0 && count[0].load(Ordering::Relaxed) == n {
                        ctx.stop();
                        return;
                    }
                    let before = count[pipe].fetch_add(1, Ordering::Relaxed);
                    assert!(before < n);
                };
                if serial {
                    Pipe::serial(f)
                } else {
                    Pipe::parallel(f)
                }
            });
            let module = graph
                .add_pipeline_after(
                    &[initial],
                    Pipeline::from_pipes(lines, pipes.collect::<Vec<_>>()),
                )
                .unwrap();
            let count = count.clone();
            let cnt = Arc::new(AtomicUsize::new(0));
            tests.push(
                graph
                    .add_task_after(&[module], move |deps| {
                        let cnt = cnt.fetch_add(1, Ordering::Relaxed) as u64 + 1;
                        for c in count.iter() {
                            assert_eq!(c.swap(0, Ordering::Relaxed), n);
                        }
                        assert_eq!(report_of(deps, module).tokens(), cnt * n as u64);
                    })
                    .unwrap(),
            );
        }
        graph.add_task_after(&tests, |_| ()).unwrap();
        for _ in 0..3 {
            assert!(graph.run(&rt).all_completed());
        }
    }
}

#[test]
fn three_parallel_pipelines_as_module_tasks_of_one_graph_run_three_times() {
    without_hanging(|| each_configuration(three_parallel_pipelines))
}
