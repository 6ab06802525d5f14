//! Code an executor runs around a task's body, called only once the task
//! is claimed: a queue entry that turns out stale (a joiner ran the task
//! inline), a cancelled task or a drained one never enters it. The runtime's
//! `tracing` feature enters the task's span this way, on whichever thread
//! runs the body.

use crate::raw::hooks::contain_panic;

/// Runs the body it is given (a `&mut dyn FnMut()` to be called once)
/// inside whatever the executor needs around it, such as a span.
///
/// ```
/// use std::cell::Cell;
/// use rt_handle::raw::JobControl;
/// use rt_handle::{Job, RunOutcome};
///
/// let entered = Cell::new(0);
/// let around = |body: &mut dyn FnMut()| {
///     entered.set(entered.get() + 1);
///     body();
/// };
/// let (job, handle) = Job::new(|| 6 * 7);
/// assert_eq!(job.run_as(None, |_| {}, Some(&around)), RunOutcome::Completed);
/// assert_eq!((entered.get(), handle.join()), (1, Ok(42)));
/// ```
pub type BodyWrapper<'a> = &'a dyn Fn(&mut dyn FnMut());

/// `call(body)`, inside `wrapper` if there is one. The task is claimed, so
/// its body runs exactly once whatever the wrapper does: if the wrapper
/// panics before calling it, or never calls it, it runs here, unwrapped.
/// `call` must not unwind (the cells' calls catch the body's panic).
#[inline(always)]
pub(crate) fn call_wrapped<B, R>(
    wrapper: Option<BodyWrapper<'_>>,
    body: B,
    call: impl FnOnce(B) -> R,
) -> R {
    match wrapper {
        None => call(body),
        Some(wrapper) => call_inside(wrapper, body, call),
    }
}

/// `call(body)` inside `wrapper`, with [`call_wrapped`]'s promise: out of
/// line, so that the unwrapped path (every task without a wrapper) keeps
/// the small frame it had before wrappers existed. A task cell calls it
/// itself (`task_cell.rs`, `run_body`), and `call` unwrapped.
#[inline(never)]
pub(crate) fn call_inside<B, R>(wrapper: BodyWrapper<'_>, body: B, call: impl FnOnce(B) -> R) -> R {
    let mut pending = Some((body, call));
    let mut result = None;
    contain_panic(|| {
        wrapper(&mut || {
            if let Some((body, call)) = pending.take() {
                result = Some(call(body));
            }
        });
    });
    match (result, pending) {
        (Some(result), _) => result,
        (None, Some((body, call))) => call(body),
        (None, None) => unreachable!("the body was taken, so it returned a result"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_body_runs_once_inside_the_wrapper() {
        let calls = std::cell::Cell::new(0);
        let wrapper = |body: &mut dyn FnMut()| {
            body();
            body();
        };
        let r = call_wrapped(Some(&wrapper), 5, |x| {
            calls.set(calls.get() + 1);
            x * 2
        });
        assert_eq!((r, calls.get()), (10, 1));
    }

    #[test]
    fn a_wrapper_that_panics_first_or_never_calls_still_runs_the_body() {
        let panics = |_: &mut dyn FnMut()| panic!("a subscriber's bug");
        let skips = |_: &mut dyn FnMut()| {};
        assert_eq!(call_wrapped(Some(&panics), 3, |x| x + 1), 4);
        assert_eq!(call_wrapped(Some(&skips), 3, |x| x + 1), 4);
    }

    #[test]
    fn a_wrapper_that_panics_after_the_body_keeps_its_result() {
        let late = |body: &mut dyn FnMut()| {
            body();
            panic!("after the body");
        };
        let calls = std::cell::Cell::new(0);
        let r = call_wrapped(Some(&late), 3, |x| {
            calls.set(calls.get() + 1);
            x + 1
        });
        assert_eq!((r, calls.get()), (4, 1));
    }
}
