//! One activation of one node: the piece of work a run hands to the
//! executor, or to the future awaiting it (`RUN.md`, "Units: why
//! everything a job touches is alive").

use std::fmt;
use std::mem::ManuallyDrop;

use rt_queue::Priority;

use super::launch;
use super::state::{Launch, RunRef};

/// One activation of one node, holding a unit of its run: what a job
/// carries, what waits in a limit's queue, and what the future of an
/// awaited run submits.
///
/// Started, it runs its node and what that makes ready (`drive.rs`).
/// Dropped without being started (the executor refused or discarded its
/// job, or the future that was to submit it is gone), it records the node
/// as `Rejected` and gives its unit (and the permits it holds) back
/// (`end.rs`).
pub(crate) struct Activation {
    run: RunRef,
    node: u32,
    /// How many of the permits its node takes before it runs the
    /// activation holds already, in the order the node takes them: those
    /// of its limits, or, for a module node, its module's
    /// (`permits.rs`).
    held: u32,
}

impl Activation {
    pub(crate) fn new(run: RunRef, node: u32) -> Self {
        Self::holding(run, node, 0)
    }

    /// An activation that holds the first `held` permits its node takes.
    pub(crate) fn holding(run: RunRef, node: u32, held: u32) -> Self {
        Self { run, node, held }
    }

    /// The same activation, holding one more permit: the one a limit's
    /// queue handed it.
    pub(crate) fn with_permit(mut self) -> Self {
        self.held += 1;
        self
    }

    /// Its run, its node, and how many of its node's permits it holds.
    pub(crate) fn parts(&self) -> (RunRef, u32, u32) {
        (self.run, self.node, self.held)
    }

    /// Takes the activation apart without its `Drop`, which would reject
    /// it: the caller, which starts it, takes over its unit and permits.
    #[inline]
    pub(crate) fn into_parts(self) -> (RunRef, u32, u32) {
        ManuallyDrop::new(self).parts()
    }

    /// The priority class its node runs at.
    fn priority(&self) -> Priority {
        // SAFETY: an activation holds a unit of its run.
        let run = unsafe { self.run.get() };
        run.graph().meta[self.node as usize].priority
    }

    /// Hands the activation to the executor, or to the future awaiting the
    /// run.
    pub(crate) fn launch(self) {
        // SAFETY: an activation holds a unit of its run.
        let run = unsafe { self.run.get() };
        let priority = self.priority();
        match &run.launch {
            // SAFETY: the executor outlives the run's units (`ExecutorPtr`).
            Launch::Executor(executor) => launch::submit(unsafe { executor.get() }, priority, self),
            // The desk's tickets go at Normal: the waiter takes the jobs in
            // the order they came.
            Launch::Helped(desk) => launch::hand(desk, self),
            Launch::Future(inbox) => inbox.push(priority, launch::job_of(self)),
        }
    }
}

impl fmt::Debug for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Activation")
            .field("node", &self.node)
            .field("held", &self.held)
            .finish()
    }
}
