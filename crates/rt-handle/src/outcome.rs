//! How a run, or a queue entry taken out unrun, ended: what an executor
//! counts.

/// How a call to [`Job::run`](crate::Job::run) ended, for the executor's
/// metrics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RunOutcome {
    /// The body ran and returned a value.
    Completed,
    /// The body ran and panicked; the panic was caught.
    Panicked,
    /// The body did not run: its token was cancelled before it started, or
    /// the task was cancelled while it waited in a queue.
    Cancelled,
    /// Nothing to count: this queue entry is stale, because a thread that
    /// joined the task ran it inline and counted it there, or because the
    /// task was cancelled (through its handle or its token) by a canceller
    /// that told the executor, which counted it then (an executor that
    /// registered a cancel listener).
    Stale,
}

/// How a queue entry taken out without running (`JobControl::discard`)
/// ended its task, for an executor that counts what it cancelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Discarded {
    /// This call cancelled the task: its body will never run.
    Cancelled,
    /// The task had been cancelled before (through its handle or its
    /// token) by a canceller that did not tell the executor: the entry
    /// counts that cancellation, which this call did not make.
    AlreadyCancelled,
    /// A joiner runs or ran the task, and counts it, or a canceller that
    /// told the executor counted its cancellation: nothing to count.
    Stale,
}

impl Discarded {
    /// What the executor's metrics count for the entry.
    pub fn outcome(self) -> RunOutcome {
        match self {
            Discarded::Cancelled | Discarded::AlreadyCancelled => RunOutcome::Cancelled,
            Discarded::Stale => RunOutcome::Stale,
        }
    }
}
