//! A limit of k permits: at most k of its nodes run their closures at once,
//! across graphs and executors; a node without a permit waits in the
//! limit's queue, not on a thread, and waiters are served in order.

mod common;

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{quiet_expected_panics, Inline, EXPECTED};
use rt_core::Runtime;
use rt_dag::{
    CancellationToken, Executor, GraphError, Job, Limit, NodeId, NodeStatus, Priority, ReadyOrder,
    TaskGraph,
};
use rt_testkit::{without_hanging, Gate, Latch};

/// How many closures run at once, and the most seen.
#[derive(Default)]
struct Concurrency {
    now: AtomicUsize,
    most: AtomicUsize,
}

impl Concurrency {
    fn enter(&self) {
        let inside = self.now.fetch_add(1, Ordering::SeqCst) + 1;
        self.most.fetch_max(inside, Ordering::SeqCst);
    }
    fn leave(&self) {
        self.now.fetch_sub(1, Ordering::SeqCst);
    }
    fn most(&self) -> usize {
        self.most.load(Ordering::SeqCst)
    }
}

fn limited_graph(nodes: usize, limit: &Limit, seen: &Arc<Concurrency>) -> TaskGraph {
    let mut graph = TaskGraph::new();
    let root = graph.add_task(|_| ());
    for _ in 0..nodes {
        let seen = seen.clone();
        let node = graph
            .add_task_after(&[root], move |_| {
                seen.enter();
                std::thread::sleep(Duration::from_micros(200));
                seen.leave();
            })
            .unwrap();
        graph.set_limit(node, limit).unwrap();
    }
    graph
}

#[test]
fn at_most_k_nodes_of_a_limit_run_at_once_on_four_workers() {
    without_hanging(|| {
        let rt = Runtime::new(4).unwrap();
        let limit = Limit::new(2).unwrap();
        let seen = Arc::new(Concurrency::default());
        let mut graph = limited_graph(100, &limit, &seen);
        for _ in 0..3 {
            assert!(graph.run(&rt).all_completed());
        }
        assert_eq!(seen.most(), 2);
        assert_eq!(limit.available(), 2);
        assert_eq!(limit.waiting(), 0);
    })
}

#[test]
fn a_limit_shared_by_two_graphs_on_two_executors_holds_for_both_at_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let pool = rt_baselines::GlobalQueuePool::new(3).unwrap();
        let limit = Limit::new(2).unwrap();
        let seen = Arc::new(Concurrency::default());
        let mut on_rt = limited_graph(60, &limit, &seen);
        let mut on_pool = limited_graph(60, &limit, &seen);
        std::thread::scope(|s| {
            s.spawn(|| assert!(on_rt.run(&rt).all_completed()));
            s.spawn(|| assert!(on_pool.run(&pool).all_completed()));
        });
        assert!(seen.most() <= 2, "{}", seen.most());
        assert_eq!(limit.available(), 2);
        pool.shutdown();
    })
}

/// Adds to `graph` a node that takes `limit`'s only permit and keeps it
/// until `gate` opens, and a node that completes once the first holds the
/// permit: nodes after it find none free. Returns the two.
fn holding_the_only_permit(graph: &mut TaskGraph, limit: &Limit, gate: &Gate) -> (NodeId, NodeId) {
    let holding = Latch::new(1);
    let holder = {
        let (gate, holding) = (gate.clone(), holding.clone());
        graph.add_task(move |_| {
            holding.count_down();
            gate.wait();
        })
    };
    graph.set_limit(holder, limit).unwrap();
    let start = graph.add_task(move |_| holding.wait());
    (holder, start)
}

#[test]
fn nodes_waiting_for_a_permit_hold_no_worker() {
    without_hanging(|| {
        // Worker A runs `holder`, which keeps the only permit until `opener`
        // runs; worker B must run twenty limited nodes (which find no
        // permit) and `opener`. If a waiting node held B, nothing would
        // ever open the gate.
        let rt = Runtime::new(2).unwrap();
        let limit = Limit::new(1).unwrap();
        let gate = Gate::new();
        let ran = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let (_, start) = holding_the_only_permit(&mut graph, &limit, &gate);
        for _ in 0..20 {
            let ran = ran.clone();
            let node = graph
                .add_task_after(&[start], move |_| ran.fetch_add(1, Ordering::SeqCst))
                .unwrap();
            graph.set_limit(node, &limit).unwrap();
        }
        let opener = {
            let gate = gate.clone();
            graph
                .add_task_after(&[start], move |_| gate.open())
                .unwrap()
        };
        let outcome = graph.run(&rt);
        assert!(outcome.all_completed());
        assert_eq!(outcome.status(opener), Ok(&NodeStatus::Completed));
        assert_eq!(ran.load(Ordering::SeqCst), 20);
    })
}

/// Runs its jobs only when told, in the order they came, on the thread
/// that tells it.
#[derive(Default)]
struct Manual {
    queue: Mutex<VecDeque<Job>>,
}

impl Manual {
    /// How many jobs wait to be run.
    fn queued(&self) -> usize {
        self.queue.lock().unwrap().len()
    }

    /// Runs queued jobs, including those they queue, until none is left.
    fn run_all(&self) -> usize {
        let mut ran = 0;
        loop {
            let job = self.queue.lock().unwrap().pop_front();
            match job {
                Some(job) => {
                    job.run();
                    ran += 1;
                }
                None => return ran,
            }
        }
    }
}

impl Executor for Manual {
    fn submit(&self, _: Priority, job: Job) -> Result<(), Job> {
        self.queue.lock().unwrap().push_back(job);
        Ok(())
    }
}

#[test]
fn waiters_get_the_permit_in_the_order_they_started_waiting() {
    without_hanging(|| {
        let manual = Arc::new(Manual::default());
        let limit = Limit::new(1).unwrap();
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut graph = TaskGraph::new();
        graph.set_ready_order(ReadyOrder::Declared);
        // The holder runs first and, while it holds the permit, runs the
        // other entries' jobs: each finds no permit and waits, in order.
        let holder = {
            let (manual, order) = (manual.clone(), order.clone());
            graph.add_task(move |_| {
                let waited = manual.run_all();
                order
                    .lock()
                    .unwrap()
                    .push(format!("holder ({waited} waited)"));
            })
        };
        graph.set_limit(holder, &limit).unwrap();
        for i in 0..5 {
            let order = order.clone();
            let node = graph.add_task(move |_| order.lock().unwrap().push(format!("waiter {i}")));
            graph.set_limit(node, &limit).unwrap();
        }
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let driver = {
            let (manual, done) = (manual.clone(), done.clone());
            std::thread::spawn(move || {
                // The run submits its six entries before it waits; the
                // holder starts only once all are queued, so that it runs
                // the other five jobs itself (a holder started earlier
                // would find fewer, and this thread would run the rest).
                while manual.queued() < 6 && !done.load(Ordering::SeqCst) {
                    std::thread::yield_now();
                }
                while !done.load(Ordering::SeqCst) {
                    if manual.run_all() == 0 {
                        std::thread::yield_now();
                    }
                }
            })
        };
        let outcome = graph.run(&*manual);
        done.store(true, Ordering::SeqCst);
        driver.join().unwrap();
        assert!(outcome.all_completed());
        let expected: Vec<String> = std::iter::once("holder (5 waited)".to_string())
            .chain((0..5).map(|i| format!("waiter {i}")))
            .collect();
        assert_eq!(*order.lock().unwrap(), expected);
        assert_eq!(limit.available(), 1);
    })
}

#[test]
fn a_limited_node_that_panics_gives_its_permit_back() {
    without_hanging(|| {
        quiet_expected_panics();
        let limit = Limit::new(1).unwrap();
        let mut graph = TaskGraph::new();
        let bad = graph.add_task(|_| panic!("{EXPECTED}: limited"));
        let good = graph.add_task(|_| ());
        graph.set_limit(bad, &limit).unwrap();
        graph.set_limit(good, &limit).unwrap();
        let outcome = graph.run(&Runtime::new(2).unwrap());
        assert!(matches!(outcome.status(bad), Ok(NodeStatus::Panicked(_))));
        assert_eq!(outcome.status(good), Ok(&NodeStatus::Completed));
        assert_eq!(limit.available(), 1);
    })
}

#[test]
fn nodes_waiting_for_a_permit_in_a_cancelled_run_are_cancelled_and_pass_the_permit_on() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let limit = Limit::new(1).unwrap();
        let token = CancellationToken::new();
        let ran = Arc::new(AtomicUsize::new(0));
        let mut graph = TaskGraph::new();
        let canceller = {
            let token = token.clone();
            graph.add_task(move |_| {
                std::thread::sleep(Duration::from_millis(5));
                token.cancel();
            })
        };
        graph.set_limit(canceller, &limit).unwrap();
        for _ in 0..10 {
            let ran = ran.clone();
            let node = graph.add_task(move |_| ran.fetch_add(1, Ordering::SeqCst));
            graph.set_limit(node, &limit).unwrap();
        }
        let outcome = graph.run_cancellable(&rt, &token);
        let cancelled = outcome
            .iter()
            .filter(|(_, s)| **s == NodeStatus::Cancelled)
            .count();
        assert_eq!(cancelled + ran.load(Ordering::SeqCst) + 1, 11);
        assert_eq!(limit.available(), 1);
        assert_eq!(limit.waiting(), 0);
    })
}

#[test]
fn a_limit_of_zero_permits_is_refused() {
    without_hanging(|| {
        assert!(matches!(Limit::new(0), Err(GraphError::ZeroPermits)));
        let limit = Limit::new(3).unwrap();
        assert_eq!(limit.permits(), 3);
        assert!(limit.same_as(&limit.clone()));
        assert!(!limit.same_as(&Limit::new(3).unwrap()));
        assert!(format!("{limit:?}").contains("permits: 3"));
    })
}

#[test]
fn a_limit_holds_on_an_inline_executor_too() {
    without_hanging(|| {
        let limit = Limit::new(1).unwrap();
        let seen = Arc::new(Concurrency::default());
        let mut graph = limited_graph(20, &limit, &seen);
        assert!(graph.run(&Inline).all_completed());
        assert_eq!(seen.most(), 1);
    })
}

#[test]
fn a_thousand_waiters_for_a_permit_on_an_executor_that_shuts_down_are_rejected_without_hanging() {
    without_hanging(|| {
        /// Two threads that take `accept` jobs, then refuse every later
        /// one, like a pool shut down mid-run.
        struct RefusesAfter {
            pool: common::Pool,
            left: AtomicUsize,
        }
        impl Executor for RefusesAfter {
            fn submit(&self, p: Priority, job: Job) -> Result<(), Job> {
                let left = self.left.load(Ordering::SeqCst);
                if left == 0 {
                    return Err(job);
                }
                self.left.store(left - 1, Ordering::SeqCst);
                self.pool.submit(p, job)
            }
        }
        // The holder keeps the permit while a thousand limited nodes wait
        // in the queue; then the executor refuses every job, and the permit
        // goes from waiter to refused waiter a thousand times over.
        let executor = RefusesAfter {
            pool: common::Pool::new(2),
            left: AtomicUsize::new(1_001),
        };
        let limit = Limit::new(1).unwrap();
        let gate = Gate::new();
        let mut graph = TaskGraph::new();
        let (holder, start) = holding_the_only_permit(&mut graph, &limit, &gate);
        for _ in 0..1_000 {
            let node = graph.add_task_after(&[start], |_| ()).unwrap();
            graph.set_limit(node, &limit).unwrap();
        }
        std::thread::scope(|s| {
            let run = s.spawn(|| graph.run(&executor));
            // Every limited node waits, then the executor refuses all.
            rt_testkit::wait_until("a thousand waiters", || limit.waiting() == 1_000);
            executor.left.store(0, Ordering::SeqCst);
            gate.open();
            let outcome = run.join().unwrap();
            assert_eq!(outcome.status(holder), Ok(&NodeStatus::Completed));
            let rejected = outcome
                .iter()
                .filter(|(_, s)| **s == NodeStatus::Rejected)
                .count();
            assert_eq!(rejected, 1_000);
        });
        assert_eq!(limit.available(), 1);
        assert_eq!(limit.waiting(), 0);
    })
}
