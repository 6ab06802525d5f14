//! `find_first` and `position_first` over an indexed iterator have the
//! workers claim pieces of the items in order, so that they search the
//! front together: the answers are those of a sequential search wherever
//! the match is (through adapters, with piece lengths bounded), a panic in
//! the predicate drops every item once, and on two workers both search
//! the items before a match near the front.

mod support;

use std::collections::HashSet;
use std::sync::Mutex;
use std::thread::{self, ThreadId};
use std::time::{Duration, Instant};

use rt_core::Runtime;
use rt_par::prelude::*;
use rt_testkit::without_hanging;
use support::{cases, panic_of, places, silence_planned_panics, size, Counts, PLANNED};

#[test]
fn find_first_gives_the_sequential_answer_wherever_the_match_is() {
    without_hanging(|| {
        let len = size(1_000_000, 20_000);
        for place in places() {
            for at in cases(
                &[
                    0,
                    1,
                    63,
                    255,
                    256,
                    257,
                    512,
                    len / 10,
                    len / 2,
                    len - 1,
                    len,
                ],
                &[0, 255, 256, len / 3, len],
            ) {
                let context = format!("match at {at} of {len} on {}", place.name());
                let want = (at < len).then_some(at);
                let found = place.run(|| (0..len).into_par_iter().find_first(|&x| x >= at));
                assert_eq!(found, want, "range: {context}");
                let position = place.run(|| (0..len).into_par_iter().position_first(|x| x >= at));
                assert_eq!(position, want, "position_first: {context}");
            }
        }
    });
}

#[test]
fn find_first_through_adapters_and_bounded_pieces_gives_the_sequential_answer() {
    without_hanging(|| {
        let len = size(300_000, 10_000);
        let values: Vec<u64> = (0..len as u64).map(|i| i * 7 % 1_000_003).collect();
        let wanted = |x: &u64| x % 1_009 == 500;
        let want = values.iter().copied().find(wanted);
        let want_indexed = values.iter().enumerate().find(|(_, x)| wanted(x));
        for place in places() {
            let context = place.name();
            let mapped = place.run(|| values.par_iter().map(|&x| x).find_first(wanted));
            assert_eq!(mapped, want, "map: {context}");
            let filtered = place.run(|| {
                values
                    .par_iter()
                    .copied()
                    .filter(|x| x % 2 == 0)
                    .find_first(wanted)
            });
            let want_filtered = values.iter().copied().filter(|x| x % 2 == 0).find(wanted);
            assert_eq!(filtered, want_filtered, "filter: {context}");
            let indexed =
                place.run(|| values.par_iter().enumerate().find_first(|(_, x)| wanted(x)));
            assert_eq!(indexed, want_indexed, "enumerate: {context}");
            for (min, max) in [(1, 7), (5_000, usize::MAX), (1, 1)] {
                let bounded = place.run(|| {
                    values
                        .par_iter()
                        .with_min_len(min)
                        .with_max_len(max)
                        .find_first(|x| wanted(x))
                });
                assert_eq!(
                    bounded.copied(),
                    want,
                    "pieces of {min} to {max} items: {context}"
                );
            }
        }
    });
}

#[test]
fn find_first_with_a_match_in_every_piece_gives_the_first() {
    without_hanging(|| {
        let len = size(500_000, 10_000);
        for place in places() {
            let found = place.run(|| (0..len).into_par_iter().find_first(|x| x % 3 == 2));
            assert_eq!(found, Some(2), "{}", place.name());
            let last = place.run(|| (0..len).into_par_iter().find_last(|x| x % 3 == 2));
            assert_eq!(
                last,
                (0..len).rev().find(|x| x % 3 == 2),
                "{}",
                place.name()
            );
        }
    });
}

#[test]
fn a_panic_in_the_predicate_of_find_first_drops_every_item_once() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(100_000, 2_000);
        for place in places() {
            for panic_at in cases(&[0, len / 10, len - 1], &[len / 2]) {
                let counts = Counts::new(len);
                let items = counts.items((0..len as u32).map(|i| i % 97));
                let panic = panic_of(|| {
                    place.run(|| {
                        items.into_par_iter().find_first(|t| {
                            if t.id == panic_at {
                                panic!("{PLANNED} at item {panic_at}");
                            }
                            false
                        });
                    })
                });
                let context = format!("panic at {panic_at} on {}", place.name());
                assert_eq!(
                    panic.as_deref(),
                    Some(format!("{PLANNED} at item {panic_at}").as_str()),
                    "{context}"
                );
                counts.assert_each_dropped_once(&context);
            }
        }
    });
}

#[test]
fn the_items_found_are_dropped_once_and_the_first_is_returned() {
    without_hanging(|| {
        let len = size(100_000, 2_000);
        for place in places() {
            let counts = Counts::new(len);
            let items = counts.items((0..len as u32).map(|i| i % 97));
            let found = place.run(|| items.into_par_iter().find_first(|t| t.key == 96));
            assert_eq!(found.as_ref().map(|t| t.id), Some(96), "{}", place.name());
            drop(found);
            counts.assert_each_dropped_once(place.name());
        }
    });
}

/// Busy for about `d`: each item takes a while, so that the second worker
/// wakes long before the first reaches the match.
fn spin(d: Duration) {
    let start = Instant::now();
    while start.elapsed() < d {
        std::hint::spin_loop();
    }
}

#[test]
#[cfg_attr(miri, ignore = "times a busy predicate")]
fn on_two_workers_both_search_the_items_before_a_match_near_the_front() {
    without_hanging(|| {
        let rt = Runtime::new(2).expect("start a runtime");
        let len = 100_000;
        let at = len / 10;
        let searchers: Mutex<HashSet<ThreadId>> = Mutex::new(HashSet::new());
        let found = rt.install(|| {
            (0..len).into_par_iter().find_first(|&x| {
                spin(Duration::from_micros(2));
                if x < at {
                    searchers.lock().unwrap().insert(thread::current().id());
                }
                x == at
            })
        });
        assert_eq!(found, Some(at));
        let searchers = searchers.into_inner().unwrap().len();
        assert_eq!(
            searchers, 2,
            "threads that searched the items before the match"
        );
    });
}
