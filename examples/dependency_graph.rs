//! A small build system as a task graph: fetch, compile the crates in
//! dependency order, link, then test and document in parallel. Prints the
//! graph (Graphviz DOT), then the schedule each step actually followed.
//!
//! ```text
//! cargo run --release --example dependency_graph            # everything succeeds
//! cargo run --release --example dependency_graph -- --fail  # `compile net` panics
//! ```
//!
//! With `--fail`, the steps that need `net` (directly or not) are skipped
//! and never run, while the independent `docs` branch still completes.

use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use rt::dag::{run_graph, DependencyResults, NodeId, NodeStatus, Priority, TaskGraph};
use rt::Runtime;

/// When a step started and finished, and on which thread.
struct Entry {
    step: String,
    thread: String,
    start: Duration,
    end: Duration,
}

/// Everything the steps share: the clock and the schedule they append to.
#[derive(Clone)]
struct Log {
    origin: Instant,
    entries: Arc<Mutex<Vec<Entry>>>,
}

impl Log {
    /// Wraps a step: simulates `millis` of work and records when it ran.
    /// The step returns the names of the artifacts it produced.
    fn step(
        &self,
        step: &'static str,
        millis: u64,
        fail: bool,
    ) -> impl FnMut(&DependencyResults<'_>) -> Vec<String> + Send + 'static {
        let log = self.clone();
        move |deps| {
            let start = log.origin.elapsed();
            // Gather the artifacts of every prerequisite, as a build would.
            let mut inputs: Vec<String> = deps
                .dependencies()
                .flat_map(|dep| deps.get::<Vec<String>>(dep).cloned().unwrap_or_default())
                .collect();
            thread::sleep(Duration::from_millis(millis));
            log.entries.lock().unwrap().push(Entry {
                step: if fail {
                    format!("{step} (panics)")
                } else {
                    step.to_string()
                },
                thread: thread::current().name().unwrap_or("?").to_string(),
                start,
                end: log.origin.elapsed(),
            });
            if fail {
                panic!("{step}: error[E0308]: mismatched types");
            }
            inputs.push(format!("{step}.out"));
            inputs
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fail = std::env::args().any(|arg| arg == "--fail");
    let log = Log {
        origin: Instant::now(),
        entries: Arc::new(Mutex::new(Vec::new())),
    };

    let mut graph = TaskGraph::new();
    let mut add = |deps: &[NodeId], priority, step: &'static str, millis, fail| {
        let id =
            graph.add_task_after_with_priority(deps, priority, log.step(step, millis, fail))?;
        graph.set_label(id, step).map(|()| id)
    };
    let normal = Priority::Normal;
    let fetch = add(&[], normal, "fetch", 20, false)?;
    let core = add(&[fetch], normal, "compile core", 30, false)?;
    let net = add(&[core], normal, "compile net", 25, fail)?;
    let db = add(&[core], normal, "compile db", 25, false)?;
    let app = add(&[net, db], normal, "compile app", 30, false)?;
    // Linking is on the critical path: let it overtake queued work.
    let link = add(&[app], Priority::High, "link", 15, false)?;
    let test = add(&[link], normal, "test", 30, false)?;
    // Documentation only needs the sources; it uses otherwise idle time.
    let docs = add(&[fetch], Priority::Background, "docs", 60, false)?;
    let package = add(&[test, docs], normal, "package", 10, false)?;

    println!("the graph in Graphviz DOT (render it with `dot -Tsvg`):");
    println!("{}", graph.to_dot());

    let names = [
        (fetch, "fetch"),
        (core, "compile core"),
        (net, "compile net"),
        (db, "compile db"),
        (app, "compile app"),
        (link, "link"),
        (test, "test"),
        (docs, "docs"),
        (package, "package"),
    ];

    if fail {
        // The failure is reported in the outcome; keep the panic off stderr.
        std::panic::set_hook(Box::new(|_| {}));
    }
    let runtime = Runtime::new(2)?;
    let mut outcome = run_graph(&runtime, graph);
    runtime.shutdown();

    println!("schedule (ms since start):");
    let mut entries = log.entries.lock().unwrap();
    entries.sort_by_key(|entry| entry.start);
    for entry in entries.iter() {
        println!(
            "  {:>5.1} → {:>5.1}  {:<22} on {}",
            entry.start.as_secs_f64() * 1e3,
            entry.end.as_secs_f64() * 1e3,
            &entry.step,
            entry.thread,
        );
    }

    println!("status:");
    for (id, name) in names {
        let status = outcome.status(id)?;
        println!("  {name:<14} {status}");
    }
    match outcome.take::<Vec<String>>(package) {
        Ok(artifacts) => println!("package contains {} artifacts", artifacts.len()),
        Err(err) => println!("no package: {err}"),
    }
    if fail {
        assert!(matches!(outcome.status(net)?, NodeStatus::Panicked(_)));
        assert!(matches!(
            outcome.status(package)?,
            NodeStatus::Skipped { .. }
        ));
        let cause = outcome
            .root_cause(package)?
            .expect("the package was skipped");
        assert_eq!(cause.node().id(), net);
        assert_eq!(outcome.status(docs)?, &NodeStatus::Completed);
    } else {
        assert!(outcome.all_completed());
    }
    Ok(())
}
