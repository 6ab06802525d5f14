//! fib(27) with a fork per call and no sequential cutoff: the classic
//! measure of a fork-join scheduler's overhead per fork (Cilk's `fib`; used
//! by rayon's, chili's and Spice's own benchmarks). fib(0) = 0, fib(1) = 1;
//! about 630,000 calls, each forking fib(n - 1) and running fib(n - 2)
//! itself. The result must be 196,418.

use rt::Runtime;

/// The argument.
pub const N: u32 = 27;
/// fib(27).
pub const EXPECTED: u64 = 196_418;

/// Panics unless `result` is fib(27).
pub fn check(result: u64) {
    assert_eq!(result, EXPECTED, "fib({N}) is wrong");
}

/// The same recursion on one thread.
pub fn sequential(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    sequential(n - 1) + sequential(n - 2)
}

/// `rayon::join` per call. Call inside the pool (`install`).
pub fn rayon_join(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let (a, b) = rayon::join(|| rayon_join(n - 1), || rayon_join(n - 2));
    a + b
}

/// rayon's `scope` per call: spawn fib(n - 1) into it, compute fib(n - 2)
/// in the body, as `rt_scope` does. Call inside the pool (`install`).
pub fn rayon_scope(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let mut a = 0;
    let b = rayon::scope(|s| {
        s.spawn(|_| a = rayon_scope(n - 1));
        rayon_scope(n - 2)
    });
    a + b
}

/// chili's `Scope::join` per call.
pub fn chili(n: u32, s: &mut chili::Scope<'_>) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let (a, b) = s.join(|s| chili(n - 1, s), |s| chili(n - 2, s));
    a + b
}

/// This runtime's `join` per call. Call inside the runtime (`install`).
pub fn rt_join(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let (a, b) = rt::join(|| rt_join(n - 1), || rt_join(n - 2));
    a + b
}

/// This runtime's `scope`: spawn fib(n - 1) into it, compute fib(n - 2)
/// in the body. Call inside the runtime (`install`).
pub fn rt_scope(n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let mut a = 0;
    let b = rt::scope(|s| {
        s.spawn(|| a = rt_scope(n - 1));
        rt_scope(n - 2)
    });
    a + b
}

/// This runtime, spawn-and-join: spawn fib(n - 1), compute fib(n - 2),
/// join. Call inside a task of `rt`.
pub fn rt_spawn(rt: &'static Runtime, n: u32) -> u64 {
    if n < 2 {
        return u64::from(n);
    }
    let h = rt.spawn(move || rt_spawn(rt, n - 1));
    let b = rt_spawn(rt, n - 2);
    h.join().expect("a fib task failed") + b
}
