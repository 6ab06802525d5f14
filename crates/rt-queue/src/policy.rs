//! How a worker chooses between the priority classes: strictly by urgency,
//! or by weighted shares of CPU time (`WEIGHTED_SHARES.md` beside this file;
//! the arithmetic is the shared EEVDF's, `eevdf.rs` and `EEVDF.md`).

use std::cell::RefCell;
use std::fmt;

use crate::eevdf::{Eevdf, Entity, Request};
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
/// measured: its initial request ([`Request::PerCharge`]).
const INITIAL_SLICE_NS: u64 = 100_000;

/// One worker's weighted scheduler over the three classes: the workspace's
/// one EEVDF ([`Eevdf`], `EEVDF.md`) with the classes as its entities,
/// one task as one request ([`Request::PerCharge`]) and no rejoin credit
/// (`WEIGHTED_SHARES.md`). Owned by one worker thread; no clock inside
/// (the worker measures and [`charge`](Self::charge)s), which keeps it
/// deterministic and testable. Array-backed: nothing is allocated after
/// [`new`](Self::new), and a decision costs no division unless a class
/// rejoins.
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
#[derive(Debug)]
pub struct ClassShares {
    /// Borrowed only inside `order` and `charge`, which call nothing
    /// outside it.
    eevdf: RefCell<Eevdf<[Entity; Priority::COUNT]>>,
}

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
        let request = Request::PerCharge {
            initial_ns: INITIAL_SLICE_NS,
        };
        Self {
            eevdf: RefCell::new(Eevdf::new(weights.map(Entity::new), request, 0)),
        }
    }

    /// The order in which to look for work now, given which classes have
    /// runnable work (`has_work`, indexed by [`Priority::index`]; a racy
    /// look is fine). A class that had none and now has rejoins at the
    /// virtual time `V`, never behind it (no banked credit); classes that
    /// return together rejoin against the same `V`, and on a worker that
    /// found no work at all `V` is the clock ([`Eevdf::set_active`],
    /// `EEVDF.md`). Then: the classes with work, eligible ones (virtual
    /// runtime not past `V`) first, each group by earliest virtual deadline
    /// (virtual runtime plus the class's request over its weight); then the
    /// classes without work, in case some arrived since the look
    /// ([`Eevdf::order`]).
    pub fn order(&self, has_work: [bool; Priority::COUNT]) -> [Priority; Priority::COUNT] {
        let mut eevdf = self.eevdf.borrow_mut();
        // Leave first, so that classes rejoin at the average of the
        // classes that still have work (all against the same one).
        eevdf.set_active(&has_work);
        eevdf
            .order::<{ Priority::COUNT }>()
            .map(|i| Priority::ALL[i])
    }

    /// Charges `ns` of CPU time, used by a task of `class`, to that class.
    pub fn charge(&self, class: Priority, ns: u64) {
        let mut eevdf = self.eevdf.borrow_mut();
        let i = class.index();
        // Found though no work was seen for it (it arrived after the
        // look): it rejoins now.
        eevdf.activate(i);
        eevdf.charge(i, ns);
    }
}
