//! The one place the release protocol takes its concurrency primitives
//! from: `std`'s normally, loom's when built with `RUSTFLAGS="--cfg loom"`,
//! so that `loom_release.rs` checks the very counters the runs use
//! (`release.rs`) under every interleaving.

#[cfg(loom)]
pub(crate) use loom::{
    sync::{
        atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering},
        Mutex,
    },
    thread,
};

#[cfg(not(loom))]
pub(crate) use std::{
    sync::{
        atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering},
        Mutex,
    },
    thread,
};
