//! `with_cancellation`: a token stops the iterator early, and the terminal
//! operation's result says so. `Err(Cancelled)` when a worker found the
//! token cancelled before its part ended, never a value that lacks items;
//! `Ok` with the whole value when the token stopped nothing.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rt_core::{CancellationToken, Runtime};
use rt_par::prelude::*;
use rt_par::Cancelled;
use rt_testkit::without_hanging;

#[test]
fn a_token_cancelled_before_the_call_runs_nothing_and_says_cancelled() {
    without_hanging(|| {
        let token = CancellationToken::new();
        token.cancel();
        let ran = AtomicUsize::new(0);
        let done = (0..1_000_000)
            .into_par_iter()
            .with_cancellation(&token)
            .for_each(|_| {
                ran.fetch_add(1, Ordering::Relaxed);
            });
        assert_eq!(done, Err(Cancelled));
        assert_eq!(ran.into_inner(), 0);
        let sum = (0..1_000u64)
            .into_par_iter()
            .with_cancellation(&token)
            .sum::<u64>();
        assert_eq!(sum, Err(Cancelled));
        let v = (0..1_000)
            .into_par_iter()
            .with_cancellation(&token)
            .collect::<Vec<i32>>();
        assert_eq!(v, Err(Cancelled));
        // Even with no items: the call was cancelled before it started.
        let empty = (0..0).into_par_iter().with_cancellation(&token).count();
        assert_eq!(empty, Err(Cancelled));
    });
}

#[test]
fn a_count_cancelled_midway_is_an_error_not_a_smaller_count() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        for _ in 0..20 {
            let token = CancellationToken::new();
            let counted = rt.install(|| {
                (0..40_000_000u64)
                    .into_par_iter()
                    .map(|i| {
                        if i == 10_000 {
                            token.cancel();
                        }
                        i
                    })
                    .with_cancellation(&token)
                    .count()
            });
            assert_eq!(counted, Err(Cancelled));
        }
    });
}

#[test]
fn cancelling_midway_stops_the_work_early() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let token = CancellationToken::new();
        let ran = AtomicUsize::new(0);
        let done = rt.install(|| {
            (0..100_000_000u64)
                .into_par_iter()
                .with_cancellation(&token)
                .for_each(|i| {
                    ran.fetch_add(1, Ordering::Relaxed);
                    if i == 1_000 {
                        token.cancel();
                    }
                })
        });
        assert_eq!(done, Err(Cancelled));
        assert!(ran.into_inner() < 100_000_000, "the job ended early");
    });
}

#[test]
fn a_cancel_from_another_thread_while_it_runs_is_reported() {
    without_hanging(|| {
        for workers in [1, 2] {
            let rt = Runtime::new(workers).unwrap();
            let token = CancellationToken::new();
            let started = Arc::new(AtomicUsize::new(0));
            let canceller = {
                let (token, started) = (token.clone(), started.clone());
                std::thread::spawn(move || {
                    while started.load(Ordering::Relaxed) == 0 {
                        std::thread::yield_now();
                    }
                    token.cancel();
                })
            };
            let total = rt.install(|| {
                (0..u64::MAX)
                    .into_par_iter()
                    .map(|i| {
                        started.fetch_add(1, Ordering::Relaxed);
                        i & 1
                    })
                    .with_cancellation(&token)
                    .sum::<u64>()
            });
            canceller.join().unwrap();
            assert_eq!(total, Err(Cancelled), "{workers} worker(s)");
        }
    });
}

#[test]
fn an_uncancelled_token_gives_every_operation_its_whole_value() {
    without_hanging(|| {
        let token = CancellationToken::new();
        let n = 10_000u32;
        let it = || (0..n).into_par_iter().with_cancellation(&token);
        assert_eq!(it().collect::<Vec<u32>>(), Ok((0..n).collect::<Vec<_>>()));
        assert_eq!(it().count(), Ok(n as usize));
        assert_eq!(it().sum::<u32>(), Ok((0..n).sum::<u32>()));
        assert_eq!(it().min(), Ok(Some(0)));
        assert_eq!(it().max_by_key(|x| x % 7), Ok(Some(9_995)));
        assert_eq!(it().reduce(|| 0, u32::max), Ok(n - 1));
        assert_eq!(it().any(|x| x == n - 1), Ok(true));
        assert_eq!(it().all(|x| x < n), Ok(true));
        assert_eq!(it().find_first(|x| x % 1_000 == 999), Ok(Some(999)));
        assert_eq!(
            it().try_for_each(|x| if x < n { Ok(()) } else { Err(x) }),
            Ok(Ok(()))
        );
        let (even, odd): (Vec<u32>, Vec<u32>) = it().partition(|x| x % 2 == 0).unwrap();
        assert_eq!((even.len(), odd.len()), (5_000, 5_000));
        let (a, b): (Vec<u32>, Vec<u32>) = (0..n)
            .into_par_iter()
            .map(|x| (x, x + 1))
            .with_cancellation(&token)
            .unzip()
            .unwrap();
        assert_eq!((a[9], b[9]), (9, 10));
        assert!(!token.is_cancelled());
    });
}

#[test]
fn a_token_cancelled_after_the_work_ended_leaves_the_value() {
    without_hanging(|| {
        let token = CancellationToken::new();
        let sum = (0..1_000u64)
            .into_par_iter()
            .with_cancellation(&token)
            .sum::<u64>();
        token.cancel();
        assert_eq!(sum, Ok(499_500));
    });
}

#[test]
fn run_hands_the_iterator_to_any_operation() {
    without_hanging(|| {
        let token = CancellationToken::new();
        let v = vec![5, 1, 4];
        let largest = v
            .par_iter()
            .with_cancellation(&token)
            .run(|it| it.map(|x| x * 10).filter(|x| *x > 10).max());
        assert_eq!(largest, Ok(Some(50)));
        token.cancel();
        let ran = v.par_iter().with_cancellation(&token).run(|it| it.count());
        assert_eq!(ran, Err(Cancelled));
    });
}

#[test]
fn the_error_reads_as_a_sentence_and_is_an_error() {
    let error: Box<dyn std::error::Error> = Box::new(Cancelled);
    assert_eq!(
        error.to_string(),
        "the parallel iterator was cancelled before it finished"
    );
}

/// An item that counts its drops.
#[derive(Debug)]
struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn a_cancelled_collect_drops_every_owned_item_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let drops = Arc::new(AtomicUsize::new(0));
        let items: Vec<Counted> = (0..100_000).map(|_| Counted(drops.clone())).collect();
        let token = CancellationToken::new();
        let seen = AtomicUsize::new(0);
        let gathered = rt.install(|| {
            items
                .into_par_iter()
                .map(|item| {
                    if seen.fetch_add(1, Ordering::Relaxed) == 5_000 {
                        token.cancel();
                    }
                    item
                })
                .with_cancellation(&token)
                .collect::<Vec<Counted>>()
        });
        assert!(gathered.is_err());
        drop(gathered);
        assert_eq!(drops.load(Ordering::Relaxed), 100_000);
    });
}

#[test]
fn a_panic_inside_reaches_the_caller_and_drops_every_item_once() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let drops = Arc::new(AtomicUsize::new(0));
        let items: Vec<Counted> = (0..10_000).map(|_| Counted(drops.clone())).collect();
        let token = CancellationToken::new();
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            rt.install(|| {
                items
                    .into_par_iter()
                    .enumerate()
                    .map(|(i, item)| {
                        assert!(i != 777, "item 777");
                        item
                    })
                    .with_cancellation(&token)
                    .collect::<Vec<Counted>>()
            })
        }));
        let payload = outcome.expect_err("the panic reaches the caller");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"item 777"));
        assert_eq!(drops.load(Ordering::Relaxed), 10_000);
    });
}
