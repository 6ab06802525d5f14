//! How a worker chooses between the priority classes: strictly by urgency,
//! or by weighted shares of CPU time (`WEIGHTED_SHARES.md` beside this file).

use std::cell::Cell;
use std::fmt;

use crate::Priority;

/// How the workers of a pool choose between priority classes that all have
/// runnable work.
///
/// ```
/// use rt_queue::{Priority, PriorityPolicy};
///
/// let policy = PriorityPolicy::Weighted { high: 16, normal: 4, background: 1 };
/// assert_eq!(policy.weight(Priority::Normal), Some(4));
/// assert!(policy.validate().is_ok());
/// assert!(PriorityPolicy::Weighted { high: 1, normal: 0, background: 1 }.validate().is_err());
/// assert_eq!(PriorityPolicy::default(), PriorityPolicy::Strict);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PriorityPolicy {
    /// The most urgent class with work always goes first: High before
    /// Normal before Background. Lowest latency for High; a steady High
    /// load starves the other classes.
    #[default]
    Strict,
    /// Whenever more than one class has runnable work, each worker shares
    /// its CPU time among those classes in proportion to their weights; a
    /// class alone gets everything. Weights must be positive.
    Weighted {
        /// Weight of [`Priority::High`].
        high: u32,
        /// Weight of [`Priority::Normal`].
        normal: u32,
        /// Weight of [`Priority::Background`].
        background: u32,
    },
}

impl PriorityPolicy {
    /// The weight of `priority`, or `None` under [`Strict`](Self::Strict).
    pub fn weight(&self, priority: Priority) -> Option<u32> {
        match *self {
            PriorityPolicy::Strict => None,
            PriorityPolicy::Weighted {
                high,
                normal,
                background,
            } => Some([high, normal, background][priority.index()]),
        }
    }

    /// `Err` naming the first class whose weight is zero.
    pub fn validate(&self) -> Result<(), Priority> {
        for p in Priority::SCAN_ORDER {
            if self.weight(p) == Some(0) {
                return Err(p);
            }
        }
        Ok(())
    }
}

impl fmt::Display for PriorityPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PriorityPolicy::Strict => f.write_str("strict"),
            PriorityPolicy::Weighted {
                high,
                normal,
                background,
            } => write!(f, "weighted {high}:{normal}:{background}"),
        }
    }
}

/// The time a class is expected to hold a worker before its first task is
/// measured: its initial request in the deadline (`WEIGHTED_SHARES.md`).
const INITIAL_SLICE_NS: u64 = 100_000;

/// One worker's weighted scheduler over the three classes: EEVDF with the
/// classes as the entities (`WEIGHTED_SHARES.md`). Owned by one worker
/// thread, so plain cells; no clock inside (the worker measures and
/// [`charge`](Self::charge)s), which keeps it deterministic and testable.
///
/// ```
/// use rt_queue::{ClassShares, Priority};
///
/// let shares = ClassShares::new([2, 1, 1]);
/// // Only Normal has work for a while: it runs alone.
/// for _ in 0..10 {
///     assert_eq!(shares.order([false, true, false])[0], Priority::Normal);
///     shares.charge(Priority::Normal, 100_000);
/// }
/// // High returns: it rejoins at the current virtual time, with no credit
/// // banked while it was away, and with twice the weight it goes first.
/// assert_eq!(shares.order([true, true, false])[0], Priority::High);
/// ```
pub struct ClassShares {
    weights: [u64; Priority::COUNT],
    /// Virtual runtime: CPU ns charged, scaled, divided by the weight.
    vruntime: [Cell<u64>; Priority::COUNT],
    /// The class had runnable work at the last decision.
    active: [Cell<bool>; Priority::COUNT],
    /// Moving average of the class's task durations (ns): its request.
    slice: [Cell<u64>; Priority::COUNT],
}

/// Virtual time is charged in ns × `SCALE` / weight, so that weights up to
/// 2^20 keep sub-ns precision.
const SCALE: u64 = 1 << 20;

impl ClassShares {
    /// A scheduler with these weights (indexed by [`Priority::index`]); all
    /// classes start idle with equal virtual time.
    ///
    /// # Panics
    ///
    /// If a weight is zero (builders reject that first, as a build error).
    pub fn new(weights: [u32; Priority::COUNT]) -> Self {
        assert!(
            weights.iter().all(|&w| w > 0),
            "class weights must be positive"
        );
        Self {
            weights: weights.map(u64::from),
            vruntime: Default::default(),
            active: Default::default(),
            slice: [
                Cell::new(INITIAL_SLICE_NS),
                Cell::new(INITIAL_SLICE_NS),
                Cell::new(INITIAL_SLICE_NS),
            ],
        }
    }

    /// The weighted average virtual time of the active classes (`V`), or
    /// `None` if none is active.
    fn virtual_time(&self) -> Option<u64> {
        let (mut sum, mut weights) = (0u128, 0u128);
        for i in 0..Priority::COUNT {
            if self.active[i].get() {
                sum += u128::from(self.vruntime[i].get()) * u128::from(self.weights[i]);
                weights += u128::from(self.weights[i]);
            }
        }
        (weights > 0).then(|| (sum / weights) as u64)
    }

    /// The order in which to look for work now, given which classes have
    /// runnable work (`has_work`, indexed by [`Priority::index`]; a racy
    /// look is fine). A class that had none and now has rejoins at `V`,
    /// never behind it (no banked credit). Then: the classes with work,
    /// eligible ones (virtual runtime not past `V`) first, each group by
    /// earliest virtual deadline (virtual runtime plus the class's request
    /// over its weight); then the classes without work, in case some
    /// arrived since the look.
    pub fn order(&self, has_work: [bool; Priority::COUNT]) -> [Priority; Priority::COUNT] {
        // Leave first, so that a class rejoins at the average of the
        // classes that still have work.
        for (active, &work) in self.active.iter().zip(&has_work) {
            if !work {
                active.set(false);
            }
        }
        for (i, &work) in has_work.iter().enumerate() {
            if work && !self.active[i].get() {
                if let Some(v) = self.virtual_time() {
                    self.vruntime[i].set(self.vruntime[i].get().max(v));
                }
                self.active[i].set(true);
            }
        }
        let v = self.virtual_time();
        let key = |p: Priority| {
            let i = p.index();
            let vr = self.vruntime[i].get();
            let eligible = v.is_none_or(|v| vr <= v);
            let deadline = vr.saturating_add(self.slice[i].get() * SCALE / self.weights[i]);
            (!has_work[i], !eligible, deadline, i)
        };
        let mut order = Priority::SCAN_ORDER;
        order.sort_by_key(|&p| key(p));
        order
    }

    /// Charges `ns` of CPU time, used by a task of `class`, to that class.
    pub fn charge(&self, class: Priority, ns: u64) {
        let i = class.index();
        if !self.active[i].get() {
            // Found though no work was seen for it (it arrived after the
            // look): it rejoins now.
            if let Some(v) = self.virtual_time() {
                self.vruntime[i].set(self.vruntime[i].get().max(v));
            }
            self.active[i].set(true);
        }
        let delta = ns.saturating_mul(SCALE) / self.weights[i];
        self.vruntime[i].set(self.vruntime[i].get().saturating_add(delta));
        // The request: a moving average of the class's task durations.
        let slice = self.slice[i].get();
        self.slice[i].set(slice - slice / 8 + ns / 8);
    }
}

impl fmt::Debug for ClassShares {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClassShares")
            .field("weights", &self.weights)
            .field("active", &self.active)
            .finish()
    }
}
