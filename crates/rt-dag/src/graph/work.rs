//! A node's closure boxed as the graph stores it: its output type erased,
//! and its lifetime too, so that a [`ScopedGraph`](super::ScopedGraph) can
//! store closures that borrow from its caller.

use super::node::{
    Callable, Condition, ConditionBody, ConditionKind, FallibleBody, MultiConditionBody, OnceBody,
    SubgraphBody, TaskBody, Work,
};
use super::output::{erase, Output};
use super::subgraph::Subgraph;
use crate::{DependencyResults, NodeError};

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
    // SAFETY: only the trait object's lifetime bound changes, not its
    // layout; by the caller's contract the closure is neither called nor
    // dropped once `'a` has ended.
    let body = unsafe { std::mem::transmute::<Body<'a>, TaskBody>(body) };
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
    // SAFETY: as in `task`.
    let body = unsafe { std::mem::transmute::<Body<'a>, FallibleBody>(body) };
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
    // SAFETY: as in `task`.
    let body = unsafe { std::mem::transmute::<Body<'a>, OnceBody>(body) };
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
    // SAFETY: as in `task`.
    let body = unsafe { std::mem::transmute::<Body<'a>, ConditionBody>(body) };
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
    // SAFETY: as in `task`.
    let body = unsafe { std::mem::transmute::<Body<'a>, MultiConditionBody>(body) };
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
    // SAFETY: as in `task`.
    let body = unsafe { std::mem::transmute::<Body<'a>, SubgraphBody>(body) };
    Work::Subgraph(Callable::new(body))
}
