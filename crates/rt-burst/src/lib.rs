//! Round-robin burst dispatch to workers that each own a bounded queue.
//!
//! A producer that is idle most of the time and then hands many workers work
//! at once (a packet batch, a frame, a tick) pays for waking sleeping
//! threads. With one shared queue, every woken worker then contends on it at
//! once. A [`BurstPool`] gives each worker its own queue and its own parking
//! spot instead: a burst wakes exactly the workers it needs, each once, and
//! nobody contends.
//!
//! ```text
//!   producer: send(item) / send_burst(items)
//!      │
//!      │ 1. choose, from the round-robin cursor:
//!      │    the first PARKED worker, else the first with room in its queue
//!      │ 2. push onto that worker's queue              (all items of a burst first)
//!      │ 3. state PARKED? swap it to BUSY ─► unpark     (each worker once per burst)
//!      ▼
//!   ┌─────────────┐   ┌─────────────┐       ┌─────────────┐
//!   │ queue 0     │   │ queue 1     │  ...  │ queue n-1   │  bounded, one lock each
//!   │ state 0     │   │ state 1     │       │ state n-1   │  BUSY | PARKED
//!   └──────┬──────┘   └──────┬──────┘       └──────┬──────┘
//!          ▼                 ▼                     ▼
//!      worker 0          worker 1              worker n-1   own thread, own FnMut handler:
//!                                                          pop ─► handle (panics caught)
//!                                                          empty ─► PARKED, park()
//!                                                          empty + shut down ─► exit
//! ```
//!
//! # Wake protocol
//!
//! A worker that finds its queue empty writes `PARKED` *under its queue's
//! lock* and then parks until its state reads `BUSY` again; a producer pushes
//! under the same lock and afterwards swaps a `PARKED` state to `BUSY`, and
//! the one caller that wins that swap unparks the thread. Either the push
//! came first (and the worker pops the item instead of parking) or the
//! `PARKED` write did (and the producer sees it): no wake-up is lost, a busy
//! worker costs the producer one load, and a parked one exactly one
//! `unpark`. Idle workers park with no timeout and use no CPU. Full
//! argument: `src/WAKE.md`.
//!
//! # When round-robin is the wrong tool
//!
//! Round-robin with per-worker queues shines when items cost about the same
//! and bursts arrive into an idle pool. A worker that is still busy is
//! skipped while another is parked, but once every worker is busy the next
//! items are queued round-robin, so an item can wait behind a long one while
//! another worker's queue drains. For work whose cost varies a lot, or that
//! arrives continuously rather than in bursts, a shared queue with work
//! stealing (the runtime, `rt_core::Runtime`) balances better. A handler is
//! also tied to its worker: an item cannot choose which handler runs it.
//!
//! # Example
//!
//! ```
//! use std::sync::mpsc;
//! use rt_burst::{BurstPool, SendError};
//!
//! let (tx, rx) = mpsc::channel();
//! let mut pool = BurstPool::builder().queue_capacity(16).thread_name("tick").build()?;
//! for _ in 0..3 {
//!     let tx = tx.clone();
//!     let mut seen = 0u32; // each handler owns its state: FnMut
//!     pool.spawn_worker(move |packet: Vec<u8>| {
//!         seen += 1;
//!         tx.send((packet.len(), seen)).unwrap();
//!     });
//! }
//! pool.send_burst((0..6).map(|i| vec![0u8; i]))?; // 2 packets per worker, 3 wake-ups
//! pool.shutdown();                                 // handles all 6, joins the workers
//! assert_eq!(rx.try_iter().count(), 6);
//! assert_eq!(pool.send(vec![]), Err(SendError::Closed(vec![])));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
// Where other crates' pages link to this one when this crate's pages are
// not beside theirs (docs.rs, or `cargo doc --no-deps`, which does not wait
// for them): without it such a link would be left unresolved.
#![doc(html_root_url = "https://docs.rs/rt-burst/latest")]
#![warn(missing_docs)]

mod build_error;
mod builder;
mod dispatch;
mod error;
mod mailbox;
mod pool;
mod stats;
mod sync;
mod wake_set;
mod worker;

pub use build_error::BuildError;
pub use builder::{Builder, DEFAULT_QUEUE_CAPACITY, DEFAULT_THREAD_NAME};
pub use error::SendError;
pub use pool::BurstPool;
pub use stats::{BurstStats, WorkerStats};

#[cfg(all(test, loom))]
mod loom_wake;
