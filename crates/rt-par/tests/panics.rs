//! A panic in any closure reaches the caller with its original payload,
//! after the pieces already running stopped; `panic_fuse` makes the rest
//! skip their items.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};

use rt_par::prelude::*;
use rt_testkit::{quietly, without_hanging};

fn two_workers() -> rt_core::Runtime {
    rt_core::Runtime::new(2).expect("start a runtime")
}

fn payload_of(result: std::thread::Result<()>) -> String {
    let payload = result.expect_err("the closure panicked");
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_default()
}

#[test]
fn a_panic_in_for_each_reaches_the_caller_with_its_payload() {
    without_hanging(|| {
        let rt = two_workers();
        let result = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.install(|| {
                    (0..10_000).into_par_iter().for_each(|i| {
                        if i == 7_777 {
                            panic!("item 7777 failed");
                        }
                    })
                })
            }))
        });
        assert_eq!(payload_of(result), "item 7777 failed");
    });
}

#[test]
fn a_panic_in_map_reaches_a_collect_outside_any_runtime() {
    without_hanging(|| {
        let result = quietly(|| {
            catch_unwind(|| {
                let _: Vec<i32> = (0..1000)
                    .into_par_iter()
                    .map(|i| {
                        if i == 3 {
                            panic!("{}", String::from("owned payload"))
                        } else {
                            i
                        }
                    })
                    .collect();
            })
        });
        assert_eq!(payload_of(result), "owned payload");
    });
}

#[test]
fn a_panicking_collect_drops_what_it_had_written_exactly_once() {
    without_hanging(|| {
        static LIVE: AtomicUsize = AtomicUsize::new(0);
        struct Counted;
        impl Drop for Counted {
            fn drop(&mut self) {
                LIVE.fetch_sub(1, Ordering::Relaxed);
            }
        }
        let result = quietly(|| {
            catch_unwind(|| {
                let _: Vec<Counted> = (0..10_000)
                    .into_par_iter()
                    .map(|i| {
                        if i == 9_000 {
                            panic!("stop");
                        }
                        LIVE.fetch_add(1, Ordering::Relaxed);
                        Counted
                    })
                    .collect();
            })
        });
        assert!(result.is_err());
        assert_eq!(LIVE.load(Ordering::Relaxed), 0);
    });
}

#[test]
fn a_panic_in_a_comparison_leaves_every_item_in_the_slice() {
    without_hanging(|| {
        let mut v: Vec<String> = (0..50_000)
            .map(|i| format!("{:05}", (i * 7919) % 50_000))
            .collect();
        let calls = AtomicUsize::new(0);
        let result = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                v.par_sort_by(|a, b| {
                    if calls.fetch_add(1, Ordering::Relaxed) == 200_000 {
                        panic!("comparison failed");
                    }
                    a.cmp(b)
                })
            }))
        });
        assert!(result.is_err());
        let mut after: Vec<String> = v.clone();
        after.sort();
        let mut expected: Vec<String> = (0..50_000).map(|i| format!("{:05}", i)).collect();
        expected.sort();
        assert_eq!(after, expected, "no item lost or duplicated");
    });
}

#[test]
fn panic_fuse_skips_pieces_not_yet_started() {
    without_hanging(|| {
        let rt = two_workers();
        let ran = AtomicUsize::new(0);
        let result = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.install(|| {
                    (0..1_000_000)
                        .into_par_iter()
                        .with_max_len(100)
                        .panic_fuse()
                        .for_each(|i| {
                            ran.fetch_add(1, Ordering::Relaxed);
                            if i == 0 {
                                panic!("first item");
                            }
                        })
                })
            }))
        });
        assert_eq!(payload_of(result), "first item");
        assert!(
            ran.into_inner() < 1_000_000,
            "the fuse stopped the other pieces"
        );
    });
}

#[test]
fn panic_fuse_changes_nothing_without_a_panic() {
    without_hanging(|| {
        let v: Vec<u32> = (0..10_000u32)
            .into_par_iter()
            .panic_fuse()
            .map(|x| x + 1)
            .collect();
        assert_eq!(v, (1..10_001).collect::<Vec<_>>());
        let s: u32 = (0..10_000u32)
            .into_par_iter()
            .filter(|x| x % 2 == 0)
            .panic_fuse()
            .sum();
        assert_eq!(s, (0..10_000u32).filter(|x| x % 2 == 0).sum::<u32>());
    });
}

#[test]
fn a_runtime_stays_usable_after_a_panic() {
    without_hanging(|| {
        let rt = two_workers();
        let _ = quietly(|| {
            catch_unwind(AssertUnwindSafe(|| {
                rt.install(|| (0..100).into_par_iter().for_each(|_| panic!("every item")))
            }))
        });
        let sum: u64 = rt.install(|| (0..100u64).into_par_iter().sum());
        assert_eq!(sum, 4950);
    });
}
