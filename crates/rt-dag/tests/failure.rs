//! A panicking node skips everything downstream of it and nothing else; a
//! refusing executor rejects nodes instead of hanging the run.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use common::{quiet_expected_panics, DropsJobs, Inline, Pool, ShutsDownAfter, EXPECTED};
use rt_dag::{run_graph, Executor, NodeStatus, TaskGraph};
use rt_testkit::without_hanging;

fn one_panicking_branch_and_one_healthy_branch_on(executor: &impl Executor) {
    quiet_expected_panics();
    let ran = Arc::new(AtomicUsize::new(0));
    let mut graph = TaskGraph::new();
    let root = graph.add_task(|_| 1_u32);
    // Unhealthy branch: root -> bad -> after_bad -> further -> join.
    let bad = graph
        .add_task_after(&[root], |_| -> u32 { panic!("{EXPECTED}: bad branch") })
        .unwrap();
    let counted = |ran: &Arc<AtomicUsize>| {
        let ran = Arc::clone(ran);
        move |_: &rt_dag::DependencyResults<'_>| {
            ran.fetch_add(1, Ordering::SeqCst);
        }
    };
    let after_bad = graph.add_task_after(&[bad], counted(&ran)).unwrap();
    let further = graph.add_task_after(&[after_bad], counted(&ran)).unwrap();
    // Healthy branch: root -> good1 -> good2.
    let good1 = graph
        .add_task_after(&[root], move |deps| deps.get::<u32>(root).unwrap() + 1)
        .unwrap();
    let good2 = graph
        .add_task_after(&[good1], move |deps| deps.get::<u32>(good1).unwrap() + 1)
        .unwrap();
    // A join of both branches is downstream of the failure too.
    let join = graph
        .add_task_after(&[further, good2], counted(&ran))
        .unwrap();

    let mut outcome = run_graph(executor, graph);

    assert_eq!(
        outcome.status(bad),
        Ok(&NodeStatus::Panicked(
            format!("{EXPECTED}: bad branch").into()
        ))
    );
    // Each skipped node names the failed (or skipped) node it waited for.
    for (skipped, prerequisite) in [(after_bad, bad), (further, after_bad), (join, further)] {
        assert_eq!(
            outcome.status(skipped),
            Ok(&NodeStatus::Skipped {
                prerequisite: prerequisite.into()
            }),
            "{skipped}"
        );
    }
    assert_eq!(ran.load(Ordering::SeqCst), 0, "no skipped node ran");
    assert_eq!(outcome.status(root), Ok(&NodeStatus::Completed));
    assert_eq!(outcome.take::<u32>(good2), Ok(3));
}

#[test]
fn a_panicking_branch_skips_its_dependents_and_a_healthy_branch_completes_on_a_pool() {
    without_hanging(|| {
        one_panicking_branch_and_one_healthy_branch_on(&Pool::new(2));
    })
}

#[test]
fn a_panicking_branch_skips_its_dependents_and_a_healthy_branch_completes_inline() {
    without_hanging(|| {
        one_panicking_branch_and_one_healthy_branch_on(&Inline);
    })
}

#[test]
fn a_panic_with_a_non_string_payload_gets_a_placeholder_message() {
    without_hanging(|| {
        quiet_expected_panics();
        // The hook cannot recognise this payload, so keep it quiet locally.
        let mut graph = TaskGraph::new();
        let node = graph.add_task(|_| std::panic::panic_any(42_u8));
        let outcome = rt_testkit::quietly(|| run_graph(&Inline, graph));
        assert_eq!(
            outcome.status(node),
            Ok(&NodeStatus::Panicked(rt_handle::NON_STRING_PAYLOAD.into()))
        );
    })
}

#[test]
fn every_root_is_rejected_and_every_other_node_skipped_when_the_executor_is_shut_down() {
    without_hanging(|| {
        let pool = Pool::new(1);
        pool.shutdown();
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task(|_| ());
        let c = graph.add_task_after(&[a, b], |_| ()).unwrap();
        let d = graph.add_task_after(&[c], |_| ()).unwrap();

        let outcome = run_graph(&pool, graph);

        assert_eq!(outcome.status(a), Ok(&NodeStatus::Rejected));
        assert_eq!(outcome.status(b), Ok(&NodeStatus::Rejected));
        assert_eq!(
            outcome.status(c),
            Ok(&NodeStatus::Skipped {
                prerequisite: a.into()
            })
        );
        assert_eq!(
            outcome.status(d),
            Ok(&NodeStatus::Skipped {
                prerequisite: c.into()
            })
        );
    })
}

#[test]
fn an_executor_that_shuts_down_mid_run_rejects_the_rest_without_hanging() {
    without_hanging(|| {
        let mut graph = TaskGraph::new();
        let first = graph.add_task(|_| 1);
        // `first` makes both of these ready: the thread that ran it runs
        // `second_a` (added first, as long a path) next and submits `second_b`,
        // the executor's second job, which it refuses.
        let second_a = graph.add_task_after(&[first], |_| 3).unwrap();
        let second_b = graph.add_task_after(&[first], |_| 4).unwrap();
        let after_a = graph.add_task_after(&[second_a], |_| 5).unwrap();
        let after_b = graph.add_task_after(&[second_b], |_| 6).unwrap();

        let outcome = run_graph(&ShutsDownAfter::new(1), graph);

        assert_eq!(outcome.status(first), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(second_a), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(after_a), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(second_b), Ok(&NodeStatus::Rejected));
        assert_eq!(
            outcome.status(after_b),
            Ok(&NodeStatus::Skipped {
                prerequisite: second_b.into()
            })
        );
    })
}

#[test]
fn a_job_the_executor_drops_without_running_is_rejected() {
    without_hanging(|| {
        let ran = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let a = {
            let ran = Arc::clone(&ran);
            graph.add_task(move |_| ran.fetch_add(1, Ordering::SeqCst))
        };
        let b = graph.add_task_after(&[a], |_| ()).unwrap();

        let outcome = run_graph(&DropsJobs, graph);

        assert_eq!(outcome.status(a), Ok(&NodeStatus::Rejected));
        assert_eq!(
            outcome.status(b),
            Ok(&NodeStatus::Skipped {
                prerequisite: a.into()
            })
        );
        assert_eq!(ran.load(Ordering::SeqCst), 0);
    })
}

#[test]
fn a_node_whose_captures_panic_when_dropped_completes_and_run_graph_does_not_panic() {
    without_hanging(|| {
        quiet_expected_panics();
        struct Bomb;
        impl Drop for Bomb {
            fn drop(&mut self) {
                panic!("{EXPECTED}: capture dropped");
            }
        }
        let mut graph = TaskGraph::new();
        let bomb = Bomb;
        // The closure keeps its capture between runs; `run_graph` drops the
        // graph, and with it the capture, once the run is over, and contains
        // the panic.
        let node = graph.add_task(move |_| {
            let _keep = &bomb;
            7
        });
        let other = graph.add_task(|_| 8);
        let mut outcome = run_graph(&Pool::new(2), graph);
        assert_eq!(outcome.take::<i32>(node), Ok(7));
        assert_eq!(outcome.take::<i32>(other), Ok(8));
    })
}

#[test]
fn a_graph_run_on_a_shut_down_runtime_is_rejected_instead_of_hanging() {
    without_hanging(|| {
        let runtime = rt_core::Runtime::new(2).unwrap();
        runtime.shutdown();
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task_after(&[a], |_| ()).unwrap();
        let outcome = run_graph(&runtime, graph);
        assert_eq!(outcome.status(a), Ok(&NodeStatus::Rejected));
        assert_eq!(
            outcome.status(b),
            Ok(&NodeStatus::Skipped {
                prerequisite: a.into()
            })
        );
    })
}

#[test]
fn a_graph_run_on_a_shut_down_global_queue_pool_is_rejected_instead_of_hanging() {
    without_hanging(|| {
        let pool = rt_baselines::GlobalQueuePool::new(2).unwrap();
        pool.shutdown();
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task_after(&[a], |_| ()).unwrap();
        let outcome = run_graph(&pool, graph);
        assert_eq!(outcome.status(a), Ok(&NodeStatus::Rejected));
        assert_eq!(
            outcome.status(b),
            Ok(&NodeStatus::Skipped {
                prerequisite: a.into()
            })
        );
    })
}

#[test]
fn an_executor_whose_submit_panics_rejects_the_node_instead_of_hanging() {
    without_hanging(|| {
        quiet_expected_panics();
        /// Runs jobs on new threads, but panics on its second `submit`
        /// (dropping the job while unwinding).
        struct Flaky(AtomicUsize);
        impl Executor for Flaky {
            fn submit(&self, p: rt_dag::Priority, job: rt_dag::Job) -> Result<(), rt_dag::Job> {
                if self.0.fetch_add(1, Ordering::SeqCst) == 1 {
                    panic!("{EXPECTED}: submit");
                }
                common::ThreadPerJob.submit(p, job)
            }
        }
        let mut graph = TaskGraph::new();
        let a = graph.add_task(|_| ());
        let b = graph.add_task(|_| ());
        let after_b = graph.add_task_after(&[b], |_| ()).unwrap();
        graph.set_ready_order(rt_dag::ReadyOrder::Declared);
        let outcome = run_graph(&Flaky(AtomicUsize::new(0)), graph);
        assert_eq!(outcome.status(a), Ok(&NodeStatus::Completed));
        assert_eq!(outcome.status(b), Ok(&NodeStatus::Rejected));
        assert_eq!(
            outcome.status(after_b),
            Ok(&NodeStatus::Skipped {
                prerequisite: b.into()
            })
        );
    })
}
