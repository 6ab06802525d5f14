//! A worker thread: its search loop, and the thread-local that lets tasks
//! running on it spawn onto its own deque.

use std::cell::Cell;
use std::ptr;
use std::sync::Arc;
use std::thread;

use rt_handle::{Job, RunOutcome};
use rt_queue::{Priority, TaskSource, WorkerQueues};

use crate::hooks::{self, contain};
use crate::idle_signal::Wake;
use crate::metrics::{add, bump};
use crate::shared::Shared;
use crate::sync::Ordering;

/// Rounds of busy-waiting (with growing pauses) after a scan finds nothing,
/// before yielding: work that arrives within a few microseconds is picked up
/// without the cost of parking and being woken.
const SPIN_ROUNDS: u32 = 8;
/// Rounds of `yield_now` after spinning and before parking. Yielding lets a
/// submitting thread that shares our core run and push more work.
const YIELD_ROUNDS: u32 = 4;

pub(crate) struct WorkerContext {
    shared: Arc<Shared>,
    queues: WorkerQueues<Job>,
}

thread_local! {
    /// The context of the worker running on this thread, or null. Set for the
    /// whole of `run_worker` by `CurrentGuard`.
    static CURRENT: Cell<*const WorkerContext> = const { Cell::new(ptr::null()) };
}

/// Resets `CURRENT` when the worker loop ends, even by unwinding.
struct CurrentGuard;

impl CurrentGuard {
    fn enter(ctx: &WorkerContext) -> Self {
        CURRENT.with(|c| c.set(ctx));
        CurrentGuard
    }
}

impl Drop for CurrentGuard {
    fn drop(&mut self) {
        let _ = CURRENT.try_with(|c| c.set(ptr::null()));
    }
}

/// Calls `f` with the context of the worker this thread runs, if any.
#[inline]
fn with_current<R>(f: impl FnOnce(Option<&WorkerContext>) -> R) -> R {
    let ctx = CURRENT.try_with(Cell::get).unwrap_or(ptr::null());
    // SAFETY: a non-null CURRENT points to the `WorkerContext` on the stack of
    // `run_worker` on this very thread, which outlives the `CurrentGuard`
    // that resets the pointer; the reference cannot escape `f`.
    f(unsafe { ctx.as_ref() })
}

/// The index of the worker the calling thread is, in whichever runtime it
/// belongs to; `None` on threads that are not workers.
///
/// ```
/// let rt = rt_core::Runtime::new(2).unwrap();
/// assert_eq!(rt_core::current_worker(), None);
/// let inside = rt.spawn(rt_core::current_worker).join().unwrap();
/// assert!(matches!(inside, Some(0) | Some(1)));
/// ```
pub fn current_worker() -> Option<usize> {
    with_current(|ctx| ctx.map(|ctx| ctx.queues.index()))
}

/// True when the calling thread is a worker of the runtime owning `shared`.
pub(crate) fn is_worker_of(shared: &Arc<Shared>) -> bool {
    with_current(|ctx| ctx.is_some_and(|ctx| Arc::ptr_eq(&ctx.shared, shared)))
}

/// Pushes `job` onto the calling worker's own deque if the caller is a worker
/// of the runtime owning `shared`; otherwise hands the job back.
#[inline]
pub(crate) fn push_local(shared: &Arc<Shared>, priority: Priority, job: Job) -> Result<(), Job> {
    with_current(|ctx| match ctx {
        Some(ctx) if Arc::ptr_eq(&ctx.shared, shared) => {
            ctx.queues.push(priority, job);
            bump(&ctx.shared.counters[ctx.queues.index()].spawned);
            ctx.shared.idle.notify_one();
            Ok(())
        }
        _ => Err(job),
    })
}

/// The body of every worker thread.
pub(crate) fn run_worker(shared: Arc<Shared>, queues: WorkerQueues<Job>) {
    let ctx = WorkerContext { shared, queues };
    let me = ctx.queues.index();
    {
        let _current = CurrentGuard::enter(&ctx);
        ctx.hook(&ctx.shared.hooks.before_worker_start);
        ctx.shared.idle.placement.register_thread(me);
        ctx.main_loop();
    }
    // Outside the worker context: a task the hook spawns goes through the
    // (closed) gate and is rejected, rather than into a deque nobody drains.
    ctx.hook(&ctx.shared.hooks.after_worker_stop);
    debug_assert!(ctx.queues.is_empty(), "worker {me} exits with queued work");
    ctx.shared.exits.mark_exited();
}

impl WorkerContext {
    fn main_loop(&self) {
        let me = self.queues.index();
        let idle = &self.shared.idle;
        loop {
            if let Some((job, source)) = self.queues.find(&self.shared.queues) {
                self.run(job, source);
                continue;
            }
            idle.start_searching();
            // Searching: spin, yield, then sleep until rung; every way out of
            // this loop with a task goes through `found_work`.
            loop {
                if let Some((job, source)) = self.search() {
                    idle.found_work();
                    self.run(job, source);
                    break;
                }
                idle.stop_searching();
                // The doorbell protocol (IDLE_SIGNAL.md): register, then
                // re-check the gate and the queues, and only then park.
                idle.register(me);
                let may_exit = self.shared.gate.is_closed_and_quiet();
                if self.queues.sees_work(&self.shared.queues) {
                    idle.unregister(me);
                    continue;
                }
                if may_exit && idle.try_terminate() {
                    return;
                }
                if idle.sleep(me) == Wake::Terminated {
                    return;
                }
            }
        }
    }

    /// Scans for work, spinning and then yielding for a short while before
    /// giving up.
    #[inline]
    fn search(&self) -> Option<(Job, TaskSource)> {
        for round in 0..SPIN_ROUNDS + YIELD_ROUNDS {
            if let Some(found) = self.queues.find(&self.shared.queues) {
                return Some(found);
            }
            if round < SPIN_ROUNDS {
                for _ in 0..(1u32 << round) {
                    std::hint::spin_loop();
                }
            } else {
                thread::yield_now();
            }
        }
        None
    }

    #[inline]
    fn run(&self, job: Job, source: TaskSource) {
        let shared = &*self.shared;
        let me = self.queues.index();
        let counters = &shared.counters[me];
        shared.left_queue(source);
        if source == TaskSource::Peer {
            bump(&counters.stolen);
        }
        if shared.stopping.load(Ordering::Relaxed) {
            // `stop` was called: nothing more starts. (If the task was
            // cancelled through its handle already, this changes nothing.)
            job.cancel();
            bump(&counters.cancelled);
            return;
        }
        let hooks = &shared.hooks;
        counters.running.store(1, Ordering::Relaxed);
        self.hook(&hooks.before_task);
        let outcome = match &hooks.panic_handler {
            None => job.run(),
            Some(handler) => job.run_reporting(|message| {
                if !contain(|| handler(me, message)) {
                    bump(&counters.hook_panics);
                }
            }),
        };
        self.hook(&hooks.after_task);
        counters.running.store(0, Ordering::Relaxed);
        match outcome {
            RunOutcome::Completed => bump(&counters.completed),
            RunOutcome::Panicked => bump(&counters.panicked),
            RunOutcome::Cancelled => bump(&counters.cancelled),
        }
        let nudged = shared.idle.placement.check(me);
        if nudged != 0 {
            add(&counters.nudged_wakes, nudged);
        }
    }

    /// Runs a lifecycle hook for this worker, counting a panic in it.
    #[inline]
    fn hook(&self, hook: &Option<hooks::WorkerHook>) {
        if hook.is_some() && !hooks::call(hook, self.queues.index()) {
            bump(&self.shared.counters[self.queues.index()].hook_panics);
        }
    }
}
