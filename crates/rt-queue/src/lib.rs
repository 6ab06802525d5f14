//! Priority classes and per-priority work-stealing queues.
//!
//! Every task has a [`Priority`]: `High`, `Normal` or `Background`. For each
//! class there is one global [`Injector`](https://docs.rs/crossbeam-deque/0.8/crossbeam_deque/struct.Injector.html) that takes
//! submissions from outside the pool, and every worker owns one local deque per
//! class, which other workers can steal from:
//!
//! ```text
//!            external submitters
//!                   │ push(priority)
//!      ┌────────────┼────────────────┐
//!      ▼            ▼                ▼
//!  [High inj]  [Normal inj]  [Background inj]      GlobalQueues
//!      │  steal_batch_and_pop        │              (shared, Sync)
//!      ▼                             ▼
//!  worker 0: [H][N][B]   worker 1: [H][N][B]  ...   WorkerQueues
//!               ▲  ▲  single steal, High first        (one per worker)
//!               └──┴──────── from peers ────────┘
//! ```
//!
//! # Search order
//!
//! [`WorkerQueues::find`] scans, for each priority from High to Background,
//! the worker's own deque and then that priority's injector (Normal and
//! Background in batches that amortise the trip; High one task at a time, so
//! that queued High work stays visible to every worker instead of waiting in
//! one busy worker's deque). Only when all six
//! are empty does it try a single steal from each peer, High first, starting
//! at a different victim each call. So a High task submitted to a busy pool is
//! taken by the first worker that finishes its current task, never after a
//! batch of Normal work that worker already moved to its own deque. `find`
//! reports the [`TaskSource`] so a runtime can count peer steals.
//!
//! # Classes that never had work cost nothing
//!
//! Every push first records its class in one byte shared by all the queues
//! ([`GlobalQueues::classes_seen`], a [`ClassSet`]; a load, and a
//! read-modify-write only the first time a class is used). A scan skips
//! the classes not in it, so a runtime whose tasks all share one class
//! looks at one deque and one injector per scan, not three of each.
//! [`WorkerQueues::find_among`] looks only at some classes (those more
//! urgent than the task a worker is running, say), taking one task at a
//! time.
//!
//! # Draining
//!
//! [`GlobalQueues::drain`] hands every queued task to its caller (a
//! runtime cancelling its queued work). A batch that a worker is moving
//! from an injector into its own deque is in neither while it moves; each
//! worker flags its batches, and a drain waits for a flagged batch to land
//! and then takes it from the deque (the flag and the drain's own flag are
//! a Dekker pair of `SeqCst` fences: see `take_batch`).
//!
//! # Weighted classes
//!
//! Under [`PriorityPolicy::Weighted`] a worker asks its [`ClassShares`] for
//! the order to look in ([`WorkerQueues::find_in`]) instead of High first:
//! EEVDF with the three classes as the entities, charging each class the
//! run time of its tasks divided by its weight, so that classes with work
//! share the worker's CPU time in proportion to their weights, and a class
//! that was idle rejoins at the current virtual time (no banked credit,
//! which also keeps a returning High class at the front). The definitions
//! and the guarantee: `WEIGHTED_SHARES.md` beside this crate's sources.
//!
//! This crate is generic over the task type and knows nothing of threads,
//! sleeping or shutdown; `rt-core` builds the runtime on top of it.
//!
//! # EEVDF
//!
//! [`ClassShares`] is built on [`eevdf::Eevdf`], the workspace's one
//! implementation of EEVDF over weighted entities (rt-fair's queues use it
//! too): exact integer arithmetic (virtual runtimes as exact fractions, so
//! nothing is rounded, carried or rebased), its policies as parameters (how
//! long a request is, the rejoin credit). Its design and the reasons for
//! its arithmetic: `EEVDF.md` beside this crate's sources.

// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-queue/latest")]
#![warn(missing_docs)]

pub mod eevdf;
mod per_class;
mod policy;
mod queues;

pub use per_class::PerClass;
pub use policy::{ClassShares, PriorityPolicy};
pub use queues::{
    work_queues, work_queues_up_to, ClassSet, Found, GlobalQueues, Priority, TaskSource,
    WorkerQueues,
};

#[cfg(test)]
mod tests;

/// The record of a task's path through the runtime's files, for the test
/// that checks `rt-core/ARCHITECTURE.md` ("The path of a spawned task")
/// against the code: with the feature `path-trace`, every step of that path
/// names its file (`path_step!()`, which records `file!()`) in one list
/// while recording is on. Without the feature `path_step!()` is empty and
/// this module does not exist: nothing of it is in a normal build.
#[cfg(feature = "path-trace")]
#[doc(hidden)]
pub mod path_trace {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::Mutex;
    use std::thread::ThreadId;

    /// What a recorded step is.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Kind {
        /// A step of the path (`path_step!()`).
        Step,
        /// The worker's run of a task returned (`path_step!(ran)`): what
        /// the worker does next is not the task's path.
        Ran,
        /// A cell's memory went back for reuse (`path_step!(recycled)`).
        Recycled,
    }

    /// One recorded step: its thread, its file and its kind.
    #[derive(Debug, Clone, Copy)]
    pub struct Step {
        /// The thread that took the step.
        pub thread: ThreadId,
        /// The file of the step (`file!()`).
        pub file: &'static str,
        /// What the step is.
        pub kind: Kind,
    }

    static ON: AtomicBool = AtomicBool::new(false);
    static STEPS: Mutex<Vec<Step>> = Mutex::new(Vec::new());
    static RECYCLED: AtomicUsize = AtomicUsize::new(0);

    /// Records a step of `kind` in `file` (what `path_step!` calls), if
    /// recording is on.
    pub fn record(file: &'static str, kind: Kind) {
        if ON.load(Ordering::Acquire) {
            let thread = std::thread::current().id();
            let mut steps = STEPS.lock().unwrap_or_else(|e| e.into_inner());
            steps.push(Step { thread, file, kind });
            if kind == Kind::Recycled {
                RECYCLED.fetch_add(1, Ordering::AcqRel);
            }
        }
    }

    /// How many cells were recycled since recording started.
    pub fn recycled_count() -> usize {
        RECYCLED.load(Ordering::Acquire)
    }

    /// Empties the record and starts recording.
    pub fn start() {
        STEPS.lock().unwrap_or_else(|e| e.into_inner()).clear();
        RECYCLED.store(0, Ordering::Release);
        ON.store(true, Ordering::Release);
    }

    /// Stops recording and hands over what was recorded, in order.
    pub fn stop() -> Vec<Step> {
        ON.store(false, Ordering::Release);
        std::mem::take(&mut *STEPS.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// How many steps are recorded so far.
    pub fn len() -> usize {
        STEPS.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

/// One step of a task's path (see `path_trace`): records this file with
/// the feature `path-trace`, nothing without it. `path_step!(recycled)`
/// marks the step that gives a cell's memory back for reuse,
/// `path_step!(ran)` the end of a worker's run of a task.
#[cfg(feature = "path-trace")]
#[doc(hidden)]
#[macro_export]
macro_rules! path_step {
    () => {
        $crate::path_trace::record(file!(), $crate::path_trace::Kind::Step)
    };
    (recycled) => {
        $crate::path_trace::record(file!(), $crate::path_trace::Kind::Recycled)
    };
    (ran) => {
        $crate::path_trace::record(file!(), $crate::path_trace::Kind::Ran)
    };
}

/// One step of a task's path (see `path_trace`): records this file with
/// the feature `path-trace`, nothing without it.
#[cfg(not(feature = "path-trace"))]
#[doc(hidden)]
#[macro_export]
macro_rules! path_step {
    () => {
        ()
    };
    (recycled) => {
        ()
    };
    (ran) => {
        ()
    };
}
