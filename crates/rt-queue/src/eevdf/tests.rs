//! The scheduler as rt-fair uses it: queues with time slices and a rejoin
//! credit (these tests came with the code from rt-fair's `eevdf.rs`).

use super::*;

/// rt-fair's scheduler: these weights, slices of `slice` ns, this rejoin
/// credit.
fn eevdf(weights: &[u32], slice: u64, credit: u64) -> Eevdf {
    let entities = weights.iter().map(|&w| Entity::new(w)).collect();
    Eevdf::new(entities, Request::Slice(slice), credit)
}

const MS: u64 = 1_000_000;

/// Runs saturated queues (always active) for `total` ns in polls of
/// `poll` ns and returns the service each received.
fn saturate(weights: &[u32], poll: u64, total: u64) -> Vec<u64> {
    let mut s = eevdf(weights, MS, 0);
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
#[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
fn saturated_queues_share_the_cpu_by_weight() {
    let got = saturate(&[8, 1], 37_000, 1_000 * MS);
    let ratio = got[0] as f64 / got[1] as f64;
    assert!((ratio / 8.0 - 1.0).abs() < 0.01, "ratio {ratio}");
    let got = saturate(&[1, 2, 4], 50_000, 1_000 * MS);
    assert!((got[1] as f64 / got[0] as f64 / 2.0 - 1.0).abs() < 0.01);
    assert!((got[2] as f64 / got[0] as f64 / 4.0 - 1.0).abs() < 0.01);
}

#[test]
#[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
fn queues_of_weights_near_u32_max_share_microsecond_polls_by_weight() {
    // A poll's virtual length is far below one unit at these weights;
    // the carried remainder keeps every nanosecond.
    let got = saturate(&[u32::MAX, u32::MAX / 4], 1_000, 100 * MS);
    let ratio = got[0] as f64 / got[1] as f64;
    assert!((ratio / 4.0 - 1.0).abs() < 0.01, "ratio {ratio}");
}

#[test]
#[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
fn saturated_queues_still_share_by_weight_on_the_thirtieth_day() {
    const DAY: u64 = 86_400 * 1_000 * MS;
    let mut s = eevdf(&[1, 2, 4], MS, 0);
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
    let mut s = eevdf(&[1, 1], MS, 0);
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
    let mut s = eevdf(&[1, 1], MS, credit);
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
        let mut s = eevdf(&[1, 1], MS, credit);
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
    let mut s = eevdf(&[8, 1], MS, 0);
    s.activate(1);
    assert_eq!(s.pick(), Some(1));
    s.charge(1, MS / 10);
    assert!(s.would_preempt(0));
    s.activate(0);
    assert_eq!(s.pick(), Some(0));
}

#[test]
fn a_queue_slightly_ahead_preempts_once_the_running_queue_caught_up() {
    let mut s = eevdf(&[8, 1], MS, 0);
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
    let mut s = eevdf(&[1, 1], MS, 0);
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
    let mut s = eevdf(&[8, 1], 2 * MS, 0);
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

#[test]
fn products_past_u128_are_exact() {
    // (2^128 - 1)(2^64 - 1) = (2^128 - 2^64 - 1) 2^64 + 1.
    assert_eq!(wide_mul(u128::MAX, u64::MAX), (u128::MAX - (1 << 64), 1));
    assert_eq!(wide_mul(1 << 127, 4), (1 << 65, 0));
    assert_eq!(wide_mul(12_345, 678), (0, 12_345 * 678));
    // Equal as 128-bit products would wrap to, different exactly.
    assert_eq!(cmp_products(1 << 127, 2, 0, 1), Ordering::Greater);
    assert_eq!(
        cmp_products(u128::MAX, 3, u128::MAX / 3, 9),
        Ordering::Equal
    );
    assert_eq!(
        cmp_products(u128::MAX - 1, u64::MAX, u128::MAX, u64::MAX - 1),
        Ordering::Greater
    );
}

#[test]
fn rational_helpers_are_exact_where_the_product_overflows() {
    let cases = [
        (
            (1u128 << 100) + 12_345,
            (1u64 << 40) + 7,
            u64::from(u32::MAX),
        ),
        (u128::MAX / 5, u64::MAX, u64::MAX - 2),
        ((1 << 96) - 1, 1 << 33, 3),
        (7, 5, 2),
    ];
    for (a, b, c) in cases {
        let floor = mul_div_floor(a, b, c);
        let ceil = mul_div_ceil(a, b, c);
        // floor * c <= a * b < (floor + 1) * c, and ceil is floor or
        // floor + 1 as a * b is a multiple of c or not.
        assert_ne!(
            cmp_products(floor, c, a, b),
            Ordering::Greater,
            "{a} {b} {c}"
        );
        assert_eq!(
            cmp_products(floor + 1, c, a, b),
            Ordering::Greater,
            "{a} {b} {c}"
        );
        let exact = cmp_products(floor, c, a, b) == Ordering::Equal;
        assert_eq!(ceil, if exact { floor } else { floor + 1 }, "{a} {b} {c}");
    }
}

#[test]
#[cfg_attr(miri, ignore = "thousands of rounds: slow under miri; no unsafe code")]
fn shares_follow_the_weights_after_2_pow_74_ns_with_weights_of_u32_max() {
    // A weight-1 queue runs alone for about 2^74 ns (600,000 years): its
    // virtual runtime, and so the virtual time, is that. Queues of weight
    // u32::MAX and u32::MAX / 2 then rejoin there, so their numerators are
    // about 2^106, every eligibility test multiplies past 2^128, and so
    // does the second rejoin's `w * V`.
    let mut s = eevdf(&[1, u32::MAX, u32::MAX / 2], MS, 0);
    s.activate(0);
    for _ in 0..1 << 10 {
        s.charge(0, u64::MAX);
    }
    s.activate(1);
    s.activate(2);
    let mut got = [0u64; 3];
    for _ in 0..300_000 {
        let q = s.pick().unwrap();
        s.charge(q, 1_000);
        got[q] += 1_000;
    }
    // Queue 0's share is 1 / (1.5 * 2^32) of the time: it runs at most
    // once (when the others have used their first requests it is the one
    // eligible queue, owed a fraction of a ns, and one poll puts it a
    // microsecond of virtual time ahead, close to two hours of the others'
    // service, while the whole run is 0.3 s).
    assert!(got[0] <= 1_000, "{got:?}");
    let ratio = got[1] as f64 / got[2] as f64;
    assert!((ratio / 2.0 - 1.0).abs() < 0.01, "ratio {ratio}");
}
