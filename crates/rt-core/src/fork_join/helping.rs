//! How a worker waits inside a unit of work without blocking uselessly and
//! without running unrelated work. The rule and why it cannot deadlock:
//! `JOIN_HELPING.md`.
//!
//! While the awaited work is not done, the worker repeatedly:
//!
//! 1. pops the newest entry its own deques gained since the waiting unit
//!    began (the unit's own work) and runs it as a nested unit; for the end
//!    of a scope or a join of one of its tasks, also the scope's tasks in
//!    the scope inbox;
//! 2. *leapfrogs*: steals from the deques of the worker that runs the
//!    awaited work, if that worker began running it with empty deques (so
//!    that everything there is the awaited work's), under a lease that keeps
//!    the worker from moving on to other work meanwhile (`WorkerSlot`);
//! 3. with nothing to take, spins for a while, then parks; the awaited
//!    work's completion unparks it, and so does a push by the worker it
//!    could leapfrog.

use rt_handle::raw::{ExecutorKind, JobControl, Joining, PoolId, ScopeId, TaskRef};
use rt_handle::RunOutcome;
use rt_queue::Priority;

use crate::fork_join::latch::Latch;
use crate::fork_join::stack_job::RunnerWord;
use crate::fork_join::worker_slot::{LeaseFor, Parking};
use crate::observe::trace::{self, Source};
use crate::worker::entry::Entry;
use crate::worker::entry::TaskSpan;
use crate::worker::entry::{runner_index, WorkId};
use crate::worker::Waited;
use crate::worker::{with_current, Nesting, WorkerContext};

/// What a wait means on this runtime's workers, for rt-handle: a join of a
/// task's handle (`JoinHandle::join`, and its `poll`) on a worker of the
/// runtime that accepted the task helps under the rule of
/// `JOIN_HELPING.md`; other waits on a worker (a task of another executor,
/// a graph's end) run related work or tell the runtime the worker blocks.
/// rt-handle finds it from the joined task's owner; each function finds the
/// worker through this crate's one worker thread-local ([`with_current`]).
/// Registered by every build of a runtime, before it starts a worker.
pub(crate) static RUNTIME: ExecutorKind = ExecutorKind::new("rt-core runtime")
    .with_join(join_on_worker)
    .with_runs_here(runs_on_worker)
    .with_block(block_worker)
    .with_help_once(help_once)
    .with_can_help(can_help);

/// Calls `f` with the calling thread's worker context if it is a worker of
/// the runtime `owner`, in its loop.
fn on_worker_of<R>(owner: PoolId, f: impl FnOnce(&WorkerContext<'_>) -> R) -> Option<R> {
    rt_queue::path_step!();
    with_current(|worker| worker.filter(|w| PoolId::of(w.shared()) == owner).map(f))
}

/// The join of a task of the runtime `owner`, on one of its workers.
fn join_on_worker(owner: PoolId, joining: Joining<'_>) -> bool {
    rt_queue::path_step!();
    on_worker_of(owner, |worker| {
        if worker.in_unit() {
            join_task(worker, joining);
        } else if worker.is_adopted() {
            // Between its calls into the runtime, an adopted thread helps
            // from a unit of its own.
            worker.in_a_unit(|| join_task(worker, joining));
        }
    })
    .is_some()
}

/// A task runs on this worker while its state word carries this worker's
/// tag: the worker is on one thread, so the task is below.
fn runs_on_worker(owner: PoolId, task: TaskRef<'_>) -> bool {
    rt_queue::path_step!();
    on_worker_of(owner, |worker| task.runner() == Some(worker.tag())).unwrap_or(false)
}

/// A wait the worker cannot help along: the runtime is told, and may make
/// a compensating worker live (`COMPENSATION.md`).
fn block_worker(wait: &mut dyn FnMut()) -> bool {
    rt_queue::path_step!();
    with_current(|worker| worker.map(|w| w.waiting(wait)).is_some())
}

/// Runs one unit of the running unit's own work, if there is one.
fn help_once() -> bool {
    with_current(|worker| worker.is_some_and(|w| w.in_unit() && run_own_work(w)))
}

/// Every worker in its loop can help its waits.
fn can_help() -> bool {
    with_current(|worker| worker.is_some())
}

/// Rounds of looking for work, with growing pauses, before parking.
#[cfg(not(loom))]
const SPIN_ROUNDS: u32 = 10;
#[cfg(loom)]
const SPIN_ROUNDS: u32 = 1;

/// What a worker waits for.
pub(crate) enum Target<'a> {
    /// A task (joined through its handle).
    Task(TaskRef<'a>),
    /// The shared second half of one of this worker's `join`s, taken by a
    /// thief: its latch, its identity, and who runs it.
    Half {
        latch: &'a Latch,
        id: WorkId,
        runner: &'a RunnerWord,
    },
    /// Every task of a scope this worker runs.
    Scope { latch: &'a Latch, id: ScopeId },
    /// Every worker's share of a broadcast this worker made (its own share
    /// is in its mailbox, which every wait looks at).
    Broadcast(&'a Latch),
}

/// Whose deques a waiter may take from.
enum Leapfrog {
    /// Worker `worker`, while it runs unit `unit` as a clean unit.
    Runner {
        worker: usize,
        unit: WorkId,
    },
    /// Any worker running a task of scope `scope` as a clean unit.
    Scope {
        scope: ScopeId,
    },
    Nobody,
}

impl Target<'_> {
    fn is_done(&self) -> bool {
        match self {
            Target::Task(task) => task.is_finished(),
            Target::Half { latch, .. } | Target::Scope { latch, .. } | Target::Broadcast(latch) => {
                latch.is_set()
            }
        }
    }

    fn leapfrog(&self) -> Leapfrog {
        match self {
            Target::Task(task) => match task.runner() {
                Some(tag) => Leapfrog::Runner {
                    worker: runner_index(tag),
                    unit: WorkId::of_task(task.id()),
                },
                None => Leapfrog::Nobody,
            },
            Target::Half { latch, id, runner } => match runner.get(latch) {
                Some(worker) => Leapfrog::Runner { worker, unit: *id },
                None => Leapfrog::Nobody,
            },
            Target::Scope { id, .. } => Leapfrog::Scope { scope: *id },
            Target::Broadcast(_) => Leapfrog::Nobody,
        }
    }

    /// Parks once unless done; whatever completes the target unparks us.
    fn park_once(&self) {
        match self {
            Target::Task(task) => task.park_once(),
            Target::Half { latch, .. } | Target::Scope { latch, .. } | Target::Broadcast(latch) => {
                latch.park_once()
            }
        }
    }
}

/// Waits until `target` is done, helping under the rule of
/// `JOIN_HELPING.md`.
pub(crate) fn wait_for(worker: &WorkerContext<'_>, target: &Target<'_>) {
    let mut rounds = 0;
    // Whose tasks in the scope inbox are ours to run (rule 2b).
    let scope = match target {
        Target::Scope { id, .. } => Some(*id),
        Target::Task(task) => task.scope(),
        Target::Half { .. } | Target::Broadcast(_) => None,
    };
    while !target.is_done() {
        worker.look_for_stop();
        // A broadcast waits for every worker, waiting ones included
        // (`BROADCAST.md`).
        if worker.run_letter() {
            rounds = 0;
            continue;
        }
        if run_own_work(worker) {
            rounds = 0;
            continue;
        }
        if let Some(task) = scope.and_then(|id| worker.shared().scope_inbox().pop_for(id)) {
            let entry = Entry::Task(task.job, task.span);
            worker.run_nested(entry, task.priority, Source::Helping);
            rounds = 0;
            continue;
        }
        if let Some((entry, priority, from)) = leapfrog(worker, target) {
            worker.run_nested(entry, priority, Source::Stolen { from });
            rounds = 0;
            continue;
        }
        if rounds < SPIN_ROUNDS {
            for _ in 0..(1u32 << rounds) {
                std::hint::spin_loop();
            }
            rounds += 1;
            continue;
        }
        park(worker, target);
        rounds = 0;
    }
}

/// Runs the newest entry the worker's deques gained since the running unit
/// began (the unit's own work), if there is one.
pub(crate) fn run_own_work(worker: &WorkerContext<'_>) -> bool {
    let Some(unit) = worker.unit() else {
        return false;
    };
    match worker.deques().pop_above_any(unit.base) {
        Some((entry, priority)) => {
            worker.run_nested(entry, priority, Source::Helping);
            true
        }
        None => false,
    }
}

/// Parks until the target is done or a worker it may leapfrog pushed work
/// (either may also end the park spuriously).
fn park(worker: &WorkerContext<'_>, target: &Target<'_>) {
    let me = worker.index();
    let shared = worker.shared();
    let slots = shared.slots();
    let watched = match target.leapfrog() {
        Leapfrog::Runner { worker, .. } if worker != me => worker..worker + 1,
        Leapfrog::Scope { .. } => 0..shared.queues().workers(),
        _ => 0..0,
    };
    let watched = || watched.clone().filter(|&w| w != me);
    for other in watched() {
        slots[other].park_leapfrogger(me, Parking::Start);
    }
    // After the fences in `park_leapfrogger`: a push made before them is
    // seen here; one made after sees our bit and unparks us.
    let queues = shared.queues();
    // A letter posted after this look unparks this worker (`BROADCAST.md`).
    if !target.is_done() && !worker.has_mail() && watched().all(|w| queues.is_worker_empty(w)) {
        // Parked, this worker takes no queued work: if every worker of the
        // runtime is waiting, a compensating one takes over
        // (`COMPENSATION.md`).
        worker.waiting(|| target.park_once());
    }
    for other in watched() {
        slots[other].park_leapfrogger(me, Parking::End);
    }
}

/// Step 2 of the wait: one steal from a worker whose deques hold only the
/// target's work.
fn leapfrog(worker: &WorkerContext<'_>, target: &Target<'_>) -> Option<(Entry, Priority, usize)> {
    let me = worker.index();
    match target.leapfrog() {
        Leapfrog::Runner {
            worker: runner,
            unit,
        } if runner != me => lease_steal(worker, runner, LeaseFor::Unit(unit)),
        Leapfrog::Scope { scope } => (0..worker.shared().queues().workers())
            .filter(|&w| w != me)
            .find_map(|w| lease_steal(worker, w, LeaseFor::TaskOf(scope))),
        _ => None,
    }
}

fn lease_steal(
    worker: &WorkerContext<'_>,
    victim: usize,
    wanted: LeaseFor,
) -> Option<(Entry, Priority, usize)> {
    let queues = worker.shared().queues();
    if queues.is_worker_empty(victim) {
        return None;
    }
    let (entry, priority) =
        worker.shared().slots()[victim].lease(wanted, || queues.steal_from(victim))?;
    Some((entry, priority, victim))
}

/// A task of this runtime is being joined on this worker: take it back
/// from the top of the deque if it is there (it was just spawned), else run
/// it inline if it has not started, else wait for it, helping.
pub(crate) fn join_task(worker: &WorkerContext<'_>, joining: Joining<'_>) {
    let task = joining.task();
    if worker.is_stopping() && task.scope().is_none() {
        // Nothing more starts; a task still queued is cancelled (its queue
        // entry, when taken, counts it). A task of a scope still runs: its
        // scope waits for it.
        task.cancel();
    }
    let id = WorkId::of_task(task.id());
    if task.is_finished() || take_back(worker, joining) {
        return;
    }
    let priority = worker.priority();
    let observed = (worker.shared().observed() && worker.shared().records_runs()).then(|| {
        let key = trace::key(task.id(), task.stamp());
        worker.started(key, priority, Source::Joiner, Nesting::Nested)
    });
    let waited = Waited::By { scope: None };
    let ran = TaskSpan::here().wrap(priority, worker.index(), |wrapper| {
        worker.run_unit(id, waited, priority, || {
            task.run_inline(worker.tag(), wrapper)
        })
    });
    if let Some(run) = observed {
        // `Stale` if somebody else had the task: this was not a run.
        worker.finished(run, priority, ran.unwrap_or(RunOutcome::Stale));
    }
    if let Some(outcome) = ran {
        worker.count(outcome);
        return;
    }
    wait_for(worker, &Target::Task(task));
}

/// Looks for the task being joined at the top of the running unit's part
/// of each deque, discarding finished entries on the way; runs it if found.
fn take_back(worker: &WorkerContext<'_>, joining: Joining<'_>) -> bool {
    let id = WorkId::of_task(joining.task().id());
    let Some(unit) = worker.unit() else {
        return false;
    };
    let deques = worker.deques();
    for priority in Priority::ALL {
        while let Some(entry) = deques.pop_above(priority, unit.base) {
            match entry {
                Entry::Task(job, span) if entry_is(&job, id) => {
                    if worker.shared().observed() || worker.is_stopping() {
                        worker.run_nested(Entry::Task(job, span), priority, Source::Helping);
                    } else {
                        // The joiner holds the handle and now the entry.
                        let outcome = span.wrap(priority, worker.index(), |wrapper| {
                            worker.run_unit(id, Waited::By { scope: None }, priority, || {
                                job.run_joined(joining, wrapper)
                            })
                        });
                        worker.count(outcome);
                    }
                    return true;
                }
                Entry::Task(job, _) if job.is_finished() => {
                    // A task another joiner ran inline (or one cancelled
                    // through its handle): its entry ends here.
                    let outcome = job.discard().outcome();
                    worker.count(outcome);
                }
                other => {
                    // Not ours and still live: put it back where it was.
                    deques.push(priority, other);
                    break;
                }
            }
        }
    }
    false
}

fn entry_is(job: &rt_handle::Job, id: WorkId) -> bool {
    WorkId::of_task(job.id()) == id
}
