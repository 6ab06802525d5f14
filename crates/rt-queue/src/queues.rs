//! The priority classes, the set of classes seen, the per-priority queues
//! and the search order a worker follows: one file, since every push and
//! every scan uses all of them.

use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{fence, AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crossbeam_deque::{Injector, Steal, Stealer, Worker};

/// A task [`WorkerQueues::find`] found: the task, where it was, and the
/// priority of the queue it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Found<T> {
    /// The task.
    pub task: T,
    /// Where it was.
    pub source: TaskSource,
    /// The priority of the queue it came from.
    pub priority: Priority,
    /// For a task stolen from a peer ([`TaskSource::Stolen`]): that peer's
    /// index.
    pub victim: Option<usize>,
}

/// How a scan takes from an injector.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Take {
    /// A batch into the own deque, for Normal and Background tasks.
    Batch,
    /// One task.
    One,
}

/// Where [`WorkerQueues::find`] found a task.
///
/// A runtime uses it to count steals; `OwnDeque` and `Injector` are the
/// cheap, expected cases. The work-stealing runtime's execution trace
/// (`rt_core::Source`) names these three places the same way, beside the
/// ways a task runs that no `find` reports (helping inside a join, run by
/// its joiner).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskSource {
    /// The worker's own deque (a task it spawned, or one of a batch it took).
    OwnDeque,
    /// A global injector (an external submission), possibly with a batch.
    Injector,
    /// Another worker's deque, taken by a single steal.
    Stolen,
}

/// The queues every worker and submitter can reach: one injector per
/// priority, and a stealer for each worker's deque of each priority.
///
/// Create with [`work_queues`], which also returns each worker's private
/// half; [`work_queues_up_to`] leaves room for workers added later
/// ([`add_worker`](Self::add_worker)).
pub struct GlobalQueues<T> {
    injectors: [Injector<T>; Priority::COUNT],
    /// One entry per worker that can ever exist; the first `workers` are set.
    stealers: Box<[OnceLock<[Stealer<T>; Priority::COUNT]>]>,
    /// Workers whose stealers are set: every scan looks at `0..workers`.
    workers: AtomicUsize,
    /// Serialises `add_worker`.
    adding: Mutex<()>,
    /// Whether Normal and Background tasks leave an injector in batches.
    batches: bool,
    /// What the workers' halves share with this one.
    shared: Arc<Shared>,
}

/// What every worker's half and the global half share: the classes that
/// have seen work, and the hand-shake between a drain and the batches
/// workers move out of the injectors.
struct Shared {
    /// Every class that was ever pushed to (a [`ClassSet`]'s byte). Set
    /// before the push and never cleared, so a scan skips the classes that
    /// never had work: a runtime that only ever sees one class pays for
    /// one.
    seen: AtomicU8,
    /// Set while [`GlobalQueues::drain`] runs: workers take one task at a
    /// time from the injectors instead of batches.
    draining: AtomicBool,
    /// Per worker: a batch is on its way from an injector into the
    /// worker's deque, where neither the injector nor the deque shows it.
    batching: Box<[Batching]>,
}

/// One worker's `batching` flag, on a cache line of its own.
#[repr(align(128))]
struct Batching(AtomicBool);

impl Shared {
    /// Records that `class` has work, before that work is pushed.
    #[inline(always)]
    fn saw(&self, class: Priority) {
        crate::path_step!();
        let bit = ClassSet::of(class).bits();
        // Relaxed: a scan that misses the bit skips the class once; the
        // search goes on, and the re-check before sleeping
        // (`sees_work`) looks at every class whatever the set says.
        if self.seen.load(Ordering::Relaxed) & bit == 0 {
            self.seen.fetch_or(bit, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn seen(&self) -> ClassSet {
        crate::path_step!();
        ClassSet::from_bits(self.seen.load(Ordering::Relaxed))
    }
}

/// One worker's private half: its three local deques (one per priority).
///
/// `WorkerQueues` is `Send` but not `Sync`: only the owning thread pushes and
/// pops; everyone else goes through the stealers in [`GlobalQueues`].
pub struct WorkerQueues<T> {
    index: usize,
    deques: [Worker<T>; Priority::COUNT],
    /// Where the next peer scan starts, so that repeated scans spread their
    /// steals over the victims instead of always draining worker 0 first.
    next_victim: Cell<usize>,
    /// What the halves share (`GlobalQueues::shared`).
    shared: Arc<Shared>,
}

/// Creates the global half and `workers` private halves, indexed `0..workers`.
///
/// Local deques are LIFO for their owner (the newest task, whose data is
/// still in cache, runs first) and FIFO for thieves (the oldest is stolen).
///
/// ```
/// use rt_queue::{work_queues, Priority, TaskSource};
///
/// let (global, mut locals) = work_queues::<&str>(2);
/// global.push(Priority::Normal, "external");
/// let found = locals[0].find(&global).unwrap();
/// assert_eq!((found.task, found.source), ("external", TaskSource::Injector));
/// ```
pub fn work_queues<T>(workers: usize) -> (GlobalQueues<T>, Vec<WorkerQueues<T>>) {
    work_queues_up_to(workers, workers)
}

/// Like [`work_queues`], with room for up to `max_workers` workers in all:
/// [`GlobalQueues::add_worker`] adds the others later, one at a time.
///
/// ```
/// use rt_queue::{work_queues_up_to, Priority};
///
/// let (global, locals) = work_queues_up_to::<u32>(1, 2);
/// assert_eq!((locals.len(), global.workers()), (1, 1));
/// let late = global.add_worker(1).expect("room for a second worker");
/// late.push(Priority::Normal, 7);
/// assert_eq!(global.steal_from(1), Some((7, Priority::Normal)));
/// assert!(global.add_worker(1).is_none(), "worker 1 exists");
/// assert!(global.add_worker(2).is_none(), "no room for a third");
/// ```
///
/// # Panics
///
/// If `max_workers < workers`.
pub fn work_queues_up_to<T>(
    workers: usize,
    max_workers: usize,
) -> (GlobalQueues<T>, Vec<WorkerQueues<T>>) {
    assert!(
        max_workers >= workers,
        "room for fewer workers than created"
    );
    let global = GlobalQueues {
        injectors: [Injector::new(), Injector::new(), Injector::new()],
        stealers: (0..max_workers).map(|_| OnceLock::new()).collect(),
        workers: AtomicUsize::new(0),
        adding: Mutex::new(()),
        batches: true,
        shared: Arc::new(Shared {
            seen: AtomicU8::new(0),
            draining: AtomicBool::new(false),
            batching: (0..max_workers)
                .map(|_| Batching(AtomicBool::new(false)))
                .collect(),
        }),
    };
    let locals = (0..workers)
        .map(|index| {
            global
                .add_worker(index)
                .expect("room for the initial workers")
        })
        .collect();
    (global, locals)
}

impl<T> GlobalQueues<T> {
    /// Adds worker `index`: its private half. `None` when the queues have
    /// no room for it (see [`work_queues_up_to`]) or it was added already.
    /// Workers may be added in any order; its stealers are visible to every
    /// scan that starts after this returns.
    pub fn add_worker(&self, index: usize) -> Option<WorkerQueues<T>> {
        let _adding = self.adding.lock().unwrap_or_else(|e| e.into_inner());
        let entry = self.stealers.get(index)?;
        if entry.get().is_some() {
            return None;
        }
        let local = WorkerQueues {
            index,
            deques: [Worker::new_lifo(), Worker::new_lifo(), Worker::new_lifo()],
            next_victim: Cell::new(index + 1),
            shared: Arc::clone(&self.shared),
        };
        if entry
            .set(local.deques.each_ref().map(Worker::stealer))
            .is_err()
        {
            unreachable!("each index is added once, under the lock");
        }
        // Release pairs with the Acquire in `peers` and `workers`: a scan
        // that counts this index finds its stealers set (or skips an
        // index below it that is not added yet).
        self.workers.fetch_max(index + 1, Ordering::Release);
        Some(local)
    }

    /// The stealers of every worker added so far, with their indexes.
    #[inline]
    fn peers(&self) -> impl Iterator<Item = (usize, &[Stealer<T>; Priority::COUNT])> + Clone {
        let added = self.workers.load(Ordering::Acquire);
        self.stealers[..added]
            .iter()
            .enumerate()
            .filter_map(|(index, entry)| Some((index, entry.get()?)))
    }

    /// Queues an external submission on the injector of its priority.
    #[inline]
    pub fn push(&self, priority: Priority, task: T) {
        crate::path_step!();
        self.shared.saw(priority);
        self.injectors[priority.index()].push(task);
    }

    /// The classes that have ever been pushed to (every push records its
    /// class first): the classes a scan looks at.
    #[inline]
    pub fn classes_seen(&self) -> ClassSet {
        self.shared.seen()
    }

    /// Makes workers take every task from an injector one at a time, never in
    /// a batch. Then each externally submitted task leaves the injectors
    /// through a `find` that reports [`TaskSource::Injector`], which is what
    /// a runtime counting queued external tasks (a bounded queue) needs.
    pub fn without_injector_batches(mut self) -> Self {
        self.batches = false;
        self
    }

    /// One more than the highest index of a worker added so far: the
    /// number of workers when they were added in order.
    pub fn workers(&self) -> usize {
        self.workers.load(Ordering::Acquire)
    }

    /// The most workers these queues have room for.
    pub fn max_workers(&self) -> usize {
        self.stealers.len()
    }

    /// The stealers of worker `worker`, if it was added.
    fn stealers_of(&self, worker: usize) -> Option<&[Stealer<T>; Priority::COUNT]> {
        self.stealers.get(worker).and_then(OnceLock::get)
    }

    /// Tasks waiting in worker `worker`'s own deques, all priorities (a
    /// racy but recent count; 0 for a worker not added).
    pub fn worker_len(&self, worker: usize) -> usize {
        self.stealers_of(worker)
            .map_or(0, |s| s.iter().map(Stealer::len).sum())
    }

    /// Tasks waiting at `priority`, in the injector and every local deque.
    ///
    /// A racy snapshot: exact only when nothing pushes or pops concurrently.
    pub fn len(&self, priority: Priority) -> usize {
        let p = priority.index();
        self.injectors[p].len() + self.peers().map(|(_, s)| s[p].len()).sum::<usize>()
    }

    /// Tasks waiting in the injector of `priority` alone: a racy look that
    /// reads two indexes, whatever the number of workers.
    ///
    /// ```
    /// use rt_queue::{work_queues, Priority};
    ///
    /// let (global, locals) = work_queues::<u32>(2);
    /// global.push(Priority::Normal, 1);
    /// locals[0].push(Priority::Normal, 2);
    /// assert_eq!(global.injected(Priority::Normal), 1);
    /// assert_eq!(locals[0].len_at(Priority::Normal), 1);
    /// assert_eq!(global.len(Priority::Normal), 2);
    /// ```
    #[inline]
    pub fn injected(&self, priority: Priority) -> usize {
        crate::path_step!();
        self.injectors[priority.index()].len()
    }

    /// True when no queue holds a task (a racy snapshot, like [`len`](Self::len)).
    pub fn is_empty(&self) -> bool {
        crate::path_step!();
        self.injectors.iter().all(Injector::is_empty)
            && self.peers().all(|(_, s)| s.iter().all(Stealer::is_empty))
    }

    /// True when worker `victim`'s own deques are all empty (a racy
    /// snapshot).
    pub fn is_worker_empty(&self, victim: usize) -> bool {
        self.stealers_of(victim)
            .is_none_or(|s| s.iter().all(Stealer::is_empty))
    }

    /// One steal from worker `victim`'s own deques, High first (retrying a
    /// deque that reported a lost race), with the priority it came from.
    pub fn steal_from(&self, victim: usize) -> Option<(T, Priority)> {
        let stealers = self.stealers_of(victim)?;
        for p in Priority::ALL {
            loop {
                match stealers[p.index()].steal() {
                    Steal::Success(task) => return Some((task, p)),
                    Steal::Retry => std::hint::spin_loop(),
                    Steal::Empty => break,
                }
            }
        }
        None
    }

    /// Takes any one task, most urgent first, from the injectors and then
    /// from any worker's deque, saying where it was. For draining queues
    /// from outside the workers (cancelling everything that is queued).
    pub fn steal_any(&self) -> Option<Found<T>> {
        self.steal_among(ClassSet::ALL)
    }

    /// [`steal_any`](Self::steal_any) among `classes`: one task, most
    /// urgent first, from the injectors and then from the *oldest* end of
    /// any worker's deque, the caller's own included. What a worker takes
    /// for work that is not its running unit's (a more urgent task at a
    /// checkpoint, a task it yields to): a steal leaves the owner's newest
    /// entries, which its units count as theirs, where they are.
    ///
    /// ```
    /// use rt_queue::{work_queues, ClassSet, Priority};
    ///
    /// let (global, locals) = work_queues::<&str>(2);
    /// locals[0].push(Priority::High, "older");
    /// locals[0].push(Priority::High, "newer");
    /// global.push(Priority::Background, "batch");
    /// let urgent = ClassSet::more_urgent_than(Priority::Background);
    /// assert_eq!(global.steal_among(urgent).unwrap().task, "older");
    /// assert_eq!(locals[0].pop(Priority::High), Some("newer"));
    /// assert!(global.steal_among(urgent).is_none());
    /// ```
    pub fn steal_among(&self, classes: ClassSet) -> Option<Found<T>> {
        for p in classes.iter() {
            // A `Retry` (a lost race, or a spurious CAS failure) means this
            // priority may still hold a task: try it again before looking at
            // a less urgent one, or a Background task could overtake it.
            loop {
                let mut retry = false;
                let found = |task, source, victim| Found {
                    task,
                    source,
                    priority: p,
                    victim,
                };
                match self.injectors[p.index()].steal() {
                    Steal::Success(task) => return Some(found(task, TaskSource::Injector, None)),
                    Steal::Retry => retry = true,
                    Steal::Empty => {}
                }
                for (victim, stealers) in self.peers() {
                    match stealers[p.index()].steal() {
                        Steal::Success(task) => {
                            return Some(found(task, TaskSource::Stolen, Some(victim)))
                        }
                        Steal::Retry => retry = true,
                        Steal::Empty => {}
                    }
                }
                if !retry {
                    break;
                }
            }
        }
        None
    }

    /// Takes every task queued, handing each to `each`, most urgent first:
    /// what a runtime that cancels its queued work calls. Every task pushed
    /// before the call (and not taken by a worker meanwhile) reaches
    /// `each`, including a batch a worker was moving from an injector into
    /// its own deque when the drain began: the drain waits for the batch to
    /// land and takes it from there. While it runs, workers take one task
    /// at a time from the injectors. Tasks pushed during the drain may or
    /// may not reach `each`.
    ///
    /// ```
    /// use rt_queue::{work_queues, Priority};
    ///
    /// let (global, locals) = work_queues::<u32>(2);
    /// global.push(Priority::Background, 1);
    /// locals[1].push(Priority::High, 2);
    /// let mut drained = Vec::new();
    /// global.drain(|found| drained.push((found.task, found.priority)));
    /// assert_eq!(drained, [(2, Priority::High), (1, Priority::Background)]);
    /// assert!(global.is_empty());
    /// ```
    pub fn drain(&self, mut each: impl FnMut(Found<T>)) {
        let shared = &*self.shared;
        // Pairs with the fence in `take_batch` (Dekker's pattern): of the
        // two fences one comes first. If ours does, the worker's load of
        // `draining` sees it and it takes no batch; if the worker's does,
        // our loads of `batching` below (after our fence) see its flag,
        // and we wait for the batch to land.
        shared.draining.store(true, Ordering::Relaxed);
        fence(Ordering::SeqCst);
        while let Some(found) = self.steal_any() {
            each(found);
        }
        let mut waited = false;
        for batching in &shared.batching[..self.workers()] {
            // Acquire pairs with the Release that ends the batch: the
            // batch is in the worker's deque, where the steals below see
            // it.
            while batching.0.load(Ordering::Acquire) {
                waited = true;
                std::thread::yield_now();
            }
        }
        if waited {
            while let Some(found) = self.steal_any() {
                each(found);
            }
        }
        shared.draining.store(false, Ordering::Relaxed);
    }
}

impl<T> WorkerQueues<T> {
    /// This worker's index (its position in the vector from [`work_queues`]).
    pub fn index(&self) -> usize {
        self.index
    }

    /// Pushes a task spawned by this worker onto its own deque.
    #[inline]
    pub fn push(&self, priority: Priority, task: T) {
        crate::path_step!();
        self.shared.saw(priority);
        self.deques[priority.index()].push(task);
    }

    /// Pops the newest task of this worker's deque at `priority` (the
    /// owner's end, where the last push went).
    #[inline(always)]
    pub fn pop(&self, priority: Priority) -> Option<T> {
        self.deques[priority.index()].pop()
    }

    /// True when this worker's deque at `priority` is empty (a racy look:
    /// thieves may take from it meanwhile).
    #[inline]
    pub fn is_empty_at(&self, priority: Priority) -> bool {
        self.deques[priority.index()].is_empty()
    }

    /// Number of tasks in this worker's own deque at `priority` (a racy
    /// look: thieves may take from it meanwhile).
    #[inline]
    pub fn len_at(&self, priority: Priority) -> usize {
        self.deques[priority.index()].len()
    }

    /// Number of tasks in this worker's own deques, all priorities.
    pub fn len(&self) -> usize {
        self.deques.iter().map(Worker::len).sum()
    }

    /// True when this worker's own deques are empty.
    pub fn is_empty(&self) -> bool {
        crate::path_step!();
        self.deques.iter().all(Worker::is_empty)
    }

    /// Finds the next task for this worker, or `None` when every queue it can
    /// see was empty during the scan.
    ///
    /// The search order is:
    ///
    /// 1. for each priority from High to Background: the own deque of that
    ///    priority, then that priority's injector (for Normal and Background
    ///    taking a batch into the own deque, so later pops are local; High
    ///    tasks one at a time, so they stay visible to every worker);
    /// 2. only when all of those were empty: a single steal from each peer,
    ///    High first, starting at a different victim on each call.
    ///
    /// So a High task queued anywhere visible to step 1 is always taken before
    /// any Normal or Background task, even one that already sits in this
    /// worker's own deque.
    #[inline]
    pub fn find(&self, global: &GlobalQueues<T>) -> Option<Found<T>> {
        self.find_in(global, Priority::ALL)
    }

    /// [`find`](Self::find) with the classes looked at in `order` instead
    /// of most urgent first (a weighted policy's choice, `ClassShares`):
    /// step 1 goes through the classes in that order, and so do the steals
    /// of step 2.
    // Always inlined: with the order a constant (`find`), the loop unrolls
    // and the per-class index arithmetic folds away.
    #[inline(always)]
    pub fn find_in(
        &self,
        global: &GlobalQueues<T>,
        order: [Priority; Priority::COUNT],
    ) -> Option<Found<T>> {
        crate::path_step!();
        let seen = self.shared.seen();
        for p in order {
            // A class that never had work has none now: not even a load
            // of its queues.
            if !seen.contains(p) {
                continue;
            }
            if let Some(found) = self.take_local_or_injected(global, p, Take::Batch) {
                return Some(found);
            }
        }
        self.steal_from_peers(global, order.map(|p| seen.contains(p).then_some(p)))
    }

    /// The next task of one of `classes`, most urgent first, as
    /// [`find`](Self::find) looks for it but one task at a time from the
    /// injectors: what a worker running a task of a less urgent class takes
    /// when it lets more urgent work run first.
    ///
    /// ```
    /// use rt_queue::{work_queues, ClassSet, Priority};
    ///
    /// let (global, locals) = work_queues::<&str>(2);
    /// global.push(Priority::Background, "batch job");
    /// let urgent = ClassSet::more_urgent_than(Priority::Background);
    /// assert!(locals[0].find_among(&global, urgent).is_none());
    /// locals[1].push(Priority::High, "request");
    /// assert_eq!(locals[0].find_among(&global, urgent).unwrap().task, "request");
    /// ```
    pub fn find_among(&self, global: &GlobalQueues<T>, classes: ClassSet) -> Option<Found<T>> {
        let classes = classes.intersection(self.shared.seen());
        if classes.is_empty() {
            return None;
        }
        for p in classes.iter() {
            if let Some(found) = self.take_local_or_injected(global, p, Take::One) {
                return Some(found);
            }
        }
        let mut order = [None; Priority::COUNT];
        for (slot, p) in order.iter_mut().zip(classes.iter()) {
            *slot = Some(p);
        }
        self.steal_from_peers(global, order)
    }

    /// The newest task of the own deque of class `p`, else the oldest of
    /// its injector (with a batch behind it into the own deque if `take`
    /// allows and the class is not High).
    #[inline(always)]
    fn take_local_or_injected(
        &self,
        global: &GlobalQueues<T>,
        p: Priority,
        take: Take,
    ) -> Option<Found<T>> {
        crate::path_step!();
        let found = |task, source| Found {
            task,
            source,
            priority: p,
            victim: None,
        };
        let local = &self.deques[p.index()];
        // `is_empty` is two inlined loads; `pop` is a call, and most
        // scans find most deques empty.
        if !local.is_empty() {
            if let Some(task) = self.pop(p) {
                return Some(found(task, TaskSource::OwnDeque));
            }
        }
        let injector = &global.injectors[p.index()];
        // `is_empty` is two loads; an empty `steal_batch_and_pop` costs a
        // full fence, and most scans find most injectors empty.
        while !injector.is_empty() {
            // High tasks are taken one at a time: a batch would park the
            // rest in this worker's deque, where a peer that finishes
            // first would not see them before turning to Normal work.
            let stolen = if p == Priority::High || !global.batches || take == Take::One {
                injector.steal()
            } else {
                self.take_batch(injector, local)
            };
            match stolen {
                Steal::Success(task) => return Some(found(task, TaskSource::Injector)),
                Steal::Empty => return None,
                Steal::Retry => std::hint::spin_loop(),
            }
        }
        None
    }

    /// Moves a batch from `injector` into `local` and pops one of it,
    /// flagged in `batching` meanwhile so that a drain waits for the batch
    /// to land; a single task while a drain runs.
    #[inline]
    fn take_batch(&self, injector: &Injector<T>, local: &Worker<T>) -> Steal<T> {
        crate::path_step!();
        let shared = &*self.shared;
        let batching = &shared.batching[self.index].0;
        batching.store(true, Ordering::Relaxed);
        // Pairs with the fence in `GlobalQueues::drain` (see there).
        fence(Ordering::SeqCst);
        if shared.draining.load(Ordering::Relaxed) {
            batching.store(false, Ordering::Relaxed);
            return injector.steal();
        }
        let stolen = injector.steal_batch_and_pop(local);
        // Release pairs with the drain's Acquire: the batch is in `local`
        // before the drain can see the flag clear.
        batching.store(false, Ordering::Release);
        stolen
    }

    /// One steal attempt from each peer, class by class in `order` (the
    /// classes to look at, most wanted first), from a rotating start.
    fn steal_from_peers(
        &self,
        global: &GlobalQueues<T>,
        order: [Option<Priority>; Priority::COUNT],
    ) -> Option<Found<T>> {
        let n = global.workers();
        if n <= 1 {
            return None;
        }
        let start = self.next_victim.get() % n;
        self.next_victim.set(start + 1);
        loop {
            let mut retry = false;
            for p in order.into_iter().flatten() {
                for offset in 0..n {
                    let victim = (start + offset) % n;
                    if victim == self.index {
                        continue;
                    }
                    let Some(stealers) = global.stealers_of(victim) else {
                        continue;
                    };
                    match stealers[p.index()].steal() {
                        Steal::Success(task) => {
                            return Some(Found {
                                task,
                                source: TaskSource::Stolen,
                                priority: p,
                                victim: Some(victim),
                            })
                        }
                        Steal::Retry => retry = true,
                        Steal::Empty => {}
                    }
                }
            }
            if !retry {
                return None;
            }
        }
    }

    /// Which classes have runnable work this worker could take (its own
    /// deque, the injector, a peer's deque), indexed by
    /// [`Priority::index`]. A racy look (a few loads per class and peer):
    /// what a weighted policy needs to decide between classes.
    pub fn has_work(&self, global: &GlobalQueues<T>) -> [bool; Priority::COUNT] {
        crate::path_step!();
        let class = |p: Priority| {
            let i = p.index();
            !self.deques[i].is_empty()
                || !global.injectors[i].is_empty()
                || global
                    .peers()
                    .any(|(victim, stealers)| victim != self.index && !stealers[i].is_empty())
        };
        Priority::ALL.map(class)
    }

    /// Whether a task of one of `classes` waits in this worker's own deques
    /// or in an injector (two loads per deque; peers' deques are not
    /// looked at): what a worker checks at a fork before it lets more
    /// urgent work run first.
    #[inline]
    pub fn holds_any_of(&self, global: &GlobalQueues<T>, classes: ClassSet) -> bool {
        classes
            .iter()
            .any(|p| !self.deques[p.index()].is_empty() || !global.injectors[p.index()].is_empty())
    }

    /// True when a scan by this worker could find a task right now: its own
    /// deques, the injectors or any peer's deque hold one. Cheaper than
    /// [`find`](Self::find) and takes nothing; used to re-check for work after
    /// announcing sleep.
    pub fn sees_work(&self, global: &GlobalQueues<T>) -> bool {
        crate::path_step!();
        !self.is_empty() || !global.is_empty()
    }
}

impl<T> fmt::Debug for GlobalQueues<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("GlobalQueues");
        d.field("workers", &self.workers());
        for p in Priority::ALL {
            d.field(
                match p {
                    Priority::High => "queued_high",
                    Priority::Normal => "queued_normal",
                    Priority::Background => "queued_background",
                },
                &self.len(p),
            );
        }
        d.finish()
    }
}

impl<T> fmt::Debug for WorkerQueues<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorkerQueues")
            .field("index", &self.index)
            .field("queued", &self.len())
            .finish()
    }
}

// The three priority classes and the order in which they are scanned.

/// A task's priority class.
///
/// The discriminant is the class's index into per-priority arrays, so
/// `queues[Priority::High as usize]` (or [`Priority::index`]) addresses the
/// High queue. Lower index means more urgent.
///
/// ```
/// use rt_queue::Priority;
///
/// assert_eq!(Priority::ALL, [Priority::High, Priority::Normal, Priority::Background]);
/// assert_eq!(Priority::Normal.index(), 1);
/// assert_eq!(Priority::default(), Priority::Normal);
/// ```
#[repr(usize)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Priority {
    /// Latency-sensitive work: runs before anything else that is queued.
    #[doc(alias = "Urgent")]
    High = 0,
    /// The default class.
    #[default]
    #[doc(alias = "Medium")]
    Normal = 1,
    /// Work that should only use otherwise idle time.
    #[doc(alias("Low", "Idle"))]
    Background = 2,
}

impl Priority {
    /// Number of priority classes (the length of every per-priority array).
    pub const COUNT: usize = 3;

    /// Every class, most urgent first: the order in which workers look for
    /// work under the strict policy.
    pub const ALL: [Priority; Priority::COUNT] =
        [Priority::High, Priority::Normal, Priority::Background];

    /// The old name of [`Priority::ALL`].
    #[deprecated(since = "0.2.0", note = "renamed `Priority::ALL`")]
    pub const SCAN_ORDER: [Priority; Priority::COUNT] = Priority::ALL;

    /// The class's index into per-priority arrays (`0` is High).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The class with the given index, or `None` when `index >= COUNT`.
    pub const fn from_index(index: usize) -> Option<Priority> {
        match index {
            0 => Some(Priority::High),
            1 => Some(Priority::Normal),
            2 => Some(Priority::Background),
            _ => None,
        }
    }
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Priority::High => "high",
            Priority::Normal => "normal",
            Priority::Background => "background",
        })
    }
}

#[cfg(test)]
mod priority_tests {
    use super::*;

    #[test]
    fn index_round_trips_through_from_index() {
        for p in Priority::ALL {
            assert_eq!(Priority::from_index(p.index()), Some(p));
        }
        assert_eq!(Priority::from_index(Priority::COUNT), None);
    }

    #[test]
    #[allow(deprecated)]
    fn the_old_name_of_all_still_names_every_class_most_urgent_first() {
        assert_eq!(Priority::SCAN_ORDER, Priority::ALL);
    }

    #[test]
    fn all_is_most_urgent_first() {
        let indices: Vec<usize> = Priority::ALL.iter().map(|p| p.index()).collect();
        assert_eq!(indices, vec![0, 1, 2]);
        assert!(Priority::High < Priority::Normal && Priority::Normal < Priority::Background);
    }
}

// A set of priority classes in one byte.

/// A set of priority classes: which classes a runtime has seen work in,
/// which are more urgent than a running task's. One bit per class, so a
/// set fits in one atomic byte that a worker reads before it scans.
///
/// ```
/// use rt_queue::{ClassSet, Priority};
///
/// let urgent = ClassSet::more_urgent_than(Priority::Background);
/// assert!(urgent.contains(Priority::High) && urgent.contains(Priority::Normal));
/// assert!(!urgent.contains(Priority::Background));
/// assert_eq!(urgent.iter().collect::<Vec<_>>(), [Priority::High, Priority::Normal]);
/// assert!(ClassSet::more_urgent_than(Priority::High).is_empty());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ClassSet(u8);

impl ClassSet {
    /// No class.
    pub const EMPTY: ClassSet = ClassSet(0);
    /// Every class.
    pub const ALL: ClassSet = ClassSet((1 << Priority::COUNT) - 1);

    /// The set holding only `class`.
    #[inline]
    pub const fn of(class: Priority) -> ClassSet {
        ClassSet(1 << class.index())
    }

    /// The classes more urgent than `class` (none for High).
    #[inline]
    pub const fn more_urgent_than(class: Priority) -> ClassSet {
        ClassSet((1 << class.index()) - 1)
    }

    /// Whether `class` is in the set.
    #[inline]
    pub const fn contains(self, class: Priority) -> bool {
        self.0 & (1 << class.index()) != 0
    }

    /// Whether the set holds no class.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The classes in both sets.
    #[inline]
    pub const fn intersection(self, other: ClassSet) -> ClassSet {
        ClassSet(self.0 & other.0)
    }

    /// The classes in either set.
    #[inline]
    pub const fn union(self, other: ClassSet) -> ClassSet {
        ClassSet(self.0 | other.0)
    }

    /// The classes of the set, most urgent first.
    pub fn iter(self) -> impl Iterator<Item = Priority> {
        Priority::ALL.into_iter().filter(move |&p| self.contains(p))
    }

    /// The set's byte, for an atomic that holds it.
    #[inline]
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// The set a byte from [`bits`](Self::bits) holds.
    #[inline]
    pub(crate) const fn from_bits(bits: u8) -> ClassSet {
        ClassSet(bits & ClassSet::ALL.0)
    }
}

impl fmt::Debug for ClassSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod class_set_tests {
    use super::*;

    #[test]
    fn each_class_is_more_urgent_than_exactly_the_ones_after_it() {
        for (i, p) in Priority::ALL.into_iter().enumerate() {
            let urgent: Vec<_> = ClassSet::more_urgent_than(p).iter().collect();
            assert_eq!(urgent, Priority::ALL[..i]);
        }
    }

    #[test]
    fn a_set_holds_what_was_put_in_it_and_nothing_else() {
        let set = ClassSet::of(Priority::High).union(ClassSet::of(Priority::Background));
        assert!(set.contains(Priority::High) && set.contains(Priority::Background));
        assert!(!set.contains(Priority::Normal));
        assert_eq!(format!("{set:?}"), "{High, Background}");
        assert_eq!(ClassSet::from_bits(0xff), ClassSet::ALL);
        assert!(set.intersection(ClassSet::of(Priority::Normal)).is_empty());
    }
}
