//! How a worker waits inside a unit of work without blocking uselessly and
//! without running unrelated work. The rule and why it cannot deadlock:
//! `JOIN_HELPING.md`.
//!
//! While the awaited work is not done, the worker repeatedly:
//!
//! 1. pops the newest entry its own deques gained since the waiting unit
//!    began (the unit's own work) and runs it as a nested unit;
//! 2. *leapfrogs*: steals from the deques of the worker that runs the
//!    awaited work, if that worker began running it with empty deques (so
//!    that everything there is the awaited work's), under a lease that keeps
//!    the worker from moving on to other work meanwhile (`WorkerSlot`);
//! 3. with nothing to take, spins for a while, then parks; the awaited
//!    work's completion unparks it, and so does a push by the worker it
//!    could leapfrog.

use rt_handle::membership::WaitHelp;
use rt_handle::{RunOutcome, TaskCore};
use rt_queue::Priority;

use crate::entry::Entry;
use crate::scope::ScopeState;
use crate::stack_job::StackJob;
use crate::task_span::TaskSpan;
use crate::trace::Source;
use crate::worker::WorkerContext;

/// Rounds of looking for work, with growing pauses, before parking.
#[cfg(not(loom))]
const SPIN_ROUNDS: u32 = 10;
#[cfg(loom)]
const SPIN_ROUNDS: u32 = 1;

/// What a worker waits for.
pub(crate) enum Target<'a> {
    /// A task (joined through its handle).
    Task(&'a dyn TaskCore),
    /// The stolen second half of one of this worker's `join`s.
    Half(&'a dyn Half),
    /// Every task of a scope this worker runs.
    Scope(&'a ScopeState),
}

/// A `join` half as its owner waits for it.
pub(crate) trait Half {
    fn id(&self) -> usize;
    fn is_settled(&self) -> bool;
    fn runner(&self) -> Option<usize>;
    fn park_once(&self);
}

impl<F, R> Half for StackJob<F, R>
where
    F: FnOnce() -> R + Send,
    R: Send,
{
    fn id(&self) -> usize {
        std::ptr::from_ref(self).addr()
    }
    fn is_settled(&self) -> bool {
        StackJob::is_settled(self)
    }
    fn runner(&self) -> Option<usize> {
        StackJob::runner(self)
    }
    fn park_once(&self) {
        StackJob::park_once(self)
    }
}

/// Whose deques a waiter may take from.
enum Leapfrog {
    /// Worker `worker`, while it runs unit `unit` (begun with empty deques).
    Runner {
        worker: usize,
        unit: usize,
    },
    /// Any worker running a task of scope `scope` (begun with empty deques).
    Scope {
        scope: usize,
    },
    Nobody,
}

impl Target<'_> {
    fn is_done(&self) -> bool {
        match self {
            Target::Task(task) => task.is_finished(),
            Target::Half(half) => half.is_settled(),
            Target::Scope(scope) => scope.is_done(),
        }
    }

    fn leapfrog(&self) -> Leapfrog {
        match self {
            Target::Task(task) => match task.runner_tag() {
                Some(tag) if tag > 0 => Leapfrog::Runner {
                    worker: tag - 1,
                    unit: task.id(),
                },
                _ => Leapfrog::Nobody,
            },
            Target::Half(half) => match half.runner() {
                Some(worker) => Leapfrog::Runner {
                    worker,
                    unit: half.id(),
                },
                None => Leapfrog::Nobody,
            },
            Target::Scope(scope) => Leapfrog::Scope { scope: scope.id() },
        }
    }

    /// Parks once unless done; whatever completes the target unparks us.
    fn park_once(&self) {
        match self {
            Target::Task(task) => task.park_once(),
            Target::Half(half) => half.park_once(),
            Target::Scope(scope) => scope.park_once(),
        }
    }
}

impl WorkerContext {
    /// Waits until `target` is done, helping under the rule of
    /// `JOIN_HELPING.md`.
    pub(crate) fn wait_for(&self, target: &Target<'_>) {
        let mut rounds = 0;
        // The worker asked to make stealable work for us, if any.
        let mut asked: Option<usize> = None;
        while !target.is_done() {
            if let Some((entry, priority)) = self.queues().pop_above_any(self.unit_base()) {
                self.run_nested(entry, priority, Source::Helping);
                rounds = 0;
                continue;
            }
            if let Target::Scope(scope) = target {
                if let Some(task) = self.shared.scope_inbox.pop_for(scope.id()) {
                    let entry = Entry::Task(task.job, task.span);
                    self.run_nested(entry, task.priority, Source::Helping);
                    rounds = 0;
                    continue;
                }
            }
            if let Some((entry, priority, from)) = self.leapfrog(target) {
                self.run_nested(entry, priority, Source::Stolen { from });
                rounds = 0;
                continue;
            }
            if asked.is_none() {
                if let Leapfrog::Runner { worker, .. } = target.leapfrog() {
                    if worker != self.index() {
                        self.shared.slots[worker].request_promotions(true);
                        asked = Some(worker);
                    }
                }
            }
            if rounds < SPIN_ROUNDS {
                for _ in 0..(1u32 << rounds) {
                    std::hint::spin_loop();
                }
                rounds += 1;
                continue;
            }
            self.park(target);
            rounds = 0;
        }
        if let Some(worker) = asked {
            self.shared.slots[worker].request_promotions(false);
        }
    }

    /// Parks until the target is done or a worker it may leapfrog pushed
    /// work (either may also end the park spuriously).
    fn park(&self, target: &Target<'_>) {
        let me = self.index();
        let slots = &self.shared.slots;
        let watched = match target.leapfrog() {
            Leapfrog::Runner { worker, .. } if worker != me => worker..worker + 1,
            Leapfrog::Scope { .. } => 0..slots.len(),
            _ => 0..0,
        };
        let watched = || watched.clone().filter(|&w| w != me);
        for worker in watched() {
            slots[worker].park_leapfrogger(me, true);
        }
        // After the fences in `park_leapfrogger`: a push made before them is
        // seen here; one made after sees our bit and unparks us.
        let queues = &self.shared.queues;
        if !target.is_done() && watched().all(|w| queues.is_worker_empty(w)) {
            // Parked, this worker takes no queued work: if every worker of
            // the runtime is waiting, a compensating one takes over
            // (`COMPENSATION.md`).
            self.shared.waiting(|| target.park_once());
        }
        for worker in watched() {
            slots[worker].park_leapfrogger(me, false);
        }
    }

    /// Step 2 of the wait: one steal from a worker whose deques hold only
    /// the target's work.
    fn leapfrog(&self, target: &Target<'_>) -> Option<(Entry, Priority, usize)> {
        match target.leapfrog() {
            Leapfrog::Runner { worker, unit } if worker != self.index() => {
                self.lease_steal(worker, |clean| clean.unit == unit)
            }
            Leapfrog::Scope { scope } => (0..self.shared.slots.len())
                .filter(|&w| w != self.index())
                .find_map(|w| self.lease_steal(w, |clean| clean.scope == scope)),
            _ => None,
        }
    }

    fn lease_steal(
        &self,
        victim: usize,
        matches: impl FnOnce(crate::worker_slot::CleanUnit) -> bool,
    ) -> Option<(Entry, Priority, usize)> {
        let queues = &self.shared.queues;
        if queues.is_worker_empty(victim) {
            return None;
        }
        let (entry, priority) =
            self.shared.slots[victim].lease(matches, || queues.steal_from(victim))?;
        Some((entry, priority, victim))
    }

    /// A task of this runtime is being joined on this worker: take it back
    /// from the top of the deque if it is there (it was just spawned), else
    /// run it inline if it has not started, else wait for it, helping.
    fn join_task(&self, task: &dyn TaskCore) {
        if self.is_stopping() && !task.in_scope() {
            // Nothing more starts; a task still queued is cancelled (its
            // queue entry, when taken, counts it). A task of a scope still
            // runs: its scope waits for it.
            task.cancel();
        }
        if task.is_finished() || self.take_back(task.id()) {
            return;
        }
        let priority = self.priority();
        let tag = self.tag();
        let observed = self
            .observing()
            .then(|| self.started((task.id(), task.stamp()), priority, (Source::Joiner, true)));
        let ran = TaskSpan::here().wrap(priority, self.index(), |wrapper| {
            self.run_unit(task.id(), Some(0), priority, || {
                task.run_inline(tag, wrapper)
            })
        });
        if let Some(run) = observed {
            // `Skipped` if somebody else had the task: this was not a run.
            self.finished(run, priority, ran.unwrap_or(RunOutcome::Skipped));
        }
        if let Some(outcome) = ran {
            self.count(outcome);
            return;
        }
        if task.runner_tag() == Some(self.tag()) {
            // Running on this very worker, so on this thread's stack below
            // the join: it cannot go on before the join returns.
            panic!(
                "JoinHandle::join called inside the task it joins (or inside work that task \
                 runs while it waits): the task would wait for itself forever"
            );
        }
        self.wait_for(&Target::Task(task));
    }

    /// Looks for task `id` at the top of this unit's part of each deque,
    /// discarding finished entries on the way; runs it if found.
    fn take_back(&self, id: usize) -> bool {
        let base = self.unit_base();
        for priority in Priority::ALL {
            while let Some(entry) = self.queues().pop_above(priority, base) {
                match entry {
                    Entry::Task(job, span) if job.id() == id => {
                        self.run_nested(Entry::Task(job, span), priority, Source::Helping);
                        return true;
                    }
                    Entry::Task(job, _) if job.is_finished() => {
                        // A task another joiner ran inline (or one cancelled
                        // through its handle): its entry ends here.
                        let outcome = job.discard();
                        self.count(outcome);
                    }
                    other => {
                        // Not ours and still live: put it back where it was.
                        self.queues().push(priority, other);
                        break;
                    }
                }
            }
        }
        false
    }
}

impl WaitHelp for WorkerContext {
    fn join(&self, task: &dyn TaskCore) {
        if self.in_unit() {
            self.join_task(task);
        }
    }

    fn block(&self, wait: &mut dyn FnMut()) {
        self.shared.waiting(wait);
    }

    fn run_one(&self) -> bool {
        if !self.in_unit() {
            return false;
        }
        match self.queues().pop_above_any(self.unit_base()) {
            Some((entry, priority)) => {
                self.run_nested(entry, priority, Source::Helping);
                true
            }
            None => false,
        }
    }
}
