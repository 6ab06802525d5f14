//! The pieces of the `burst` benchmark: the per-system latency recorder, the
//! systems that are woken (the floor, rt-burst and the peers), and the
//! report. [`all`] is here, above both files of systems: the trait and
//! the floor and rt-burst are in `systems.rs`, the peers, which implement
//! the trait, in `peers.rs`.

pub mod peers;
pub mod recorder;
pub mod report;
pub mod systems;

use peers::{BurstPoolCrate, CrossbeamChannel, Rayon, RtSpawn, Threadpool};
use systems::{Floor, RtBurst, System};

/// Every system for bursts of `k`, the floor first and rt-burst second.
pub fn all(k: usize) -> Vec<Box<dyn System>> {
    vec![
        Box::new(Floor::new(k)),
        Box::new(RtBurst::new(k)),
        Box::new(RtSpawn::new(k)),
        Box::new(BurstPoolCrate::new(k)),
        Box::new(Threadpool::new(k)),
        Box::new(Rayon::new(k)),
        Box::new(CrossbeamChannel::new(k)),
    ]
}
