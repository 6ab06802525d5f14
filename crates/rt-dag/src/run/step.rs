//! What the thread that holds a unit of work does next.

use super::state::RunRef;

/// What the thread that holds a unit of work does next.
#[derive(Debug)]
pub(crate) enum Step {
    /// Run this node of the same run, with the unit.
    Next(u32),
    /// Run this node of that run (a subgraph's entry, or a dependent of
    /// the node whose subgraph ended), with the unit.
    Switch(RunRef, u32),
    /// Give the unit back.
    Done,
    /// Nothing: the unit is kept elsewhere (a limit's queue, a running
    /// subgraph).
    Held,
}
