//! `collect` into an ordered collection keeps the sequential order,
//! whether or not the iterator is indexed.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};

use rt_par::prelude::*;
use rt_testkit::without_hanging;

#[test]
fn an_indexed_map_collects_in_order() {
    without_hanging(|| {
        let v: Vec<u64> = (0..100_000u64).into_par_iter().map(|i| i * 3).collect();
        assert_eq!(v, (0..100_000u64).map(|i| i * 3).collect::<Vec<_>>());
    });
}

#[test]
fn a_filter_collects_in_order() {
    without_hanging(|| {
        let v: Vec<u32> = (0..100_000u32)
            .into_par_iter()
            .filter(|i| i % 7 == 3)
            .collect();
        assert_eq!(
            v,
            (0..100_000u32).filter(|i| i % 7 == 3).collect::<Vec<_>>()
        );
    });
}

#[test]
fn a_flat_map_collects_in_order() {
    without_hanging(|| {
        let v: Vec<u32> = (0..500u32)
            .into_par_iter()
            .flat_map(|i| 0..i % 13)
            .collect();
        let expected: Vec<u32> = (0..500u32).flat_map(|i| 0..i % 13).collect();
        assert_eq!(v, expected);
    });
}

#[test]
fn a_flat_map_of_filtered_ranges_collects_into_a_linked_list_in_order() {
    without_hanging(|| {
        let list: LinkedList<u32> = (0..1_000u32)
            .into_par_iter()
            .flat_map(|i| (0..i % 5).into_par_iter().filter(move |j| (i + j) % 2 == 0))
            .collect();
        let expected: LinkedList<u32> = (0..1_000u32)
            .flat_map(|i| (0..i % 5).filter(move |j| (i + j) % 2 == 0))
            .collect();
        assert_eq!(list, expected);
    });
}

#[test]
fn collect_into_vec_replaces_the_contents_in_order() {
    without_hanging(|| {
        let mut v = vec![7u32; 10];
        (0..5_000u32).into_par_iter().rev().collect_into_vec(&mut v);
        assert_eq!(v, (0..5_000u32).rev().collect::<Vec<_>>());
    });
}

#[test]
fn par_extend_appends_in_order() {
    without_hanging(|| {
        let mut v = vec![1, 2, 3];
        v.par_extend((4..10_000).into_par_iter().filter(|x| x % 2 == 0));
        let mut expected = vec![1, 2, 3];
        expected.extend((4..10_000).filter(|x| x % 2 == 0));
        assert_eq!(v, expected);
    });
}

#[test]
fn a_vec_deque_a_string_and_a_boxed_slice_collect_in_order() {
    without_hanging(|| {
        let deque: VecDeque<i32> = (0..1000).into_par_iter().collect();
        assert!(deque.iter().copied().eq(0..1000));
        let text: String = (0..1000u32)
            .into_par_iter()
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let expected: String = (0..1000u32)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        assert_eq!(text, expected);
        let words: String = ["ab", "cd", "ef"].par_iter().copied().collect();
        assert_eq!(words, "abcdef");
        let boxed: Box<[i32]> = (0..10).into_par_iter().collect();
        assert_eq!(&*boxed, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });
}

#[test]
fn maps_sets_and_heaps_collect_every_item() {
    without_hanging(|| {
        let map: HashMap<u32, u32> = (0..1000u32).into_par_iter().map(|i| (i, i * i)).collect();
        assert_eq!(map.len(), 1000);
        assert_eq!(map[&30], 900);
        let tree: BTreeMap<u32, u32> = (0..1000u32).into_par_iter().map(|i| (i % 10, i)).collect();
        assert_eq!(tree.len(), 10);
        assert_eq!(tree[&3], 993, "later items win, as sequentially");
        let set: HashSet<u32> = (0..1000u32).into_par_iter().map(|i| i % 17).collect();
        assert_eq!(set.len(), 17);
        let ordered: BTreeSet<u32> = (0..1000u32).into_par_iter().map(|i| i % 17).collect();
        assert!(ordered.iter().copied().eq(0..17));
        let heap: BinaryHeap<u32> = (0..1000u32).into_par_iter().collect();
        assert_eq!(heap.into_sorted_vec(), (0..1000).collect::<Vec<_>>());
    });
}

#[test]
fn results_collect_the_values_or_an_error() {
    without_hanging(|| {
        let ok: Result<Vec<u32>, String> = (0..1000u32).into_par_iter().map(Ok).collect();
        assert_eq!(ok.unwrap(), (0..1000).collect::<Vec<_>>());
        let err: Result<Vec<u32>, u32> = (0..1000u32)
            .into_par_iter()
            .map(|i| if i % 100 == 99 { Err(i) } else { Ok(i) })
            .collect();
        assert!(matches!(err, Err(e) if e % 100 == 99));
    });
}

#[test]
fn options_collect_the_values_or_none() {
    without_hanging(|| {
        let some: Option<Vec<u32>> = (0..1000u32).into_par_iter().map(Some).collect();
        assert_eq!(some.unwrap().len(), 1000);
        let none: Option<Vec<u32>> = (0..1000u32)
            .into_par_iter()
            .map(|i| (i != 500).then_some(i))
            .collect();
        assert_eq!(none, None);
    });
}

#[test]
fn collecting_into_unit_runs_every_item() {
    without_hanging(|| {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let seen = AtomicUsize::new(0);
        let () = (0..1000)
            .into_par_iter()
            .map(|_| {
                seen.fetch_add(1, Ordering::Relaxed);
            })
            .collect();
        assert_eq!(seen.into_inner(), 1000);
    });
}

#[test]
fn unzip_partition_and_partition_map_keep_the_order_on_each_side() {
    without_hanging(|| {
        let (a, b): (Vec<u32>, Vec<u64>) = (0..10_000u32)
            .into_par_iter()
            .map(|i| (i, u64::from(i) * 2))
            .unzip();
        assert_eq!(a, (0..10_000).collect::<Vec<_>>());
        assert_eq!(b, (0..10_000u64).map(|i| i * 2).collect::<Vec<_>>());
        let (even, odd): (Vec<u32>, Vec<u32>) =
            (0..10_000u32).into_par_iter().partition(|i| i % 2 == 0);
        assert_eq!(even, (0..10_000).step_by(2).collect::<Vec<_>>());
        assert_eq!(odd, (1..10_000).step_by(2).collect::<Vec<_>>());
        let (small, big): (Vec<u32>, BTreeSet<String>) =
            (0..100u32).into_par_iter().partition_map(|i| {
                if i < 50 {
                    rt_par::iter::Either::Left(i)
                } else {
                    rt_par::iter::Either::Right(i.to_string())
                }
            });
        assert_eq!(small, (0..50).collect::<Vec<_>>());
        assert_eq!(big.len(), 50);
    });
}

#[test]
fn a_collect_of_values_that_own_memory_drops_nothing_twice() {
    without_hanging(|| {
        let words: Vec<String> = (0..10_000).map(|i| format!("w{i}")).collect();
        let copied: Vec<String> = words
            .clone()
            .into_par_iter()
            .filter(|w| w.len() > 2)
            .collect();
        assert_eq!(
            copied,
            words
                .iter()
                .filter(|w| w.len() > 2)
                .cloned()
                .collect::<Vec<_>>()
        );
        let lens: Vec<usize> = words.into_par_iter().map(|w| w.len()).collect();
        assert_eq!(lens.len(), 10_000);
    });
}
