//! `join` and `join_context`: rt-core's, which allocate nothing per fork,
//! share the second half only when another worker wants work, and let
//! more urgent queued work run first at every fork of less urgent work.
//!
//! rayon's parallel iterators decide how finely to split through
//! [`FnContext::migrated`]: a half that ran on another thread splits
//! again. Work at [`Priority::Background`](rt_core::Priority) is told
//! `migrated` at every fork, so that rayon splits it down to its items
//! (or to `with_min_len`): every split is a fork, where a queued High or
//! Normal task gets in, so such work waits about one item, not one of
//! rayon's leaves (which are a quarter of the whole on two threads).

use std::marker::PhantomData;

use rt_core::Priority;

/// What a closure of [`join_context`] is told about where it runs
/// (rayon's `FnContext`).
#[derive(Debug)]
pub struct FnContext {
    migrated: bool,
    /// Not `Send`, as rayon's.
    _marker: PhantomData<*mut ()>,
}

impl FnContext {
    /// Whether the closure runs on another thread than the one that
    /// called [`join_context`], or (see the module docs) is Background
    /// work, which rayon's iterators then split as finely as they can.
    #[inline]
    pub fn migrated(&self) -> bool {
        self.migrated
    }

    #[inline(always)]
    fn new(context: rt_core::FnContext, finest: bool) -> Self {
        Self {
            migrated: context.migrated() || finest,
            _marker: PhantomData,
        }
    }
}

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
///
/// ```
/// let pool = rayon_core::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
/// let (a, _) = pool.install(|| rayon_core::join_context(|ctx| ctx.migrated(), |_| ()));
/// assert!(!a, "`oper_a` runs on the caller's thread");
/// ```
#[inline]
pub fn join_context<A, B, RA, RB>(oper_a: A, oper_b: B) -> (RA, RB)
where
    A: FnOnce(FnContext) -> RA + Send,
    B: FnOnce(FnContext) -> RB + Send,
    RA: Send,
    RB: Send,
{
    let finest = rt_core::current_priority() == Priority::Background;
    rt_core::join_context(
        move |context| oper_a(FnContext::new(context, finest)),
        move |context| oper_b(FnContext::new(context, finest)),
    )
}
