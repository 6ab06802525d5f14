//! A delayed-task scheduler: one timer thread, a deadline heap, handles that can cancel.
//!
//! Work in progress: see the issue tracker.
