//! Ported from Taskflow's `unittests/test_dependent_asyncs.cpp` (cases
//! `DependentAsync.NullDependency`, `EmbarrassingParallelism`,
//! `SilentDependentAsync.LinearChain`, `SimpleGraph`, `SimpleGraph2`,
//! `ComplexGraph`, `BinaryTree`, `CompleteLinearChain`,
//! `ParallelGraphConstruction`, `IterativeFibonacci`, `RecursiveFibonacci`
//! and `DependentAsync.FromRuntime`), onto `task_group`:
//! `dependent_async(f, tasks...)` is `group.spawn_after(&tasks, f)`, its
//! `AsyncTask` the handle's `task()`, its future the handle;
//! `wait_for_all` the group's. Results go through atomics where Taskflow
//! writes plain integers from the tasks. Sizes are Taskflow's, or scaled
//! down where a debug build would take seconds, and under the sanitizers.

mod common;

use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use common::{Inline, Pool};
use rt_core::Runtime;
use rt_dag::{run_graph, task_group, Executor, TaskGraph, TaskGroup, TaskRef};
use rt_testkit::{scaled, without_hanging};

fn cells(n: usize) -> Vec<AtomicI64> {
    (0..n).map(|_| AtomicI64::new(0)).collect()
}

fn get(cells: &[AtomicI64], i: usize) -> i64 {
    cells[i].load(Ordering::SeqCst)
}

fn set(cells: &[AtomicI64], i: usize, value: i64) {
    cells[i].store(value, Ordering::SeqCst);
}

/// Runs `case` on one and two workers of the runtime and on a pool.
fn on_every_executor(case: impl Fn(&dyn Executor)) {
    case(&Runtime::new(1).unwrap());
    case(&Runtime::new(2).unwrap());
    case(&Pool::new(3));
}

#[test]
fn tasks_without_prerequisites_start_at_once_and_a_fan_in_waits_for_them() {
    // NullDependency
    without_hanging(|| {
        on_every_executor(|executor| {
            let v = cells(3);
            task_group(executor, |group| {
                let t1 = group.spawn_after(&[], |_| set(&v, 0, 100)).unwrap();
                let t2 = group.spawn_after(&[], |_| set(&v, 1, 200)).unwrap();
                let t3 = group
                    .spawn_after(&[t1.task(), t2.task()], |_| {
                        set(&v, 2, get(&v, 0) + get(&v, 1))
                    })
                    .unwrap();
                t3.join().unwrap();
            });
            assert_eq!((get(&v, 0), get(&v, 1), get(&v, 2)), (100, 200, 300));
        })
    })
}

#[test]
fn independent_dependent_tasks_all_run() {
    // EmbarrassingParallelism
    without_hanging(|| {
        on_every_executor(|executor| {
            let n = scaled(20_000);
            let counter = AtomicUsize::new(0);
            task_group(executor, |group| {
                for i in 0..n {
                    let handle = group
                        .spawn_after(&[], |_| counter.fetch_add(1, Ordering::Relaxed))
                        .unwrap();
                    if i % 2 == 0 {
                        drop(handle); // silent_dependent_async
                    }
                }
                group.wait_for_all().unwrap();
            });
            assert_eq!(counter.load(Ordering::Relaxed), n);
        })
    })
}

#[test]
fn a_linear_chain_of_dependent_tasks_sees_each_predecessor_s_result() {
    // SilentDependentAsync.LinearChain
    without_hanging(|| {
        on_every_executor(|executor| {
            let n = scaled(20_000);
            let results = cells(n);
            task_group(executor, |group| {
                let mut tasks: Vec<TaskRef> = Vec::new();
                for i in 0..n {
                    let results = &results;
                    let t = group
                        .spawn_after(&tasks, move |_| {
                            let value = if i == 0 {
                                1
                            } else {
                                get(results, i - 1) + i as i64
                            };
                            set(results, i, value);
                        })
                        .unwrap();
                    tasks = vec![t.task()];
                }
                group.wait_for_all().unwrap();
            });
            assert_eq!(get(&results, 0), 1);
            for i in 1..n {
                assert_eq!(get(&results, i), get(&results, i - 1) + i as i64);
            }
        })
    })
}

#[test]
fn a_small_graph_of_dependent_tasks_runs_in_dependency_order_a_hundred_times() {
    // SimpleGraph: 0 → {1, 2, 3}, 2 → {4, 5, 6}
    without_hanging(|| {
        on_every_executor(|executor| {
            for id in 0..100_i64 {
                let r = cells(7);
                task_group(executor, |group| {
                    let r = &r;
                    let t0 = group.spawn(move |_| set(r, 0, 100 + id)).task();
                    let after0 = [t0];
                    group
                        .spawn_after(&after0, move |_| set(r, 1, get(r, 0) * 6 + id))
                        .unwrap();
                    let t2 = group
                        .spawn_after(&after0, move |_| set(r, 2, get(r, 0) - 200 + id))
                        .unwrap()
                        .task();
                    group
                        .spawn_after(&after0, move |_| set(r, 3, get(r, 0) / 9 + id))
                        .unwrap();
                    let after2 = [t2];
                    group
                        .spawn_after(&after2, move |_| set(r, 4, get(r, 2) + 66 + id))
                        .unwrap();
                    group
                        .spawn_after(&after2, move |_| set(r, 5, get(r, 2) - 999 + id))
                        .unwrap();
                    group
                        .spawn_after(&after2, move |_| set(r, 6, get(r, 2) * 9 / 13 + id))
                        .unwrap();
                    group.wait_for_all().unwrap();
                });
                assert_eq!(get(&r, 0), 100 + id);
                assert_eq!(get(&r, 1), get(&r, 0) * 6 + id);
                assert_eq!(get(&r, 2), get(&r, 0) - 200 + id);
                assert_eq!(get(&r, 3), get(&r, 0) / 9 + id);
                assert_eq!(get(&r, 4), get(&r, 2) + 66 + id);
                assert_eq!(get(&r, 5), get(&r, 2) - 999 + id);
                assert_eq!(get(&r, 6), get(&r, 2) * 9 / 13 + id);
            }
        })
    })
}

#[test]
fn a_graph_of_dependent_tasks_with_results_gives_every_result_once_the_last_is_joined() {
    // SimpleGraph2: {0, 1} → 2 → {3, 4, 5, 6}; {3, 4} → 7; {5, 6} → 8;
    // {0, 1, 2, 7, 8} → 9
    without_hanging(|| {
        on_every_executor(|executor| {
            for id in 0..100_i64 {
                let r = cells(10);
                task_group(executor, |group| {
                    let r = &r;
                    let t0 = group
                        .spawn_after(&[], move |_| set(r, 0, 100 + id))
                        .unwrap();
                    let t1 = group.spawn_after(&[], move |_| set(r, 1, 6 * id)).unwrap();
                    let t2 = group
                        .spawn_after(&[t0.task(), t1.task()], move |_| {
                            set(r, 2, get(r, 0) + get(r, 1) + id)
                        })
                        .unwrap();
                    let after2 = [t2.task()];
                    let from_2 = move |k: usize| {
                        move |_: &TaskGroup<'_>| {
                            set(r, k, get(r, 2) + id);
                            get(r, k)
                        }
                    };
                    let t3 = group.spawn_after(&after2, from_2(3)).unwrap();
                    let t4 = group.spawn_after(&after2, from_2(4)).unwrap();
                    let t5 = group.spawn_after(&after2, from_2(5)).unwrap();
                    let t6 = group.spawn_after(&after2, from_2(6)).unwrap();
                    let t7 = group
                        .spawn_after(&[t3.task(), t4.task()], move |_| {
                            set(r, 7, get(r, 3) + get(r, 4) + id);
                            get(r, 7)
                        })
                        .unwrap();
                    let t8 = group
                        .spawn_after(&[t5.task(), t6.task()], move |_| {
                            set(r, 8, get(r, 5) + get(r, 6) + id)
                        })
                        .unwrap();
                    let all = [t0.task(), t1.task(), t2.task(), t7.task(), t8.task()];
                    let t9 = group
                        .spawn_after(&all, move |_| {
                            let sum: i64 = [0, 1, 2, 7, 8].iter().map(|&k| get(r, k)).sum();
                            set(r, 9, sum + id);
                            get(r, 9)
                        })
                        .unwrap();
                    assert_eq!(t9.join().unwrap(), get(r, 9));
                    // Finished before 9: ready without waiting.
                    for (handle, k) in [(t3, 3), (t5, 5), (t7, 7)] {
                        assert!(handle.is_finished());
                        assert_eq!(handle.join().unwrap(), get(r, k));
                    }
                });
                assert_eq!(get(&r, 0), 100 + id);
                assert_eq!(get(&r, 1), 6 * id);
                assert_eq!(get(&r, 2), get(&r, 0) + get(&r, 1) + id);
                for k in 3..=6 {
                    assert_eq!(get(&r, k), get(&r, 2) + id);
                }
                assert_eq!(get(&r, 7), get(&r, 3) + get(&r, 4) + id);
                assert_eq!(get(&r, 8), get(&r, 5) + get(&r, 6) + id);
                let sum: i64 = [0, 1, 2, 7, 8].iter().map(|&k| get(&r, k)).sum();
                assert_eq!(get(&r, 9), sum + id);
            }
        })
    })
}

/// ComplexGraph's graph: 0 → 1..=100; task i of 1..=100 → its hundred
/// tasks of 101..=10100; each hundred → one of 10101..=10200; those →
/// 10201, joined for its result.
fn make_complex_graph(executor: &dyn Executor, round: i64) {
    let r = cells(10_202);
    let result = task_group(executor, |group| {
        let r = &r;
        let t0 = group
            .spawn_after(&[], move |_| set(r, 0, 100 + round))
            .unwrap()
            .task();
        let level1: Vec<TaskRef> = (1..=100)
            .map(|i| {
                let deps = [t0.clone()];
                group
                    .spawn_after(&deps, move |_| set(r, i, get(r, 0) + i as i64 + round))
                    .unwrap()
                    .task()
            })
            .collect();
        let level2: Vec<TaskRef> = (101..=10_100)
            .map(|i| {
                let parent = (i - 1) / 100;
                group
                    .spawn_after(&level1[parent - 1..parent], move |_| {
                        set(r, i, get(r, parent) + i as i64 + round)
                    })
                    .unwrap()
                    .task()
            })
            .collect();
        let level3: Vec<TaskRef> = (10_101..=10_200)
            .map(|i| {
                let k = i - 10_101;
                group
                    .spawn_after(&level2[k * 100..k * 100 + 100], move |_| {
                        let begin = (k + 1) * 100 + 1;
                        let value: i64 = (begin..begin + 100).map(|j| get(r, j)).sum();
                        set(r, i, value + i as i64 + round)
                    })
                    .unwrap()
                    .task()
            })
            .collect();
        group
            .spawn_after(&level3, move |_| {
                let value: i64 = (10_101..=10_200).map(|i| get(r, i)).sum();
                set(r, 10_201, value + 10_201 + round);
                get(r, 10_201)
            })
            .unwrap()
            .join()
            .unwrap()
    });
    assert_eq!(result, get(&r, 10_201));
    assert_eq!(get(&r, 0), 100 + round);
    for i in 1..=100 {
        assert_eq!(get(&r, i), get(&r, 0) + i as i64 + round);
    }
    for i in 101..=10_100 {
        assert_eq!(get(&r, i), get(&r, (i - 1) / 100) + i as i64 + round);
    }
    for i in 10_101..=10_200 {
        let begin = (i - 10_101 + 1) * 100 + 1;
        let value: i64 = (begin..begin + 100).map(|j| get(&r, j)).sum();
        assert_eq!(get(&r, i), value + i as i64 + round);
    }
    let value: i64 = (10_101..=10_200).map(|i| get(&r, i)).sum();
    assert_eq!(get(&r, 10_201), value + round + 10_201);
}

#[test]
fn a_complex_graph_of_ten_thousand_dependent_tasks_computes_every_level() {
    // ComplexGraph
    without_hanging(|| {
        on_every_executor(|executor| {
            for round in 0..scaled(3) as i64 {
                make_complex_graph(executor, round);
            }
        })
    })
}

#[test]
fn complex_graphs_built_from_inside_graph_nodes_complete() {
    // ComplexGraphFromWorker: each node builds and waits for a complex
    // graph, on its own executor.
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut graph = TaskGraph::new();
        for round in 0..3 {
            graph.add_task(move |deps| make_complex_graph(deps.executor(), round));
        }
        assert!(run_graph(&rt, graph).all_completed());
    })
}

#[test]
fn a_binary_tree_of_dependent_tasks_sets_each_node_to_its_depth() {
    // BinaryTree, 16 levels
    without_hanging(|| {
        on_every_executor(|executor| {
            let levels = if rt_testkit::UNDER_SANITIZER { 10 } else { 16 };
            let data = cells(1 << levels);
            task_group(executor, |group| {
                let data = &data;
                let mut parents: Vec<TaskRef> = Vec::new();
                let mut id = 1_usize;
                for level in 0..levels {
                    let mut children = Vec::with_capacity(1 << level);
                    for n in 0..(1_usize << level) {
                        let task = if id == 1 {
                            group.spawn(move |_| set(data, 1, 1)).task()
                        } else {
                            let node = id;
                            group
                                .spawn_after(&parents[n / 2..n / 2 + 1], move |_| {
                                    set(data, node, get(data, node / 2) + 1)
                                })
                                .unwrap()
                                .task()
                        };
                        children.push(task);
                        id += 1;
                    }
                    parents = children;
                }
                group.wait_for_all().unwrap();
            });
            let mut id = 1;
            for level in 0..levels {
                for _ in 0..(1 << level) {
                    assert_eq!(get(&data, id), level as i64 + 1);
                    id += 1;
                }
            }
        })
    })
}

#[test]
fn a_chain_where_each_task_waits_for_every_earlier_one_runs_in_order() {
    // CompleteLinearChain (N choose 2 edges), on two executors in turn
    without_hanging(|| {
        let n = scaled(600);
        let results = cells(2 * n);
        for (executor, base) in [
            (&Runtime::new(2).unwrap() as &dyn Executor, 0),
            (&Pool::new(2) as &dyn Executor, n),
        ] {
            task_group(executor, |group| {
                let results = &results;
                let mut tasks: Vec<TaskRef> = Vec::new();
                for i in 0..n {
                    let t = group
                        .spawn_after(&tasks, move |_| {
                            let at = base + i;
                            let value = if at == 0 {
                                1
                            } else {
                                get(results, at - 1) + i as i64
                            };
                            set(results, at, value);
                        })
                        .unwrap();
                    tasks.push(t.task());
                }
                group.wait_for_all().unwrap();
            });
        }
        assert_eq!(get(&results, 0), 1);
        for i in 1..n {
            assert_eq!(get(&results, i), get(&results, i - 1) + i as i64);
        }
        assert_eq!(get(&results, n), get(&results, n - 1));
        for i in 1..n {
            assert_eq!(get(&results, i + n), get(&results, i - 1 + n) + i as i64);
        }
    })
}

#[test]
fn tasks_building_a_pascal_triangle_of_dependent_tasks_in_parallel_run_it_in_order() {
    // ParallelGraphConstruction: the construction tasks themselves form
    // the triangle; each spawns its work task after its parents' work
    // tasks, which the parents' construction tasks spawned first.
    without_hanging(|| {
        on_every_executor(|executor| {
            let levels = scaled(60);
            let count = (1 + levels) * levels / 2;
            let data: Vec<AtomicI64> = (0..count).map(|_| AtomicI64::new(-1)).collect();
            let work: Vec<Mutex<Option<TaskRef>>> = (0..count).map(|_| Mutex::new(None)).collect();
            task_group(executor, |group| {
                let (data, work) = (&data, &work);
                let mut builders: Vec<TaskRef> = Vec::with_capacity(count);
                let mut id = 0_usize;
                for width in (1..=levels).rev() {
                    for _ in 0..width {
                        let parents = (id > width).then(|| (id - width - 1, id - width));
                        let after: Vec<TaskRef> = parents
                            .map(|(l, r)| vec![builders[l].clone(), builders[r].clone()])
                            .unwrap_or_default();
                        let node = id;
                        let builder = group
                            .spawn_after(&after, move |group| {
                                let work_after: Vec<TaskRef> = parents
                                    .map(|(l, r)| {
                                        [l, r]
                                            .iter()
                                            .map(|&p| {
                                                work[p]
                                                    .lock()
                                                    .unwrap()
                                                    .clone()
                                                    .expect("built first")
                                            })
                                            .collect()
                                    })
                                    .unwrap_or_default();
                                let task = group
                                    .spawn_after(&work_after, move |_| {
                                        if let Some((l, r)) = parents {
                                            assert_eq!(get(data, l), l as i64);
                                            assert_eq!(get(data, r), r as i64);
                                        }
                                        set(data, node, node as i64);
                                    })
                                    .unwrap();
                                *work[node].lock().unwrap() = Some(task.task());
                            })
                            .unwrap();
                        builders.push(builder.task());
                        id += 1;
                    }
                }
                group.wait_for_all().unwrap();
            });
            assert!((0..count).all(|i| get(&data, i) == i as i64));
        })
    })
}

const FIBONACCI: [u64; 93] = {
    let mut f = [0_u64; 93];
    f[1] = 1;
    let mut i = 2;
    while i < 93 {
        f[i] = f[i - 1] + f[i - 2];
        i += 1;
    }
    f
};

#[test]
fn fibonacci_numbers_from_a_chain_of_dependent_tasks_joined_one_by_one() {
    // IterativeFibonacci
    without_hanging(|| {
        on_every_executor(|executor| {
            task_group(executor, |group| {
                let mut tasks: Vec<TaskRef> = Vec::new();
                let (mut last, mut before_last) = (0_u64, 0_u64);
                for i in 0..=92 {
                    let handle = if i < 2 {
                        group.spawn_after(&[], move |_| i as u64).unwrap()
                    } else {
                        let after = [tasks[i - 1].clone(), tasks[i - 2].clone()];
                        group
                            .spawn_after(&after, move |_| last + before_last)
                            .unwrap()
                    };
                    tasks.push(handle.task());
                    before_last = last;
                    last = handle.join().unwrap();
                    assert_eq!(last, FIBONACCI[i]);
                }
            });
        })
    })
}

#[test]
fn fibonacci_numbers_from_tasks_that_join_the_tasks_they_spawn() {
    // RecursiveFibonacci: `corun_until` is a join that runs queued jobs.
    without_hanging(|| {
        fn fib(group: &TaskGroup<'_>, n: u64) -> u64 {
            if n < 2 {
                return n;
            }
            let a = group
                .spawn_after(&[], move |group| fib(group, n - 1))
                .unwrap();
            let b = group
                .spawn_after(&[], move |group| fib(group, n - 2))
                .unwrap();
            a.join().unwrap() + b.join().unwrap()
        }
        for executor in [
            &Runtime::new(1).unwrap() as &dyn Executor,
            &Runtime::new(2).unwrap(),
            &Inline,
        ] {
            task_group(executor, |group| {
                for i in 0..=11 {
                    let handle = group.spawn_after(&[], move |group| fib(group, i)).unwrap();
                    assert_eq!(handle.join().unwrap(), FIBONACCI[i as usize]);
                }
            });
        }
    })
}

#[test]
fn a_node_chains_a_thousand_dependent_tasks_on_its_own_executor() {
    // SilentDependentAsync.FromRuntime and DependentAsync.FromRuntime
    without_hanging(|| {
        for silent in [true, false] {
            let rt = Runtime::new(2).unwrap();
            let counter = std::sync::Arc::new(AtomicU64::new(0));
            let mut graph = TaskGraph::new();
            let c = counter.clone();
            graph.add_task(move |deps| {
                task_group(deps.executor(), |group| {
                    let c = &c;
                    let mut previous = group
                        .spawn_after(&[], move |_| {
                            assert_eq!(c.fetch_add(1, Ordering::SeqCst), 0);
                        })
                        .unwrap();
                    for i in 1..=1_000_u64 {
                        let current = group
                            .spawn_after(&[previous.task()], move |_| {
                                assert_eq!(c.fetch_add(1, Ordering::SeqCst), i);
                            })
                            .unwrap();
                        if !silent {
                            assert!(previous.join().is_ok());
                        }
                        previous = current;
                    }
                });
            });
            assert!(run_graph(&rt, graph).all_completed());
            assert_eq!(counter.load(Ordering::SeqCst), 1_001);
        }
    })
}
