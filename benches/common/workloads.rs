//! The benchmark workloads: what each task does and how tasks are submitted.

pub use rt_bench_report::format::Unit;

use super::busy;

/// A task body: `task(i)` runs task number `i`. `'static` and shared by
/// reference, so no strategy pays for cloning it per task.
pub type TaskFn = &'static (dyn Fn(usize) + Sync);

/// How a workload submits its tasks.
#[derive(Clone, Copy)]
pub enum Shape {
    /// `n` independent tasks from outside the pool, handles dropped; wait for all.
    Detached { n: usize },
    /// `n` independent tasks from outside the pool; join every handle.
    Joined { n: usize },
    /// One task spawns `outer` children from inside the pool; each spawns `inner`.
    Nested { outer: usize, inner: usize },
    /// `width` independent tasks, then one task that runs after all of them:
    /// a fan-out → join dependency graph submitted by hand.
    FanOutJoin { width: usize },
    /// The same graph built with `rt-dag` and run with `run_graph`.
    Graph { width: usize },
    /// A chain: one task, spawned from outside, spawns the next from inside
    /// the pool, `links` tasks in all; the last one signals the end.
    Chain { links: usize },
}

pub struct Workload {
    pub name: &'static str,
    pub shape: Shape,
    pub workers: usize,
    /// How its time is reported: wall time of the whole run
    /// (`Unit::Millis`) or divided by the number of tasks
    /// (`Unit::NanosPerTask`).
    pub unit: Unit,
    pub task: TaskFn,
    /// Total number of tasks, for `Unit::NanosPerTask`.
    pub tasks: usize,
}

fn leak_costs(costs: Vec<u32>) -> &'static [u32] {
    Box::leak(costs.into_boxed_slice())
}

fn busy_task(costs: &'static [u32]) -> TaskFn {
    Box::leak(Box::new(move |i: usize| {
        busy(costs[i % costs.len()], i);
    }))
}

fn empty_task() -> TaskFn {
    Box::leak(Box::new(|i: usize| {
        std::hint::black_box(i);
    }))
}

/// Deterministic normally distributed costs (Box–Muller on an xorshift
/// generator), clamped to at least one op.
fn bell_costs(n: usize, mean: f64, sd: f64, seed: u64) -> Vec<u32> {
    let mut state = seed | 1;
    let mut uniform = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    (0..n)
        .map(|_| {
            let (u1, u2) = (uniform().max(f64::MIN_POSITIVE), uniform());
            let z = (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos();
            (mean + sd * z).max(1.0) as u32
        })
        .collect()
}

/// The costs of the `cpu_light` rows' tasks (about 150 ops each).
pub fn cpu_light_costs() -> &'static [u32] {
    leak_costs(bell_costs(2_000, 150.0, 40.0, 1))
}

/// Every workload of the suite, in table order.
pub fn all() -> Vec<Workload> {
    let small = leak_costs(vec![2_000; 2_000]);
    let large = leak_costs(vec![2_000_000; 64]);
    let uneven = leak_costs(
        (0..500)
            .map(|i| if i % 10 == 0 { 200_000 } else { 2_000 })
            .collect(),
    );
    let fan = leak_costs(vec![2_000; 201]);
    let light = cpu_light_costs();
    let medium = leak_costs(bell_costs(2_000, 1_500.0, 400.0, 2));
    let heavy = leak_costs(bell_costs(2_000, 15_000.0, 4_000.0, 3));
    let nested = leak_costs(vec![2_000; 1]);

    let w = |name, shape, workers, unit, task, tasks| Workload {
        name,
        shape,
        workers,
        unit,
        task,
        tasks,
    };
    use Shape::*;
    use Unit::*;
    let mut list = vec![
        w(
            "many_small_tasks",
            Detached { n: 2_000 },
            2,
            Millis,
            busy_task(small),
            2_000,
        ),
        w(
            "fewer_large_tasks",
            Detached { n: 64 },
            2,
            Millis,
            busy_task(large),
            64,
        ),
        w(
            "uneven_durations",
            Detached { n: 500 },
            2,
            Millis,
            busy_task(uneven),
            500,
        ),
        w(
            "fan_out_and_join (200 empty tasks, caller joins)",
            Joined { n: 200 },
            2,
            NanosPerTask,
            empty_task(),
            200,
        ),
        w(
            "chained_spawn (1,000 links)",
            Chain { links: 1_000 },
            2,
            NanosPerTask,
            empty_task(),
            1_000,
        ),
        w(
            "dependency_graph (by hand)",
            FanOutJoin { width: 200 },
            2,
            Millis,
            busy_task(fan),
            201,
        ),
        w(
            "dependency_graph (rt-dag)",
            Graph { width: 200 },
            2,
            Millis,
            busy_task(fan),
            201,
        ),
        w(
            "spawn_overhead (no handles)",
            Detached { n: 100_000 },
            2,
            NanosPerTask,
            empty_task(),
            100_000,
        ),
        w(
            "spawn_overhead (handles)",
            Joined { n: 100_000 },
            2,
            NanosPerTask,
            empty_task(),
            100_000,
        ),
        w(
            "nested_fan_out",
            Nested {
                outer: 1_000,
                inner: 10,
            },
            2,
            Millis,
            busy_task(nested),
            11_001,
        ),
    ];
    for (name, costs) in [
        ("cpu_light", light),
        ("cpu_medium", medium),
        ("cpu_heavy", heavy),
    ] {
        for workers in [1, 2, 4] {
            let label: &'static str = Box::leak(format!("{name} ({workers}w)").into_boxed_str());
            list.push(w(
                label,
                Detached { n: 2_000 },
                workers,
                Millis,
                busy_task(costs),
                2_000,
            ));
        }
    }
    list
}
