//! `join` and `join_context`: rt-core's, which allocate nothing per fork
//! and share the second half only when another worker wants work.

pub use rt_core::FnContext;

/// Runs `oper_a` and `oper_b`, potentially in parallel, and returns both
/// results (rayon's `join`): on the current pool, or on the global one
/// from a thread that is not a worker (the caller then blocks). If either
/// panics, the other still runs to completion, then the panic (`oper_a`'s
/// if both did) resumes here.
///
/// ```
/// fn fib(n: u64) -> u64 {
///     if n < 2 {
///         return n;
///     }
///     let (a, b) = rayon_core::join(|| fib(n - 1), || fib(n - 2));
///     a + b
/// }
/// assert_eq!(fib(20), 6765);
/// ```
#[inline]
pub fn join<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    rt_core::join(oper_a, oper_b)
}

/// [`join`], each closure told whether it runs on another thread than the
/// caller's ([`FnContext::migrated`]): rayon's `join_context`, with which
/// rayon's parallel iterators decide whether to split further.
#[inline]
pub fn join_context<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    rt_core::join_context(oper_a, oper_b)
}
