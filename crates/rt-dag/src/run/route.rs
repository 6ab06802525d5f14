//! [`Launch`]: how the jobs of a run (a graph's, a pipeline's) reach the
//! executor.

use std::sync::Arc;

use super::help_desk::HelpDesk;
use super::inbox::Inbox;
use super::launch::ExecutorPtr;

/// How a run's nodes reach the executor.
#[derive(Clone)]
pub(crate) enum Launch {
    /// Submitted by whichever thread makes them ready.
    Executor(ExecutorPtr),
    /// Put on the desk of the worker waiting for the run, which runs them
    /// unless the desk's tickets at the executor do first (`help_desk.rs`).
    Helped(Arc<HelpDesk>),
    /// Handed to the future awaiting the run, which submits them: the
    /// future borrows the executor only while it is polled.
    Future(Arc<Inbox>),
}
