//! `join`s made while enough older halves of the task wait to be shared run
//! both halves in place (at every 64th `join` of the task one is linked
//! again, `FORKS.md`): a deep recursion still spreads over every worker,
//! and keeps `join`'s panic rule.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rt_core::{current_thread_index, Runtime};
use support::{quietly, without_hanging};

/// Joins nested `depth` deep in the first halves, then `innermost`.
fn nested<R: Send>(depth: usize, innermost: &(dyn Fn() -> R + Sync)) -> R {
    if depth == 0 {
        return innermost();
    }
    rt_core::join(|| nested(depth - 1, innermost), || ()).0
}

#[test]
fn a_recursion_below_ten_joins_of_nothing_still_runs_leaves_on_two_workers() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        // Room for the compensating workers a parked joiner may start.
        let on: [AtomicUsize; 8] = Default::default();
        fn leaves(depth: u32, on: &[AtomicUsize; 8]) {
            if depth == 0 {
                // A little work per leaf, so that the other worker wakes up
                // while there are leaves left.
                let started = std::time::Instant::now();
                while started.elapsed() < std::time::Duration::from_micros(5) {
                    std::hint::spin_loop();
                }
                on[current_thread_index().unwrap()].fetch_add(1, Ordering::Relaxed);
                return;
            }
            rt_core::join(|| leaves(depth - 1, on), || leaves(depth - 1, on));
        }
        // Every half the ten outer `join`s leave pending is empty: the
        // other worker gets leaves only from the deep `join`s.
        rt.install(|| nested(10, &|| leaves(14, &on)));
        let counts = on.each_ref().map(|c| c.load(Ordering::Relaxed));
        assert_eq!(counts.iter().sum::<usize>(), 1 << 14);
        assert!(
            counts.iter().filter(|&&c| c > 0).count() >= 2,
            "leaves per worker: {counts:?}"
        );
    });
}

/// Runs `join(first, second)` ten `join`s deep on two workers, and returns
/// the panic that comes back to the top.
fn deep_join_panic(first: &(dyn Fn() + Sync), second: &(dyn Fn() + Sync)) -> &'static str {
    let rt = Runtime::new(2).unwrap();
    let result = quietly(|| {
        catch_unwind(AssertUnwindSafe(|| {
            rt.install(|| nested(10, &|| rt_core::join(first, second)))
        }))
    });
    let payload = result.expect_err("the panic comes back");
    let message: &&'static str = payload.downcast_ref().expect("a &str payload");
    message
}

#[test]
fn a_panic_deep_in_a_recursion_resumes_at_the_top_after_its_second_half_ran() {
    without_hanging(|| {
        let second_ran = AtomicBool::new(false);
        let payload = deep_join_panic(&|| panic!("deep"), &|| {
            second_ran.store(true, Ordering::SeqCst)
        });
        assert_eq!(payload, "deep");
        assert!(second_ran.load(Ordering::SeqCst));
    });
}

#[test]
fn a_panic_of_the_second_half_deep_in_a_recursion_resumes_after_the_first_ran() {
    without_hanging(|| {
        let first_ran = AtomicBool::new(false);
        let payload = deep_join_panic(&|| first_ran.store(true, Ordering::SeqCst), &|| {
            panic!("deep")
        });
        assert_eq!(payload, "deep");
        assert!(first_ran.load(Ordering::SeqCst));
    });
}
