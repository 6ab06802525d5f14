//! Iterators that move items out of a collection (`Vec` and arrays by
//! value, `par_drain` of a range or of a whole collection) drop every item
//! exactly once, whether a closure panics, the consumer stops early
//! (`find_any`, `take`, `zip` with a shorter side) or the iterator is
//! dropped undriven; a drained `Vec` keeps the items outside the range, in
//! order. On a runtime of one worker, one of two, and the global runtime.

mod support;

use std::collections::{BTreeMap, HashMap, VecDeque};

use rt_par::iter::plumbing::{Producer, ProducerCallback};
use rt_par::prelude::*;
use rt_testkit::without_hanging;
use support::{cases, panic_of, places, silence_planned_panics, size, Counts, Tracked, PLANNED};

/// A consumer of a `Vec` by value, for the early-stopping cases.
type Consume<'a> = dyn for<'c> Fn(Vec<Tracked<'c>>) + Sync + 'a;

fn tracked(counts: &Counts, len: usize) -> Vec<Tracked<'_>> {
    counts.items((0..len as u32).map(|i| i % 97))
}

#[test]
fn a_panic_while_consuming_a_vec_by_value_drops_every_item_once() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(10_000, 40);
        for place in places() {
            for panic_at in cases(&[0, len / 2, len - 1], &[len / 2]) {
                let counts = Counts::new(len);
                let v = tracked(&counts, len);
                let panic = panic_of(|| {
                    place.run(|| {
                        v.into_par_iter().for_each(|t| {
                            if t.id == panic_at {
                                panic!("{PLANNED} at item {panic_at}");
                            }
                        })
                    })
                });
                let context = format!(
                    "Vec::into_par_iter on {}, panic at {panic_at}",
                    place.name()
                );
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
fn a_vec_by_value_that_is_only_partly_consumed_drops_the_rest_once() {
    without_hanging(|| {
        let len = size(10_000, 40);
        for place in places() {
            let consumers: [(&str, &Consume<'_>); 7] = [
                ("find_any", &|v| {
                    assert!(v.into_par_iter().find_any(|t| t.id % 1000 == 7).is_some())
                }),
                ("find_first", &|v| {
                    assert_eq!(
                        v.into_par_iter().find_first(|t| t.id >= 3).map(|t| t.id),
                        Some(3)
                    )
                }),
                ("take", &|v| {
                    assert_eq!(v.into_par_iter().take(5).count(), 5)
                }),
                ("skip", &|v| {
                    assert_eq!(v.into_par_iter().skip(5).count(), len - 5)
                }),
                ("step_by", &|v| {
                    assert_eq!(v.into_par_iter().step_by(7).count(), len.div_ceil(7))
                }),
                ("zip with a shorter side", &|v| {
                    assert_eq!(v.into_par_iter().zip(0..len / 3).count(), len / 3)
                }),
                ("rev and any", &|v| {
                    assert!(v.into_par_iter().rev().any(|t| t.id == len / 2))
                }),
            ];
            // One `install` for every case: each runs on a worker.
            place.run(|| {
                for (name, consume) in consumers {
                    let counts = Counts::new(len);
                    consume(tracked(&counts, len));
                    counts.assert_each_dropped_once(&format!("{name} on {}", place.name()));
                }
            });
            let counts = Counts::new(len);
            let never_driven = tracked(&counts, len).into_par_iter();
            drop(never_driven);
            counts.assert_each_dropped_once("an undriven Vec::into_par_iter");
        }
    });
}

#[test]
fn a_producer_of_a_vec_that_is_split_and_barely_used_drops_every_item_once() {
    // rayon's `check_drops`: a callback that splits the producer and takes
    // one item of the left part.
    struct TakeOne;
    impl<'c> ProducerCallback<Tracked<'c>> for TakeOne {
        type Output = usize;
        fn callback<P: Producer<Item = Tracked<'c>>>(self, producer: P) -> usize {
            let (left, _right) = producer.split_at(5);
            left.into_iter().next().map(|t| t.id).expect("an item")
        }
    }
    without_hanging(|| {
        let counts = Counts::new(10);
        let first = tracked(&counts, 10).into_par_iter().with_producer(TakeOne);
        assert_eq!(first, 0);
        counts.assert_each_dropped_once("a split producer");
        let counts = Counts::new(10);
        let mut target = Vec::new();
        tracked(&counts, 10)
            .into_par_iter()
            .collect_into_vec(&mut target);
        assert_eq!(counts.dropped_ids(), Vec::<usize>::new());
        drop(target);
        counts.assert_each_dropped_once("collected, then dropped");
    });
}

#[test]
fn a_panic_while_consuming_an_array_by_value_drops_every_item_once() {
    silence_planned_panics();
    without_hanging(|| {
        for place in places() {
            let counts = Counts::new(64);
            let array: [Tracked<'_>; 64] = std::array::from_fn(|i| counts.item(i, i as u32));
            let panic = panic_of(|| {
                place.run(|| {
                    array.into_par_iter().for_each(|t| {
                        if t.id == 40 {
                            panic!("{PLANNED}: array");
                        }
                    })
                })
            });
            assert_eq!(panic.as_deref(), Some("planned panic: array"));
            counts.assert_each_dropped_once(&format!("an array on {}", place.name()));
        }
    });
}

#[test]
fn a_panic_while_draining_a_range_of_a_vec_drops_each_drained_item_once_and_keeps_the_rest() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(10_000, 40);
        for place in places() {
            for (start, end) in cases(
                &[(0, len), (len / 4, len / 2), (1, len - 1)],
                &[(1, len - 1)],
            ) {
                let counts = Counts::new(len);
                let mut v = tracked(&counts, len);
                let panic_at = (start + end) / 2;
                let panic = panic_of(|| {
                    place.run(|| {
                        v.par_drain(start..end).for_each(|t| {
                            if t.id == panic_at {
                                panic!("{PLANNED}: drain");
                            }
                        })
                    })
                });
                let context = format!("par_drain({start}..{end}) on {}", place.name());
                assert_eq!(panic.as_deref(), Some("planned panic: drain"), "{context}");
                let kept: Vec<usize> = v.iter().map(|t| t.id).collect();
                let expected: Vec<usize> = (0..start).chain(end..len).collect();
                assert_eq!(kept, expected, "{context}");
                assert_eq!(
                    counts.dropped_ids(),
                    (start..end).collect::<Vec<_>>(),
                    "{context}"
                );
                drop(v);
                counts.assert_each_dropped_once(&context);
            }
        }
    });
}

#[test]
fn a_drain_of_a_vec_that_stops_early_or_is_never_driven_drops_each_drained_item_once() {
    without_hanging(|| {
        let len = size(10_000, 40);
        for place in places() {
            let (start, end) = (len / 5, len - len / 5);
            for how in ["find_any", "take", "never driven"] {
                let counts = Counts::new(len);
                let mut v = tracked(&counts, len);
                place.run(|| match how {
                    "find_any" => {
                        assert!(v.par_drain(start..end).find_any(|t| t.id > start).is_some())
                    }
                    "take" => assert_eq!(v.par_drain(start..end).take(3).count(), 3),
                    _ => drop(v.par_drain(start..end)),
                });
                let context = format!("a drain ({how}) on {}", place.name());
                let kept: Vec<usize> = v.iter().map(|t| t.id).collect();
                assert_eq!(
                    kept,
                    (0..start).chain(end..len).collect::<Vec<_>>(),
                    "{context}"
                );
                drop(v);
                counts.assert_each_dropped_once(&context);
            }
        }
    });
}

#[test]
fn a_panic_while_draining_other_collections_drops_every_item_once() {
    silence_planned_panics();
    without_hanging(|| {
        let len = size(5_000, 40);
        for place in places() {
            let counts = Counts::new(len);
            let mut deque: VecDeque<Tracked<'_>> = tracked(&counts, len).into();
            let panic = panic_of(|| {
                place.run(|| {
                    deque.par_drain(10..len - 10).for_each(|t| {
                        if t.id == len / 2 {
                            panic!("{PLANNED}: deque");
                        }
                    })
                })
            });
            assert!(panic.is_some());
            assert_eq!(deque.len(), 20);
            drop(deque);
            counts.assert_each_dropped_once(&format!("VecDeque::par_drain on {}", place.name()));

            let counts = Counts::new(len);
            let mut map: HashMap<usize, Tracked<'_>> = tracked(&counts, len)
                .into_iter()
                .map(|t| (t.id, t))
                .collect();
            let panic = panic_of(|| {
                place.run(|| {
                    map.par_drain().for_each(|(id, _)| {
                        if id == len / 2 {
                            panic!("{PLANNED}: map");
                        }
                    })
                })
            });
            assert!(panic.is_some());
            assert!(map.is_empty());
            counts.assert_each_dropped_once(&format!("HashMap::par_drain on {}", place.name()));

            let counts = Counts::new(len);
            let tree: BTreeMap<usize, Tracked<'_>> = tracked(&counts, len)
                .into_iter()
                .map(|t| (t.id, t))
                .collect();
            let panic = panic_of(|| {
                place.run(|| {
                    tree.into_par_iter().for_each(|(id, _)| {
                        if id == len / 2 {
                            panic!("{PLANNED}: tree");
                        }
                    })
                })
            });
            assert!(panic.is_some());
            counts
                .assert_each_dropped_once(&format!("BTreeMap::into_par_iter on {}", place.name()));
        }
    });
}
