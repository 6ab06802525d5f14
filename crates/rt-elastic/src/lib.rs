//! A dynamic core/max thread pool behind the Executor trait.
//!
//! Work in progress: see the issue tracker.
