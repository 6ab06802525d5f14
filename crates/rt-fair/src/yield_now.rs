//! Cooperative yield points for tasks.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use crate::context;

/// Yields to the executor only when it is time to: the running queue's time
/// slice is used up, a queue with an earlier virtual deadline became
/// runnable (it takes over at the next poll), or the host runtime is due a
/// turn. Otherwise it returns at once, for the cost of reading the clock, so
/// a tight loop can call it on every iteration.
///
/// Outside an rt-fair task it never yields.
///
/// ```
/// use rt_fair::{yield_maybe, FairExecutorBuilder};
///
/// let executor = FairExecutorBuilder::new().with_queue("scan", 1).build()?;
/// let scan = executor.queue("scan").unwrap().spawn(async {
///     let mut sum = 0u64;
///     for i in 0..100_000u64 {
///         sum += i;
///         yield_maybe().await; // almost always free
///     }
///     sum
/// });
/// assert_eq!(executor.block_on(scan), Ok(4_999_950_000));
/// # Ok::<(), rt_fair::BuildError>(())
/// ```
pub fn yield_maybe() -> YieldMaybe {
    YieldMaybe { yielded: false }
}

/// Yields to the executor unconditionally: the task goes to the back of its
/// queue and the executor picks the next task (possibly from another queue).
pub fn yield_now() -> YieldNow {
    YieldNow { yielded: false }
}

/// The future of [`yield_maybe`].
#[derive(Debug)]
#[must_use = "futures do nothing unless awaited"]
pub struct YieldMaybe {
    yielded: bool,
}

impl Future for YieldMaybe {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.yielded || !context::should_yield() {
            return Poll::Ready(());
        }
        self.yielded = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}

/// The future of [`yield_now`].
#[derive(Debug)]
#[must_use = "futures do nothing unless awaited"]
pub struct YieldNow {
    yielded: bool,
}

impl Future for YieldNow {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.yielded {
            return Poll::Ready(());
        }
        self.yielded = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}
