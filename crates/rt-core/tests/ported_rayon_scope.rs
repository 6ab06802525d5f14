//! rayon-core's own `scope` tests (`rayon-core/src/scope/test.rs`,
//! `rayon-core/tests/scope_join.rs`), ported: `rayon::scope` is
//! `rt_core::scope` (inside `rt.install`, or sequential outside any
//! runtime) or `rt.scope`, and `s.spawn(|s| ..)` is `s.spawn(|| ..)` with
//! nested spawns capturing the scope reference. The `scope_fifo` and
//! broadcast variants have no equivalent here.

mod support;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use rt_core::{Runtime, Scope};
use support::{pseudo_random, quietly, without_hanging};

#[test]
fn an_empty_scope_returns() {
    without_hanging(|| {
        rt_core::scope(|_| {});
        let rt = Runtime::new(2).unwrap();
        rt.scope(|_| {});
        rt.install(|| rt_core::scope(|_| {}));
    });
}

#[test]
fn a_scope_returns_its_bodys_value() {
    without_hanging(|| {
        assert_eq!(rt_core::scope(|_| 22), 22);
        let rt = Runtime::new(2).unwrap();
        assert_eq!(rt.scope(|_| 22), 22);
        assert_eq!(rt.install(|| rt_core::scope(|_| 22)), 22);
    });
}

#[test]
fn two_spawned_tasks_both_run_before_the_scope_returns() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let counter = &AtomicUsize::new(0);
        rt.scope(|s| {
            s.spawn(move || counter.fetch_add(1, Ordering::SeqCst));
            s.spawn(move || counter.fetch_add(10, Ordering::SeqCst));
        });
        assert_eq!(counter.load(Ordering::SeqCst), 11);
    });
}

fn divide_and_conquer<'scope>(
    scope: &'scope Scope<'scope, '_>,
    counter: &'scope AtomicUsize,
    size: usize,
) {
    if size > 1 {
        scope.spawn(move || divide_and_conquer(scope, counter, size / 2));
        scope.spawn(move || divide_and_conquer(scope, counter, size / 2));
    } else {
        counter.fetch_add(1, Ordering::SeqCst);
    }
}

fn divide_and_conquer_seq(counter: &AtomicUsize, size: usize) {
    if size > 1 {
        divide_and_conquer_seq(counter, size / 2);
        divide_and_conquer_seq(counter, size / 2);
    } else {
        counter.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn divide_and_conquer_through_nested_scope_spawns_counts_every_leaf() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let parallel = &AtomicUsize::new(0);
        rt.scope(|s| {
            s.spawn(move || divide_and_conquer(s, parallel, 1024));
        });
        let sequential = &AtomicUsize::new(0);
        divide_and_conquer_seq(sequential, 1024);
        assert_eq!(
            parallel.load(Ordering::SeqCst),
            sequential.load(Ordering::SeqCst)
        );
        let off_pool = &AtomicUsize::new(0);
        rt_core::scope(|s| {
            s.spawn(move || divide_and_conquer(s, off_pool, 1024));
        });
        assert_eq!(off_pool.load(Ordering::SeqCst), 1024);
    });
}

struct Tree<T: Send> {
    value: T,
    children: Vec<Tree<T>>,
}

impl<T: Send> Tree<T> {
    fn values(&self) -> Vec<&T> {
        let mut out = vec![&self.value];
        for child in &self.children {
            out.extend(child.values());
        }
        out
    }

    fn update<Op: Fn(&mut T) + Sync>(&mut self, op: Op) {
        rt_core::scope(|s| self.update_in_scope(&op, s));
    }

    fn update_in_scope<'scope, Op: Fn(&mut T) + Sync>(
        &'scope mut self,
        op: &'scope Op,
        scope: &'scope Scope<'scope, '_>,
    ) {
        let Tree { value, children } = self;
        scope.spawn(move || {
            for child in children {
                scope.spawn(move || child.update_in_scope(op, scope));
            }
        });
        op(value);
    }
}

fn random_tree(depth: usize, values: &mut impl Iterator<Item = u32>) -> Tree<u32> {
    let children = if depth == 0 {
        vec![]
    } else {
        let n = values.next().unwrap() % 4;
        (0..n).map(|_| random_tree(depth - 1, values)).collect()
    };
    Tree {
        value: values.next().unwrap() % 1_000_000,
        children,
    }
}

#[test]
fn every_node_of_a_random_tree_is_updated_through_nested_scope_spawns() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        let mut source = pseudo_random(1 << 20, 3).into_iter();
        let mut tree = random_tree(10, &mut source);
        let before: Vec<u32> = tree.values().into_iter().copied().collect();
        rt.install(|| tree.update(|v| *v += 1));
        let after: Vec<u32> = tree.values().into_iter().copied().collect();
        assert_eq!(before.len(), after.len());
        for (old, new) in before.iter().zip(&after) {
            assert_eq!(old + 1, *new);
        }
    });
}

fn the_final_countdown<'scope>(
    s: &'scope Scope<'scope, '_>,
    bottom_of_stack: &'scope i32,
    max: &'scope Mutex<usize>,
    n: usize,
) {
    let top_of_stack = 0;
    let p = std::ptr::from_ref(bottom_of_stack).addr();
    let q = std::ptr::from_ref(&top_of_stack).addr();
    let diff = p.abs_diff(q);
    let mut data = max.lock().unwrap();
    *data = Ord::max(diff, *data);
    drop(data);
    if n > 0 {
        s.spawn(move || the_final_countdown(s, bottom_of_stack, max, n - 1));
    }
}

#[test]
fn a_chain_of_scope_tasks_each_spawning_the_next_does_not_grow_the_stack() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        rt.install(|| {
            let mut max_diff = Mutex::new(0);
            let bottom_of_stack = 0;
            rt_core::scope(|s| the_final_countdown(s, &bottom_of_stack, &max_diff, 5));
            let diff_when_5 = *max_diff.get_mut().unwrap() as f64;
            rt_core::scope(|s| the_final_countdown(s, &bottom_of_stack, &max_diff, 500));
            let diff_when_500 = *max_diff.get_mut().unwrap() as f64;
            let ratio = diff_when_5 / diff_when_500;
            assert!(
                ratio > 0.9 && ratio < 1.1,
                "stack usage ratio out of bounds: {ratio}"
            );
        });
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_the_scope_body_propagates() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| rt.scope(|_| panic!("Hello, world!")));
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_a_spawned_task_propagates() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| {
            rt.scope(|s| {
                s.spawn(|| panic!("Hello, world!"));
            })
        });
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_a_nested_spawn_propagates() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| {
            rt.scope(|s| {
                s.spawn(move || {
                    s.spawn(move || {
                        s.spawn(|| panic!("Hello, world!"));
                    });
                });
            })
        });
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_a_task_of_a_scope_nested_in_a_task_propagates() {
    without_hanging(|| {
        let rt = Runtime::new(2).unwrap();
        quietly(|| {
            rt.scope(|s| {
                s.spawn(|| {
                    rt_core::scope(|s| {
                        s.spawn(|| panic!("Hello, world!"));
                    })
                });
            })
        });
    });
}

#[test]
#[should_panic(expected = "Hello, world!")]
fn a_panic_in_a_spawned_task_propagates_out_of_a_sequential_scope() {
    without_hanging(|| {
        quietly(|| {
            rt_core::scope(|s| {
                s.spawn(|| panic!("Hello, world!"));
            })
        });
    });
}

/// The four `panic_propagate_still_execute_*` tests: whichever of the body
/// and a task panics, every other task still runs and the panic comes out.
fn still_executes(rt: &Runtime, order: usize) {
    let mut x = false;
    let result = quietly(|| {
        catch_unwind(AssertUnwindSafe(|| {
            rt.scope(|s| match order {
                1 => {
                    s.spawn(|| panic!("Hello, world!"));
                    s.spawn(|| x = true);
                }
                2 => {
                    s.spawn(|| x = true);
                    s.spawn(|| panic!("Hello, world!"));
                }
                3 => {
                    s.spawn(|| x = true);
                    panic!("Hello, world!");
                }
                _ => {
                    s.spawn(|| panic!("Hello, world!"));
                    x = true;
                }
            })
        }))
    });
    assert!(result.is_err(), "case {order}: the panic must propagate");
    assert!(x, "case {order}: the other work must still run");
}

#[test]
fn a_task_spawned_after_a_panicking_one_still_runs() {
    without_hanging(|| still_executes(&Runtime::new(2).unwrap(), 1));
}

#[test]
fn a_task_spawned_before_a_panicking_one_still_runs() {
    without_hanging(|| still_executes(&Runtime::new(2).unwrap(), 2));
}

#[test]
fn a_task_spawned_before_the_body_panics_still_runs() {
    without_hanging(|| still_executes(&Runtime::new(2).unwrap(), 3));
}

#[test]
fn the_body_keeps_running_after_a_task_it_spawned_panicked() {
    without_hanging(|| still_executes(&Runtime::new(2).unwrap(), 4));
}

#[test]
fn the_four_still_execute_cases_hold_on_one_worker_too() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        for order in 1..=4 {
            still_executes(&rt, order);
        }
    });
}

/// rayon: "in the absence of stealing, `scope()` runs its `spawn()` jobs in
/// LIFO order".
#[test]
fn on_one_worker_scope_tasks_run_newest_first() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let vec = rt.install(|| {
            let vec = Mutex::new(vec![]);
            rt_core::scope(|s| {
                let vec = &vec;
                for i in 0..10 {
                    s.spawn(move || {
                        for j in 0..10 {
                            s.spawn(move || vec.lock().unwrap().push(i * 10 + j));
                        }
                    });
                }
            });
            vec.into_inner().unwrap()
        });
        let expected: Vec<i32> = (0..100).rev().collect();
        assert_eq!(vec, expected);
    });
}

#[test]
fn on_one_worker_tasks_of_nested_scopes_run_newest_first() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let vec = rt.install(|| {
            let vec = Mutex::new(vec![]);
            rt_core::scope(|s| {
                let vec = &vec;
                for i in 0..10 {
                    s.spawn(move || {
                        rt_core::scope(|s| {
                            for j in 0..10 {
                                s.spawn(move || vec.lock().unwrap().push(i * 10 + j));
                            }
                        });
                    });
                }
            });
            vec.into_inner().unwrap()
        });
        let expected: Vec<i32> = (0..100).rev().collect();
        assert_eq!(vec, expected);
    });
}

#[test]
fn on_one_worker_interleaved_spawns_into_an_outer_and_an_inner_scope_run_in_rayons_order() {
    without_hanging(|| {
        let rt = Runtime::new(1).unwrap();
        let vec = rt.install(|| {
            let vec = Mutex::new(vec![]);
            rt_core::scope(|outer| {
                let vec = &vec;
                outer.spawn(move || vec.lock().unwrap().push(0));
                rt_core::scope(|inner| {
                    inner.spawn(move || vec.lock().unwrap().push(-1));
                    outer.spawn(move || vec.lock().unwrap().push(1));
                    inner.spawn(move || vec.lock().unwrap().push(-2));
                    outer.spawn(move || vec.lock().unwrap().push(2));
                    inner.spawn(move || vec.lock().unwrap().push(-3));
                });
                outer.spawn(move || vec.lock().unwrap().push(3));
            });
            vec.into_inner().unwrap()
        });
        assert_eq!(vec, vec![-3, 2, -2, 1, -1, 3, 0]);
    });
}

#[test]
fn a_scope_may_borrow_an_iterator_while_its_tasks_touch_only_statics() {
    without_hanging(|| {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let rt = Runtime::new(2).unwrap();
        let mut range = 0..100;
        let sum: usize = range.clone().sum();
        let iter = &mut range;
        COUNTER.store(0, Ordering::Relaxed);
        rt.scope(|s| {
            for i in iter {
                s.spawn(move || COUNTER.fetch_add(i, Ordering::Relaxed));
            }
        });
        assert_eq!(COUNTER.load(Ordering::Relaxed), sum);
    });
}

#[test]
fn tasks_may_borrow_data_of_a_longer_lifetime_than_the_slice_holding_it() {
    without_hanging(|| {
        fn increment(rt: &Runtime, counters: &[&AtomicUsize]) {
            rt.scope(move |s| {
                for &c in counters {
                    s.spawn(move || c.fetch_add(1, Ordering::Relaxed));
                }
            });
        }
        let rt = Runtime::new(2).unwrap();
        let counter = AtomicUsize::new(0);
        increment(&rt, &[&counter; 100]);
        assert_eq!(counter.into_inner(), 100);
    });
}

/// `rayon-core/tests/scope_join.rs`: `join` emulated with a scope.
fn pseudo_join<F: FnOnce() + Send, G: FnOnce() + Send>(f: F, g: G) {
    rt_core::scope(|s| {
        s.spawn(g);
        f();
    });
}

fn quick_sort_by_scope<T: PartialOrd + Send>(v: &mut [T]) {
    if v.len() <= 1 {
        return;
    }
    let pivot = v.len() - 1;
    let mut i = 0;
    for j in 0..pivot {
        if v[j] <= v[pivot] {
            v.swap(i, j);
            i += 1;
        }
    }
    v.swap(i, pivot);
    let (lo, hi) = v.split_at_mut(i);
    pseudo_join(|| quick_sort_by_scope(lo), || quick_sort_by_scope(hi));
}

#[test]
fn join_emulated_with_a_scope_sorts_off_the_pool_and_on_it() {
    without_hanging(|| {
        let mut v: Vec<i32> = (0..256).rev().collect();
        quick_sort_by_scope(&mut v);
        assert!(v.windows(2).all(|w| w[0] <= w[1]));
        let rt = Runtime::new(2).unwrap();
        let mut v: Vec<i32> = (0..256).rev().collect();
        rt.install(|| quick_sort_by_scope(&mut v));
        assert!(v.windows(2).all(|w| w[0] <= w[1]));
    });
}
