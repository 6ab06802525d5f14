//! A panic while collecting (`collect`, `collect_into_vec`, `par_extend`,
//! `unzip`, `partition`, `partition_map`) drops every item made so far
//! exactly once, leaves the target as it was (a `par_extend`ed vector
//! keeps its earlier items; `collect_into_vec` leaves it empty), and
//! reaches the caller with its payload. A producer that drives the
//! collecting consumer wrongly (too many items, too few, results dropped
//! or reduced out of order) gets a panic, never a vector with holes or an
//! item twice. On a runtime of one worker, one of two, and the global
//! runtime. (rayon's `tests/collect.rs` and `iter/collect/test.rs`,
//! ported, with drop counts.)

mod support;

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

use rt_par::iter::plumbing::{Consumer, Folder, ProducerCallback, Reducer, UnindexedConsumer};
use rt_par::prelude::*;
use rt_testkit::without_hanging;
use support::{cases, panic_of, places, silence_planned_panics, size, Counts, Tracked, PLANNED};

/// Makes `len` tracked items in parallel, panicking at `panic_at` if any.
fn made<'c>(
    counts: &'c Counts,
    made: &'c AtomicUsize,
    len: usize,
    panic_at: Option<usize>,
) -> impl IndexedParallelIterator<Item = Tracked<'c>> + 'c {
    (0..len).into_par_iter().map(move |i| {
        if Some(i) == panic_at {
            panic!("{PLANNED} at item {i}");
        }
        made.fetch_add(1, Relaxed);
        counts.item(i, i as u32)
    })
}

/// Checks after a collect of `len` tracked items: the panic's payload,
/// then every item made dropped once and no other.
fn check_drops(counts: &Counts, made: &AtomicUsize, len: usize, panic_at: usize, context: &str) {
    let made = made.load(Relaxed);
    assert!(made < len, "the panic stopped the collect ({context})");
    let dropped: usize = counts.dropped_ids().len();
    assert_eq!(dropped, made, "every item made was dropped ({context})");
    counts.assert_each_dropped_at_most_once(context);
    assert!(!counts.dropped_ids().contains(&panic_at), "{context}");
}

#[test]
fn a_panic_during_collect_drops_every_item_made_exactly_once() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(10_000, 40);
        for place in places() {
            for panic_at in cases(&[0, len / 3, len - 1], &[len / 3]) {
                let counts = Counts::new(len);
                let made_count = AtomicUsize::new(0);
                let panic = panic_of(|| {
                    let v: Vec<Tracked<'_>> =
                        place.run(|| made(&counts, &made_count, len, Some(panic_at)).collect());
                    drop(v);
                });
                let context = format!("collect on {}, panic at {panic_at}", place.name());
                assert_eq!(
                    panic.as_deref(),
                    Some(format!("{PLANNED} at item {panic_at}").as_str()),
                    "{context}"
                );
                check_drops(&counts, &made_count, len, panic_at, &context);
            }
        }
    });
}

#[test]
fn a_panic_during_collect_into_vec_leaves_the_vector_empty_and_drops_every_item_once() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(10_000, 40);
        for place in places() {
            let counts = Counts::new(len + 3);
            let made_count = AtomicUsize::new(0);
            // The vector's earlier contents: ids `len..len + 3`.
            let mut target: Vec<Tracked<'_>> = (0..3).map(|k| counts.item(len + k, 0)).collect();
            let panic_at = len / 2;
            let panic = panic_of(|| {
                place.run(|| {
                    made(&counts, &made_count, len, Some(panic_at)).collect_into_vec(&mut target)
                })
            });
            let context = format!("collect_into_vec on {}", place.name());
            assert!(panic.is_some(), "{context}");
            assert!(target.is_empty(), "{context}");
            drop(target);
            let made = made_count.load(Relaxed);
            assert_eq!(counts.dropped_ids().len(), made + 3, "{context}");
            counts.assert_each_dropped_at_most_once(&context);
        }
    });
}

#[test]
fn a_panic_during_par_extend_keeps_the_earlier_items_and_drops_the_new_ones_once() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(10_000, 40);
        for place in places() {
            for indexed in [true, false] {
                let counts = Counts::new(len + 2);
                let made_count = AtomicUsize::new(0);
                let mut target = vec![counts.item(len, 7), counts.item(len + 1, 8)];
                let panic_at = len - 10;
                let panic = panic_of(|| {
                    place.run(|| {
                        let items = made(&counts, &made_count, len, Some(panic_at));
                        if indexed {
                            target.par_extend(items)
                        } else {
                            target.par_extend(items.filter(|t| t.key % 2 == 0))
                        }
                    })
                });
                let context = format!("par_extend (indexed: {indexed}) on {}", place.name());
                assert!(panic.is_some(), "{context}");
                assert_eq!(target.len(), 2, "{context}");
                assert_eq!([target[0].key, target[1].key], [7, 8], "{context}");
                let made = made_count.load(Relaxed);
                assert_eq!(counts.dropped_ids().len(), made, "{context}");
                drop(target);
                assert_eq!(counts.dropped_ids().len(), made + 2, "{context}");
                counts.assert_each_dropped_at_most_once(&context);
            }
        }
    });
}

#[test]
fn a_panic_during_unzip_or_partition_drops_every_item_made_exactly_once() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(10_000, 40);
        for place in places() {
            for how in ["unzip", "partition", "partition_map"] {
                let counts = Counts::new(2 * len);
                let made_count = AtomicUsize::new(0);
                let panic_at = len / 2;
                let panic = panic_of(|| {
                    place.run(|| {
                        let items = made(&counts, &made_count, len, Some(panic_at));
                        match how {
                            "unzip" => {
                                let (a, b): (Vec<_>, Vec<_>) = items
                                    .map(|t| {
                                        let twin = counts.item(len + t.id, t.key);
                                        (t, twin)
                                    })
                                    .unzip();
                                drop((a, b));
                            }
                            "partition" => {
                                let (a, b): (Vec<_>, Vec<_>) = items.partition(|t| t.key % 3 == 0);
                                drop((a, b));
                            }
                            _ => {
                                let (a, b): (Vec<_>, HashSet<u32>) = items.partition_map(|t| {
                                    if t.key % 2 == 0 {
                                        rt_par::iter::Either::Left(t)
                                    } else {
                                        rt_par::iter::Either::Right(t.key)
                                    }
                                });
                                drop((a, b));
                            }
                        }
                    })
                });
                let context = format!("{how} on {}", place.name());
                assert_eq!(
                    panic.as_deref(),
                    Some(format!("{PLANNED} at item {panic_at}").as_str()),
                    "{context}"
                );
                let made = made_count.load(Relaxed);
                let twins = if how == "unzip" { made } else { 0 };
                assert_eq!(counts.dropped_ids().len(), made + twins, "{context}");
                counts.assert_each_dropped_at_most_once(&context);
            }
        }
    });
}

#[test]
fn collect_into_vec_drops_exactly_what_it_inserted_when_a_map_panics() {
    // rayon's `collect_drop_on_unwind`, with and without the panic.
    silence_planned_panics();
    without_hanging(|| {
        struct RecordDrop<'a>(i64, &'a Mutex<Vec<i64>>);
        impl Drop for RecordDrop<'_> {
            fn drop(&mut self) {
                self.1.lock().unwrap().push(self.0);
            }
        }
        let len = size(1024, 64) as i64;
        let panic_point = len * 740 / 1024;
        for place in places() {
            for will_panic in [true, false] {
                let inserts = Mutex::new(Vec::new());
                let drops = Mutex::new(Vec::new());
                let mut a: Vec<i64> = (0..len).collect();
                let b: Vec<i64> = (0..len).collect();
                let panic = panic_of(|| {
                    let mut result = Vec::new();
                    place.run(|| {
                        a.par_iter_mut()
                            .zip(&b)
                            .map(|(&mut a, &b)| {
                                if a > panic_point && will_panic {
                                    panic!("{PLANNED}: unwinding");
                                }
                                let item = a + b;
                                inserts.lock().unwrap().push(item);
                                RecordDrop(item, &drops)
                            })
                            .collect_into_vec(&mut result)
                    });
                    assert_eq!(result.len(), a.len());
                });
                assert_eq!(panic.is_some(), will_panic);
                let mut inserts = inserts.into_inner().unwrap();
                let mut drops = drops.into_inner().unwrap();
                inserts.sort_unstable();
                drops.sort_unstable();
                assert_eq!(inserts, drops, "on {}", place.name());
            }
        }
    });
}

#[test]
fn collect_into_vec_drops_exactly_what_it_inserted_when_a_map_of_zero_sized_items_panics() {
    // rayon's `collect_drop_on_unwind_zst`.
    silence_planned_panics();
    without_hanging(|| {
        static INSERTS: AtomicUsize = AtomicUsize::new(0);
        static DROPS: AtomicUsize = AtomicUsize::new(0);
        struct RecordDropZst;
        impl Drop for RecordDropZst {
            fn drop(&mut self) {
                DROPS.fetch_add(1, Relaxed);
            }
        }
        let len = size(1024, 64);
        for place in places() {
            for will_panic in [true, false] {
                INSERTS.store(0, Relaxed);
                DROPS.store(0, Relaxed);
                let a: Vec<usize> = (0..len).collect();
                let panic = panic_of(|| {
                    let mut result = Vec::new();
                    place.run(|| {
                        a.par_iter()
                            .map(|&a| {
                                if a > len * 740 / 1024 && will_panic {
                                    panic!("{PLANNED}: unwinding");
                                }
                                INSERTS.fetch_add(1, Relaxed);
                                RecordDropZst
                            })
                            .collect_into_vec(&mut result)
                    });
                    assert_eq!(result.len(), a.len());
                });
                assert_eq!(panic.is_some(), will_panic);
                assert_eq!(
                    INSERTS.load(Relaxed),
                    DROPS.load(Relaxed),
                    "on {}",
                    place.name()
                );
                assert!(will_panic || DROPS.load(Relaxed) == len);
            }
        }
    });
}

/// How [`Scripted`] drives the consumer it is given.
#[derive(Clone, Copy, Debug)]
enum Script {
    /// Promises 2 items and pushes 3.
    TooMany,
    /// Promises 5 items and pushes 2.
    TooFew,
    /// Promises 4 items; splits at 2, fills both sides, then:
    LeftNotCompleted,
    RightNotCompleted,
    OnlyLeftResult,
    OnlyRightResult,
    ReducedInReverse,
    /// The left side pushes 1 item and the right 2 of its 2.
    LeftFallsShort,
    /// The left side pushes 2 and the right 1 of its 2.
    RightFallsShort,
    /// Splits at 2 and runs both sides with `join`: one side pushes an
    /// item and panics, the other pushes one and completes early.
    LeftPanics,
    RightPanics,
}

impl Script {
    /// The length the iterator claims.
    fn len(self) -> usize {
        match self {
            Script::TooMany => 2,
            Script::TooFew => 5,
            _ => 4,
        }
    }

    /// The panic message the collect ends with.
    fn expected_panic(self) -> &'static str {
        match self {
            Script::TooMany => "too many values pushed to consumer",
            Script::TooFew => "expected 5 total writes, but got 2",
            Script::LeftFallsShort => "expected 4 total writes, but got 1",
            Script::RightFallsShort => "expected 4 total writes, but got 3",
            Script::LeftPanics => "planned panic: left side",
            Script::RightPanics => "planned panic: right side",
            _ => "expected 4 total writes, but got 2",
        }
    }
}

/// An indexed iterator that drives the consumer it is given by a
/// [`Script`], as a buggy hand-written producer might.
struct Scripted<'c> {
    script: Script,
    counts: &'c Counts,
}

impl<'c> Scripted<'c> {
    fn item(&self, id: usize) -> Tracked<'c> {
        self.counts.item(id, id as u32)
    }

    fn run<C: Consumer<Tracked<'c>>>(self, consumer: C) -> C::Result {
        let item = |id| self.item(id);
        match self.script {
            Script::TooMany => {
                let folder = consumer.into_folder();
                let folder = folder.consume(item(0)).consume(item(1)).consume(item(2));
                folder.complete()
            }
            Script::TooFew => consumer
                .into_folder()
                .consume(item(0))
                .consume(item(1))
                .complete(),
            Script::LeftPanics | Script::RightPanics => {
                let (left, right, reducer) = consumer.split_at(2);
                let left_panics = matches!(self.script, Script::LeftPanics);
                let (l, r) = rt_core::join(
                    || {
                        let folder = left.into_folder().consume(item(0));
                        if left_panics {
                            panic!("{PLANNED}: left side");
                        }
                        folder.complete()
                    },
                    || {
                        let folder = right.into_folder().consume(item(2));
                        if !left_panics {
                            panic!("{PLANNED}: right side");
                        }
                        folder.complete()
                    },
                );
                reducer.reduce(l, r)
            }
            script => {
                let (left, right, reducer) = consumer.split_at(2);
                let left = left.into_folder().consume(item(0));
                let left = match script {
                    Script::LeftFallsShort => left,
                    _ => left.consume(item(1)),
                };
                let right = right.into_folder().consume(item(2));
                let right = match script {
                    Script::RightFallsShort => right,
                    _ => right.consume(item(3)),
                };
                match script {
                    Script::LeftNotCompleted => {
                        drop(left);
                        right.complete()
                    }
                    Script::RightNotCompleted => {
                        drop(right);
                        left.complete()
                    }
                    Script::OnlyLeftResult => {
                        drop(right.complete());
                        left.complete()
                    }
                    Script::OnlyRightResult => {
                        drop(left.complete());
                        right.complete()
                    }
                    Script::ReducedInReverse => reducer.reduce(right.complete(), left.complete()),
                    _ => reducer.reduce(left.complete(), right.complete()),
                }
            }
        }
    }
}

impl<'c> ParallelIterator for Scripted<'c> {
    type Item = Tracked<'c>;

    fn drive_unindexed<C: UnindexedConsumer<Tracked<'c>>>(self, consumer: C) -> C::Result {
        self.run(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.script.len())
    }
}

impl<'c> IndexedParallelIterator for Scripted<'c> {
    fn drive<C: Consumer<Tracked<'c>>>(self, consumer: C) -> C::Result {
        self.run(consumer)
    }

    fn len(&self) -> usize {
        self.script.len()
    }

    fn with_producer<CB: ProducerCallback<Tracked<'c>>>(self, _callback: CB) -> CB::Output {
        panic!("a scripted iterator drives its consumer itself; collect never asks for a producer")
    }
}

#[test]
fn a_producer_that_drives_the_collect_consumer_wrongly_gets_a_panic_and_every_item_is_dropped_once()
{
    silence_planned_panics();
    without_hanging(|| {
        let scripts = [
            Script::TooMany,
            Script::TooFew,
            Script::LeftNotCompleted,
            Script::RightNotCompleted,
            Script::OnlyLeftResult,
            Script::OnlyRightResult,
            Script::ReducedInReverse,
            Script::LeftFallsShort,
            Script::RightFallsShort,
            Script::LeftPanics,
            Script::RightPanics,
        ];
        for place in places() {
            // One `install` for every case: each collect runs on a worker.
            place.run(|| {
                for script in scripts {
                    for into_vec in [false, true] {
                        let counts = Counts::new(8);
                        let mut target = Vec::new();
                        let panic = panic_of(|| {
                            let iter = Scripted {
                                script,
                                counts: &counts,
                            };
                            if into_vec {
                                iter.collect_into_vec(&mut target);
                            } else {
                                target = iter.collect();
                            }
                        });
                        let context = format!(
                            "{script:?} ({}) on {}",
                            if into_vec {
                                "collect_into_vec"
                            } else {
                                "collect"
                            },
                            place.name()
                        );
                        assert_eq!(panic.as_deref(), Some(script.expected_panic()), "{context}");
                        assert!(target.is_empty(), "{context}");
                        drop(target);
                        let made = counts.made();
                        assert_eq!(counts.dropped_ids().len(), made, "{context}");
                        counts.assert_each_dropped_at_most_once(&context);
                    }
                }
            });
        }
    });
}
