//! Small executors and helpers shared by the integration tests.
//!
//! Each test binary uses only some of these.
#![allow(dead_code)]

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crossbeam_channel::Sender;
use rt_dag::{Executor, Job, Priority};

/// Runs each job on the caller's thread, inside `submit`.
#[derive(Debug)]
pub struct Inline;

impl Executor for Inline {
    fn submit(&self, _priority: Priority, job: Job) -> Result<(), Job> {
        job.run();
        Ok(())
    }
}

/// Runs each job on a new OS thread.
#[derive(Debug)]
pub struct ThreadPerJob;

impl Executor for ThreadPerJob {
    fn submit(&self, _priority: Priority, job: Job) -> Result<(), Job> {
        std::thread::spawn(move || job.run());
        Ok(())
    }
}

/// A fixed pool of threads fed by one shared FIFO channel; refuses jobs
/// after `shutdown`. Priorities are recorded but not honoured.
#[derive(Debug)]
pub struct Pool {
    tx: Mutex<Option<Sender<Job>>>,
    workers: Mutex<Vec<JoinHandle<()>>>,
    pub submitted: AtomicUsize,
    pub priorities: Mutex<Vec<Priority>>,
}

impl Pool {
    pub fn new(threads: usize) -> Self {
        let (tx, rx) = crossbeam_channel::unbounded::<Job>();
        let workers = (0..threads)
            .map(|_| {
                let rx = rx.clone();
                std::thread::spawn(move || {
                    for job in rx {
                        job.run();
                    }
                })
            })
            .collect();
        Self {
            tx: Mutex::new(Some(tx)),
            workers: Mutex::new(workers),
            submitted: AtomicUsize::new(0),
            priorities: Mutex::new(Vec::new()),
        }
    }

    /// Stops accepting jobs, lets the workers drain the queue, joins them.
    pub fn shutdown(&self) {
        drop(self.tx.lock().unwrap().take());
        for worker in self.workers.lock().unwrap().drain(..) {
            worker.join().unwrap();
        }
    }
}

impl Executor for Pool {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        let tx = self.tx.lock().unwrap();
        match tx.as_ref() {
            Some(tx) => {
                self.submitted.fetch_add(1, Ordering::Relaxed);
                self.priorities.lock().unwrap().push(priority);
                tx.send(job).map_err(|err| err.into_inner())
            }
            None => Err(job),
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Accepts `accept` jobs (running them on new threads), then refuses every
/// later one, like an executor that is shut down part-way through a run.
#[derive(Debug)]
pub struct ShutsDownAfter {
    accept: usize,
    accepted: AtomicUsize,
}

impl ShutsDownAfter {
    pub fn new(accept: usize) -> Self {
        Self {
            accept,
            accepted: AtomicUsize::new(0),
        }
    }
}

impl Executor for ShutsDownAfter {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        if self.accepted.fetch_add(1, Ordering::Relaxed) < self.accept {
            ThreadPerJob.submit(priority, job)
        } else {
            Err(job)
        }
    }
}

/// Accepts every job and drops it without running it, like an executor that
/// discards its queue on shutdown.
#[derive(Debug)]
pub struct DropsJobs;

impl Executor for DropsJobs {
    fn submit(&self, _priority: Priority, job: Job) -> Result<(), Job> {
        drop(job);
        Ok(())
    }
}

/// Every panic message that a test provokes on purpose contains this, so
/// the hook installed by [`quiet_expected_panics`] keeps them off stderr.
pub const EXPECTED: &str = "expected test panic";

/// Silences panics whose message contains [`EXPECTED`]; others are printed
/// by the previous hook as usual.
pub fn quiet_expected_panics() {
    rt_testkit::silence_panics_matching(|info| rt_testkit::panic_text(info).contains(EXPECTED));
}

/// A flag a test can set from inside a node and read afterwards.
pub fn flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

/// Runs jobs on a runtime of `threads` workers and counts the jobs it was
/// given: how many nodes reached the executor as jobs of their own.
#[derive(Debug)]
pub struct Counting {
    pub runtime: rt_core::Runtime,
    pub jobs: AtomicUsize,
}

impl Counting {
    pub fn new(threads: usize) -> Self {
        Self {
            runtime: rt_core::Runtime::new(threads).unwrap(),
            jobs: AtomicUsize::new(0),
        }
    }

    pub fn jobs(&self) -> usize {
        self.jobs.load(Ordering::SeqCst)
    }
}

impl Executor for Counting {
    fn submit(&self, priority: Priority, job: Job) -> Result<(), Job> {
        self.jobs.fetch_add(1, Ordering::SeqCst);
        self.runtime.submit(priority, job)
    }
}

/// The name of the current thread, or its id when it has none.
pub fn thread_name() -> String {
    let current = std::thread::current();
    current
        .name()
        .map(str::to_owned)
        .unwrap_or_else(|| format!("{:?}", current.id()))
}
