//! `par_bridge` runs any `Iterator + Send` in parallel: every item once,
//! in no particular order, nested ones included.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use rt_par::prelude::*;
use rt_testkit::without_hanging;

#[test]
fn every_item_of_a_bridged_iterator_is_seen_once() {
    without_hanging(|| {
        let mut got: Vec<u32> = (0..10_000u32).par_bridge().map(|x| x * 2).collect();
        got.sort_unstable();
        assert_eq!(got, (0..10_000).map(|x| x * 2).collect::<Vec<_>>());
    });
}

#[test]
fn a_channel_can_be_bridged() {
    without_hanging(|| {
        let (sender, receiver) = mpsc::channel();
        let producer = std::thread::spawn(move || {
            for i in 0..1000u64 {
                sender.send(i).unwrap();
            }
        });
        let sum: u64 = receiver.into_iter().par_bridge().sum();
        producer.join().unwrap();
        assert_eq!(sum, 499_500);
    });
}

#[test]
fn a_bridged_search_stops_early() {
    without_hanging(|| {
        let pulled = AtomicUsize::new(0);
        let endless = std::iter::repeat_with(|| pulled.fetch_add(1, Ordering::Relaxed));
        let found = endless.par_bridge().find_any(|&x| x >= 1000);
        assert!(found.is_some());
    });
}

#[test]
fn bridges_nest_inside_bridged_items() {
    without_hanging(|| {
        let rt = rt_core::Runtime::new(2).unwrap();
        let total: usize = rt.install(|| {
            (0..50usize)
                .par_bridge()
                .map(|i| {
                    (0..i)
                        .par_bridge()
                        .map(|j| (0..j).par_bridge().count())
                        .sum::<usize>()
                })
                .sum()
        });
        let expected: usize = (0..50usize).map(|i| (0..i).sum::<usize>()).sum();
        assert_eq!(total, expected);
    });
}
