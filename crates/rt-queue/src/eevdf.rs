//! EEVDF over a fixed set of weighted entities, in exact integer arithmetic:
//! the one implementation behind the runtime's weighted priority classes
//! ([`ClassShares`](crate::ClassShares)) and rt-fair's weighted queues.
//! The definitions, the arithmetic and why it was chosen: `EEVDF.md`
//! beside this file.
//!
//! No clock and no tasks here: the user reports how long each entity ran
//! ([`Eevdf::charge`]) and which entities have work ([`Eevdf::activate`],
//! [`Eevdf::deactivate`]), and asks which one runs next ([`Eevdf::pick`],
//! or the whole ranking, [`Eevdf::order`]).
//!
//! Virtual runtimes are kept as exact fractions: entity *i*'s virtual
//! runtime is `vr_w / wᵢ`, where the integer `vr_w` grows by the
//! nanoseconds charged, so a charge is one addition (no division, no
//! rounding, nothing carried), and every comparison of two virtual times is
//! a comparison of two cross products, computed in 192 bits so that none
//! can overflow. Nothing is ever rebased: the stored integers stay below
//! `Σw` times the nanoseconds charged, far from `u128::MAX` (`EEVDF.md`,
//! "Every weight, any uptime").

use std::cmp::Ordering;

/// How long an entity's requests are, and when one ends: the one
/// difference in policy between the two users.
///
/// ```
/// use rt_queue::eevdf::Request;
///
/// assert_eq!(Request::Slice(1_000_000).initial_ns(), 1_000_000);
/// assert_eq!(Request::PerCharge { initial_ns: 100_000 }.initial_ns(), 100_000);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Request {
    /// Every request is this many ns of service (a time slice, rt-fair's).
    /// The entity [`pick`](Eevdf::pick)ed keeps being picked until it has
    /// used its request, unless an eligible entity has an earlier virtual
    /// deadline.
    Slice(u64),
    /// Every charge ends a request (one task is one request, the runtime's
    /// classes): the next request is expected to last the moving average of
    /// the entity's charges (each charge weighs 1/8), starting at
    /// `initial_ns`. Nothing is protected between charges.
    PerCharge {
        /// The expected length of an entity's first request, before any
        /// charge was measured.
        initial_ns: u64,
    },
}

impl Request {
    /// The length (ns) of an entity's first request.
    pub fn initial_ns(self) -> u64 {
        match self {
            Request::Slice(ns) => ns,
            Request::PerCharge { initial_ns } => initial_ns,
        }
    }
}

/// One entity's scheduling state: a priority class, or a queue.
/// Made by [`Entity::new`] with its weight and handed to [`Eevdf::new`].
#[derive(Debug, Clone)]
pub struct Entity {
    /// From 1 to `u32::MAX`.
    weight: u64,
    /// Virtual runtime times the weight: the ns of service charged, plus
    /// what the entity was lifted by when it rejoined. The virtual runtime
    /// itself, `vr_w / weight`, is never computed, so never rounded.
    vr_w: u128,
    /// Virtual deadline of the current request times the weight: `vr_w` at
    /// the request's start plus `request_ns`.
    deadline_w: u128,
    /// Length of the current request, ns: the slice, or the moving average
    /// of the charges.
    request_ns: u64,
    /// Service used by the current request, ns.
    used_ns: u64,
    /// Whether the entity has work (competes for the CPU).
    active: bool,
}

impl Entity {
    /// An entity of this weight, idle, with no service received.
    ///
    /// # Panics
    ///
    /// If `weight` is zero (users reject that first, as a build error).
    pub fn new(weight: u32) -> Self {
        assert!(weight > 0, "EEVDF weights must be at least 1");
        Self {
            weight: u64::from(weight),
            vr_w: 0,
            deadline_w: 0,
            request_ns: 0,
            used_ns: 0,
            active: false,
        }
    }

    /// The entity's weight.
    pub fn weight(&self) -> u32 {
        // Made from a `u32`, never changed.
        self.weight as u32
    }
}

/// `a * b` in 192 bits, as (high 128 bits, low 64 bits).
#[inline]
fn wide_mul(a: u128, b: u64) -> (u128, u64) {
    let b = u128::from(b);
    let low = (a as u64 as u128) * b;
    let high = (a >> 64) * b + (low >> 64);
    (high, low as u64)
}

/// Compares `a * b` with `c * d`, exactly (no product can overflow).
#[inline]
fn cmp_products(a: u128, b: u64, c: u128, d: u64) -> Ordering {
    wide_mul(a, b).cmp(&wide_mul(c, d))
}

/// `⌊a * b / c⌋` (`c > 0`), without forming `a * b` when it would overflow:
/// `⌊a / c⌋ * b + ⌊(a mod c) * b / c⌋`. Saturates when the result does not
/// fit (never, within the bound of `EEVDF.md`).
fn mul_div_floor(a: u128, b: u64, c: u64) -> u128 {
    let (b, c) = (u128::from(b), u128::from(c));
    match a.checked_mul(b) {
        Some(product) => product / c,
        None => (a / c).saturating_mul(b).saturating_add((a % c) * b / c),
    }
}

/// `⌈a * b / c⌉` (`c > 0`), as [`mul_div_floor`] does it.
fn mul_div_ceil(a: u128, b: u64, c: u64) -> u128 {
    let (b, c) = (u128::from(b), u128::from(c));
    match a.checked_mul(b) {
        Some(product) => product.div_ceil(c),
        None => (a / c)
            .saturating_mul(b)
            .saturating_add(((a % c) * b).div_ceil(c)),
    }
}

/// A number of ns as a `u64`, saturated.
fn ns(x: u128) -> u64 {
    u64::try_from(x).unwrap_or(u64::MAX)
}

/// EEVDF over entities indexed from 0, stored in `E`: an array for a fixed
/// set (`Eevdf<[Entity; 3]>`, no allocation), a `Vec` for a set chosen at
/// run time. `EEVDF.md` beside this file defines what it computes.
///
/// ```
/// use rt_queue::eevdf::{Eevdf, Entity, Request};
///
/// // Two entities weighted 3 : 1, slices of 1 ms, no rejoin credit.
/// let mut s = Eevdf::new([3, 1].map(Entity::new), Request::Slice(1_000_000), 0);
/// s.activate(0);
/// s.activate(1);
/// let mut got = [0u64; 2];
/// for _ in 0..10_000 {
///     let i = s.pick().unwrap();
///     s.charge(i, 100_000); // each run lasts 100 µs
///     got[i] += 100_000;
/// }
/// // 3 : 1, to within about a slice.
/// let ratio = got[0] as f64 / got[1] as f64;
/// assert!((2.95..3.05).contains(&ratio), "{ratio}");
/// ```
#[derive(Debug, Clone)]
pub struct Eevdf<E = Vec<Entity>> {
    entities: E,
    request: Request,
    /// The most service (ns) an entity may be owed when it rejoins.
    credit_ns: u64,
    /// `Σ vr_w` over the active entities: the virtual time `V` is
    /// `sum / weight`.
    sum: u128,
    /// `Σ weight` over the active entities.
    weight: u64,
    /// Where entities rejoin while none is active, as a virtual runtime
    /// `(vr_w, weight)`: the lowest virtual runtime among the entities that
    /// were active at the last charge (set when the last of them leaves).
    clock: (u128, u64),
    /// The lowest virtual runtime `(vr_w, weight)` among the entities that
    /// left since the last charge.
    left_min: Option<(u128, u64)>,
    /// The entity picked last, protected until its request is used up.
    current: Option<usize>,
    /// The current entity's request ended: pick without protecting it.
    request_ended: bool,
}

impl<E: AsRef<[Entity]> + AsMut<[Entity]>> Eevdf<E> {
    /// A scheduler over these entities (all idle, at virtual time 0), with
    /// requests of this kind and this rejoin credit (ns): the most service
    /// an idle entity may be owed when it rejoins (0: it rejoins at the
    /// current virtual time, with no credit banked while it was away).
    ///
    /// # Panics
    ///
    /// If the weights add up to more than `u64::MAX` (more than 2^32
    /// entities).
    pub fn new(mut entities: E, request: Request, rejoin_credit_ns: u64) -> Self {
        let mut total = 0u64;
        for e in entities.as_mut() {
            total = total
                .checked_add(e.weight)
                .expect("EEVDF weights must add up to at most u64::MAX");
            // Idle, at virtual time 0, whatever a cloned entity carried.
            *e = Entity {
                request_ns: request.initial_ns(),
                deadline_w: u128::from(request.initial_ns()),
                ..Entity::new(e.weight())
            };
        }
        Self {
            entities,
            request,
            credit_ns: rejoin_credit_ns,
            sum: 0,
            weight: 0,
            clock: (0, 1),
            left_min: None,
            current: None,
            request_ended: false,
        }
    }

    /// The number of entities.
    pub fn len(&self) -> usize {
        self.entities.as_ref().len()
    }

    /// Whether there are no entities at all.
    pub fn is_empty(&self) -> bool {
        self.entities.as_ref().is_empty()
    }

    /// The entities, in index order.
    pub fn entities(&self) -> &[Entity] {
        self.entities.as_ref()
    }

    /// Whether entity `i` has work (is competing).
    pub fn is_active(&self, i: usize) -> bool {
        self.entities.as_ref()[i].active
    }

    /// Whether entity `i` is eligible: its virtual runtime is not past the
    /// virtual time `V` (its lag is not negative), exactly:
    /// `vr_w · Σw ≤ Σvr_w · wᵢ`. With no entity active, every entity is.
    pub fn is_eligible(&self, i: usize) -> bool {
        self.eligible(&self.entities.as_ref()[i])
    }

    fn eligible(&self, e: &Entity) -> bool {
        cmp_products(e.vr_w, self.weight, self.sum, e.weight) != Ordering::Greater
    }

    /// Whether `a`'s virtual deadline is strictly earlier than `b`'s.
    fn earlier(a: &Entity, b: &Entity) -> bool {
        cmp_products(a.deadline_w, b.weight, b.deadline_w, a.weight) == Ordering::Less
    }

    /// Entity `i` has work again. It **rejoins** at
    /// `max(vᵢ, V − credit / wᵢ)`: it keeps a debt, and of what it fell
    /// behind while idle it keeps at most the rejoin credit (with no
    /// credit, none: it cannot save up time by being away). `V` is that of
    /// the active entities, or, while none is active, where it stood at the
    /// last charge (when something last ran: not moved by entities that
    /// left since, so not by which of them happened to leave last). It
    /// starts a new request. Nothing happens if it is already active.
    pub fn activate(&mut self, i: usize) {
        let reference = self.rejoin_reference();
        self.rejoin(i, reference);
    }

    /// The entities with work are now exactly those marked in `has_work`
    /// (indexed like the entities): the others [`deactivate`](Self::deactivate)
    /// first, then the newly marked ones [`activate`](Self::activate), all
    /// against the same `V` (that of the entities that kept their work, or
    /// the clock if none did), so that entities returning together keep
    /// their order instead of each rejoining against those that returned
    /// before it in index order. What the runtime's classes do before every
    /// decision.
    ///
    /// # Panics
    ///
    /// If `has_work` is not as long as the entities.
    pub fn set_active(&mut self, has_work: &[bool]) {
        assert_eq!(
            has_work.len(),
            self.len(),
            "Eevdf::set_active: wrong length"
        );
        for (i, &work) in has_work.iter().enumerate() {
            if !work {
                self.deactivate(i);
            }
        }
        let reference = self.rejoin_reference();
        for (i, &work) in has_work.iter().enumerate() {
            if work {
                self.rejoin(i, reference);
            }
        }
    }

    /// `V` as the fraction `(Σvr_w, Σw)` of the active entities, or the
    /// clock while none is active.
    fn rejoin_reference(&self) -> (u128, u64) {
        if self.weight > 0 {
            (self.sum, self.weight)
        } else {
            self.clock
        }
    }

    /// Activates `i` (if it is not active) at `max(vᵢ, V − credit / wᵢ)`,
    /// with `V = reference.0 / reference.1`.
    fn rejoin(&mut self, i: usize, (sum, weight): (u128, u64)) {
        let e = &self.entities.as_ref()[i];
        if e.active {
            return;
        }
        // ⌊wᵢ · V⌋ − credit, as a `vr_w`: rounded down, so that an entity
        // rejoining without credit is eligible.
        let floor = mul_div_floor(sum, e.weight, weight).saturating_sub(u128::from(self.credit_ns));
        let e = &mut self.entities.as_mut()[i];
        e.vr_w = e.vr_w.max(floor);
        e.deadline_w = e.vr_w + u128::from(e.request_ns);
        e.used_ns = 0;
        e.active = true;
        self.sum += e.vr_w;
        self.weight += e.weight;
    }

    /// Entity `i` has no work: it stops competing (and is no longer the
    /// current one). Nothing happens if it is not active.
    pub fn deactivate(&mut self, i: usize) {
        let e = &mut self.entities.as_mut()[i];
        if !e.active {
            return;
        }
        e.active = false;
        let left = (e.vr_w, e.weight);
        self.left_min = match self.left_min {
            Some(low) if cmp_products(low.0, left.1, left.0, low.1) != Ordering::Greater => {
                Some(low)
            }
            _ => Some(left),
        };
        if self.weight == e.weight {
            // The last one leaves: `V` stays at the lowest virtual runtime
            // among those that had work when something last ran.
            self.clock = self.left_min.unwrap_or(left);
        }
        self.sum -= e.vr_w;
        self.weight -= e.weight;
        if self.current == Some(i) {
            self.current = None;
        }
    }

    /// Entity `i` ran for `ns`: its virtual runtime advances by
    /// `ns / wᵢ` (one addition to `vr_w`), and when its request is used up
    /// ([`Request`]) the next one starts, with its deadline at the new
    /// virtual runtime plus the request over the weight. An inactive entity
    /// is charged too, but stays inactive (and out of `V`).
    pub fn charge(&mut self, i: usize, ns: u64) {
        let e = &mut self.entities.as_mut()[i];
        e.vr_w += u128::from(ns);
        if e.active {
            self.sum += u128::from(ns);
            self.left_min = None;
        }
        e.used_ns = e.used_ns.saturating_add(ns);
        let ended = match self.request {
            Request::Slice(_) => e.used_ns >= e.request_ns,
            Request::PerCharge { .. } => {
                e.request_ns = e.request_ns - e.request_ns / 8 + ns / 8;
                true
            }
        };
        if ended {
            e.used_ns = 0;
            e.deadline_w = e.vr_w + u128::from(e.request_ns);
            if self.current == Some(i) {
                self.request_ended = true;
            }
        }
    }

    /// The entity to run next: the current one (the last picked) while its
    /// request lasts, unless an eligible entity has an earlier virtual
    /// deadline; otherwise the eligible entity with the earliest virtual
    /// deadline (the lowest index among equals). `None` when no entity is
    /// active. (The active entity with the smallest virtual runtime is
    /// always eligible, so some entity is picked whenever one is active.)
    pub fn pick(&mut self) -> Option<usize> {
        if self.weight == 0 {
            self.current = None;
            return None;
        }
        let entities = self.entities.as_ref();
        let mut best = self
            .current
            .filter(|&c| entities[c].active && !self.request_ended);
        for (i, e) in entities.iter().enumerate() {
            if !e.active || Some(i) == best {
                continue;
            }
            if self.eligible(e) && best.is_none_or(|b| Self::earlier(e, &entities[b])) {
                best = Some(i);
            }
        }
        self.current = best;
        self.request_ended = false;
        best
    }

    /// Every entity, ranked: active ones first, eligible before ineligible,
    /// each group by earliest virtual deadline (the lowest index among
    /// equals); then the inactive ones, in the same way. For a user that
    /// wants to try the entities in turn (the runtime's classes: the first
    /// with a task wins). `N` must be the number of entities; no
    /// allocation.
    ///
    /// # Panics
    ///
    /// If `N` is not the number of entities.
    pub fn order<const N: usize>(&self) -> [usize; N] {
        let entities = self.entities.as_ref();
        assert_eq!(
            N,
            entities.len(),
            "Eevdf::order: N is not the number of entities"
        );
        let group: [u8; N] = std::array::from_fn(|i| {
            let e = &entities[i];
            2 * u8::from(!e.active) + u8::from(!self.eligible(e))
        });
        let before = |a: usize, b: usize| {
            group[a] < group[b]
                || (group[a] == group[b] && Self::earlier(&entities[a], &entities[b]))
        };
        // Insertion sort, stable: from index order, so equals keep it. N is
        // small (three classes).
        let mut order: [usize; N] = std::array::from_fn(|i| i);
        for k in 1..N {
            let mut j = k;
            while j > 0 && before(order[j], order[j - 1]) {
                order.swap(j, j - 1);
                j -= 1;
            }
        }
        order
    }

    /// How many ns the active entities as a whole must still run before
    /// `e` is eligible (0 if it is): `V` rises by `1 / Σw` per ns they
    /// run, so `⌈vr_w · Σw / wₑ⌉ − Σvr_w`.
    fn ns_until_eligible(&self, e: &Entity) -> u64 {
        if self.eligible(e) {
            return 0;
        }
        ns(mul_div_ceil(e.vr_w, self.weight, e.weight).saturating_sub(self.sum))
    }

    /// Calls `f(i, window)` for every entity. For an inactive entity,
    /// `window` is the interval `[from, until)`, in ns of further running of
    /// the current entity, during which the entity, if it became active,
    /// would take the CPU at the next [`pick`](Self::pick): it would rejoin
    /// eligible (from `from` on, `V` has caught up with its virtual
    /// runtime) with a virtual deadline earlier than the current request's
    /// (until `until`, after which its rejoining deadline, which rises with
    /// `V`, is no longer earlier). `None` for active entities (they already
    /// compete), when there is no current entity, and when the window is
    /// empty. Exact: after running `from` ns the entity is eligible, and
    /// one ns before `until` its rejoining deadline is still earlier.
    pub fn preempt_windows(&self, mut f: impl FnMut(usize, Option<(u64, u64)>)) {
        let entities = self.entities.as_ref();
        let current = self.current.map(|c| &entities[c]);
        for (i, e) in entities.iter().enumerate() {
            let window = match current {
                Some(c) if !e.active && self.weight > 0 => self.window(e, c),
                _ => None,
            };
            f(i, window);
        }
    }

    /// The preemption window of the inactive `e` against the current `c`
    /// (see [`preempt_windows`](Self::preempt_windows)).
    fn window(&self, e: &Entity, c: &Entity) -> Option<(u64, u64)> {
        let request = u128::from(e.request_ns);
        // Rejoining at its own virtual runtime, its deadline must already
        // be earlier than the current one ...
        let own_deadline = e.vr_w + request;
        if cmp_products(own_deadline, c.weight, c.deadline_w, e.weight) != Ordering::Less {
            return None;
        }
        // ... and so must its deadline when it rejoins at the floor,
        // ⌊wₑ (Σvr_w + t) / Σw⌋ − credit + request (as a `vr_w`): for an
        // integer x, x · w_c < deadline_w(c) · wₑ iff x < ⌈deadline_w(c) ·
        // wₑ / w_c⌉, so the floor part must stay below `limit` below, which
        // holds while Σvr_w + t < ⌈limit · Σw / wₑ⌉.
        let limit = (mul_div_ceil(c.deadline_w, e.weight, c.weight) + u128::from(self.credit_ns))
            .checked_sub(request)?;
        let until = ns(mul_div_ceil(limit, self.weight, e.weight).saturating_sub(self.sum));
        let from = self.ns_until_eligible(e);
        (from < until).then_some((from, until))
    }

    /// How many more ns the current entity may run before the next
    /// [`pick`](Self::pick) would choose another entity or start its next
    /// request: the rest of its request, or less if an active entity with an
    /// earlier deadline becomes eligible sooner. 0 with no current entity.
    pub fn remaining_ns(&self) -> u64 {
        let Some(c) = self.current else {
            return 0;
        };
        let entities = self.entities.as_ref();
        let cur = &entities[c];
        let mut left = cur.request_ns.saturating_sub(cur.used_ns);
        for (i, e) in entities.iter().enumerate() {
            if i != c && e.active && !self.eligible(e) && Self::earlier(e, cur) {
                left = left.min(self.ns_until_eligible(e));
            }
        }
        left
    }

    /// Whether the inactive entity `i`, becoming active now, would take the
    /// CPU from the current one at the next pick.
    #[cfg(test)]
    pub(crate) fn would_preempt(&self, i: usize) -> bool {
        let mut answer = false;
        self.preempt_windows(|j, window| {
            if j == i {
                answer = window.is_some_and(|(from, until)| from == 0 && until > 0);
            }
        });
        answer
    }
}

#[cfg(test)]
mod tests;
