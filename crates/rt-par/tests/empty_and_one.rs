//! Empty and one-item inputs give what the sequential iterator gives.

use rt_par::prelude::*;
use rt_testkit::without_hanging;

#[test]
fn consumers_of_an_empty_iterator_give_the_empty_results() {
    without_hanging(|| {
        let empty: Vec<i32> = Vec::new();
        assert_eq!(empty.par_iter().sum::<i32>(), 0);
        assert_eq!(empty.par_iter().product::<i32>(), 1);
        assert_eq!(empty.par_iter().count(), 0);
        assert_eq!(empty.par_iter().min(), None);
        assert_eq!(empty.par_iter().max_by_key(|x| **x), None);
        assert_eq!(empty.par_iter().reduce_with(|a, _| a), None);
        assert_eq!(empty.par_iter().copied().reduce(|| 42, |a, b| a + b), 42);
        assert_eq!(empty.par_iter().find_first(|_| true), None);
        assert_eq!(empty.par_iter().find_last(|_| true), None);
        assert_eq!(empty.par_iter().position_any(|_| true), None);
        assert!(!empty.par_iter().any(|_| true));
        assert!(empty.par_iter().all(|_| false));
        assert_eq!(empty.par_iter().collect::<Vec<_>>(), Vec::<&i32>::new());
        assert_eq!(
            empty.par_iter().fold(|| 0, |a, _| a).collect::<Vec<_>>(),
            vec![0]
        );
        assert_eq!((0..0).into_par_iter().chunks(3).count(), 0);
        let (five, four) = (std::hint::black_box(5), 4);
        assert_eq!((five..=four).into_par_iter().count(), 0);
        assert_eq!(rt_par::iter::empty::<u8>().rev().enumerate().count(), 0);
        let mut none: Vec<u8> = Vec::new();
        none.par_sort();
        none.par_sort_unstable();
        assert_eq!([0u8; 0].par_windows(1).count(), 0);
        assert_eq!([1u8].par_windows(2).count(), 0);
    });
}

#[test]
fn consumers_of_one_item_give_that_item() {
    without_hanging(|| {
        let one = vec![5];
        assert_eq!(one.par_iter().sum::<i32>(), 5);
        assert_eq!(one.par_iter().min(), Some(&5));
        assert_eq!(one.par_iter().find_last(|_| true), Some(&5));
        assert_eq!(one.par_iter().position_first(|&x| x == 5), Some(0));
        assert_eq!(
            one.par_iter().copied().rev().step_by(3).collect::<Vec<_>>(),
            vec![5]
        );
        assert_eq!(
            one.par_iter().copied().chunks(4).collect::<Vec<_>>(),
            vec![vec![5]]
        );
        assert_eq!(
            rt_par::iter::once(9).map(|x| x * 2).collect::<Vec<_>>(),
            vec![18]
        );
        assert_eq!(Some(3).into_par_iter().collect::<Vec<_>>(), vec![3]);
        assert_eq!(None::<i32>.into_par_iter().count(), 0);
        assert_eq!((7..=7u64).into_par_iter().collect::<Vec<_>>(), vec![7]);
        let mut v = vec![1];
        v.par_sort_by(|a, b| b.cmp(a));
        assert_eq!(v, [1]);
    });
}
