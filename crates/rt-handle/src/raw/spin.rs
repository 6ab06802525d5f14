//! The one spin-then-park policy of the workspace's waits.

use crate::sync::thread;

/// How long a thread polls for what it waits for before it parks: the one
/// policy of the waits that end when other threads finish work (a join on
/// a task's handle, rt-core's latch, the end of an rt-dag run).
///
/// A wait that ends within the polls costs no park/unpark round trip (tens
/// of microseconds on a VM, and the operating system's wake-up latency on
/// a loaded machine); one that does not has spent a few microseconds
/// before it parks. First [`SPINS`](Self::SPINS) polls with
/// [`spin_loop`](std::hint::spin_loop) between them, then
/// [`YIELDS`](Self::YIELDS) with `yield_now` between them, which on a
/// machine with fewer cores than busy threads lets the thread that ends
/// the wait run. The counts were chosen with
/// `crates/rt-dag/examples/chain_tail.rs` (`docs/BENCHMARKS.md`, "Waiting
/// for a short run").
///
/// The policy only polls: what the caller parks on, and who unparks it,
/// stays the caller's protocol, which must hold whether or not the polls
/// saw the end.
///
/// ```
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use rt_handle::raw::SpinThenPark;
///
/// let done = AtomicBool::new(true);
/// assert!(SpinThenPark::poll(|| done.load(Ordering::Acquire)));
/// let never = AtomicBool::new(false);
/// // Spent every poll: the caller parks now.
/// assert!(!SpinThenPark::poll(|| never.load(Ordering::Acquire)));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct SpinThenPark;

impl SpinThenPark {
    /// Polls with a busy pause between them.
    #[cfg(not(loom))]
    pub const SPINS: u32 = 64;
    /// Then polls with `yield_now` between them.
    #[cfg(not(loom))]
    pub const YIELDS: u32 = 8;
    /// Under loom every poll is a load the model checker branches on; one
    /// spin still covers both paths (seen while polling, seen only after
    /// parking) without multiplying the interleavings.
    #[cfg(loom)]
    pub const SPINS: u32 = 1;
    /// None under loom (see [`SPINS`](Self::SPINS)).
    #[cfg(loom)]
    pub const YIELDS: u32 = 0;

    /// Calls `ready` until it says true (then true), at most
    /// `SPINS + YIELDS + 1` times, pausing between calls as described
    /// above; false if it never did: the caller parks now.
    #[inline]
    pub fn poll(mut ready: impl FnMut() -> bool) -> bool {
        for round in 0..Self::SPINS + Self::YIELDS {
            if ready() {
                return true;
            }
            if round < Self::SPINS {
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
        }
        ready()
    }
}
