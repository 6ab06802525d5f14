//! A fixed-size log-linear histogram of durations, for queue-delay
//! percentiles without keeping samples.
//!
//! Values below 16 ns have a bucket each; above, every power of two is split
//! into 8 equal buckets, so a reported percentile (the middle of its bucket)
//! is within about 6% of the true value. 496 counters cover every `u64`.

const SUB_BITS: u32 = 3;
const SUB: u64 = 1 << SUB_BITS;
const EXACT: u64 = 2 * SUB;
const BUCKETS: usize = (EXACT + (64 - 4) * SUB) as usize;

#[derive(Clone)]
pub(crate) struct Histogram {
    counts: Box<[u64]>,
    total: u64,
    max: u64,
}

impl std::fmt::Debug for Histogram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Histogram")
            .field("total", &self.total)
            .field("max", &self.max)
            .finish_non_exhaustive()
    }
}

fn index(v: u64) -> usize {
    if v < EXACT {
        return v as usize;
    }
    let exp = 63 - u64::from(v.leading_zeros()); // at least 4
    let sub = (v >> (exp - u64::from(SUB_BITS))) & (SUB - 1);
    (EXACT + (exp - 4) * SUB + sub) as usize
}

/// The smallest value of bucket `i` and the bucket's width.
fn bounds(i: usize) -> (u64, u64) {
    let i = i as u64;
    if i < EXACT {
        return (i, 1);
    }
    let exp = (i - EXACT) / SUB + 4;
    let sub = (i - EXACT) % SUB;
    let width = 1u64 << (exp - u64::from(SUB_BITS));
    ((SUB + sub) * width, width)
}

impl Histogram {
    pub(crate) fn new() -> Self {
        Self {
            counts: vec![0; BUCKETS].into_boxed_slice(),
            total: 0,
            max: 0,
        }
    }

    pub(crate) fn record(&mut self, v: u64) {
        self.counts[index(v)] += 1;
        self.total += 1;
        self.max = self.max.max(v);
    }

    pub(crate) fn count(&self) -> u64 {
        self.total
    }

    pub(crate) fn max(&self) -> u64 {
        self.max
    }

    /// The value below which a fraction `q` (0..=1) of the samples fall, to
    /// bucket precision; 0 without samples.
    pub(crate) fn quantile(&self, q: f64) -> u64 {
        if self.total == 0 {
            return 0;
        }
        let rank = ((q * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (i, &c) in self.counts.iter().enumerate() {
            seen += c;
            if seen >= rank {
                let (low, width) = bounds(i);
                return (low + width / 2).min(self.max);
            }
        }
        self.max
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_every_value_in_order() {
        for v in (0..5_000u64).chain([u64::MAX / 3, u64::MAX]) {
            let (low, width) = bounds(index(v));
            assert!(low <= v && v - low < width, "{v}: [{low}, +{width})");
        }
        assert_eq!(index(u64::MAX), BUCKETS - 1);
    }

    #[test]
    fn quantiles_are_within_bucket_precision() {
        let mut h = Histogram::new();
        for v in 1..=10_000u64 {
            h.record(v * 1_000);
        }
        for (q, want) in [(0.5, 5_000_000.0), (0.9, 9_000_000.0), (0.99, 9_900_000.0)] {
            let got = h.quantile(q) as f64;
            assert!((got / want - 1.0).abs() < 0.07, "q{q}: {got} vs {want}");
        }
        assert_eq!(h.max(), 10_000_000);
        assert_eq!(Histogram::new().quantile(0.5), 0);
    }
}
