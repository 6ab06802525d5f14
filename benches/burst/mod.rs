//! The pieces of the `burst` benchmark: the per-system latency recorder, the
//! systems that are woken (the floor, rt-burst and the peers), and the
//! report.

pub mod peers;
pub mod recorder;
pub mod report;
pub mod systems;
