//! What the runtime tells about itself: task counters and stats, latency
//! histograms, the execution trace (and its timeline picture), and the
//! worker hooks. (A task's `tracing` span is `TaskSpan`, in
//! `worker/entry.rs`: the queue entry carries it.)

pub(crate) mod clock;
pub(crate) mod hooks;
pub(crate) mod latency;
pub(crate) mod metrics;
pub(crate) mod stats;
#[cfg(feature = "svg")]
pub(crate) mod timeline;
pub(crate) mod trace;

#[cfg(all(test, loom))]
mod loom_metrics;
