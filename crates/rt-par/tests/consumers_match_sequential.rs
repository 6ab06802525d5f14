//! Every consumer gives what the sequential iterator gives, on random
//! inputs (proptest), run on a two-worker runtime.

use std::sync::OnceLock;

use proptest::prelude::*;
use rt_core::Runtime;
use rt_par::prelude::*;

fn runtime() -> &'static Runtime {
    static RT: OnceLock<Runtime> = OnceLock::new();
    RT.get_or_init(|| Runtime::new(2).expect("start a runtime"))
}

fn on_pool<R: Send>(op: impl FnOnce() -> R + Send) -> R {
    runtime().install(op)
}

fn inputs() -> impl Strategy<Value = Vec<i32>> {
    prop::collection::vec(-1000i32..1000, 0..3000)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn sum_product_and_count_match(v in inputs()) {
        let (sum, product, count) = on_pool(|| {
            let sum: i64 = v.par_iter().map(|&x| i64::from(x)).sum();
            let product: i64 = v.par_iter().map(|&x| i64::from(x % 3)).take(30).product();
            let count = v.par_iter().filter(|&&x| x > 0).count();
            (sum, product, count)
        });
        prop_assert_eq!(sum, v.iter().map(|&x| i64::from(x)).sum::<i64>());
        prop_assert_eq!(product, v.iter().map(|&x| i64::from(x % 3)).take(30).product::<i64>());
        prop_assert_eq!(count, v.iter().filter(|&&x| x > 0).count());
    }

    #[test]
    fn min_and_max_match(v in inputs()) {
        let got = on_pool(|| (
            v.par_iter().min(),
            v.par_iter().max(),
            v.par_iter().min_by_key(|x| x.abs()).map(|x| x.abs()),
            v.par_iter().max_by_key(|x| x.abs()).map(|x| x.abs()),
            v.par_iter().min_by(|a, b| b.cmp(a)),
            v.par_iter().max_by(|a, b| b.cmp(a)),
        ));
        prop_assert_eq!(got.0, v.iter().min());
        prop_assert_eq!(got.1, v.iter().max());
        prop_assert_eq!(got.2, v.iter().min_by_key(|x| x.abs()).map(|x| x.abs()));
        prop_assert_eq!(got.3, v.iter().max_by_key(|x| x.abs()).map(|x| x.abs()));
        prop_assert_eq!(got.4, v.iter().min_by(|a, b| b.cmp(a)));
        prop_assert_eq!(got.5, v.iter().max_by(|a, b| b.cmp(a)));
    }

    #[test]
    fn reduce_fold_and_try_reduce_match(v in inputs()) {
        let seq: i64 = v.iter().map(|&x| i64::from(x)).sum();
        let got = on_pool(|| (
            v.par_iter().map(|&x| i64::from(x)).reduce(|| 0, |a, b| a + b),
            v.par_iter().map(|&x| i64::from(x)).reduce_with(|a, b| a + b),
            v.par_iter().fold(|| 0i64, |a, &x| a + i64::from(x)).sum::<i64>(),
            v.par_iter().fold_with(0i64, |a, &x| a + i64::from(x)).sum::<i64>(),
            v.par_iter().map(|&x| Some(i64::from(x))).try_reduce(|| 0, |a, b| Some(a + b)),
            v.par_iter().map(|&x| if x < 999 { Ok(x) } else { Err(x) }).try_reduce(|| 0, |a, b| Ok(a.max(b))),
        ));
        prop_assert_eq!(got.0, seq);
        prop_assert_eq!(got.1, (!v.is_empty()).then_some(seq));
        prop_assert_eq!(got.2, seq);
        prop_assert_eq!(got.3, seq);
        prop_assert_eq!(got.4, Some(seq));
        let seq_try = v.iter().try_fold(0, |a, &x| if x < 999 { Ok(a.max(x)) } else { Err(x) });
        prop_assert_eq!(got.5.is_ok(), seq_try.is_ok());
        if let Ok(max) = got.5 {
            prop_assert_eq!(Ok(max), seq_try);
        }
    }

    #[test]
    fn searches_match(v in inputs(), target in -1000i32..1000) {
        let got = on_pool(|| (
            v.par_iter().find_first(|&&x| x > target),
            v.par_iter().find_last(|&&x| x > target),
            v.par_iter().position_first(|&x| x > target),
            v.par_iter().position_last(|&x| x > target),
            v.par_iter().any(|&x| x == target),
            v.par_iter().all(|&x| x != target),
            v.par_iter().find_any(|&&x| x == target).copied(),
            v.par_iter().position_any(|&x| x == target),
            v.par_iter().find_map_first(|&x| (x > target).then_some(x * 2)),
        ));
        prop_assert_eq!(got.0, v.iter().find(|&&x| x > target));
        prop_assert_eq!(got.1, v.iter().rev().find(|&&x| x > target));
        prop_assert_eq!(got.2, v.iter().position(|&x| x > target));
        prop_assert_eq!(got.3, v.iter().rposition(|&x| x > target));
        prop_assert_eq!(got.4, v.contains(&target));
        prop_assert_eq!(got.5, !v.contains(&target));
        prop_assert_eq!(got.6.is_some(), v.contains(&target));
        if let Some(i) = got.7 {
            prop_assert_eq!(v[i], target);
        }
        prop_assert_eq!(got.8, v.iter().find_map(|&x| (x > target).then_some(x * 2)));
    }

    #[test]
    fn collects_and_adapters_match(v in inputs(), n in 0usize..4000, step in 1usize..20) {
        let got = on_pool(|| (
            v.par_iter().map(|x| x * 2).filter(|x| x % 3 != 0).collect::<Vec<_>>(),
            v.par_iter().enumerate().skip(n).take(n).map(|(i, &x)| (i, x)).collect::<Vec<_>>(),
            v.par_iter().rev().step_by(step).copied().collect::<Vec<_>>(),
            v.par_iter().copied().chunks(step).collect::<Vec<_>>(),
            v.par_iter().zip(v.par_iter().skip(1)).map(|(a, b)| a - b).collect::<Vec<_>>(),
            v.par_iter().flat_map_iter(|&x| 0..x.rem_euclid(4)).collect::<Vec<_>>(),
            v.par_iter().chain(v.par_iter().rev()).copied().collect::<Vec<_>>(),
            v.par_iter().filter_map(|&x| (x % 2 == 0).then_some(x / 2)).collect::<Vec<_>>(),
            v.par_iter().partition::<Vec<i32>, Vec<i32>, _>(|&&x| x > 0),
        ));
        prop_assert_eq!(got.0, v.iter().map(|x| x * 2).filter(|x| x % 3 != 0).collect::<Vec<_>>());
        prop_assert_eq!(got.1, v.iter().enumerate().skip(n).take(n).map(|(i, &x)| (i, x)).collect::<Vec<_>>());
        prop_assert_eq!(got.2, v.iter().rev().step_by(step).copied().collect::<Vec<_>>());
        prop_assert_eq!(got.3, v.chunks(step).map(<[i32]>::to_vec).collect::<Vec<_>>());
        prop_assert_eq!(got.4, v.iter().zip(v.iter().skip(1)).map(|(a, b)| a - b).collect::<Vec<_>>());
        prop_assert_eq!(got.5, v.iter().flat_map(|&x| 0..x.rem_euclid(4)).collect::<Vec<_>>());
        prop_assert_eq!(got.6, v.iter().chain(v.iter().rev()).copied().collect::<Vec<_>>());
        prop_assert_eq!(got.7, v.iter().filter_map(|&x| (x % 2 == 0).then_some(x / 2)).collect::<Vec<_>>());
        let (pos, rest): (Vec<&i32>, Vec<&i32>) = v.iter().partition(|&&x| x > 0);
        prop_assert_eq!(got.8.0.len(), pos.len());
        prop_assert_eq!(got.8.1.len(), rest.len());
    }

    #[test]
    fn sorts_match(v in inputs()) {
        let mut stable: Vec<(i32, usize)> = v.iter().enumerate().map(|(i, &x)| (x / 10, i)).collect();
        let mut expected = stable.clone();
        expected.sort_by_key(|p| p.0);
        on_pool(|| stable.par_sort_by_key(|p| p.0));
        prop_assert_eq!(&stable, &expected);
        let mut unstable = v.clone();
        on_pool(|| unstable.par_sort_unstable());
        let mut sorted = v.clone();
        sorted.sort();
        prop_assert_eq!(unstable, sorted);
    }
}
