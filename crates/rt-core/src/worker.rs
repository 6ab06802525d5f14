//! A worker thread: its loop, and how tasks running on it spawn onto its
//! own deque.

use std::sync::Arc;

use rt_handle::membership::{self, Member};
use rt_handle::{Job, RunOutcome};
use rt_queue::{Priority, TaskSource, WorkerQueues};

use crate::hooks::{self, contain};
use crate::idle_signal::IdleSignal;
use crate::metrics::{add, bump};
use crate::shared::{Shared, RUNTIME};
use crate::sync::{AtomicU64, Ordering};
use crate::wait_for_work::{next_task, WorkSource};

/// What a worker thread owns: the runtime's shared state and its private
/// half of the queues. Tasks running on the worker reach it through the
/// thread's membership frame.
pub(crate) struct WorkerContext {
    shared: Arc<Shared>,
    queues: WorkerQueues<Job>,
}

/// Calls `f` with the calling thread's worker context if the thread is a
/// worker of the runtime owning `shared` (running a task, or a hook), else
/// with `None`.
#[inline]
pub(crate) fn with_local<R>(
    shared: &Arc<Shared>,
    f: impl FnOnce(Option<&WorkerContext>) -> R,
) -> R {
    let pool = shared.pool_id();
    membership::with_innermost(|member| {
        let local = member.filter(|m| m.pool() == pool).map(|m| {
            // SAFETY: only `run_worker` enters a frame whose pool is this
            // runtime's id, with a context pointing at its `WorkerContext`,
            // which lives on that frame's stack until the frame is left;
            // `with_innermost` hands out the frame only while it is entered.
            unsafe { &*m.context().cast::<WorkerContext>() }
        });
        f(local)
    })
}

/// True when the calling thread is one of the threads of the runtime owning
/// `shared`, even inside something that runs tasks of another executor.
pub(crate) fn is_thread_of(shared: &Arc<Shared>) -> bool {
    membership::is_thread_of(shared.pool_id())
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
    membership::index_in(&RUNTIME)
}

/// What a spawn from inside the pool does: count the task, make it visible
/// with `push`, ring the doorbell. Counting first keeps the metrics'
/// promise (see `metrics::snapshot`); the loom model in `loom_metrics.rs`
/// runs this very function.
#[inline]
pub(crate) fn publish_local(spawned: &AtomicU64, idle: &IdleSignal, push: impl FnOnce()) {
    bump(spawned);
    push();
    idle.notify_one();
}

/// The body of every worker thread.
pub(crate) fn run_worker(shared: Arc<Shared>, queues: WorkerQueues<Job>) {
    let ctx = WorkerContext { shared, queues };
    let me = ctx.queues.index();
    let member = Member::new(ctx.shared.pool_id(), &RUNTIME, me)
        .with_context(std::ptr::from_ref(&ctx).cast());
    member.enter(|| {
        ctx.hook(&ctx.shared.hooks.before_worker_start);
        ctx.shared.idle.placement.register_thread(me);
        while let Some((job, source)) = next_task(&ctx.shared.idle, me, &ctx) {
            ctx.run(job, source);
        }
    });
    // Outside the worker's frame: a task the hook spawns goes through the
    // (closed) gate and is rejected, rather than into a deque nobody drains.
    ctx.hook(&ctx.shared.hooks.after_worker_stop);
    debug_assert!(ctx.queues.is_empty(), "worker {me} exits with queued work");
    ctx.shared.exits.mark_exited();
}

impl WorkSource for WorkerContext {
    type Task = (Job, TaskSource);

    #[inline]
    fn find(&self) -> Option<(Job, TaskSource)> {
        self.queues.find(&self.shared.queues)
    }

    fn sees_work(&self) -> bool {
        self.queues.sees_work(&self.shared.queues)
    }

    fn may_exit(&self) -> bool {
        self.shared.gate.is_closed_and_quiet()
    }
}

impl WorkerContext {
    /// Pushes a job spawned by a task running on this worker onto its own
    /// deque, counting it first (see `metrics::snapshot` for why first).
    #[inline]
    pub(crate) fn push(&self, priority: Priority, job: Job) {
        let spawned = &self.shared.counters[self.queues.index()].spawned;
        publish_local(spawned, &self.shared.idle, || {
            self.queues.push(priority, job)
        });
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
        // Relaxed: see `Shared::stop`.
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
