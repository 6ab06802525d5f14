//! Round-robin burst dispatch to workers that each own a bounded queue.
//!
//! Work in progress: see the issue tracker.
