//! What the runtime tells about itself: task counters and stats, latency
//! histograms, the execution trace (and its timeline picture), `tracing`
//! spans, and the worker hooks.

pub(crate) mod clock;
pub(crate) mod hooks;
pub(crate) mod latency;
pub(crate) mod metrics;
pub(crate) mod stats;
pub(crate) mod task_span;
#[cfg(feature = "svg")]
pub(crate) mod timeline;
pub(crate) mod trace;

#[cfg(all(test, loom))]
mod loom_metrics;
