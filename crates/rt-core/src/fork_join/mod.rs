//! Tasks that wait for tasks: `join`, `scope`, `install`, a join on a
//! handle, and the rule by which a waiting worker helps (`JOIN_HELPING.md`;
//! what a fork costs, beside rayon's, chili's and forte's: `FORKS.md`);
//! and what a computation lets run in its middle: more urgent work at a
//! checkpoint, any work at a yield.

pub(crate) mod checkpoint;
pub(crate) mod helping;
pub(crate) mod install;
pub(crate) mod join;
pub(crate) mod latch;
pub(crate) mod scope;
pub(crate) mod scope_inbox;
pub(crate) mod stack_job;
pub(crate) mod worker_slot;
pub(crate) mod yield_now;

#[cfg(all(test, loom))]
mod loom_join;
