//! The execution trace: every task once, consistent times and parents, a
//! Trace Event Format file Perfetto opens, and a bounded buffer.

mod support;

use std::collections::{HashMap, HashSet};

use rt_core::{Runtime, Source, Trace};
use support::without_hanging;

/// A root task that opens 20 scopes, one after the other, each spawning 5
/// tasks, all joined: 101 tasks.
fn tree(rt: &Runtime) {
    let root = {
        rt.spawn(|| {
            let children: Vec<_> = (0..20)
                .map(|_| {
                    rt_core::scope(|s| {
                        let grandchildren: Vec<_> = (0..5).map(|i| s.spawn(move || i)).collect();
                        grandchildren
                            .into_iter()
                            .map(|h| h.join().unwrap())
                            .sum::<i32>()
                    })
                })
                .collect();
            children.len()
        })
    };
    assert_eq!(root.join(), Ok(20));
}

fn traced(rt: &Runtime, capacity: usize, work: impl FnOnce()) -> Trace {
    assert!(rt.start_trace(capacity));
    work();
    rt.stop_trace()
}

#[test]
fn a_trace_lists_every_task_once_with_ordered_times_and_known_parents() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let nested = std::sync::Arc::new(rt);
        let rt2 = nested.clone();
        let trace = traced(&nested, 100_000, move || {
            // 1 root + 10 children + 10 × 5 grandchildren, by spawn and join.
            let root = rt2.clone();
            let handle = rt2.spawn(move || {
                let children: Vec<_> = (0..10)
                    .map(|_| {
                        let inner = root.clone();
                        root.spawn(move || {
                            let grandchildren: Vec<_> =
                                (0..5).map(|i| inner.spawn(move || i)).collect();
                            grandchildren
                                .into_iter()
                                .map(|h| h.join().unwrap())
                                .sum::<i32>()
                        })
                    })
                    .collect();
                children.into_iter().map(|h| h.join().unwrap()).sum::<i32>()
            });
            assert_eq!(handle.join(), Ok(100));
        });
        assert_eq!(trace.dropped, 0);
        assert_eq!(trace.tasks.len(), 61, "every task exactly once");
        let ids: HashSet<u64> = trace.tasks.iter().map(|t| t.id).collect();
        assert_eq!(ids.len(), 61);
        for task in &trace.tasks {
            assert!(
                task.spawned_ns <= task.start_ns && task.start_ns <= task.end_ns,
                "{task:?}"
            );
            if let Some(parent) = task.parent {
                assert!(
                    ids.contains(&parent),
                    "parent {parent} of {task:?} is in the trace"
                );
            }
        }
        for task in &trace.tasks {
            if let Source::Stolen { from } = task.source {
                assert!(
                    from < 2 && from != task.worker,
                    "stolen from a peer: {task:?}"
                );
            }
        }
        let with_parent = trace.tasks.iter().filter(|t| t.parent.is_some()).count();
        assert_eq!(
            with_parent, 60,
            "every spawned task names the task that spawned it"
        );
        // On one worker, tasks overlap only when one runs nested inside
        // another (a joiner running it, or helping while it waits).
        let mut by_worker: HashMap<usize, Vec<_>> = HashMap::new();
        for task in &trace.tasks {
            by_worker.entry(task.worker).or_default().push(task);
        }
        for tasks in by_worker.values() {
            for (i, a) in tasks.iter().enumerate() {
                for b in &tasks[i + 1..] {
                    let overlap = a.start_ns < b.end_ns && b.start_ns < a.end_ns;
                    if overlap {
                        let (outer, inner) = if a.start_ns <= b.start_ns {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        assert!(
                            inner.end_ns <= outer.end_ns && inner.nested,
                            "{outer:?} and {inner:?} overlap on one worker"
                        );
                    }
                }
            }
        }
    });
}

#[test]
#[cfg(feature = "chrome-trace")]
fn the_chrome_json_parses_and_has_the_trace_event_format_fields() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let trace = traced(&rt, 10_000, || tree(&rt));
        assert_eq!(trace.tasks.len(), 1 + 20 * 5);
        let mut json = Vec::new();
        trace.write_chrome_json(&mut json).unwrap();
        let doc: serde_json::Value = serde_json::from_slice(&json).expect("valid JSON");
        let events = doc["traceEvents"].as_array().expect("a traceEvents array");
        let slices: Vec<_> = events.iter().filter(|e| e["ph"] == "X").collect();
        assert!(slices.len() >= trace.tasks.len());
        for e in &slices {
            for field in ["name", "ph", "ts", "dur", "pid", "tid"] {
                assert!(!e[field].is_null(), "{field} missing in {e}");
            }
        }
        let names = events.iter().filter(|e| e["ph"] == "M").count();
        assert_eq!(names, 2, "one named track per worker");
    });
}

#[test]
fn a_full_buffer_counts_drops_and_the_runtime_carries_on() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let trace = traced(&rt, 8, || {
            let handles: Vec<_> = (0..500u64).map(|i| rt.spawn(move || i)).collect();
            let sum: u64 = handles.into_iter().map(|h| h.join().unwrap()).sum();
            assert_eq!(sum, 499 * 500 / 2);
        });
        assert!(trace.dropped > 0);
        assert!(trace.tasks.len() <= 16);
        assert_eq!(rt.spawn(|| 1).join(), Ok(1));
    });
}

#[test]
fn a_second_start_while_recording_is_refused_and_stop_without_start_is_empty() {
    let rt = Runtime::new(1).unwrap();
    assert!(rt.stop_trace().tasks.is_empty());
    assert!(rt.start_trace(10));
    assert!(!rt.start_trace(10));
    rt.stop_trace();
    assert!(rt.start_trace(10), "a new trace after the last one stopped");
    rt.stop_trace();
}

#[test]
fn a_trace_of_usize_max_events_per_worker_is_clamped_to_the_maximum() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let trace = traced(&rt, usize::MAX, || tree(&rt));
        assert_eq!(trace.tasks.len(), 1 + 20 * 5);
        assert_eq!(trace.dropped, 0);
    });
}

#[test]
#[cfg(target_pointer_width = "64")]
fn a_trace_of_two_to_the_32_events_per_worker_is_clamped_to_the_maximum() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let trace = traced(&rt, 1 << 32, || tree(&rt));
        assert_eq!(trace.tasks.len(), 1 + 20 * 5);
    });
}

#[test]
fn a_trace_counts_the_runtime_s_workers_and_names_a_compensating_thread_apart() {
    without_hanging(|| {
        let a = Runtime::new(1).unwrap();
        let b = Runtime::new(1).unwrap();
        let trace = traced(&a, 1_000, || {
            // a's only worker waits inside b, so a compensating thread runs
            // the task spawned on a from b's worker.
            let ran_on = a.install(|| b.install(|| a.spawn(rt_core::current_thread_index).join()));
            assert_eq!(ran_on, Ok(Some(1)));
        });
        assert_eq!(trace.workers, 1);
        assert_eq!(trace.threads(), 2);
        assert_eq!(trace.tasks.len(), 1);
        assert_eq!(trace.tasks[0].worker, 1);
        assert_eq!(trace.thread_name(0), "worker 0");
        assert_eq!(trace.thread_name(1), "compensating 1");
        #[cfg(feature = "svg")]
        {
            let path = std::env::temp_dir()
                .join(format!("rt-trace-compensating-{}.svg", std::process::id()));
            trace.write_svg(&path).unwrap();
            let svg = std::fs::read_to_string(&path).unwrap();
            std::fs::remove_file(&path).unwrap();
            assert!(svg.contains("1 worker and 1 compensating thread"), "{svg}");
            assert!(svg.contains("compensating 1"));
        }
    });
}
