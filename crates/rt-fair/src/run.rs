//! The executor loop: a future that polls tasks until the caller's future
//! completes, returning to its host runtime now and then.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Wake, Waker};
use std::time::Instant;

use crate::context;
use crate::core::Core;
use crate::shared::Shared;
use crate::sync::{Arc, AtomicBool, Ordering, Thread};

/// At most this many polls between two turns of the host runtime, however
/// short they are (tokio's current-thread scheduler uses 61), so that the
/// host's I/O and timers are never starved by many tiny tasks.
const MAX_POLLS_PER_TURN: u32 = 64;

/// Wakes the loop to poll the `until` future again.
struct UntilSignal {
    woken: AtomicBool,
    shared: Arc<Shared>,
}

impl Wake for UntilSignal {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.woken.store(true, Ordering::SeqCst);
        self.shared.notify();
    }
}

/// `FairExecutor::run_until`'s future.
pub(crate) struct RunUntil<'a, F> {
    core: &'a Core,
    until: Pin<Box<F>>,
    signal: Arc<UntilSignal>,
    waker: Waker,
    /// Inside a host runtime: give it the thread back every
    /// `host_interval` or `MAX_POLLS_PER_TURN` polls. Standalone
    /// (`block_on`) there is nobody to give it to.
    hosted: bool,
}

impl<'a, F: Future> RunUntil<'a, F> {
    pub(crate) fn new(core: &'a Core, until: F, hosted: bool) -> Self {
        let signal = Arc::new(UntilSignal {
            woken: AtomicBool::new(true), // poll `until` first
            shared: Arc::clone(&core.shared),
        });
        Self {
            core,
            until: Box::pin(until),
            waker: Waker::from(Arc::clone(&signal)),
            signal,
            hosted,
        }
    }
}

impl<F: Future> Future for RunUntil<'_, F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.get_mut();
        let core = this.core;
        let _running = core.enter();
        let _context = context::enter(&core.shared);
        let turn_start = Instant::now();
        let host_due = this.hosted.then(|| turn_start + core.config.host_interval);
        let mut last = turn_start;
        let mut polls = 0u32;
        loop {
            if this.signal.woken.swap(false, Ordering::SeqCst) {
                let mut until_cx = Context::from_waker(&this.waker);
                if let Poll::Ready(output) = this.until.as_mut().poll(&mut until_cx) {
                    return Poll::Ready(output);
                }
                last = Instant::now();
            }
            let Some(task) = core.next() else {
                // Nothing runnable: sleep until a task or `until` is woken.
                core.shared.prepare_sleep(cx.waker());
                if core.shared.has_incoming() || this.signal.woken.load(Ordering::SeqCst) {
                    core.shared.cancel_sleep();
                    continue;
                }
                return Poll::Pending;
            };
            last = core.poll_task(task, last, host_due);
            polls += 1;
            if this.hosted
                && (host_due.is_some_and(|due| last >= due) || polls >= MAX_POLLS_PER_TURN)
            {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
        }
    }
}

/// Unparks the thread that runs `block_on`.
pub(crate) struct ThreadWaker(pub(crate) Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}
