//! The concurrency primitives this crate uses, in one place.
//!
//! Everything here is `std`'s. The scheduler's shared state is an `Arc`
//! holding one `OnceLock` per node, written once by the worker that ran the
//! node and read afterwards by its dependents; the ordering between the two
//! comes from the completion channel (a send on the worker, a receive on the
//! `run_graph` thread, a submit of the dependent). Keeping the imports here
//! means a model checker (loom) could be swapped in behind a `cfg(loom)`
//! branch without touching the scheduler; this crate does not depend on loom
//! today because its protocol is a channel plus write-once cells.

pub(crate) use std::sync::atomic::{AtomicU64, Ordering};
pub(crate) use std::sync::{Arc, OnceLock};
