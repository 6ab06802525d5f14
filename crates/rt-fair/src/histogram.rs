//! Queue-delay percentiles without keeping samples: an HdrHistogram (the
//! `hdrhistogram` crate, as `rt-core`'s latency statistics use) behind the
//! four calls the statistics make.
//!
//! Three significant digits (0.1% precision) from 1 ns to an hour; longer
//! values are clamped to an hour. Recording is an index computation and an
//! increment, like the hand-written log-linear histogram it replaces (which
//! had 6% precision).

/// The largest value recorded without clamping: an hour, in ns.
const MAX_NS: u64 = 3_600_000_000_000;

#[derive(Clone)]
pub(crate) struct Histogram(hdrhistogram::Histogram<u64>);

impl std::fmt::Debug for Histogram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Histogram")
            .field("total", &self.count())
            .field("max", &self.max())
            .finish_non_exhaustive()
    }
}

impl Histogram {
    pub(crate) fn new() -> Self {
        Self(
            hdrhistogram::Histogram::new_with_bounds(1, MAX_NS, 3).expect("valid histogram bounds"),
        )
    }

    pub(crate) fn record(&mut self, v: u64) {
        self.0.saturating_record(v.clamp(1, MAX_NS));
    }

    pub(crate) fn count(&self) -> u64 {
        self.0.len()
    }

    pub(crate) fn max(&self) -> u64 {
        if self.0.is_empty() {
            0
        } else {
            self.0.max()
        }
    }

    /// The value below which a fraction `q` (0..=1) of the samples fall, to
    /// the histogram's precision; 0 without samples.
    pub(crate) fn quantile(&self, q: f64) -> u64 {
        if self.0.is_empty() {
            return 0;
        }
        self.0.value_at_quantile(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_are_within_the_histograms_precision() {
        let mut h = Histogram::new();
        for v in 1..=10_000u64 {
            h.record(v * 1_000);
        }
        for (q, want) in [(0.5, 5_000_000.0), (0.9, 9_000_000.0), (0.99, 9_900_000.0)] {
            let got = h.quantile(q) as f64;
            assert!((got / want - 1.0).abs() < 0.002, "q{q}: {got} vs {want}");
        }
        assert!((h.max() as f64 / 10_000_000.0 - 1.0).abs() < 0.001);
        assert_eq!(h.count(), 10_000);
        assert_eq!(Histogram::new().quantile(0.5), 0);
        assert_eq!(Histogram::new().max(), 0);
    }

    #[test]
    fn zero_and_huge_values_are_clamped_not_lost() {
        let mut h = Histogram::new();
        h.record(0);
        h.record(u64::MAX);
        assert_eq!(h.count(), 2);
    }
}
