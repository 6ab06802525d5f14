//! How long a 16-node chain of empty nodes takes on a 2-worker `Runtime`,
//! run from the main thread (`graph.run(&rt)`), inside `rt.install`, and as
//! the same chain of 16 tasks in `rt.scope` (each task spawns the next):
//! the tail of the waits, not the mean. Rounds interleave the three ways;
//! it prints the median, the 90th percentile, the maximum and how many
//! rounds took over 1 ms (`docs/BENCHMARKS.md`, "Waiting for a short
//! run").
//!
//! ```text
//! cargo run --release -p rt-dag --example chain_tail -- [rounds] [gap µs]
//! ```
//!
//! `gap µs` (default 0) sleeps between rounds, so that the workers go idle
//! and each round starts by waking one.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rt_core::Runtime;
use rt_dag::{NodeId, TaskGraph};

const NODES: usize = 16;

fn chain() -> TaskGraph {
    let mut graph = TaskGraph::with_capacity(NODES, NODES - 1);
    let mut last: Option<NodeId> = None;
    for _ in 0..NODES {
        let deps: Vec<NodeId> = last.into_iter().collect();
        let id = graph
            .add_task_after(&deps, |_| black_box(()))
            .expect("ids of this graph");
        last = Some(id);
    }
    graph
}

/// One task of the scope's chain: spawns the next until `left` is zero.
fn link<'scope>(s: &'scope rt_core::Scope<'scope, '_>, left: usize) {
    black_box(());
    if left > 1 {
        s.spawn(move || link(s, left - 1));
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let rounds: usize = args.next().map_or(200, |a| a.parse().expect("rounds"));
    let gap = Duration::from_micros(args.next().map_or(0, |a| a.parse().expect("gap µs")));
    let rt = Runtime::new(2).expect("runtime");
    let mut main_graph = chain();
    let mut inside_graph = chain();
    let ways: [&str; 3] = [
        "graph.run from main",
        "graph.run inside install",
        "rt.scope chain",
    ];
    let mut times: [Vec<Duration>; 3] = Default::default();
    // Warm-up: cells recycled, threads started.
    for _ in 0..20 {
        assert!(main_graph.run(&rt).all_completed());
        assert!(rt.install(|| inside_graph.run(&rt)).all_completed());
        rt.scope(|s| link(s, NODES));
    }
    for round in 0..rounds {
        for k in 0..3 {
            // Rotate the order, so that none always follows another.
            let way = (round + k) % 3;
            if !gap.is_zero() {
                std::thread::sleep(gap);
            }
            let start = Instant::now();
            match way {
                0 => assert!(main_graph.run(&rt).all_completed()),
                1 => assert!(rt.install(|| inside_graph.run(&rt)).all_completed()),
                _ => rt.scope(|s| link(s, NODES)),
            }
            times[way].push(start.elapsed());
        }
    }
    println!(
        "{rounds} rounds, gap {} µs, 2 workers, {NODES}-node chain",
        gap.as_micros()
    );
    println!("| way | median ms | p90 ms | max ms | rounds over 1 ms |");
    println!("|---|---:|---:|---:|---:|");
    for (way, t) in ways.iter().zip(times.iter_mut()) {
        t.sort();
        let at = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3;
        let over = t.iter().filter(|d| **d > Duration::from_millis(1)).count();
        println!(
            "| {way} | {:.3} | {:.3} | {:.2} | {over} of {} |",
            at(0.5),
            at(0.9),
            at(1.0),
            t.len()
        );
    }
}
