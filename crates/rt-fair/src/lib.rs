//! A single-threaded async executor with EEVDF weighted fair queues.
//!
//! Work in progress: see the issue tracker.
