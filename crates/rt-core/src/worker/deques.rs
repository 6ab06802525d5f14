//! A worker's own deques, and the *marks* that tell a unit of work's own
//! entries from older ones (`JOIN_HELPING.md`, rule 2).

use std::cell::Cell;

use rt_queue::{Found, GlobalQueues, Priority, TaskSource, WorkerQueues};

/// Where a worker's own deques stood when a unit of work began: for each
/// priority, the worker's pushes minus its own pops so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Marks([isize; Priority::COUNT]);

/// The worker's private half of the queues, with its net pushes per deque:
/// this worker's pushes minus its own pops that took an entry. Thieves, and
/// batches moved in from an injector, leave the count alone, so a unit that
/// recorded the count when it began ([`marks`](Self::marks)) can tell
/// whether the newest entry is its own, however many older entries thieves
/// took meanwhile ([`pop_above`](Self::pop_above)).
pub(crate) struct OwnDeques<T> {
    queues: WorkerQueues<T>,
    net_pushes: [Cell<isize>; Priority::COUNT],
}

impl<T> OwnDeques<T> {
    pub(crate) fn new(queues: WorkerQueues<T>) -> Self {
        Self {
            queues,
            net_pushes: Default::default(),
        }
    }

    /// The queues without the counts, for what does not pop its own end.
    pub(crate) fn queues(&self) -> &WorkerQueues<T> {
        &self.queues
    }

    /// Pushes an entry made on this worker.
    #[inline(always)]
    pub(crate) fn push(&self, priority: Priority, entry: T) {
        self.queues.push(priority, entry);
        let net = &self.net_pushes[priority.index()];
        net.set(net.get() + 1);
    }

    /// The next entry for the main loop, looking at the classes in `order`
    /// (`WorkerQueues::find_in`), keeping the counts true.
    #[inline(always)]
    pub(crate) fn find(
        &self,
        global: &GlobalQueues<T>,
        order: [Priority; Priority::COUNT],
    ) -> Option<Found<T>> {
        let found = self.queues.find_in(global, order);
        self.count_taken(&found);
        found
    }

    /// Counts a found entry that came from the own deques as popped. It
    /// looks at the entry in place: passing it through by value made a
    /// user's build (no LTO) copy it twice per task.
    #[inline(always)]
    fn count_taken(&self, found: &Option<Found<T>>) {
        if let Some(Found {
            source: TaskSource::OwnDeque,
            priority,
            ..
        }) = found
        {
            let net = &self.net_pushes[priority.index()];
            net.set(net.get() - 1);
        }
    }

    /// Where the deques stand: recorded when a unit of work begins.
    #[inline]
    pub(crate) fn marks(&self) -> Marks {
        Marks(self.net_pushes.each_ref().map(Cell::get))
    }

    /// Pops the newest entry of the deque at `priority` if it was pushed
    /// since `marks` were taken (and the owner has not popped it).
    ///
    /// Why that is "the net count of pushes grew": the entries a deque
    /// holds are the newest pushed and not popped by the owner (thieves
    /// take the oldest), so if the owner pushed more than it popped since
    /// `marks`, the newest entry it holds, if any, is one of those, however
    /// many of the older ones thieves took meanwhile; if not, every entry
    /// it holds is older. (Comparing lengths instead would miss a unit's
    /// own entries once thieves had taken older ones.) Only the owner's
    /// pushes and pops inside the unit change the count, so it never drops
    /// below the mark there.
    #[inline]
    pub(crate) fn pop_above(&self, priority: Priority, marks: Marks) -> Option<T> {
        if !self.pushed_since(priority, marks) {
            return None;
        }
        let entry = self.queues.pop(priority)?;
        let net = &self.net_pushes[priority.index()];
        net.set(net.get() - 1);
        Some(entry)
    }

    /// Pops the newest entry of the deque at `priority`, whichever unit
    /// pushed it: only where no unit runs (an adopted thread between its
    /// calls into the runtime), since inside one it could take an entry an
    /// enclosing unit counts as its own.
    #[inline]
    pub(crate) fn pop(&self, priority: Priority) -> Option<T> {
        let entry = self.queues.pop(priority)?;
        let net = &self.net_pushes[priority.index()];
        net.set(net.get() - 1);
        Some(entry)
    }

    /// [`pop_above`](Self::pop_above) over every priority, High first.
    #[inline]
    pub(crate) fn pop_above_any(&self, marks: Marks) -> Option<(T, Priority)> {
        Priority::ALL
            .into_iter()
            .find_map(|p| self.pop_above(p, marks).map(|entry| (entry, p)))
    }

    /// Whether the deque at `priority` holds an entry pushed since `marks`
    /// were taken (a racy look: a thief may take it right after).
    #[inline]
    pub(crate) fn holds_above(&self, priority: Priority, marks: Marks) -> bool {
        self.pushed_since(priority, marks) && !self.queues.is_empty_at(priority)
    }

    fn pushed_since(&self, priority: Priority, marks: Marks) -> bool {
        self.net_pushes[priority.index()].get() > marks.0[priority.index()]
    }

    /// True when every deque of this worker is empty.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.queues.is_empty()
    }
}
