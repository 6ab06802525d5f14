//! Queue-level EEVDF: which queue runs next, in pure arithmetic.
//!
//! No clock and no tasks here: the executor reports how long each poll took
//! ([`Eevdf::charge`]), which queues have work ([`Eevdf::activate`],
//! [`Eevdf::deactivate`]) and asks which queue to poll next
//! ([`Eevdf::pick`]). The definitions are in the crate documentation.
//!
//! Virtual time is an integer: a queue of weight `w` that runs for `t`
//! nanoseconds advances by `t * SCALE / w` units, with the remainder of the
//! division carried to the next charge, so no service is ever lost to
//! rounding. Eligibility compares `v_i * W` with `sum(w_j * v_j)` instead of
//! `v_i` with an average, so it is exact as well.
//!
//! Both hold for every weight and every uptime: a poll at weight `u32::MAX`
//! moves its queue by less than a unit, and the carry keeps it, so no
//! service is free however short the polls; and with `u128` virtual time
//! nothing needs rebasing: a queue's virtual runtime grows by at most 2^16
//! units per ns of service, so even the largest product (`v_i * W`, with
//! 1,024 queues of weight `u32::MAX`) stays below `u128::MAX` for 2^70 ns
//! of service, tens of thousands of years.

/// Virtual time units per nanosecond of service at weight 1.
const SCALE: u128 = 1 << 16;

/// How far `ns` of service moves a queue of `weight` in virtual time.
fn virtual_len(ns: u64, weight: u128) -> u128 {
    u128::from(ns) * SCALE / weight
}

/// Scheduling state of one queue.
#[derive(Debug, Clone)]
struct Entity {
    weight: u128,
    /// Service received, divided by the weight (virtual runtime).
    vruntime: u128,
    /// Remainder of the last `ns * SCALE / weight` division.
    carry: u128,
    /// Virtual deadline of the current request: `vruntime at request start
    /// + slice / weight`.
    deadline: u128,
    /// Service used by the current request, in nanoseconds.
    used_ns: u64,
    /// Whether the queue has runnable tasks (is competing for the CPU).
    active: bool,
}

/// The EEVDF scheduler over a fixed set of queues, indexed from 0.
#[derive(Debug, Clone)]
pub(crate) struct Eevdf {
    queues: Vec<Entity>,
    slice_ns: u64,
    /// The most service (ns) a queue may be owed when it rejoins: credit
    /// earned while idle, up to this much, is kept.
    credit_ns: u64,
    /// The average virtual time when the last queue went idle: where a queue
    /// rejoins when no other queue is active.
    vclock: u128,
    /// The queue picked last, protected until its request is used up.
    current: Option<usize>,
    /// The current queue's request ended: pick without protecting it.
    request_ended: bool,
}

impl Eevdf {
    /// A scheduler for queues of these weights (all at least 1), this
    /// request size (the base time slice) and this rejoin credit, in
    /// nanoseconds.
    pub(crate) fn new(weights: &[u32], slice_ns: u64, credit_ns: u64) -> Self {
        debug_assert!(weights.iter().all(|&w| w > 0) && slice_ns > 0);
        let mut s = Self {
            queues: Vec::with_capacity(weights.len()),
            slice_ns,
            credit_ns,
            vclock: 0,
            current: None,
            request_ended: false,
        };
        for &w in weights {
            let weight = u128::from(w);
            s.queues.push(Entity {
                weight,
                vruntime: 0,
                carry: 0,
                deadline: s.request(weight),
                used_ns: 0,
                active: false,
            });
        }
        s
    }

    /// The virtual length of one request at `weight`.
    fn request(&self, weight: u128) -> u128 {
        virtual_len(self.slice_ns, weight)
    }

    /// The virtual length of the rejoin credit at `weight`.
    fn credit(&self, weight: u128) -> u128 {
        virtual_len(self.credit_ns, weight)
    }

    /// `(sum of w * v, sum of w)` over the active queues.
    fn sums(&self) -> (u128, u128) {
        self.queues
            .iter()
            .filter(|e| e.active)
            .fold((0, 0), |(s, w), e| {
                (s + e.weight * e.vruntime, w + e.weight)
            })
    }

    /// The weighted average virtual runtime of the active queues (the
    /// executor's virtual time), or the last one when none is active.
    fn average(&self) -> u128 {
        match self.sums() {
            (_, 0) => self.vclock,
            (s, w) => s / w,
        }
    }

    /// Queue `q` has runnable tasks again. If it fell behind the
    /// executor's virtual time by more than the rejoin credit, it rejoins
    /// that credit behind (what it earned while idle is banked up to the
    /// credit, never more); otherwise it keeps its own virtual runtime (a
    /// debt, or a smaller credit, is kept). It starts a new request.
    pub(crate) fn activate(&mut self, q: usize) {
        if self.queues[q].active {
            return;
        }
        let floor = self
            .average()
            .saturating_sub(self.credit(self.queues[q].weight));
        let request = self.request(self.queues[q].weight);
        let e = &mut self.queues[q];
        if e.vruntime < floor {
            e.vruntime = floor;
            e.carry = 0;
        }
        e.deadline = e.vruntime + request;
        e.used_ns = 0;
        e.active = true;
    }

    /// Queue `q` has no runnable task: it stops competing.
    pub(crate) fn deactivate(&mut self, q: usize) {
        if !self.queues[q].active {
            return;
        }
        self.vclock = self.average();
        self.queues[q].active = false;
        if self.current == Some(q) {
            self.current = None;
        }
    }

    /// Queue `q` ran for `ns` nanoseconds: advance its virtual runtime by
    /// `ns / weight`, and when its request is used up, start the next one.
    pub(crate) fn charge(&mut self, q: usize, ns: u64) {
        let slice = self.slice_ns;
        let e = &mut self.queues[q];
        let num = u128::from(ns) * SCALE + e.carry;
        e.vruntime += num / e.weight;
        e.carry = num % e.weight;
        e.used_ns = e.used_ns.saturating_add(ns);
        if e.used_ns >= slice {
            e.used_ns = 0;
            e.deadline = e.vruntime + virtual_len(slice, e.weight);
            if self.current == Some(q) {
                self.request_ended = true;
            }
        }
    }

    /// The queue to poll next: the current queue while its request lasts,
    /// unless an eligible queue has an earlier virtual deadline; otherwise
    /// the eligible queue (lag >= 0) with the earliest virtual deadline.
    /// `None` when no queue is active.
    pub(crate) fn pick(&mut self) -> Option<usize> {
        let (sum, total) = self.sums();
        if total == 0 {
            self.current = None;
            return None;
        }
        let mut best = self
            .current
            .filter(|&c| self.queues[c].active && !self.request_ended);
        for (i, e) in self.queues.iter().enumerate() {
            if !e.active || Some(i) == best {
                continue;
            }
            let eligible = e.vruntime * total <= sum;
            if eligible && best.is_none_or(|b| e.deadline < self.queues[b].deadline) {
                best = Some(i);
            }
        }
        // The queue with the smallest virtual runtime is always eligible, so
        // `best` is set whenever some queue is active.
        self.current = best;
        self.request_ended = false;
        best
    }

    /// Whether the inactive queue `q`, becoming runnable now, would take the
    /// CPU from the current queue at the next pick.
    #[cfg(test)]
    pub(crate) fn would_preempt(&self, q: usize) -> bool {
        let mut answer = false;
        self.preempt_windows(|i, window| {
            if i == q {
                answer = window.is_some_and(|(from, until)| from == 0 && until > 0);
            }
        });
        answer
    }

    /// Calls `f(q, window)` for every queue. For an inactive queue, `window`
    /// is the interval `[from, until)`, in nanoseconds of further running of
    /// the current queue, during which the queue, if it became runnable,
    /// would take the CPU at the next pick: it would rejoin eligible (from
    /// `from` on, the executor's virtual time has caught up with the queue's
    /// virtual runtime) with a virtual deadline earlier than the current
    /// request's (until `until`, after which its rejoining deadline, which
    /// rises with the virtual time, is no longer earlier). `None` for active
    /// queues (they already compete) and when the window is empty.
    pub(crate) fn preempt_windows(&self, mut f: impl FnMut(usize, Option<(u64, u64)>)) {
        let (sum, total) = self.sums();
        let current = self.current.map(|c| self.queues[c].deadline);
        let ns = |units: u128| u64::try_from(units.div_ceil(SCALE)).unwrap_or(u64::MAX);
        for (i, e) in self.queues.iter().enumerate() {
            let window = match current {
                Some(deadline) if !e.active && total > 0 => {
                    // Rejoining at max(v, V (t) - credit), where
                    // V (t) = (sum + t * SCALE) / total: eligible once
                    // v <= V (t); the deadline (rejoin point + request) is
                    // earlier than the current one while v + request is
                    // and sum + t * SCALE < (deadline + credit - request)
                    // * total.
                    let request = self.request(e.weight);
                    let limit = (deadline + self.credit(e.weight)).saturating_sub(request) * total;
                    let ahead = e.vruntime * total;
                    let from = if ahead <= sum { 0 } else { ns(ahead - sum) };
                    let until = if limit <= sum || e.vruntime + request >= deadline {
                        0
                    } else {
                        ns(limit - sum)
                    };
                    (from < until).then_some((from, until))
                }
                _ => None,
            };
            f(i, window);
        }
    }

    /// How many more nanoseconds the current queue may run before the next
    /// pick would choose another queue or start its next request: the rest of
    /// its request, or less if a waiting queue with an earlier deadline
    /// becomes eligible sooner (the executor's virtual time rises by
    /// `1 / sum of weights` per nanosecond the current queue runs).
    pub(crate) fn remaining_ns(&self) -> u64 {
        let Some(c) = self.current else {
            return 0;
        };
        let cur = &self.queues[c];
        let mut left = self.slice_ns.saturating_sub(cur.used_ns);
        let (sum, total) = self.sums();
        for (i, e) in self.queues.iter().enumerate() {
            if i == c || !e.active || e.deadline >= cur.deadline {
                continue;
            }
            let ahead = e.vruntime * total;
            if ahead > sum {
                let ns = (ahead - sum).div_ceil(SCALE);
                left = left.min(u64::try_from(ns).unwrap_or(u64::MAX));
            }
        }
        left
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    /// Runs saturated queues (always active) for `total` ns in polls of
    /// `poll` ns and returns the service each received.
    fn saturate(weights: &[u32], poll: u64, total: u64) -> Vec<u64> {
        let mut s = Eevdf::new(weights, MS, 0);
        for q in 0..weights.len() {
            s.activate(q);
        }
        let mut got = vec![0; weights.len()];
        let mut t = 0;
        while t < total {
            let q = s.pick().unwrap();
            s.charge(q, poll);
            got[q] += poll;
            t += poll;
        }
        got
    }

    #[test]
    fn saturated_queues_share_the_cpu_by_weight() {
        let got = saturate(&[8, 1], 37_000, 1_000 * MS);
        let ratio = got[0] as f64 / got[1] as f64;
        assert!((ratio / 8.0 - 1.0).abs() < 0.01, "ratio {ratio}");
        let got = saturate(&[1, 2, 4], 50_000, 1_000 * MS);
        assert!((got[1] as f64 / got[0] as f64 / 2.0 - 1.0).abs() < 0.01);
        assert!((got[2] as f64 / got[0] as f64 / 4.0 - 1.0).abs() < 0.01);
    }

    #[test]
    fn queues_of_weights_near_u32_max_share_microsecond_polls_by_weight() {
        // A poll's virtual length is far below one unit at these weights;
        // the carried remainder keeps every nanosecond.
        let got = saturate(&[u32::MAX, u32::MAX / 4], 1_000, 100 * MS);
        let ratio = got[0] as f64 / got[1] as f64;
        assert!((ratio / 4.0 - 1.0).abs() < 0.01, "ratio {ratio}");
    }

    #[test]
    fn saturated_queues_still_share_by_weight_on_the_thirtieth_day() {
        const DAY: u64 = 86_400 * 1_000 * MS;
        let mut s = Eevdf::new(&[1, 2, 4], MS, 0);
        for q in 0..3 {
            s.activate(q);
        }
        // Polls of 10 s: 29 days, then one more day counted.
        let poll = 10_000 * MS;
        let mut got = [0u64; 3];
        for round in 0..30 * DAY / poll {
            let q = s.pick().unwrap();
            s.charge(q, poll);
            if round >= 29 * DAY / poll {
                got[q] += poll;
            }
        }
        assert!(
            (got[1] as f64 / got[0] as f64 / 2.0 - 1.0).abs() < 0.01,
            "{got:?}"
        );
        assert!(
            (got[2] as f64 / got[0] as f64 / 4.0 - 1.0).abs() < 0.01,
            "{got:?}"
        );
    }

    #[test]
    fn the_current_queue_keeps_the_cpu_until_its_request_is_used_up() {
        let mut s = Eevdf::new(&[1, 1], MS, 0);
        s.activate(0);
        s.activate(1);
        let first = s.pick().unwrap();
        // Each poll is a tenth of a slice: the same queue runs ten times.
        for _ in 0..9 {
            s.charge(first, MS / 10);
            assert_eq!(s.pick(), Some(first));
        }
        s.charge(first, MS / 10);
        assert_eq!(s.pick(), Some(1 - first));
    }

    /// Queue 0 runs alone for 100 slices while queue 1 is idle; then
    /// queue 1 has work. Returns the scheduler just after that.
    fn rejoin_after_100_idle_slices(credit: u64) -> Eevdf {
        let mut s = Eevdf::new(&[1, 1], MS, credit);
        s.activate(0);
        for _ in 0..100 {
            s.pick();
            s.charge(0, MS);
        }
        s.activate(1);
        s
    }

    /// Runs ten 1 ms polls and counts them per queue.
    fn ten_polls(s: &mut Eevdf) -> [u32; 2] {
        let mut runs = [0u32; 2];
        for _ in 0..10 {
            let q = s.pick().unwrap();
            s.charge(q, MS);
            runs[q] += 1;
        }
        runs
    }

    #[test]
    fn without_rejoin_credit_an_idle_queue_banks_nothing() {
        let mut s = rejoin_after_100_idle_slices(0);
        // Queue 1 may not now run for 100 slices: the two alternate.
        assert_eq!(ten_polls(&mut s), [5, 5]);
    }

    #[test]
    fn an_idle_queue_keeps_at_most_its_rejoin_credit() {
        let mut s = rejoin_after_100_idle_slices(3 * MS);
        // Queue 1 runs its 3 ms of credit (not 100 slices), then the two
        // alternate.
        for _ in 0..3 {
            assert_eq!(s.pick(), Some(1));
            s.charge(1, MS);
        }
        assert_eq!(ten_polls(&mut s), [5, 5]);
    }

    #[test]
    fn rejoin_credit_widens_the_window_in_which_a_waking_queue_preempts() {
        for (credit, preempts) in [(0, false), (2 * MS, true)] {
            let mut s = Eevdf::new(&[1, 1], MS, credit);
            s.activate(0);
            s.activate(1);
            s.deactivate(0);
            for _ in 0..10 {
                assert_eq!(s.pick(), Some(1));
                s.charge(1, MS);
            }
            assert_eq!(s.pick(), Some(1));
            s.charge(1, MS / 10);
            assert_eq!(s.would_preempt(0), preempts, "credit {credit}");
            s.activate(0);
            assert_eq!(s.pick() == Some(0), preempts, "credit {credit}");
        }
    }

    #[test]
    fn a_heavier_queue_waking_up_would_preempt_a_lighter_one() {
        let mut s = Eevdf::new(&[8, 1], MS, 0);
        s.activate(1);
        assert_eq!(s.pick(), Some(1));
        s.charge(1, MS / 10);
        assert!(s.would_preempt(0));
        s.activate(0);
        assert_eq!(s.pick(), Some(0));
    }

    #[test]
    fn a_queue_slightly_ahead_preempts_once_the_running_queue_caught_up() {
        let mut s = Eevdf::new(&[8, 1], MS, 0);
        s.activate(0);
        s.activate(1);
        assert_eq!(s.pick(), Some(0));
        s.charge(0, MS / 100); // 10 µs: queue 0 is now ahead of queue 1
        s.deactivate(0);
        assert_eq!(s.pick(), Some(1));
        assert!(!s.would_preempt(0));
        let mut window = None;
        s.preempt_windows(|q, w| {
            if q == 0 {
                window = w;
            }
        });
        // Queue 1 must run 10 µs / 8 before queue 0 is no longer ahead.
        let (from, until) = window.unwrap();
        assert!((1_240..=1_260).contains(&from), "{from}");
        assert!(until > 800_000, "{until}");
        s.charge(1, from);
        assert!(s.would_preempt(0));
    }

    #[test]
    fn a_queue_in_debt_does_not_preempt() {
        let mut s = Eevdf::new(&[1, 1], MS, 0);
        s.activate(0);
        s.activate(1);
        // Queue 0 overruns by a lot (one long poll), then goes idle.
        assert_eq!(s.pick(), Some(0));
        s.charge(0, 50 * MS);
        s.deactivate(0);
        assert_eq!(s.pick(), Some(1));
        s.charge(1, MS / 2);
        assert!(!s.would_preempt(0));
    }

    #[test]
    fn remaining_time_ends_when_a_waiting_queue_becomes_eligible() {
        let mut s = Eevdf::new(&[8, 1], 2 * MS, 0);
        s.activate(0);
        s.activate(1);
        assert_eq!(s.pick(), Some(0));
        s.charge(0, 2 * MS); // request used up: queue 0 is now ahead
        assert_eq!(s.pick(), Some(1));
        // Queue 1 must run 2 ms / 8 before queue 0 is eligible again.
        let left = s.remaining_ns();
        assert!((249_000..=251_000).contains(&left), "{left}");
        s.charge(1, left);
        assert_eq!(s.pick(), Some(0));
    }
}
