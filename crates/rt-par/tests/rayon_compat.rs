//! What rayon code outside the iterator traits needs: a thread pool
//! builder, `join`, tuples that zip, pairs of collections, shared slices
//! and strings drained in parallel.

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use rt_par::prelude::*;
use rt_testkit::without_hanging;

#[test]
fn a_thread_pool_runs_iterators_and_joins_on_its_workers() {
    without_hanging(|| {
        let pool = rt_par::ThreadPoolBuilder::new()
            .num_threads(2)
            .thread_name_prefix("compat")
            .build()
            .unwrap();
        assert_eq!(pool.current_num_threads(), 2);
        let sum = pool.install(|| (0..1000u64).into_par_iter().sum::<u64>());
        assert_eq!(sum, 499_500);
        let (a, b) = pool.join(|| 1, || rt_par::join(|| 2, || 3));
        assert_eq!((a, b), (1, (2, 3)));
        let on_pool = pool.install(|| rt_core::current_thread_index().is_some());
        assert!(on_pool);
        let eight = rt_par::ThreadPoolBuilder::new()
            .num_threads(8)
            .build()
            .unwrap();
        assert_eq!(eight.install(rt_par::current_num_threads), 8);
        assert_eq!(pool.install(rt_par::current_num_threads), 2);
    });
}

#[test]
fn tuples_zip_up_to_the_shortest() {
    without_hanging(|| {
        let (a, b, c) = (vec![1, 2, 3, 4], vec!['a', 'b', 'c'], 10..20);
        let v: Vec<(&i32, &char, i32)> = (&a, &b, c).into_par_iter().collect();
        assert_eq!(v, [(&1, &'a', 10), (&2, &'b', 11), (&3, &'c', 12)]);
        let mut x = vec![0; 5];
        (&mut x, 0..5, vec![10; 5])
            .into_par_iter()
            .for_each(|(x, i, t)| *x = i + t);
        assert_eq!(x, [10, 11, 12, 13, 14]);
        let twelve = (
            0..3,
            0..3,
            0..3,
            0..3,
            0..3,
            0..3,
            0..3,
            0..3,
            0..3,
            0..3,
            0..3,
            0..3,
        );
        assert_eq!(twelve.into_par_iter().rev().count(), 3);
    });
}

#[test]
fn pairs_of_collections_collect_and_extend_from_pairs() {
    without_hanging(|| {
        let (evens, names): (Vec<u32>, BTreeMap<u32, String>) = (0..100u32)
            .into_par_iter()
            .map(|i| (i * 2, (i, i.to_string())))
            .collect();
        assert_eq!(evens.len(), 100);
        assert_eq!(names[&42], "42");
        let mut pair = (vec![0u8], Vec::<char>::new());
        pair.par_extend(vec![(1u8, 'a'), (2, 'b')]);
        assert_eq!(pair, (vec![0, 1, 2], vec!['a', 'b']));
    });
}

#[test]
fn shared_slices_array_windows_and_string_drains_work() {
    without_hanging(|| {
        let rc: Rc<[u32]> = (0..10u32).into_par_iter().collect();
        let arc: Arc<[u32]> = (0..10u32).into_par_iter().collect();
        assert_eq!(&*rc, &*arc);
        let sums: Vec<u32> = arc.par_array_windows().map(|[a, b, c]| a + b + c).collect();
        assert_eq!(sums, (0..8).map(|i| 3 * i + 3).collect::<Vec<_>>());
        let mut text = String::from("héllo wörld");
        let drained: String = text.par_drain(..6).collect();
        assert_eq!((drained.as_str(), text.as_str()), ("héllo", " wörld"));
    });
}
