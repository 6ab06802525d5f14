//! PLANNED systems, disabled (`#[cfg(any())]` in `mod.rs`) until the runtime
//! has the API they are written against:
//!
//! * "rt join": `rt::join(a, b)` inside a task runs `a` and `b` potentially
//!   in parallel on the current worker's runtime and returns both results;
//!   `Runtime::join(&self, a, b)` does the same from outside the pool.
//! * "rt scope": `rt::scope(|s| ..)` inside a task, `Runtime::scope` from
//!   outside; `s.spawn(|| ..)` runs a closure that may borrow from the
//!   enclosing frame, and the scope returns once every spawned closure has.
//!
//! To enable: remove the `#[cfg(any())]`, add `System::RtJoin` ("rt-join",
//! "rt join") and `System::RtScope` ("rt-scope", "rt scope") to `System` and
//! `System::ALL` (`systems.rs`), give both a `Pool::Rt` in `Pool::new`, and
//! route them in `Runner::uts`, `Runner::fib` and `Runner::quicksort`
//! (`runner.rs`) to the functions below, e.g.
//! `rt_join::enter(rt, || rt_join::uts(tree, root))`. Adjust the names if
//! the final API differs.

use rt::Runtime;

use super::quicksort::{partition, CUTOFF};
use super::uts::{Counts, Node, Tree};

/// `rt::join` in the place of `rayon::join`.
pub mod rt_join {
    use super::*;

    /// Runs `f` on `rt` (from outside the pool) and returns its result.
    pub fn enter<R: Send>(rt: &Runtime, f: impl FnOnce() -> R + Send) -> R {
        rt.join(f, || ()).0
    }

    /// UTS, joining over the child list in halves.
    pub fn uts(tree: &Tree, node: Node) -> Counts {
        fn children(tree: &Tree, parent: &Node, lo: u32, hi: u32) -> Counts {
            if hi - lo == 1 {
                return uts(tree, parent.child(lo));
            }
            let mid = lo + (hi - lo) / 2;
            let (mut a, b) = rt::join(
                || children(tree, parent, lo, mid),
                || children(tree, parent, mid, hi),
            );
            a += b;
            a
        }
        let n = node.children(tree);
        let mut c = node.counts(n);
        if n > 0 {
            c += children(tree, &node, 0, n);
        }
        c
    }

    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            return u64::from(n);
        }
        let (a, b) = rt::join(|| fib(n - 1), || fib(n - 2));
        a + b
    }

    pub fn quicksort(v: &mut [u64]) {
        if v.len() <= CUTOFF {
            return v.sort_unstable();
        }
        let p = partition(v);
        let (lo, hi) = v.split_at_mut(p);
        rt::join(|| quicksort(lo), || quicksort(hi));
    }
}

/// `rt::scope` with an `s.spawn` per child.
pub mod rt_scope {
    use super::*;

    /// Runs `f` on `rt` (from outside the pool) and returns its result.
    pub fn enter<R: Send>(rt: &Runtime, f: impl FnOnce() -> R + Send) -> R {
        let mut result = None;
        rt.scope(|s| s.spawn(|| result = Some(f())));
        result.expect("the scope ran its task")
    }

    /// UTS: a scope per node, a spawn per child writing its own slot.
    pub fn uts(tree: &Tree, node: Node) -> Counts {
        let n = node.children(tree);
        let mut c = node.counts(n);
        if n > 0 {
            let mut slots = vec![Counts::default(); n as usize];
            rt::scope(|s| {
                for (i, slot) in (0..n).zip(slots.iter_mut()) {
                    s.spawn(move || *slot = uts(tree, node.child(i)));
                }
            });
            for child in slots {
                c += child;
            }
        }
        c
    }

    pub fn fib(n: u32) -> u64 {
        if n < 2 {
            return u64::from(n);
        }
        let mut a = 0;
        let mut b = 0;
        rt::scope(|s| {
            s.spawn(|| a = fib(n - 1));
            b = fib(n - 2);
        });
        a + b
    }

    pub fn quicksort(v: &mut [u64]) {
        if v.len() <= CUTOFF {
            return v.sort_unstable();
        }
        let p = partition(v);
        let (lo, hi) = v.split_at_mut(p);
        rt::scope(|s| {
            s.spawn(|| quicksort(lo));
            quicksort(hi);
        });
    }
}
