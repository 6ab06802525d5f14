//! The runtime's clock for submission stamps, latency histograms, traces
//! and CPU-time shares: nanoseconds since the clock was made (at the
//! runtime's first use of it), read from the CPU's time-stamp counter where
//! it is reliable (the `quanta` crate calibrates it against the OS clock
//! once per process), else from the OS clock. The counter is read because
//! it is cheaper than `Instant::now`, and a task with latency recorded
//! reads the clock three times.

/// Nanoseconds since the clock was made.
pub(crate) struct Clock {
    #[cfg(not(miri))]
    clock: quanta::Clock,
    #[cfg(not(miri))]
    origin: u64,
    // Miri runs no `rdtsc`: the OS clock there.
    #[cfg(miri)]
    origin: std::time::Instant,
}

impl Clock {
    pub(crate) fn new() -> Self {
        #[cfg(not(miri))]
        {
            let clock = quanta::Clock::new();
            let origin = clock.raw();
            Self { clock, origin }
        }
        #[cfg(miri)]
        Self {
            origin: std::time::Instant::now(),
        }
    }

    /// Nanoseconds since the clock was made.
    #[inline]
    pub(crate) fn now_ns(&self) -> u64 {
        #[cfg(not(miri))]
        {
            // The counter is invariant and synchronized across cores where
            // quanta uses it; `max` keeps a skewed read from wrapping.
            let raw = self.clock.raw().max(self.origin);
            self.clock.delta_as_nanos(self.origin, raw)
        }
        #[cfg(miri)]
        {
            u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX)
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::Clock;
    use std::time::{Duration, Instant};

    #[test]
    fn the_clock_counts_nanoseconds_as_the_os_clock_does() {
        let clock = Clock::new();
        let (start, os_start) = (clock.now_ns(), Instant::now());
        std::thread::sleep(Duration::from_millis(50));
        let (end, os_elapsed) = (clock.now_ns(), os_start.elapsed());
        let measured = end - start;
        let os = u64::try_from(os_elapsed.as_nanos()).unwrap();
        println!("clock {measured} ns, OS clock {os} ns");
        assert!(
            measured > os / 2 && measured < os * 2,
            "the clock measured {measured} ns over {os} ns of the OS clock"
        );
    }
}
