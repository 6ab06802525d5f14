//! Records an execution trace of one workload and writes it twice: as
//! `trace.json` (open it in ui.perfetto.dev or chrome://tracing) and as a
//! timeline picture `timeline.svg`, both under `target/bench/` (or the
//! directory given after the workload). `cargo xtask trace [workload]` runs
//! this.
//!
//! Workloads: `quicksort` (the default: a parallel quicksort of 200,000
//! numbers with `rt::join` and a 2,048 cutoff, plus one task per leaf so the
//! picture shows tasks), `nested_fan_out` (tasks that spawn tasks), and
//! `priorities` (a mix of classes under the weighted policy).
//!
//! Run: `cargo run --release --example trace_timeline --features "chrome-trace svg" -- quicksort`

use std::path::PathBuf;

use rt::{Priority, PriorityPolicy, Runtime};

fn quicksort(rt: &Runtime) {
    fn sort(v: &mut [u64]) {
        if v.len() <= 2_048 {
            // A task per leaf: the trace shows tasks, not only join halves.
            rt::scope(|s| {
                s.spawn(|| v.sort_unstable());
            });
            return;
        }
        let pivot = v[v.len() / 2];
        let mut i = 0;
        for j in 0..v.len() {
            if v[j] < pivot {
                v.swap(i, j);
                i += 1;
            }
        }
        let i = i.max(1).min(v.len() - 1);
        let (lo, hi) = v.split_at_mut(i);
        rt::join(|| sort(lo), || sort(hi));
    }
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut v: Vec<u64> = (0..200_000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        })
        .collect();
    rt.install(|| sort(&mut v));
    assert!(v.windows(2).all(|w| w[0] <= w[1]));
}

/// Work the optimizer cannot remove: `n` steps of a fold whose result is kept.
fn spin(n: u64) -> u64 {
    let n = std::hint::black_box(n);
    std::hint::black_box((0..n).fold(0u64, |a, b| a ^ b.wrapping_mul(31)))
}

fn nested_fan_out(rt: &Runtime) {
    rt.install(|| {
        rt::scope(|s| {
            for _ in 0..16 {
                s.spawn(|| {
                    rt::scope(|s| {
                        for _ in 0..16 {
                            s.spawn(|| spin(400_000));
                        }
                    });
                });
            }
        });
    });
}

fn priorities(rt: &Runtime) {
    let handles: Vec<_> = (0..300)
        .map(|i| {
            let priority = [Priority::High, Priority::Normal, Priority::Background][i % 3];
            rt.spawn_with_priority(priority, move || spin(50_000))
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let workload = args.next().unwrap_or_else(|| "quicksort".into());
    let out = args.next().map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| "target".into())
            .join("bench")
    });
    let run: fn(&Runtime) = match workload.as_str() {
        "quicksort" => quicksort,
        "nested_fan_out" => nested_fan_out,
        "priorities" => priorities,
        other => {
            return Err(format!(
                "unknown workload {other:?}: quicksort, nested_fan_out or priorities"
            )
            .into())
        }
    };
    let rt = Runtime::builder()
        .threads(2)
        .priority_policy(if workload == "priorities" {
            PriorityPolicy::Weighted {
                high: 16,
                normal: 4,
                background: 1,
            }
        } else {
            PriorityPolicy::Strict
        })
        .build()?;
    run(&rt); // warm-up, untraced
    rt.start_trace(1 << 20);
    run(&rt);
    let trace = rt.stop_trace();
    std::fs::create_dir_all(&out)?;
    let json = out.join("trace.json");
    trace.write_chrome_json(std::io::BufWriter::new(std::fs::File::create(&json)?))?;
    let svg = out.join("timeline.svg");
    trace.write_svg(&svg)?;
    let stolen = trace
        .tasks
        .iter()
        .filter(|t| matches!(t.source, rt::runtime::Source::Stolen { .. }))
        .count();
    // Workers first, then any compensating thread.
    let mut per_worker = vec![0usize; trace.threads()];
    for task in &trace.tasks {
        per_worker[task.worker] += 1;
    }
    println!(
        "{workload}: {} tasks on {} workers, {stolen} of them stolen; tasks per thread \
         {per_worker:?}; {} idle intervals, {} events dropped",
        trace.tasks.len(),
        trace.workers,
        trace.idle.len(),
        trace.dropped
    );
    if stolen == 0 && per_worker.iter().filter(|&&n| n > 0).count() > 1 {
        // Work still moved: a worker stole a `join` half (which the trace
        // does not record, as it is not a task) and ran the tasks under it.
        println!(
            "no task was stolen, yet several workers ran tasks: the work moved between \
             workers as stolen join halves, which the trace does not record as tasks"
        );
    }
    println!(
        "wrote {} (open in ui.perfetto.dev) and {}",
        json.display(),
        svg.display()
    );
    Ok(())
}
