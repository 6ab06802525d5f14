//! rayon-core's public API on rt-core (skeleton doc; see below).

#![warn(missing_docs)]
#![deny(missing_debug_implementations)]

mod broadcast;
mod builder;
mod current;
mod error;
mod join;
mod registry;
mod scope;
mod spawn;
mod thread_pool;

pub use broadcast::{broadcast, spawn_broadcast};
#[allow(deprecated)]
pub use builder::{initialize, Configuration};
pub use builder::{ThreadBuilder, ThreadPoolBuilder};
pub use current::{
    current_num_threads, current_thread_has_pending_tasks, current_thread_index, max_num_threads,
    yield_local, yield_now, Yield,
};
pub use error::ThreadPoolBuildError;
pub use join::{join, join_context, FnContext};
pub use rt_core::BroadcastContext;
pub use scope::{in_place_scope, in_place_scope_fifo, scope, scope_fifo, Scope, ScopeFifo};
pub use spawn::{spawn, spawn_fifo};
pub use thread_pool::ThreadPool;
