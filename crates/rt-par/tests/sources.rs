//! Every source gives its items: ranges of every integer type, slices,
//! vectors, arrays, the std collections, options, and `repeat`,
//! `repeat_n`, `empty`, `once`.

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};

use rt_par::prelude::*;
use rt_testkit::without_hanging;

macro_rules! check_ranges {
    ($($t:ty),*) => {$(
        let v: Vec<$t> = (<$t>::MIN..<$t>::MIN + 100).into_par_iter().collect();
        assert_eq!(v, (<$t>::MIN..<$t>::MIN + 100).collect::<Vec<_>>());
        let w: Vec<$t> = (<$t>::MAX - 100..=<$t>::MAX).into_par_iter().collect();
        assert_eq!(w, (<$t>::MAX - 100..=<$t>::MAX).collect::<Vec<_>>());
        assert_eq!((10 as $t..20).into_par_iter().count(), 10);
        assert_eq!((10 as $t..=20).into_par_iter().count(), 11);
    )*};
}

#[test]
fn ranges_of_every_integer_type_give_their_values() {
    without_hanging(|| {
        check_ranges!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);
        assert_eq!((0..=u8::MAX).into_par_iter().len(), 256);
        assert_eq!(
            (i8::MIN..=i8::MAX)
                .into_par_iter()
                .map(i32::from)
                .sum::<i32>(),
            -128
        );
        assert_eq!((0..=u32::MAX).into_par_iter().len(), 1 << 32);
        assert_eq!((0..=u64::MAX).into_par_iter().opt_len(), None);
        assert_eq!((0..u128::MAX).into_par_iter().opt_len(), None);
        let (five, three) = (std::hint::black_box(5u64), 3);
        assert_eq!((five..three).into_par_iter().count(), 0);
    });
}

#[test]
fn slices_vectors_and_arrays_give_their_items() {
    without_hanging(|| {
        let v: Vec<i32> = (0..1000).collect();
        assert_eq!(v.par_iter().sum::<i32>(), 499_500);
        assert_eq!(
            v[..10].par_iter().copied().collect::<Vec<_>>(),
            (0..10).collect::<Vec<_>>()
        );
        let array = [1, 2, 3];
        assert_eq!(array.par_iter().sum::<i32>(), 6);
        assert_eq!(
            array.into_par_iter().map(|x| x * 2).collect::<Vec<_>>(),
            [2, 4, 6]
        );
        let mut m = vec![1, 2, 3];
        m.par_iter_mut().for_each(|x| *x += 1);
        (&mut m).into_par_iter().for_each(|x| *x *= 10);
        assert_eq!(m, [20, 30, 40]);
        let owned: Vec<String> = vec!["a".into(), "b".into()];
        assert_eq!(owned.into_par_iter().rev().collect::<Vec<_>>(), ["b", "a"]);
    });
}

#[test]
fn a_partly_consumed_vector_drops_the_rest_once() {
    without_hanging(|| {
        static LIVE: AtomicUsize = AtomicUsize::new(0);
        struct Counted;
        impl Drop for Counted {
            fn drop(&mut self) {
                LIVE.fetch_sub(1, Ordering::Relaxed);
            }
        }
        let v: Vec<Counted> = (0..10_000)
            .map(|_| {
                LIVE.fetch_add(1, Ordering::Relaxed);
                Counted
            })
            .collect();
        let found = v
            .into_par_iter()
            .enumerate()
            .find_first(|&(i, _)| i == 5_000);
        assert!(found.is_some());
        drop(found);
        assert_eq!(LIVE.load(Ordering::Relaxed), 0);
    });
}

#[test]
fn collections_give_their_items_by_value_and_reference() {
    without_hanging(|| {
        let deque: VecDeque<i32> = {
            let mut d: VecDeque<i32> = (5..10).collect();
            d.extend(10..20);
            d.push_front(4);
            d
        };
        assert_eq!(
            deque.par_iter().copied().collect::<Vec<_>>(),
            (4..20).collect::<Vec<_>>()
        );
        assert_eq!(
            deque.clone().into_par_iter().sum::<i32>(),
            (4..20).sum::<i32>()
        );
        let mut d2 = deque.clone();
        d2.par_iter_mut().for_each(|x| *x = -*x);
        assert_eq!(d2.par_iter().sum::<i32>(), -(4..20).sum::<i32>());

        let map: HashMap<u32, u32> = (0..100).map(|i| (i, i * 2)).collect();
        assert_eq!(map.par_iter().map(|(k, v)| k + v).sum::<u32>(), 3 * 4950);
        assert_eq!(map.clone().into_par_iter().count(), 100);
        let tree: BTreeMap<u32, u32> = (0..100).map(|i| (i, i)).collect();
        assert_eq!(
            tree.par_iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            (0..100).collect::<Vec<_>>()
        );
        let mut tree2 = tree.clone();
        tree2.par_iter_mut().for_each(|(_, v)| *v += 1);
        assert_eq!(tree2[&0], 1);
        let set: HashSet<u32> = (0..100).collect();
        assert_eq!(set.par_iter().sum::<u32>(), 4950);
        assert_eq!(set.into_par_iter().count(), 100);
        let bset: BTreeSet<u32> = (0..100).collect();
        assert_eq!(
            bset.par_iter().copied().collect::<Vec<_>>(),
            (0..100).collect::<Vec<_>>()
        );
        let list: LinkedList<u32> = (0..100).collect();
        assert_eq!(
            list.par_iter().copied().collect::<Vec<_>>(),
            (0..100).collect::<Vec<_>>()
        );
        let heap: BinaryHeap<u32> = (0..100).collect();
        assert_eq!(heap.par_iter().sum::<u32>(), 4950);
        assert_eq!(heap.into_par_iter().count(), 100);
    });
}

#[test]
fn options_give_their_item_if_any() {
    without_hanging(|| {
        let mut some = Some(5);
        assert_eq!(some.par_iter().copied().sum::<i32>(), 5);
        some.par_iter_mut().for_each(|x| *x += 1);
        assert_eq!(some, Some(6));
        assert_eq!(some.into_par_iter().collect::<Vec<_>>(), [6]);
        assert_eq!(None::<u8>.par_iter().count(), 0);
    });
}

#[test]
fn repeat_and_repeat_n_give_copies() {
    without_hanging(|| {
        assert_eq!(rt_par::iter::repeat(4).take(1000).sum::<i32>(), 4000);
        let zipped: Vec<(char, i32)> = rt_par::iter::repeat('x').zip(0..3).collect();
        assert_eq!(zipped, [('x', 0), ('x', 1), ('x', 2)]);
        assert!(rt_par::iter::repeat(1).find_any(|&x| x == 1).is_some());
        let v: Vec<String> = rt_par::iter::repeat_n(String::from("s"), 500).collect();
        assert_eq!(v.len(), 500);
        let left: Vec<(usize, u8)> = (0..5usize)
            .into_par_iter()
            .zip(rt_par::iter::repeat_n(1u8, 3))
            .collect();
        assert_eq!(left, [(0, 1), (1, 1), (2, 1)]);
        assert_eq!(
            rt_par::iter::empty::<i32>()
                .chain(rt_par::iter::once(3))
                .collect::<Vec<_>>(),
            [3]
        );
    });
}

#[test]
fn repeat_n_clones_one_less_than_it_yields() {
    without_hanging(|| {
        static CLONES: AtomicUsize = AtomicUsize::new(0);
        static DROPS: AtomicUsize = AtomicUsize::new(0);
        struct Counter;
        impl Clone for Counter {
            fn clone(&self) -> Self {
                CLONES.fetch_add(1, Ordering::Relaxed);
                Counter
            }
        }
        impl Drop for Counter {
            fn drop(&mut self) {
                DROPS.fetch_add(1, Ordering::Relaxed);
            }
        }
        drop(rt_par::iter::repeat_n(Counter, 0));
        assert_eq!(
            (
                CLONES.swap(0, Ordering::Relaxed),
                DROPS.swap(0, Ordering::Relaxed)
            ),
            (0, 1)
        );
        assert_eq!(rt_par::iter::repeat_n(Counter, 1000).count(), 1000);
        assert_eq!(
            (
                CLONES.swap(0, Ordering::Relaxed),
                DROPS.swap(0, Ordering::Relaxed)
            ),
            (999, 1000)
        );
    });
}
