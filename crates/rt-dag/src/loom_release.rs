//! Loom models of the release protocol (`run/RUN.md`): the very counters
//! of `release.rs`, under every interleaving loom explores. Run with
//! `cargo xtask loom`.

use loom::cell::UnsafeCell;
use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::sync::Arc;
use loom::thread;

use crate::release::{ActivationCount, EndSignal, HoldCount, JoinCounter, Pending};

/// Two prerequisites finish on two threads, each writing its output before
/// counting the dependent down: exactly one releases it, and that one reads
/// both outputs (loom reports a read that is not ordered after a write).
#[test]
fn loom_the_last_prerequisite_releases_the_node_once_and_sees_every_output() {
    loom::model(|| {
        let join = Arc::new(JoinCounter::new(2));
        let outputs = Arc::new([UnsafeCell::new(0u32), UnsafeCell::new(0u32)]);
        let released = Arc::new(AtomicUsize::new(0));
        let prerequisite = |i: usize| {
            let (join, outputs, released) = (join.clone(), outputs.clone(), released.clone());
            thread::spawn(move || {
                // SAFETY: (loom model) each prerequisite writes its own slot once.
                outputs[i].with_mut(|o| unsafe { *o = i as u32 + 1 });
                if join.count_down() {
                    released.fetch_add(1, Ordering::Relaxed);
                    // The released node reads both outputs.
                    let sum: u32 = outputs
                        .iter()
                        // SAFETY: (loom model) both writes happened before the
                        // release (the counter's AcqRel orders them).
                        .map(|o| o.with(|v| unsafe { *v }))
                        .sum();
                    assert_eq!(sum, 3);
                }
            })
        };
        let (a, b) = (prerequisite(0), prerequisite(1));
        a.join().unwrap();
        b.join().unwrap();
        assert_eq!(released.load(Ordering::Relaxed), 1);
    });
}

/// In a loop, the next round's completions may count down before the
/// releaser arms the counter again: the arming adds, and when the whole
/// next round came in first, the arming itself releases. The next round
/// releases the node exactly once however the three interleave.
#[test]
fn loom_a_counter_armed_again_while_the_next_round_counts_down_releases_once_per_round() {
    loom::model(|| {
        let join = Arc::new(JoinCounter::new(2));
        // Round one: both completions came in; this thread saw the release.
        assert!(!join.count_down());
        assert!(join.count_down());
        let releases = Arc::new(AtomicUsize::new(0));
        let next_round: Vec<_> = (0..2)
            .map(|_| {
                let (join, releases) = (join.clone(), releases.clone());
                thread::spawn(move || {
                    if join.count_down() {
                        releases.fetch_add(1, Ordering::Relaxed);
                    }
                })
            })
            .collect();
        if join.rearm_shared(2) {
            releases.fetch_add(1, Ordering::Relaxed);
        }
        for t in next_round {
            t.join().unwrap();
        }
        assert_eq!(releases.load(Ordering::Relaxed), 1);
    });
}

/// A node activated again while it runs is run again by its runner, once
/// per activation, never by two threads at once.
#[test]
fn loom_a_node_runs_once_per_activation_and_never_twice_at_once() {
    loom::model(|| {
        let count = Arc::new(ActivationCount::new());
        let runs = Arc::new(UnsafeCell::new(0usize));
        // Runs the node for each activation this thread is to run.
        let run_while_asked = |count: &ActivationCount, runs: &UnsafeCell<usize>| loop {
            // SAFETY: (loom model) one runner at a time; loom checks it.
            runs.with_mut(|r| unsafe { *r += 1 });
            if !count.finish() {
                break;
            }
        };
        let activators: Vec<_> = (0..2)
            .map(|_| {
                let (count, runs) = (count.clone(), runs.clone());
                thread::spawn(move || {
                    if count.activate() {
                        run_while_asked(&count, &runs);
                    }
                })
            })
            .collect();
        if count.activate() {
            run_while_asked(&count, &runs);
        }
        for t in activators {
            t.join().unwrap();
        }
        assert!(count.is_idle());
        // SAFETY: (loom model) every runner has finished.
        assert_eq!(runs.with(|r| unsafe { *r }), 3);
    });
}

/// A unit ends on another thread while the caller gives its own back and
/// waits: the caller wakes (no lost wake-up) once both are back, whichever
/// is last, and sees what the other thread wrote.
#[test]
fn loom_the_waiter_wakes_once_the_last_unit_is_back_and_sees_its_work() {
    loom::model(|| {
        let pending = Arc::new(Pending::new());
        let signal = Arc::new(EndSignal::new());
        let work = Arc::new(UnsafeCell::new(false));
        pending.add(1);
        // Not joined: a join after a park on the same thread confuses loom's
        // model of `unpark`; loom runs every thread to its end anyway.
        {
            let (pending, signal, work) = (pending.clone(), signal.clone(), work.clone());
            thread::spawn(move || {
                // SAFETY: (loom model) only this thread writes, before its `done`.
                work.with_mut(|w| unsafe { *w = true });
                if pending.done() {
                    signal.set();
                }
            });
        }
        if pending.done() {
            signal.set();
        }
        signal.wait();
        // SAFETY: (loom model) the end is ordered after the write.
        assert!(work.with(|v| unsafe { *v }));
    });
}

/// A taking node counts its permit into a hold while a failure strands
/// the hold (its giving node will not run): whichever comes first, the
/// permit is given back exactly once, by the stranding, by the taking node
/// itself, or by the run's end.
#[test]
fn loom_a_held_permit_is_given_back_once_when_the_hold_is_stranded_meanwhile() {
    loom::model(|| {
        let hold = Arc::new(HoldCount::new());
        let given_back = Arc::new(AtomicUsize::new(0));
        let taker = {
            let (hold, given_back) = (hold.clone(), given_back.clone());
            thread::spawn(move || {
                if !hold.keep() {
                    given_back.fetch_add(1, Ordering::Relaxed);
                }
            })
        };
        let strander = {
            let (hold, given_back) = (hold.clone(), given_back.clone());
            thread::spawn(move || {
                given_back.fetch_add(hold.strand() as usize, Ordering::Relaxed);
            })
        };
        taker.join().unwrap();
        strander.join().unwrap();
        given_back.fetch_add(hold.take_all() as usize, Ordering::Relaxed);
        assert_eq!(given_back.load(Ordering::Relaxed), 1);
    });
}

/// Two permits kept in a hold; its giving node gives one back while a
/// failure strands the hold: both are given back, each once.
#[test]
fn loom_kept_permits_are_given_back_once_each_by_the_giving_node_and_the_stranding() {
    loom::model(|| {
        let hold = Arc::new(HoldCount::new());
        assert!(hold.keep() && hold.keep());
        let given_back = Arc::new(AtomicUsize::new(0));
        let giver = {
            let (hold, given_back) = (hold.clone(), given_back.clone());
            thread::spawn(move || {
                if hold.take_one() {
                    given_back.fetch_add(1, Ordering::Relaxed);
                }
            })
        };
        given_back.fetch_add(hold.strand() as usize, Ordering::Relaxed);
        giver.join().unwrap();
        given_back.fetch_add(hold.take_all() as usize, Ordering::Relaxed);
        assert_eq!(given_back.load(Ordering::Relaxed), 2);
    });
}
