//! A node's closure boxed as the graph stores it: its output type erased,
//! and its lifetime too, so that a [`ScopedGraph`](super::ScopedGraph) can
//! store closures that borrow from its caller.
//!
//! The lifetime has to be erased, not carried: a [`TaskGraph`](super::TaskGraph)
//! has no lifetime parameter (it is `'static`, stored in other graphs,
//! modules and runs), and a `ScopedGraph<'a>` is a `TaskGraph` it lends
//! out only within `'a`. Giving `TaskGraph` a lifetime would change every
//! signature that names it. So each constructor below boxes its closure
//! with its lifetime `'a`, then erases it in `erase_lifetime!`, the one
//! place that does (each use is one expansion of it).

use super::node::{
    Callable, Condition, ConditionBody, ConditionKind, FallibleBody, MultiConditionBody, OnceBody,
    SubgraphBody, TaskBody, Work,
};
use super::output::{erase, Output};
use super::subgraph::Subgraph;
use crate::{DependencyResults, NodeError};

/// `erase_lifetime!(body: Body<'a> => Stored)`: the boxed closure `body`,
/// its trait object's lifetime bound `'a` turned into the `'static` of the
/// graph's stored type. The two types differ only in that bound.
macro_rules! erase_lifetime {
    ($body:ident: $from:ty => $to:ty) => {
        // Why this is sound: only the trait object's lifetime bound changes, not its
        // layout (the same boxed `dyn FnMut`/`FnOnce`, vtable and all). The
        // erased `'a` outlives every use of the closure: by the contract of
        // the constructor this expands in, the graph that stores it calls
        // and drops it only while `'a` lasts. Either `'a` is `'static`
        // (`TaskGraph`'s own methods), or the graph is held by a
        // `ScopedGraph<'a>`, which is invariant in `'a`, cannot outlive it,
        // lends the graph out only shared, and runs it only through calls
        // that return once the run has ended (`scoped.rs`); a run borrows
        // its graph (`GraphRef::Borrowed`), so no closure is called, nor
        // dropped, after `'a`. Checked under miri by the test
        // `scoped_closures_borrowing_the_caller_run_and_drop_within_the_scope`.
        // SAFETY: same layout; `'a` outlives every call and drop (above).
        unsafe { std::mem::transmute::<$from, $to>($body) }
    };
}

/// A task's work.
///
/// # Safety
///
/// The graph that stores it runs it, and drops it, only while `'a` lasts:
/// `'a` is `'static`, or the graph is held by a `ScopedGraph<'a>`.
pub(crate) unsafe fn task<'a, F, T>(mut f: F) -> Work
where
    F: FnMut(&DependencyResults<'_>) -> T + Send + 'a,
    T: Send + Sync + 'static,
{
    type Body<'a> = Box<dyn FnMut(&DependencyResults<'_>) -> Option<Output> + Send + 'a>;
    let body: Body<'a> = Box::new(move |deps: &DependencyResults<'_>| erase(f(deps)));
    let body = erase_lifetime!(body: Body<'a> => TaskBody);
    Work::Task(Callable::new(body))
}

/// A fallible task's work: `Ok` is the output, `Err` fails the node with
/// its error, typed ([`NodeError`]).
///
/// # Safety
///
/// As for [`task`].
pub(crate) unsafe fn fallible<'a, F, T, E>(mut f: F) -> Work
where
    F: FnMut(&DependencyResults<'_>) -> Result<T, E> + Send + 'a,
    T: Send + Sync + 'static,
    E: Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
{
    type Body<'a> =
        Box<dyn FnMut(&DependencyResults<'_>) -> Result<Option<Output>, NodeError> + Send + 'a>;
    let body: Body<'a> = Box::new(move |deps: &DependencyResults<'_>| match f(deps) {
        Ok(value) => Ok(erase(value)),
        Err(error) => Err(NodeError::new(error)),
    });
    let body = erase_lifetime!(body: Body<'a> => FallibleBody);
    Work::Fallible(Callable::new(body))
}

/// A run-once task's work: it runs its closure the first time only.
///
/// # Safety
///
/// As for [`task`].
pub(crate) unsafe fn task_once<'a, F, T>(f: F) -> Work
where
    F: FnOnce(&DependencyResults<'_>) -> T + Send + 'a,
    T: Send + Sync + 'static,
{
    type Body<'a> = Box<dyn FnOnce(&DependencyResults<'_>) -> Option<Output> + Send + 'a>;
    let body: Body<'a> = Box::new(move |deps: &DependencyResults<'_>| erase(f(deps)));
    let body = erase_lifetime!(body: Body<'a> => OnceBody);
    Work::TaskOnce(Callable::new(Some(body)))
}

/// A condition's work.
///
/// # Safety
///
/// As for [`task`].
pub(crate) unsafe fn condition<'a, F>(f: F) -> Work
where
    F: FnMut(&DependencyResults<'_>) -> usize + Send + 'a,
{
    type Body<'a> = Box<dyn FnMut(&DependencyResults<'_>) -> usize + Send + 'a>;
    let body: Body<'a> = Box::new(f);
    let body = erase_lifetime!(body: Body<'a> => ConditionBody);
    Work::Condition(Box::new(Condition {
        body: ConditionKind::One(Callable::new(body)),
        branches: Vec::new(),
    }))
}

/// A multi-condition's work: the closure's branch indices, collected.
///
/// # Safety
///
/// As for [`task`].
pub(crate) unsafe fn multi_condition<'a, F, I>(mut f: F) -> Work
where
    F: FnMut(&DependencyResults<'_>) -> I + Send + 'a,
    I: IntoIterator<Item = usize>,
{
    type Body<'a> = Box<dyn FnMut(&DependencyResults<'_>) -> Vec<usize> + Send + 'a>;
    let body: Body<'a> =
        Box::new(move |deps: &DependencyResults<'_>| f(deps).into_iter().collect());
    let body = erase_lifetime!(body: Body<'a> => MultiConditionBody);
    Work::Condition(Box::new(Condition {
        body: ConditionKind::Many(Callable::new(body)),
        branches: Vec::new(),
    }))
}

/// A subgraph node's work.
///
/// # Safety
///
/// As for [`task`].
pub(crate) unsafe fn subgraph<'a, F, T>(mut f: F) -> Work
where
    F: FnMut(&DependencyResults<'_>, &mut Subgraph) -> T + Send + 'a,
    T: Send + Sync + 'static,
{
    type Body<'a> =
        Box<dyn FnMut(&DependencyResults<'_>, &mut Subgraph) -> Option<Output> + Send + 'a>;
    let body: Body<'a> =
        Box::new(move |deps: &DependencyResults<'_>, sub: &mut Subgraph| erase(f(deps, sub)));
    let body = erase_lifetime!(body: Body<'a> => SubgraphBody);
    Work::Subgraph(Callable::new(body))
}
