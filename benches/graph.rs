//! Task graphs (part of `cargo xtask bench`): rt-dag against rt-dag as it
//! was before release-where-finished, and against the same work written by
//! hand on `rt`, two workers.
//!
//! Workloads, each with empty nodes (the cost measured is the graph
//! layer's), the shapes of Taskflow's graph benchmarks:
//! * a linear chain of 100,000 nodes;
//! * a binary tree of 2^17 − 1 nodes (17 levels, each node before its two
//!   children);
//! * a 512 × 512 wavefront (each cell after its left and upper neighbour);
//! * a random DAG of 100,000 nodes, each with 4 successors drawn among the
//!   nodes after it (fixed seed);
//! * a pipeline of 3 stages (parallel, serial, parallel) over 100,000
//!   items, 8 lines;
//! * Taskflow's level graph (`benchmarks/graph_traversal`): 256 levels of
//!   256 nodes, each with 1 to 4 successors in the next level;
//! * Taskflow's two pipeline benchmarks, whose pipes work: a linear
//!   pipeline (`benchmarks/linear_pipeline`: 8 serial pipes of a 10 µs
//!   spin, 8 lines, 1,024 tokens) and a graph pipeline
//!   (`benchmarks/graph_pipeline`: the 1,024 nodes of a level graph of 32
//!   levels as tokens through 8 serial pipes of a 10 µs spin, the last one
//!   reading what the node's prerequisites got).
//!
//! Systems, per graph:
//! * `rt-dag run`: a `TaskGraph` built once, run again each round
//!   (`graph.run(&rt)`);
//! * `rt-dag run inside install`: the same, run inside `rt.install(..)`,
//!   on a worker (the pipelines: `rt-dag pipeline inside install`, and
//!   Taskflow's two `rt-dag inside install` beside `rt-dag from main`): a
//!   run started on a worker must be as fast as one from `main` (target
//!   ≤ 1.1, ratio of medians);
//! * `rt-dag build+run`: built and run each round, as Taskflow's own
//!   benchmarks time it;
//! * `rt-dag before`: the rt-dag of commit 9e72f6e, copied below (module
//!   `before`): every completion goes back through a channel to the thread
//!   inside `run_graph`, which submits the dependents; built and run;
//! * `hand-written rt`: the successor counting a user writes on
//!   `rt::scope` (a counter per node, the last prerequisite runs the node
//!   next or spawns it into the scope) for the chain, the wavefront and the
//!   random DAG, `rt::join` recursion for the tree, batches of `lines` items
//!   (a scope per parallel stage, the serial stage in order between) for
//!   the pipeline;
//! * for the per-task reference: `rt.spawn(|| ()).join()` in a loop, in a
//!   task of the runtime (the spawn goes to the worker's deque and the join
//!   takes it back) and from the bench's own thread.
//!
//! Each round runs every system once, in an order rotated round by round,
//! after one untimed warm-up run each, on one `Runtime` of 2 workers. The
//! table gives medians (and minima) in ms and ns per node, and the ratios
//! the targets of rt-dag are stated against.
//! A second table: makespan of a graph with one long chain beside a wide
//! fan-out, first-come order against critical path first, on the runtime
//! and on the global-queue baseline, against the bound max(chain, total
//! work ÷ 2); its nodes sleep, so that the makespan measures the schedule
//! rather than the CPU the machine's neighbours leave.
//!
//! Writes the tables to `target/bench/graph.md`, and the summary's section
//! to `target/bench/summary/graph.tsv`: per workload, rt-dag's time per
//! node (the graph built once, run each round) against hand-written rt
//! code, and on the chain a node against a spawn+join.
//!
//! Options (after `--`): `--quick` (5 rounds: 6 to 13 s on 2 shared cores),
//! `--rounds N` (default 11), `--filter TEXT` (workloads whose name
//! contains TEXT; `critical-path` for the second table), `--out DIR`.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use rt::dag::{NodeId, Pipe, Pipeline, ReadyOrder, TaskGraph};
use rt::Runtime;
use rt_bench_report::cli;
use rt_bench_report::format::{self, Unit};
use rt_bench_report::summary::{Line, Measured, Section};

const WORKERS: usize = 2;

fn main() {
    let opts = parse_options();
    let rt = Runtime::new(WORKERS).expect("a runtime of 2 workers");
    let mut report = String::new();
    let _ = writeln!(
        report,
        "# Task graphs (`cargo bench --bench graph`), {} workers, {} rounds\n",
        WORKERS, opts.rounds
    );
    let _ = writeln!(
        report,
        "| graph | nodes | system | median ms | ns/node | min ms |\n|---|---:|---|---:|---:|---:|"
    );
    let mut ratios = String::new();
    let mut summary = Section::new(
        "graph",
        "task graphs: rt-dag vs hand-written rt, spawn+join (2 workers, graphs built once)",
    );
    for workload in workloads() {
        if let Some(filter) = &opts.filter {
            if !workload.name.contains(filter.as_str()) {
                continue;
            }
        }
        let results = measure(&rt, &workload, opts.rounds);
        for result in &results {
            let time = result.ms();
            let _ = writeln!(
                report,
                "| {} | {} | {} | {:.2} | {:.1} | {:.2} |",
                workload.name,
                workload.nodes,
                result.system,
                time.median,
                time.median * 1e6 / workload.nodes as f64,
                time.fastest.unwrap_or(time.median),
            );
        }
        (workload.ratios)(&results, &mut ratios);
        for line in (workload.summary)(&workload, &results) {
            summary.push(line);
        }
    }
    let _ = writeln!(report, "\nRatios of medians, against their targets:\n");
    report.push_str(&ratios);
    if opts
        .filter
        .as_deref()
        .is_none_or(|f| "critical-path".contains(f))
    {
        report.push('\n');
        report.push_str(&critical_path::table(&rt, opts.rounds.min(7)));
    }
    cli::progress("");
    cli::write_report(&opts.out, "graph.md", &report);
    summary.write(&opts.out);
}

struct Options {
    rounds: usize,
    filter: Option<String>,
    out: PathBuf,
}

fn parse_options() -> Options {
    let mut opts = Options {
        rounds: 11,
        filter: None,
        out: cli::default_out_dir(),
    };
    let (mut quick, mut rounds) = (false, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--quick" => quick = true,
            "--rounds" => rounds = Some(cli::value(&mut args, "--rounds N")),
            "--filter" => opts.filter = args.next(),
            "--out" => opts.out = args.next().expect("--out DIR").into(),
            "--bench" => {}
            other => panic!("unknown option `{other}`"),
        }
    }
    opts.rounds = rounds.unwrap_or(if quick { 5 } else { opts.rounds });
    assert!(opts.rounds > 0, "--rounds must be at least 1");
    opts
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// One system's times on one workload.
struct Timings {
    system: &'static str,
    /// Every timed round, in ms.
    rounds: Vec<f64>,
}

impl Timings {
    /// The median and the fastest round, in ms.
    fn ms(&self) -> Measured {
        Measured::of_rounds(&self.rounds).expect("at least one round")
    }

    /// The same per node of a graph of `nodes` nodes, in ns.
    fn per_node(&self, nodes: usize) -> Option<Measured> {
        let ns: Vec<f64> = self
            .rounds
            .iter()
            .map(|ms| ms * 1e6 / nodes as f64)
            .collect();
        Measured::of_rounds(&ns)
    }
}

/// A system: prepared once (outside the timing), then run once per round.
type System<'a> = (&'static str, Box<dyn FnMut(&Runtime) + 'a>);

struct Workload {
    name: &'static str,
    nodes: usize,
    /// The name and the size, as the summary shows them.
    title: String,
    systems: Box<dyn Fn() -> Vec<System<'static>>>,
    ratios: fn(&[Timings], &mut String),
    /// The workload's lines in the summary.
    summary: fn(&Workload, &[Timings]) -> Vec<Line>,
}

/// Runs every system once per round, rotating the order, after one
/// untimed run each; returns every round's time of each.
fn measure(rt: &Runtime, workload: &Workload, rounds: usize) -> Vec<Timings> {
    let mut systems = (workload.systems)();
    // One untimed round warms caches, the allocator and the workers.
    for (system, run) in systems.iter_mut() {
        cli::progress(&format!("[warm-up] {} · {system}", workload.name));
        run(rt);
    }
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); systems.len()];
    for round in 0..rounds {
        for k in 0..systems.len() {
            let index = (k + round) % systems.len();
            let (system, run) = &mut systems[index];
            cli::progress(&format!(
                "[round {}/{rounds}] {} · {system}",
                round + 1,
                workload.name
            ));
            // Let the workers park, as they would between requests.
            std::thread::sleep(Duration::from_millis(2));
            let start = Instant::now();
            run(rt);
            times[index].push(ms(start.elapsed()));
        }
    }
    systems
        .iter()
        .zip(times)
        .map(|((system, _), rounds)| Timings { system, rounds })
        .collect()
}

/// The two ratios of a graph against hand-written `rt` code, run alone
/// and with building included, each against its target of 1.2.
fn ratios_against_hand_written(r: &[Timings], out: &mut String, graph: &str) {
    let run = median_of(r, "rt-dag run");
    let build = median_of(r, "rt-dag build+run");
    let hand = median_of(r, "hand-written rt");
    let hand_build = median_of(r, "hand-written rt build+run");
    let line = format!("{graph}, rt-dag run ÷ hand-written rt");
    ratio_line(out, &line, run, hand, "≤ 1.2", run / hand <= 1.2);
    let line = format!("{graph}, rt-dag build+run ÷ hand-written build+run");
    ratio_line(
        out,
        &line,
        build,
        hand_build,
        "≤ 1.2",
        build / hand_build <= 1.2,
    );
}

fn median_of(results: &[Timings], system: &str) -> f64 {
    results
        .iter()
        .find(|r| r.system == system)
        .map(|r| r.ms().median)
        .unwrap_or(f64::NAN)
}

/// A line of the summary: `rt`, one of rt-dag's systems, against the best
/// of `peers`, each system's figure as `figure` gives it.
fn versus(
    name: impl Into<String>,
    unit: Unit,
    figure: impl Fn(&Timings) -> Option<Measured>,
    results: &[Timings],
    (rt, peers): (&str, &[&'static str]),
) -> Line {
    let of = |system: &str| {
        results
            .iter()
            .find(|r| r.system == system)
            .and_then(&figure)
    };
    Line::new(name, unit, of(rt), peers.iter().map(|&p| (p, of(p))))
}

/// A graph's line: a run of the graph built once against the best of
/// `peers`, per node (each node is a task).
fn graph_line(
    name: impl Into<String>,
    workload: &Workload,
    results: &[Timings],
    peers: &[&'static str],
) -> Line {
    versus(
        name,
        Unit::NanosPerTask,
        |t| t.per_node(workload.nodes),
        results,
        ("rt-dag run", peers),
    )
}

/// The summary's line of a graph: rt-dag against the same work by hand.
fn against_hand_written(workload: &Workload, results: &[Timings]) -> Vec<Line> {
    vec![graph_line(
        workload.title.clone(),
        workload,
        results,
        &["hand-written rt"],
    )]
}

fn ratio_line(out: &mut String, what: &str, a: f64, b: f64, target: &str, met: bool) {
    let _ = writeln!(
        out,
        "* {what}: **{:.2}** (target {target}: {})",
        a / b,
        if met { "met" } else { "not met" }
    );
}

fn workloads() -> Vec<Workload> {
    let nodes = |n: usize| format!("{} nodes", format::count(n));
    vec![
        Workload {
            name: "chain",
            nodes: CHAIN,
            title: format!("chain ({})", nodes(CHAIN)),
            systems: Box::new(|| graph_systems(shapes::chain(CHAIN), true)),
            ratios: |r, out| {
                let run = median_of(r, "rt-dag run");
                let build = median_of(r, "rt-dag build+run");
                // Both loops run CHAIN spawns, the chain has CHAIN nodes:
                // the ratio of the totals is the ratio per node.
                let spawn = median_of(r, "spawn+join in a task");
                let outside = median_of(r, "spawn+join from outside");
                let before = median_of(r, "rt-dag before");
                ratio_line(
                    out,
                    "chain, rt-dag run ÷ spawn+join of an empty task in a task (per node)",
                    run,
                    spawn,
                    "≤ 1.5",
                    run / spawn <= 1.5,
                );
                ratio_line(
                    out,
                    "chain, rt-dag build+run ÷ spawn+join in a task (per node)",
                    build,
                    spawn,
                    "≤ 1.5",
                    build / spawn <= 1.5,
                );
                ratio_line(
                    out,
                    "chain, rt-dag build+run ÷ spawn+join from outside (per node)",
                    build,
                    outside,
                    "≤ 1.5",
                    build / outside <= 1.5,
                );
                ratio_line(
                    out,
                    "chain, rt-dag before ÷ rt-dag build+run",
                    before,
                    build,
                    "≥ 4",
                    before / build >= 4.0,
                );
                ratio_line(
                    out,
                    "chain, rt-dag before ÷ rt-dag run",
                    before,
                    run,
                    "≥ 4",
                    before / run >= 4.0,
                );
                inside_install_line(r, out, "chain", "rt-dag run inside install", "rt-dag run");
            },
            summary: |w, r| {
                let mut lines = against_hand_written(w, r);
                // Both loops run one spawn+join per node of the chain.
                lines.push(graph_line(
                    "chain: a node vs a spawn+join",
                    w,
                    r,
                    &["spawn+join in a task", "spawn+join from outside"],
                ));
                lines
            },
        },
        Workload {
            name: "binary tree",
            nodes: (1 << TREE_LEVELS) - 1,
            title: format!("binary tree ({})", nodes((1 << TREE_LEVELS) - 1)),
            systems: Box::new(|| graph_systems(shapes::binary_tree(TREE_LEVELS), false)),
            ratios: |r, out| {
                let run = median_of(r, "rt-dag run");
                let hand = median_of(r, "hand-written rt");
                ratio_line(
                    out,
                    "binary tree, rt-dag run ÷ rt::join recursion",
                    run,
                    hand,
                    "none",
                    true,
                );
                let before = median_of(r, "rt-dag before");
                let build = median_of(r, "rt-dag build+run");
                ratio_line(
                    out,
                    "binary tree, rt-dag before ÷ rt-dag build+run",
                    before,
                    build,
                    "none",
                    true,
                );
                inside_install_line(
                    r,
                    out,
                    "binary tree",
                    "rt-dag run inside install",
                    "rt-dag run",
                );
            },
            summary: against_hand_written,
        },
        Workload {
            name: "wavefront",
            nodes: WAVE * WAVE,
            title: format!("wavefront ({WAVE}×{WAVE} nodes)"),
            systems: Box::new(|| graph_systems(shapes::wavefront(WAVE), false)),
            ratios: |r, out| {
                ratios_against_hand_written(r, out, "wavefront");
                inside_install_line(
                    r,
                    out,
                    "wavefront",
                    "rt-dag run inside install",
                    "rt-dag run",
                );
            },
            summary: against_hand_written,
        },
        Workload {
            name: "random DAG",
            nodes: RANDOM,
            title: format!("random DAG ({})", nodes(RANDOM)),
            systems: Box::new(|| graph_systems(shapes::random_dag(RANDOM, 4, 38), false)),
            ratios: |r, out| {
                ratios_against_hand_written(r, out, "random DAG");
                inside_install_line(
                    r,
                    out,
                    "random DAG",
                    "rt-dag run inside install",
                    "rt-dag run",
                );
            },
            summary: against_hand_written,
        },
        Workload {
            name: "level graph",
            nodes: LEVEL_LENGTH * LEVELS,
            title: format!("level graph ({LEVELS} levels of {LEVEL_LENGTH} nodes)"),
            systems: Box::new(|| {
                graph_systems(shapes::level_graph(LEVEL_LENGTH, LEVELS, 4, 7), false)
            }),
            ratios: |r, out| {
                ratios_against_hand_written(r, out, "level graph");
                inside_install_line(
                    r,
                    out,
                    "level graph",
                    "rt-dag run inside install",
                    "rt-dag run",
                );
            },
            summary: against_hand_written,
        },
        Workload {
            name: "pipeline",
            nodes: PIPELINE_ITEMS,
            title: format!("pipeline ({} items)", format::count(PIPELINE_ITEMS)),
            systems: Box::new(pipeline_systems),
            ratios: |r, out| {
                let run = median_of(r, "rt-dag pipeline");
                let hand = median_of(r, "hand-written rt");
                ratio_line(
                    out,
                    "pipeline, rt-dag ÷ hand-written batches",
                    run,
                    hand,
                    "none",
                    true,
                );
                inside_install_line(
                    r,
                    out,
                    "pipeline",
                    "rt-dag pipeline inside install",
                    "rt-dag pipeline",
                );
            },
            summary: |w, r| {
                vec![versus(
                    w.title.clone(),
                    Unit::Millis,
                    |t| Some(t.ms()),
                    r,
                    ("rt-dag pipeline", &["hand-written rt"]),
                )]
            },
        },
        Workload {
            name: "linear pipeline",
            nodes: TOKENS * PIPES,
            title: format!("linear pipeline ({PIPES} serial pipes × {TOKENS} tokens)"),
            systems: Box::new(linear_pipeline_systems),
            ratios: |r, out| {
                let (inside, main) = ("rt-dag inside install", "rt-dag from main");
                inside_install_line(r, out, "linear pipeline", inside, main);
            },
            summary: |w, r| inside_install_summary(w, r),
        },
        Workload {
            name: "graph pipeline",
            nodes: GP_LENGTH * GP_LEVELS * PIPES,
            title: format!(
                "graph pipeline ({PIPES} serial pipes over {GP_LEVELS} levels of {GP_LENGTH} nodes)"
            ),
            systems: Box::new(graph_pipeline_systems),
            ratios: |r, out| {
                let (inside, main) = ("rt-dag inside install", "rt-dag from main");
                inside_install_line(r, out, "graph pipeline", inside, main);
            },
            summary: |w, r| inside_install_summary(w, r),
        },
    ]
}

/// The summary's line of a Taskflow pipeline: inside `install` against
/// the same from `main`.
fn inside_install_summary(workload: &Workload, results: &[Timings]) -> Vec<Line> {
    vec![versus(
        format!("{}, inside install", workload.title),
        Unit::Millis,
        |t| Some(t.ms()),
        results,
        ("rt-dag inside install", &["rt-dag from main"]),
    )]
}

const CHAIN: usize = 100_000;
const TREE_LEVELS: u32 = 17;
const WAVE: usize = 512;
const RANDOM: usize = 100_000;
const PIPELINE_ITEMS: usize = 100_000;
const LINES: usize = 8;
/// Taskflow's pipeline benchmarks: pipes, lines, tokens, and each pipe's
/// work on a token.
const PIPES: usize = 8;
const PIPE_LINES: usize = 8;
const TOKENS: usize = 1_024;
const PIPE_WORK: Duration = Duration::from_micros(10);
/// The graph pipeline's level graph: 32 levels of 32 nodes (1,024 tokens).
const GP_LENGTH: usize = 32;
const GP_LEVELS: usize = 32;
/// The level graph traversed as a task graph: 256 levels of 256 nodes.
const LEVEL_LENGTH: usize = 256;
const LEVELS: usize = 256;

/// The systems of a graph workload given by its predecessor lists.
fn graph_systems(preds: shapes::Preds, chain: bool) -> Vec<System<'static>> {
    let preds = std::sync::Arc::new(preds);
    let mut systems: Vec<System<'static>> = Vec::new();

    let mut graph = build_graph(&preds);
    systems.push((
        "rt-dag run",
        Box::new(move |rt| {
            let outcome = graph.run(rt);
            assert!(outcome.all_completed());
        }),
    ));
    let mut inside = build_graph(&preds);
    systems.push((
        "rt-dag run inside install",
        Box::new(move |rt| {
            let outcome = rt.install(|| inside.run(rt));
            assert!(outcome.all_completed());
        }),
    ));
    let p = preds.clone();
    systems.push((
        "rt-dag build+run",
        Box::new(move |rt| {
            let mut graph = build_graph(&p);
            let outcome = graph.run(rt);
            assert!(outcome.all_completed());
        }),
    ));
    let p = preds.clone();
    systems.push((
        "rt-dag before",
        Box::new(move |rt| {
            let mut graph = before::Graph::new();
            for deps in p.iter() {
                graph.add(deps, |_| ());
            }
            assert_eq!(before::run_graph(rt, graph), p.len());
        }),
    ));
    if p_is_tree(&preds) {
        let levels = TREE_LEVELS;
        systems.push((
            "hand-written rt",
            Box::new(move |rt| {
                let nodes = rt.install(|| hand::tree(levels));
                assert_eq!(nodes, (1 << levels) - 1);
            }),
        ));
    } else {
        let csr = hand::Csr::new(&preds);
        systems.push((
            "hand-written rt",
            Box::new(move |rt| assert_eq!(hand::run(rt, &csr), csr.len())),
        ));
        let p = preds.clone();
        systems.push((
            "hand-written rt build+run",
            Box::new(move |rt| {
                let csr = hand::Csr::new(&p);
                assert_eq!(hand::run(rt, &csr), csr.len());
            }),
        ));
    }
    if chain {
        let n = preds.len();
        systems.push((
            "spawn+join in a task",
            Box::new(move |rt| {
                rt.install(|| {
                    for _ in 0..n {
                        rt.spawn(|| black_box(())).join().unwrap();
                    }
                })
            }),
        ));
        systems.push((
            "spawn+join from outside",
            Box::new(move |rt| {
                for _ in 0..n {
                    rt.spawn(|| black_box(())).join().unwrap();
                }
            }),
        ));
    }
    systems
}

fn p_is_tree(preds: &shapes::Preds) -> bool {
    preds.len() == (1 << TREE_LEVELS) - 1 && preds[1] == [0] && preds[2] == [0]
}

fn build_graph(preds: &shapes::Preds) -> TaskGraph {
    let edges = preds.iter().map(Vec::len).sum();
    let mut graph = TaskGraph::with_capacity(preds.len(), edges);
    let mut ids: Vec<NodeId> = Vec::with_capacity(preds.len());
    let mut deps: Vec<NodeId> = Vec::new();
    for p in preds.iter() {
        deps.clear();
        deps.extend(p.iter().map(|&d| ids[d as usize]));
        ids.push(
            graph
                .add_task_after(&deps, |_| ())
                .expect("ids of this graph"),
        );
    }
    graph
}

/// The pipeline's stages: cheap arithmetic, so that the cost measured is
/// the pipeline's own.
fn stage_one(x: u64) -> u64 {
    black_box(x.wrapping_mul(0x9e37_79b9_7f4a_7c15))
}
fn stage_two(sum: &mut u64, x: u64) -> u64 {
    *sum = sum.wrapping_add(x);
    black_box(x ^ *sum)
}
fn stage_three(x: u64) -> u64 {
    black_box(x.rotate_left(7))
}

fn pipeline_systems() -> Vec<System<'static>> {
    let expected = {
        let mut sum = 0u64;
        (0..PIPELINE_ITEMS as u64)
            .map(|x| stage_three(stage_two(&mut sum, stage_one(x))))
            .fold(0u64, u64::wrapping_add)
    };
    vec![
        (
            "rt-dag pipeline",
            Box::new(move |rt: &Runtime| {
                let mut total = 0u64;
                let mut sum = 0u64;
                let report = Pipeline::from_iter(LINES, 0..PIPELINE_ITEMS as u64)
                    .parallel(stage_one)
                    .serial(move |x| stage_two(&mut sum, x))
                    .parallel(stage_three)
                    .serial(|x| total = total.wrapping_add(x))
                    .run(rt)
                    .expect("the pipeline completes");
                assert_eq!(report.items(), PIPELINE_ITEMS as u64);
                assert_eq!(total, expected);
            }),
        ),
        (
            "rt-dag pipeline inside install",
            Box::new(move |rt: &Runtime| {
                let mut total = 0u64;
                let mut sum = 0u64;
                let report = rt
                    .install(|| {
                        Pipeline::from_iter(LINES, 0..PIPELINE_ITEMS as u64)
                            .parallel(stage_one)
                            .serial(move |x| stage_two(&mut sum, x))
                            .parallel(stage_three)
                            .serial(|x| total = total.wrapping_add(x))
                            .run(rt)
                    })
                    .expect("the pipeline completes");
                assert_eq!(report.items(), PIPELINE_ITEMS as u64);
                assert_eq!(total, expected);
            }),
        ),
        (
            "hand-written rt",
            Box::new(move |rt: &Runtime| {
                assert_eq!(hand::pipeline(rt, PIPELINE_ITEMS, LINES), expected);
            }),
        ),
    ]
}

/// Taskflow's linear pipeline (`benchmarks/linear_pipeline`): `PIPES`
/// serial pipes, each a `PIPE_WORK` spin, over `TOKENS` tokens on
/// `PIPE_LINES` lines; from `main` and inside `install`.
fn linear_pipeline_systems() -> Vec<System<'static>> {
    fn run(rt: &Runtime) {
        let mut pipes = vec![Pipe::serial(|ctx| {
            if ctx.token() == TOKENS as u64 {
                ctx.stop();
            } else {
                spin_pipe(());
            }
        })];
        for _ in 1..PIPES {
            pipes.push(Pipe::serial(|_| spin_pipe(())));
        }
        let report = Pipeline::from_pipes(PIPE_LINES, pipes)
            .run(rt)
            .expect("the pipeline completes");
        assert_eq!(report.items(), TOKENS as u64);
    }
    vec![
        ("rt-dag from main", Box::new(run)),
        (
            "rt-dag inside install",
            Box::new(|rt: &Runtime| rt.install(|| run(rt))),
        ),
    ]
}

/// One pipe's work on a token: a spin of `PIPE_WORK` (a spin rather than
/// a sleep: the time a sleep takes past its length varies more than the
/// difference measured).
fn spin_pipe<T>(token: T) -> T {
    let start = Instant::now();
    while start.elapsed() < PIPE_WORK {
        std::hint::spin_loop();
    }
    token
}

/// Taskflow's graph pipeline (`benchmarks/graph_pipeline`): the nodes of
/// a level graph as tokens, level by level, through `PIPES` serial pipes
/// of a `PIPE_WORK` spin each, the node each line carries in a per-line
/// buffer; the last pipe adds up the values its node's prerequisites (the
/// level before) got from it. From `main` and inside `install`.
fn graph_pipeline_systems() -> Vec<System<'static>> {
    let preds = std::sync::Arc::new(shapes::level_graph(GP_LENGTH, GP_LEVELS, 4, 11));
    let make = |preds: std::sync::Arc<shapes::Preds>| {
        move |rt: &Runtime| {
            let values: Vec<AtomicU32> = (0..preds.len()).map(|_| AtomicU32::new(0)).collect();
            let buffer: Vec<AtomicU32> = (0..PIPE_LINES).map(|_| AtomicU32::new(0)).collect();
            let (values, buffer, nodes) = (&values, &buffer, preds.len() as u64);
            let mut pipes = vec![Pipe::serial(move |ctx| {
                if ctx.token() == nodes {
                    ctx.stop();
                } else {
                    buffer[ctx.line()].store(spin_pipe(ctx.token() as u32), Ordering::Relaxed);
                }
            })];
            for _ in 2..PIPES {
                pipes.push(Pipe::serial(|ctx| {
                    spin_pipe(buffer[ctx.line()].load(Ordering::Relaxed));
                }));
            }
            let preds = &preds;
            pipes.push(Pipe::serial(move |ctx| {
                let node = spin_pipe(buffer[ctx.line()].load(Ordering::Relaxed)) as usize;
                let from_before: u32 = preds[node]
                    .iter()
                    .map(|&p| values[p as usize].load(Ordering::Relaxed))
                    .sum();
                values[node].store(from_before.wrapping_add(1), Ordering::Relaxed);
            }));
            let report = Pipeline::from_pipes(PIPE_LINES, pipes)
                .run(rt)
                .expect("the pipeline completes");
            assert_eq!(report.items(), nodes);
        }
    };
    let from_main = make(preds.clone());
    let inside = make(preds);
    vec![
        ("rt-dag from main", Box::new(from_main)),
        (
            "rt-dag inside install",
            Box::new(move |rt: &Runtime| rt.install(|| inside(rt))),
        ),
    ]
}

/// The ratio of a workload run inside `install` to the same from `main`.
fn inside_install_line(r: &[Timings], out: &mut String, what: &str, inside: &str, main: &str) {
    let inside = median_of(r, inside);
    let main = median_of(r, main);
    let line = format!("{what}, inside install ÷ from main");
    ratio_line(out, &line, inside, main, "≤ 1.1", inside / main <= 1.1);
}

/// The graphs' shapes, as predecessor lists (each node's prerequisites,
/// all earlier nodes).
mod shapes {
    pub type Preds = Vec<Vec<u32>>;

    pub fn chain(n: usize) -> Preds {
        (0..n)
            .map(|i| if i == 0 { vec![] } else { vec![i as u32 - 1] })
            .collect()
    }

    /// Node `i`'s children are `2i + 1` and `2i + 2`.
    pub fn binary_tree(levels: u32) -> Preds {
        let n = (1usize << levels) - 1;
        (0..n)
            .map(|i| {
                if i == 0 {
                    vec![]
                } else {
                    vec![((i - 1) / 2) as u32]
                }
            })
            .collect()
    }

    /// Taskflow's level graph (`benchmarks/graph_traversal/levelgraph.hpp`):
    /// `levels` levels of `length` nodes; each node's successors are 1 to
    /// `edges` nodes of the next level, taken in turn from a shuffle of
    /// that level (shuffled again when used up). Node `(level, i)` is
    /// `level * length + i`.
    pub fn level_graph(length: usize, levels: usize, edges: usize, seed: u64) -> Preds {
        let mut state = seed;
        let mut next = move || {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut shuffle = |v: &mut Vec<usize>| {
            for i in (1..v.len()).rev() {
                v.swap(i, (next() % (i as u64 + 1)) as usize);
            }
        };
        let mut preds: Preds = vec![Vec::new(); length * levels];
        for level in 0..levels.saturating_sub(1) {
            let mut order: Vec<usize> = (0..length).collect();
            shuffle(&mut order);
            let mut start = 0;
            for i in 0..length {
                let count = 1 + (i * 7 + level * 3) % edges;
                let end = (start + count).min(length);
                for &j in &order[start..end] {
                    preds[(level + 1) * length + j].push((level * length + i) as u32);
                }
                if end == length {
                    shuffle(&mut order);
                    start = 0;
                } else {
                    start = end;
                }
            }
        }
        for p in &mut preds {
            p.sort_unstable();
            p.dedup();
        }
        preds
    }

    pub fn wavefront(side: usize) -> Preds {
        let mut preds = Vec::with_capacity(side * side);
        for row in 0..side {
            for col in 0..side {
                let mut p = Vec::new();
                if col > 0 {
                    p.push((row * side + col - 1) as u32);
                }
                if row > 0 {
                    p.push(((row - 1) * side + col) as u32);
                }
                preds.push(p);
            }
        }
        preds
    }

    /// Each node gets `succ` successors drawn without repetition among the
    /// nodes after it (fewer near the end), from a fixed seed.
    pub fn random_dag(n: usize, succ: usize, seed: u64) -> Preds {
        let mut state = seed;
        let mut next = move || {
            // splitmix64
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let mut preds: Preds = vec![Vec::new(); n];
        for i in 0..n {
            let after = n - i - 1;
            let mut chosen: Vec<u32> = Vec::with_capacity(succ);
            while chosen.len() < succ.min(after) {
                let j = (i + 1 + (next() % after as u64) as usize) as u32;
                if !chosen.contains(&j) {
                    chosen.push(j);
                }
            }
            for j in chosen {
                preds[j as usize].push(i as u32);
            }
        }
        preds
    }
}

/// The same work written by hand on `rt`.
mod hand {
    use super::*;
    use rt::Scope;

    /// Successor lists, in-degrees and entries.
    pub struct Csr {
        starts: Vec<u32>,
        succ: Vec<u32>,
        in_degree: Vec<u32>,
        entries: Vec<u32>,
    }

    impl Csr {
        pub fn new(preds: &shapes::Preds) -> Self {
            let n = preds.len();
            let mut starts = vec![0u32; n + 1];
            for p in preds {
                for &d in p {
                    starts[d as usize + 1] += 1;
                }
            }
            for i in 0..n {
                starts[i + 1] += starts[i];
            }
            let mut fill = starts.clone();
            let mut succ = vec![0u32; starts[n] as usize];
            for (i, p) in preds.iter().enumerate() {
                for &d in p {
                    succ[fill[d as usize] as usize] = i as u32;
                    fill[d as usize] += 1;
                }
            }
            Self {
                starts,
                succ,
                in_degree: preds.iter().map(|p| p.len() as u32).collect(),
                entries: (0..n as u32)
                    .filter(|&i| preds[i as usize].is_empty())
                    .collect(),
            }
        }

        pub fn len(&self) -> usize {
            self.in_degree.len()
        }
    }

    /// Runs every node once: a counter per node; the thread that brings
    /// it to zero runs the node next, or spawns it into the scope if it
    /// already has one to run. Returns how many nodes ran.
    pub fn run(rt: &Runtime, csr: &Csr) -> usize {
        let counts: Vec<AtomicU32> = csr.in_degree.iter().map(|&d| AtomicU32::new(d)).collect();
        let ran = AtomicU32::new(0);
        rt.scope(|s| {
            for &entry in &csr.entries {
                let (counts, ran) = (&counts, &ran);
                s.spawn(move || visit(s, csr, counts, ran, entry));
            }
        });
        ran.load(Ordering::Relaxed) as usize
    }

    fn visit<'s>(
        s: &'s Scope<'s, '_>,
        csr: &'s Csr,
        counts: &'s [AtomicU32],
        ran: &'s AtomicU32,
        mut node: u32,
    ) {
        let mut count = 0;
        loop {
            black_box(node); // the node's work
            count += 1;
            let mut next = None;
            let i = node as usize;
            for &d in &csr.succ[csr.starts[i] as usize..csr.starts[i + 1] as usize] {
                if counts[d as usize].fetch_sub(1, Ordering::AcqRel) == 1 {
                    if let Some(other) = next.replace(d) {
                        s.spawn(move || visit(s, csr, counts, ran, other));
                    }
                }
            }
            match next {
                Some(d) => node = d,
                None => break,
            }
        }
        ran.fetch_add(count, Ordering::Relaxed);
    }

    /// A binary tree of `levels` levels by `rt::join` recursion; returns
    /// its node count.
    pub fn tree(levels: u32) -> usize {
        black_box(levels); // the node's work
        if levels <= 1 {
            return 1;
        }
        let (a, b) = rt::join(|| tree(levels - 1), || tree(levels - 1));
        1 + a + b
    }

    /// The pipeline in batches of `lines` items: stage one in parallel
    /// (a scope task per item), stage two in order, stage three in
    /// parallel; returns the sum of the outputs.
    pub fn pipeline(rt: &Runtime, items: usize, lines: usize) -> u64 {
        let mut sum = 0u64;
        let mut total = 0u64;
        let mut batch = vec![0u64; lines];
        let mut start = 0usize;
        rt.install(|| {
            while start < items {
                let len = lines.min(items - start);
                let slots = &mut batch[..len];
                rt::scope(|s| {
                    for (k, slot) in slots.iter_mut().enumerate() {
                        let x = (start + k) as u64;
                        s.spawn(move || *slot = stage_one(x));
                    }
                });
                for slot in slots.iter_mut() {
                    *slot = stage_two(&mut sum, *slot);
                }
                rt::scope(|s| {
                    for slot in slots.iter_mut() {
                        s.spawn(move || *slot = stage_three(*slot));
                    }
                });
                for &x in slots.iter() {
                    total = total.wrapping_add(x);
                }
                start += len;
            }
        });
        total
    }
}

/// Makespan of one long chain beside a wide fan-out, first-come against
/// critical path first.
mod critical_path {
    use super::*;
    use rt::Executor;

    /// Chain of `CHAIN` nodes and `WIDE` independent nodes, each of which
    /// sleeps `WORK` (a node that waits, for a disk or a server: the
    /// makespan then measures the schedule, not how much of the two CPUs
    /// the machine's neighbours leave us). The wide ones are added first,
    /// as a user adding the easy work first would. The chain alone is as
    /// long as the whole work spread over two workers: the bound is met
    /// only if the chain starts at once and never waits.
    const CHAIN: usize = 100;
    const WIDE: usize = 100;
    const WORK: Duration = Duration::from_micros(200);

    fn node_work(d: Duration) {
        std::thread::sleep(d);
    }

    /// How long one node takes here (a sleep lasts longer than asked).
    fn node_time() -> Duration {
        let start = Instant::now();
        for _ in 0..100 {
            node_work(WORK);
        }
        start.elapsed() / 100
    }

    fn graph(order: ReadyOrder) -> TaskGraph {
        let mut graph = TaskGraph::new();
        graph.set_ready_order(order);
        for _ in 0..WIDE {
            graph.add_task(|_| node_work(WORK));
        }
        let mut last = graph.add_task(|_| node_work(WORK));
        for _ in 1..CHAIN {
            last = graph.add_task_after(&[last], |_| node_work(WORK)).unwrap();
        }
        graph
    }

    /// Medians of `rounds` runs of each order, interleaved.
    fn makespans<E: Executor>(executor: &E, rounds: usize) -> (Duration, Duration) {
        let mut declared = graph(ReadyOrder::Declared);
        let mut critical = graph(ReadyOrder::CriticalPath);
        let mut times = [Vec::new(), Vec::new()];
        for round in 0..=rounds {
            for k in 0..2 {
                let which = (k + round) % 2;
                let graph = if which == 0 {
                    &mut declared
                } else {
                    &mut critical
                };
                std::thread::sleep(Duration::from_millis(2));
                let start = Instant::now();
                assert!(graph.run(executor).all_completed());
                if round > 0 {
                    times[which].push(start.elapsed());
                }
            }
        }
        let median = |t: &mut Vec<Duration>| {
            t.sort();
            t[t.len() / 2]
        };
        (median(&mut times[0]), median(&mut times[1]))
    }

    pub fn table(rt: &Runtime, rounds: usize) -> String {
        let node = node_time();
        let bound = (node * CHAIN as u32).max(node * (CHAIN + WIDE) as u32 / WORKERS as u32);
        let pool = rt::baselines::GlobalQueuePool::new(WORKERS).expect("a pool of 2 threads");
        let mut out = String::new();
        let _ = writeln!(
            out,
            "## Critical path first: a chain of {CHAIN} nodes beside {WIDE} independent ones\n\n\
             Each node sleeps {} µs ({:.0} µs measured). The wide nodes are added first. \
             Bound: max(chain, total ÷ {WORKERS}) = {:.1} ms. \
             Medians of {rounds} runs, the two orders interleaved.\n\n\
             | executor | first-come (`Declared`) ms | ÷ bound | critical path first ms | ÷ bound | first-come ÷ critical path |\n|---|---:|---:|---:|---:|---:|",
            WORK.as_micros(),
            node.as_secs_f64() * 1e6,
            ms(bound)
        );
        let rows: [(&str, (Duration, Duration)); 2] = [
            ("rt::Runtime", makespans(rt, rounds)),
            ("GlobalQueuePool", makespans(&pool, rounds)),
        ];
        for (name, (declared, critical)) in rows {
            let _ = writeln!(
                out,
                "| {name} | {:.1} | {:.2} | {:.1} | {:.2} | {:.2} |",
                ms(declared),
                declared.as_secs_f64() / bound.as_secs_f64(),
                ms(critical),
                critical.as_secs_f64() / bound.as_secs_f64(),
                declared.as_secs_f64() / critical.as_secs_f64(),
            );
        }
        pool.shutdown();
        out
    }
}

/// rt-dag as it was at commit 9e72f6e, reduced to what these graphs use
/// (no cancellation, no async, no typed reads): every node is a job of its
/// own, and every completion goes back through a channel to the thread
/// inside `run_graph`, which counts the dependents down and submits those
/// that became ready. Its costs per node are kept: a `Job::new` and a
/// dropped handle, an `Arc` clone, a boxed output in a `OnceLock`, a channel
/// message, and the caller's spin-then-block wait.
mod before {
    use std::any::Any;
    use std::collections::VecDeque;
    use std::panic::{catch_unwind, AssertUnwindSafe};
    use std::sync::{Arc, OnceLock};

    use crossbeam_channel::{Receiver, Sender};
    use rt::{Executor, Job, Priority};

    type Output = Box<dyn Any + Send + Sync>;
    type Body = Box<dyn FnOnce(&[OnceLock<Output>]) -> Output + Send>;

    pub struct Graph {
        bodies: Vec<Body>,
        dep_starts: Vec<usize>,
        dep_list: Vec<usize>,
    }

    impl Graph {
        pub fn new() -> Self {
            Self {
                bodies: Vec::new(),
                dep_starts: vec![0],
                dep_list: Vec::new(),
            }
        }

        pub fn add<T: Send + Sync + 'static>(
            &mut self,
            deps: &[u32],
            f: impl FnOnce(&[OnceLock<Output>]) -> T + Send + 'static,
        ) {
            let start = self.dep_list.len();
            self.dep_list.extend(deps.iter().map(|&d| d as usize));
            self.dep_list[start..].sort_unstable();
            self.dep_starts.push(self.dep_list.len());
            self.bodies
                .push(Box::new(move |outputs| Box::new(f(outputs))));
        }
    }

    struct Shared {
        outputs: Box<[OnceLock<Output>]>,
    }

    enum Report {
        Completed,
        Failed,
    }

    /// A node's index and how its job ended.
    type Completion = (usize, Report);

    struct NodeJob {
        index: usize,
        shared: Option<Arc<Shared>>,
        body: Option<Body>,
        done: Sender<Completion>,
    }

    impl NodeJob {
        fn run(mut self) {
            let (shared, body) = (self.shared.take().unwrap(), self.body.take().unwrap());
            let report = match catch_unwind(AssertUnwindSafe(|| body(&shared.outputs))) {
                Ok(output) => {
                    let _ = shared.outputs[self.index].set(output);
                    Report::Completed
                }
                Err(_) => Report::Failed,
            };
            drop(shared);
            let _ = self.done.send((self.index, report));
        }
    }

    impl Drop for NodeJob {
        fn drop(&mut self) {
            if self.body.take().is_some() {
                let _ = self.done.send((self.index, Report::Failed));
            }
        }
    }

    /// Runs the graph; returns how many nodes completed.
    pub fn run_graph<E: Executor>(executor: &E, graph: Graph) -> usize {
        let n = graph.bodies.len();
        let mut dependent_starts = vec![0; n + 1];
        for &dep in &graph.dep_list {
            dependent_starts[dep + 1] += 1;
        }
        for i in 0..n {
            dependent_starts[i + 1] += dependent_starts[i];
        }
        let mut fill = dependent_starts.clone();
        let mut dependents = vec![0; graph.dep_list.len()];
        for node in 0..n {
            for &dep in &graph.dep_list[graph.dep_starts[node]..graph.dep_starts[node + 1]] {
                dependents[fill[dep]] = node;
                fill[dep] += 1;
            }
        }
        let mut waiting: Vec<usize> = (0..n)
            .map(|i| graph.dep_starts[i + 1] - graph.dep_starts[i])
            .collect();
        let mut ready: VecDeque<usize> = (0..n).filter(|&i| waiting[i] == 0).collect();
        let mut bodies: Vec<Option<Body>> = graph.bodies.into_iter().map(Some).collect();
        let shared = Arc::new(Shared {
            outputs: (0..n).map(|_| OnceLock::new()).collect(),
        });
        let (done_tx, done_rx) = crossbeam_channel::unbounded::<Completion>();
        let mut in_flight = 0;
        let mut completed = 0;
        loop {
            while let Some(index) = ready.pop_front() {
                let job = NodeJob {
                    index,
                    shared: Some(shared.clone()),
                    body: bodies[index].take(),
                    done: done_tx.clone(),
                };
                let (job, handle) = Job::new(move || job.run());
                drop(handle);
                in_flight += 1;
                let _ = executor.submit(Priority::Normal, job);
            }
            if in_flight == 0 {
                break;
            }
            let (index, report) = next_completion(&done_rx);
            in_flight -= 1;
            if let Report::Completed = report {
                completed += 1;
                for &d in &dependents[dependent_starts[index]..dependent_starts[index + 1]] {
                    waiting[d] -= 1;
                    if waiting[d] == 0 {
                        ready.push_back(d);
                    }
                }
            }
        }
        completed
    }

    fn next_completion(rx: &Receiver<Completion>) -> Completion {
        for round in 0..512 + 8 {
            if let Ok(c) = rx.try_recv() {
                return c;
            }
            if round < 512 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        rx.recv().expect("the run holds a sender")
    }
}
