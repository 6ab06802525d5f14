//! `scope` and `scope_fifo`: their results, spawns counted and awaited,
//! divide and conquer, a tree updated in parallel, stack growth of chained
//! spawns, and scopes whose spawns borrow for `'static` or a lifetime longer
//! than the scope's: rayon-core 1.13.0's `src/scope/test.rs` (every test but
//! the panic, order and `spawn_broadcast` ones, which are in
//! `ported_scope_panics.rs`, `ported_scope_order.rs` and
//! `ported_scope_spawn_broadcast.rs`), ported to an integration test of the
//! public API.
//!
//! Changes: `crate::` paths are `rayon_core::`; every test body runs under
//! `rt_testkit::without_hanging`. Nothing left out.
//!
//! rayon-core's `src/compile_fail/scope_join_bad.rs` is a doc test of this
//! crate (`src/compile_fail.rs`).

use rand::{Rng, SeedableRng};
use rand_xorshift::XorShiftRng;
use rayon_core::ThreadPoolBuilder;
use rayon_core::{scope, scope_fifo, Scope, ScopeFifo};
use rt_testkit::without_hanging;
use std::iter::once;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::vec;

#[test]
fn scope_empty() {
    without_hanging(|| {
        scope(|_| {});
    });
}

#[test]
fn scope_result() {
    without_hanging(|| {
        let x = scope(|_| 22);
        assert_eq!(x, 22);
    });
}

#[test]
fn scope_two() {
    without_hanging(|| {
        let counter = &AtomicUsize::new(0);
        scope(|s| {
            s.spawn(move |_| {
                counter.fetch_add(1, Ordering::SeqCst);
            });
            s.spawn(move |_| {
                counter.fetch_add(10, Ordering::SeqCst);
            });
        });

        let v = counter.load(Ordering::SeqCst);
        assert_eq!(v, 11);
    });
}

#[test]
fn scope_divide_and_conquer() {
    without_hanging(|| {
        let counter_p = &AtomicUsize::new(0);
        scope(|s| s.spawn(move |s| divide_and_conquer(s, counter_p, 1024)));

        let counter_s = &AtomicUsize::new(0);
        divide_and_conquer_seq(counter_s, 1024);

        let p = counter_p.load(Ordering::SeqCst);
        let s = counter_s.load(Ordering::SeqCst);
        assert_eq!(p, s);
    });
}

fn divide_and_conquer<'scope>(scope: &Scope<'scope>, counter: &'scope AtomicUsize, size: usize) {
    if size > 1 {
        scope.spawn(move |scope| divide_and_conquer(scope, counter, size / 2));
        scope.spawn(move |scope| divide_and_conquer(scope, counter, size / 2));
    } else {
        // count the leaves
        counter.fetch_add(1, Ordering::SeqCst);
    }
}

fn divide_and_conquer_seq(counter: &AtomicUsize, size: usize) {
    if size > 1 {
        divide_and_conquer_seq(counter, size / 2);
        divide_and_conquer_seq(counter, size / 2);
    } else {
        // count the leaves
        counter.fetch_add(1, Ordering::SeqCst);
    }
}

struct Tree<T: Send> {
    value: T,
    children: Vec<Tree<T>>,
}

impl<T: Send> Tree<T> {
    fn iter(&self) -> vec::IntoIter<&T> {
        once(&self.value)
            .chain(self.children.iter().flat_map(Tree::iter))
            .collect::<Vec<_>>() // seems like it shouldn't be needed... but prevents overflow
            .into_iter()
    }

    fn update<OP>(&mut self, op: OP)
    where
        OP: Fn(&mut T) + Sync,
        T: Send,
    {
        scope(|s| self.update_in_scope(&op, s));
    }

    fn update_in_scope<'scope, OP>(&'scope mut self, op: &'scope OP, scope: &Scope<'scope>)
    where
        OP: Fn(&mut T) + Sync,
    {
        let Tree {
            ref mut value,
            ref mut children,
        } = *self;
        scope.spawn(move |scope| {
            for child in children {
                scope.spawn(move |scope| child.update_in_scope(op, scope));
            }
        });

        op(value);
    }
}

fn random_tree(depth: usize) -> Tree<u32> {
    assert!(depth > 0);
    let mut seed = <XorShiftRng as SeedableRng>::Seed::default();
    (0..).zip(seed.as_mut()).for_each(|(i, x)| *x = i);
    let mut rng = XorShiftRng::from_seed(seed);
    random_tree1(depth, &mut rng)
}

fn random_tree1(depth: usize, rng: &mut XorShiftRng) -> Tree<u32> {
    let children = if depth == 0 {
        vec![]
    } else {
        (0..rng.random_range(0..4)) // somewhere between 0 and 3 children at each level
            .map(|_| random_tree1(depth - 1, rng))
            .collect()
    };

    Tree {
        value: rng.random_range(0..1_000_000),
        children,
    }
}

#[test]
fn update_tree() {
    without_hanging(|| {
        let mut tree: Tree<u32> = random_tree(10);
        let values: Vec<u32> = tree.iter().cloned().collect();
        tree.update(|v| *v += 1);
        let new_values: Vec<u32> = tree.iter().cloned().collect();
        assert_eq!(values.len(), new_values.len());
        for (&i, &j) in values.iter().zip(&new_values) {
            assert_eq!(i + 1, j);
        }
    });
}

/// Check that if you have a chain of scoped tasks where T0 spawns T1
/// spawns T2 and so forth down to Tn, the stack space should not grow
/// linearly with N. We test this by some unsafe hackery and
/// permitting an approx 10% change with a 10x input change.
#[test]
#[cfg_attr(any(target_os = "emscripten", target_family = "wasm"), ignore)]
fn linear_stack_growth() {
    without_hanging(|| {
        let builder = ThreadPoolBuilder::new().num_threads(1);
        let pool = builder.build().unwrap();
        pool.install(|| {
            let mut max_diff = Mutex::new(0);
            let bottom_of_stack = 0;
            scope(|s| the_final_countdown(s, &bottom_of_stack, &max_diff, 5));
            let diff_when_5 = *max_diff.get_mut().unwrap() as f64;

            scope(|s| the_final_countdown(s, &bottom_of_stack, &max_diff, 500));
            let diff_when_500 = *max_diff.get_mut().unwrap() as f64;

            let ratio = diff_when_5 / diff_when_500;
            assert!(
                ratio > 0.9 && ratio < 1.1,
                "stack usage ratio out of bounds: {ratio}"
            );
        });
    });
}

fn the_final_countdown<'scope>(
    s: &Scope<'scope>,
    bottom_of_stack: &'scope i32,
    max: &'scope Mutex<usize>,
    n: usize,
) {
    let top_of_stack = 0;
    let p = bottom_of_stack as *const i32 as usize;
    let q = &top_of_stack as *const i32 as usize;
    let diff = p.abs_diff(q);

    let mut data = max.lock().unwrap();
    *data = Ord::max(diff, *data);

    if n > 0 {
        s.spawn(move |s| the_final_countdown(s, bottom_of_stack, max, n - 1));
    }
}

#[test]
fn static_scope() {
    without_hanging(|| {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);

        let mut range = 0..100;
        let sum = range.clone().sum();
        let iter = &mut range;

        COUNTER.store(0, Ordering::Relaxed);
        scope(|s: &Scope<'static>| {
            // While we're allowed the locally borrowed iterator,
            // the spawns must be static.
            for i in iter {
                s.spawn(move |_| {
                    COUNTER.fetch_add(i, Ordering::Relaxed);
                });
            }
        });

        assert_eq!(COUNTER.load(Ordering::Relaxed), sum);
    });
}

#[test]
fn static_scope_fifo() {
    without_hanging(|| {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);

        let mut range = 0..100;
        let sum = range.clone().sum();
        let iter = &mut range;

        COUNTER.store(0, Ordering::Relaxed);
        scope_fifo(|s: &ScopeFifo<'static>| {
            // While we're allowed the locally borrowed iterator,
            // the spawns must be static.
            for i in iter {
                s.spawn_fifo(move |_| {
                    COUNTER.fetch_add(i, Ordering::Relaxed);
                });
            }
        });

        assert_eq!(COUNTER.load(Ordering::Relaxed), sum);
    });
}

#[test]
fn mixed_lifetime_scope() {
    without_hanging(|| {
        fn increment<'slice, 'counter>(counters: &'slice [&'counter AtomicUsize]) {
            scope(move |s: &Scope<'counter>| {
                // We can borrow 'slice here, but the spawns can only borrow 'counter.
                for &c in counters {
                    s.spawn(move |_| {
                        c.fetch_add(1, Ordering::Relaxed);
                    });
                }
            });
        }

        let counter = AtomicUsize::new(0);
        increment(&[&counter; 100]);
        assert_eq!(counter.into_inner(), 100);
    });
}

#[test]
fn mixed_lifetime_scope_fifo() {
    without_hanging(|| {
        fn increment<'slice, 'counter>(counters: &'slice [&'counter AtomicUsize]) {
            scope_fifo(move |s: &ScopeFifo<'counter>| {
                // We can borrow 'slice here, but the spawns can only borrow 'counter.
                for &c in counters {
                    s.spawn_fifo(move |_| {
                        c.fetch_add(1, Ordering::Relaxed);
                    });
                }
            });
        }

        let counter = AtomicUsize::new(0);
        increment(&[&counter; 100]);
        assert_eq!(counter.into_inner(), 100);
    });
}
