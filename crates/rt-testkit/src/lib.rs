//! Test helpers shared by the integration tests of the workspace's crates.
//!
//! A dev-dependency only, never published: blocking primitives that let a
//! test hold workers where it wants them ([`Gate`], [`Latch`]), polling with
//! a generous deadline so that a hang fails the test instead of stalling it
//! ([`wait_until`]), a watchdog around a whole test ([`without_hanging`]),
//! running code whose panics are expected without
//! cluttering the output ([`quietly`]), shrinking sizes under the
//! sanitizers ([`scaled`]), and (on Linux) reading the CPU time
//! of a pool's threads to show that idle workers sleep
//! (`cpu_ns_of_threads`).
//!
//! ```
//! use rt_testkit::{Gate, Latch};
//!
//! let (gate, started) = (Gate::new(), Latch::new(1));
//! let worker = {
//!     let (gate, started) = (gate.clone(), started.clone());
//!     std::thread::spawn(move || {
//!         started.count_down();
//!         gate.wait(); // held here until the test opens the gate
//!     })
//! };
//! started.wait();
//! assert!(!gate.is_open());
//! gate.open();
//! worker.join().unwrap();
//! ```

mod gate;
mod latch;
mod panics;
mod scale;
#[cfg(target_os = "linux")]
mod thread_cpu;
mod wait;
mod waker;
mod watchdog;

pub use gate::Gate;
pub use latch::Latch;
pub use panics::{panic_text, quietly, silence_panics_matching};
pub use scale::{scaled, UNDER_SANITIZER};
#[cfg(target_os = "linux")]
pub use thread_cpu::cpu_ns_of_threads;
pub use wait::{wait_until, PATIENCE};
pub use waker::{counting_waker, WakeCount};
pub use watchdog::{without_hanging, WATCHDOG};
