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
    /// class alone gets everything. Every weight from 1 to `u32::MAX` is
    /// accepted, and shares follow it whatever the task durations and
    /// however long the pool runs (`WEIGHTED_SHARES.md`); a zero weight is
    /// refused by [`validate`](Self::validate), and so by every builder.
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

    /// `Err` naming the first class whose weight is zero, the one weight
    /// outside the accepted range (1 to `u32::MAX`).
    pub fn validate(&self) -> Result<(), Priority> {
        for p in Priority::ALL {
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
    /// The virtual time one ns of the class's CPU time is worth:
    /// `VIRTUAL_PER_NS / weight`.
    step: [u64; Priority::COUNT],
    /// Virtual runtime: CPU ns charged times `step`, relative to a base
    /// that `rebase` moves up.
    vruntime: [Cell<u128>; Priority::COUNT],
    /// The class had runnable work at the last decision.
    active: [Cell<bool>; Priority::COUNT],
    /// Moving average of the class's task durations (ns): its request.
    slice: [Cell<u64>; Priority::COUNT],
}

/// The virtual time of one ns of CPU time at weight 1. A class of weight
/// `w` is charged `VIRTUAL_PER_NS / w` (rounded down) per ns: at least
/// 2^12 for every `u32` weight, so a charge never rounds to zero, and the
/// rounding changes a class's share by at most 2^-12 of itself.
const VIRTUAL_PER_NS: u64 = 1 << 44;

/// Virtual runtimes are rebased (lowered together) once the one just
/// charged passes this: after about 73 minutes of CPU time at weight 1.
/// Rebased, they differ by at most what the longest tasks add, so they
/// stay far below `u128::MAX` however long the worker runs; the products
/// of [`ClassShares::virtual_time`] stay below it unless a single task runs
/// for more than about 13 days (beyond that they saturate: the order goes
/// wrong for a while, nothing panics).
const REBASE_ABOVE: u128 = 1 << 86;

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
            step: weights.map(|w| VIRTUAL_PER_NS / u64::from(w)),
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
    fn virtual_time(&self) -> Option<u128> {
        let (mut sum, mut weights) = (0u128, 0u128);
        for i in 0..Priority::COUNT {
            if self.active[i].get() {
                let weighted = self.vruntime[i]
                    .get()
                    .saturating_mul(u128::from(self.weights[i]));
                sum = sum.saturating_add(weighted);
                weights += u128::from(self.weights[i]);
            }
        }
        (weights > 0).then(|| sum / weights)
    }

    /// Lowers every virtual runtime by the smallest one among the active
    /// classes (`charge` calls it while one is active); a class without
    /// work below it goes to zero, since it would rejoin at `V`, which is
    /// not below it (`WEIGHTED_SHARES.md`, "Every weight, any uptime").
    fn rebase(&self) {
        let base = (0..Priority::COUNT)
            .filter(|&i| self.active[i].get())
            .map(|i| self.vruntime[i].get())
            .min()
            .unwrap_or(0);
        for vruntime in &self.vruntime {
            vruntime.set(vruntime.get().saturating_sub(base));
        }
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
            let request = u128::from(self.slice[i].get()) * u128::from(self.step[i]);
            let deadline = vr.saturating_add(request);
            (!has_work[i], !eligible, deadline, i)
        };
        let mut order = Priority::ALL;
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
        let delta = u128::from(ns) * u128::from(self.step[i]);
        let vruntime = self.vruntime[i].get().saturating_add(delta);
        self.vruntime[i].set(vruntime);
        if vruntime > REBASE_ABOVE {
            self.rebase();
        }
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
