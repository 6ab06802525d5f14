//! Facade for the workspace: depend on `rt` to get every crate, or on the
//! individual `rt-*` crates for only the parts you use.
#![warn(missing_docs)]
pub use rt_queue as queue;
