//! The execution trace: what each worker ran, when, how it got it, and
//! when it slept, recorded into a bounded buffer per worker between
//! `Runtime::start_trace` and `Runtime::stop_trace`, and written out in the
//! Trace Event Format that Perfetto and `chrome://tracing` open.
//!
//! Recording costs nothing while no trace runs but one Relaxed load per
//! task. While one runs, a worker appends to its own buffer (a lock nobody
//! else takes until `stop_trace`); a full buffer counts the event as
//! dropped and the worker carries on.

use std::collections::{HashMap, HashSet};
#[cfg(feature = "chrome-trace")]
use std::io;
use std::sync::Mutex;

use rt_handle::raw::unpoison;
use rt_handle::raw::{Stamp, TaskId};
use rt_handle::RunOutcome;
use rt_queue::{Priority, TaskSource};
#[cfg(feature = "chrome-trace")]
use serde_json::{json, Value};

use crate::sync::{AtomicBool, Ordering};

/// A task's identity while tracing: its allocation's address and its
/// submission stamp (addresses are reused once a task is freed; the pair
/// is not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Key {
    /// The task's address (`TaskId::get`).
    task: usize,
    /// When it was submitted, in the runtime's clock, if it was stamped.
    pub(crate) stamp: Option<u64>,
}

/// The key of task `task`, submitted at `stamp` (if it was stamped).
pub(crate) fn key(task: TaskId, stamp: Option<Stamp>) -> Key {
    Key {
        task: task.get(),
        stamp: stamp.map(Stamp::get),
    }
}

/// What a worker records.
pub(crate) enum Event {
    /// A task (`parent`, none outside any traced task) running on
    /// `worker` spawned `task`.
    Spawn { task: Key, parent: Option<Key> },
    /// `worker` started `task` at `start`.
    Start {
        task: Key,
        priority: Priority,
        source: Source,
        nested: bool,
        start: u64,
    },
    /// `task`, started on `worker`, ended at `end`. Recorded apart from
    /// the start so that a task that completed just before the trace
    /// stopped (its handle may already have returned) is never missing.
    End {
        task: Key,
        /// The start it ends (a task's stale queue entry starts and ends
        /// too, as `Stale`, besides the joiner's run of it).
        start: u64,
        end: u64,
        outcome: RunOutcome,
    },
    /// `worker` had no work from `start` to `end` (searching or asleep).
    Idle { start: u64, end: u64 },
}

/// How a worker got a task it ran: one of the three places a worker's
/// search finds a task (rt-queue's `TaskSource`, same names; a steal also
/// says from whom), or one of the two ways a task runs without being
/// found by that search (`Helping`, `Joiner`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// Its own deque.
    OwnDeque,
    /// A global injector (an external submission).
    Injector,
    /// Another worker's deque.
    Stolen {
        /// That worker's index.
        from: usize,
    },
    /// Taken from its own deque while waiting inside a task (a join or the
    /// end of a scope): the waiting task's own work.
    Helping,
    /// Run by a joiner on its own thread (`JoinHandle::join` of a task
    /// that had not started).
    Joiner,
}

impl Source {
    /// How the main loop got a task: `victim` is the peer it was stolen
    /// from, for [`TaskSource::Stolen`].
    pub(crate) fn of(source: TaskSource, victim: Option<usize>) -> Self {
        match (source, victim) {
            (TaskSource::OwnDeque, _) => Source::OwnDeque,
            (TaskSource::Injector, _) => Source::Injector,
            (TaskSource::Stolen, from) => Source::Stolen {
                from: from.unwrap_or(usize::MAX),
            },
        }
    }

    #[cfg(feature = "chrome-trace")]
    fn name(self) -> &'static str {
        match self {
            Source::OwnDeque => "own deque",
            Source::Injector => "injector",
            Source::Stolen { .. } => "stolen",
            Source::Helping => "helping",
            Source::Joiner => "joiner",
        }
    }
}

/// The most events a trace keeps per worker: a larger request to
/// [`Runtime::start_trace`](crate::Runtime::start_trace) is clamped to it.
/// Each worker's buffer is allocated in full when the trace starts, so this
/// bounds what a trace can take: an event is at most 64 bytes, so 256 MiB
/// per worker.
pub const MAX_TRACE_EVENTS_PER_WORKER: usize = 1 << 22;

// The bound `MAX_TRACE_EVENTS_PER_WORKER`'s doc gives.
const _: () = assert!(std::mem::size_of::<Event>() <= 64);

/// One worker's buffer.
struct Buffer {
    events: Vec<Event>,
    capacity: usize,
    dropped: u64,
}

/// The runtime's trace state: whether a trace runs, and the buffers.
pub(crate) struct TraceState {
    active: AtomicBool,
    buffers: Box<[Mutex<Buffer>]>,
}

impl TraceState {
    pub(crate) fn new(workers: usize) -> Self {
        Self {
            active: AtomicBool::new(false),
            buffers: (0..workers)
                .map(|_| {
                    Mutex::new(Buffer {
                        events: Vec::new(),
                        capacity: 0,
                        dropped: 0,
                    })
                })
                .collect(),
        }
    }

    /// Whether a trace is being recorded. Relaxed: a worker that sees the
    /// change a little late records a little less.
    #[inline]
    pub(crate) fn is_active(&self) -> bool {
        rt_queue::path_step!();
        self.active.load(Ordering::Relaxed)
    }

    /// Starts a trace with room for `capacity` events per worker, at most
    /// [`MAX_TRACE_EVENTS_PER_WORKER`]; false if one runs already.
    pub(crate) fn start(&self, capacity: usize) -> bool {
        if self.is_active() {
            return false;
        }
        let capacity = capacity.min(MAX_TRACE_EVENTS_PER_WORKER);
        for buffer in self.buffers.iter() {
            let mut buffer = unpoison(buffer.lock());
            buffer.events = Vec::with_capacity(capacity);
            buffer.capacity = capacity;
            buffer.dropped = 0;
        }
        !self.active.swap(true, Ordering::Relaxed)
    }

    /// Stops the trace and takes every worker's events.
    pub(crate) fn stop(&self) -> (Vec<(usize, Vec<Event>)>, u64) {
        self.active.store(false, Ordering::Relaxed);
        let mut dropped = 0;
        let events = self
            .buffers
            .iter()
            .enumerate()
            .map(|(worker, buffer)| {
                let mut buffer = unpoison(buffer.lock());
                dropped += buffer.dropped;
                buffer.capacity = 0;
                (worker, std::mem::take(&mut buffer.events))
            })
            .collect();
        (events, dropped)
    }

    /// Appends `event` to `worker`'s buffer, or counts it dropped.
    pub(crate) fn record(&self, worker: usize, event: Event) {
        let mut buffer = unpoison(self.buffers[worker].lock());
        if buffer.events.len() < buffer.capacity {
            buffer.events.push(event);
        } else {
            buffer.dropped += 1;
        }
    }
}

/// One task in a [`Trace`]. Times are ns since the runtime started.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TracedTask {
    /// The task's number in this trace (from 1).
    pub id: u64,
    /// The traced task that spawned it, if it was spawned by one.
    pub parent: Option<u64>,
    /// Its priority class.
    pub priority: Priority,
    /// The worker that ran it.
    pub worker: usize,
    /// How that worker got it.
    pub source: Source,
    /// Run nested inside another task's run on the same worker (while
    /// that task waited in a join or at the end of a scope, or joined it).
    pub nested: bool,
    /// When it was submitted (its start, if it was submitted before the
    /// trace began).
    pub spawned_ns: u64,
    /// When it started.
    pub start_ns: u64,
    /// When it ended, or when the trace stopped if its end was not
    /// recorded by then.
    pub end_ns: u64,
    /// How it ended (`Cancelled` for a task discarded at `stop`); `None`
    /// if the trace stopped before its end was recorded.
    pub outcome: Option<RunOutcome>,
}

/// An interval in which a worker had no work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdleInterval {
    /// The worker.
    pub worker: usize,
    /// Start and end, in ns since the runtime started.
    pub start_ns: u64,
    /// See `start_ns`.
    pub end_ns: u64,
}

/// What [`Runtime::stop_trace`](crate::Runtime::stop_trace) returns: every
/// task that ran while the trace was recorded, each listed once, and the
/// workers' idle intervals.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    /// Tasks by start time.
    pub tasks: Vec<TracedTask>,
    /// Idle intervals by start time.
    pub idle: Vec<IdleInterval>,
    /// Events that did not fit in a worker's buffer.
    pub dropped: u64,
    /// The runtime's worker count ([`Runtime::threads`]). Tasks and idle
    /// intervals of a compensating thread, started while every worker
    /// waited, carry `worker` indexes from `workers` up.
    ///
    /// [`Runtime::threads`]: crate::Runtime::threads
    pub workers: usize,
}

impl Trace {
    /// How many threads the trace shows: the workers, then any
    /// compensating thread that ran a task or idled while it was recorded.
    pub fn threads(&self) -> usize {
        self.tasks
            .iter()
            .map(|t| t.worker + 1)
            .chain(self.idle.iter().map(|i| i.worker + 1))
            .fold(self.workers, usize::max)
    }

    /// The name of thread `index` in pictures and trace files: "worker 0",
    /// or "compensating 2" for a compensating thread.
    pub fn thread_name(&self, index: usize) -> String {
        if index < self.workers {
            format!("worker {index}")
        } else {
            format!("compensating {index}")
        }
    }

    pub(crate) fn assemble(
        workers: usize,
        events: Vec<(usize, Vec<Event>)>,
        dropped: u64,
        stopped_at: u64,
    ) -> Self {
        let mut spawned: HashMap<Key, Option<Key>> = HashMap::new();
        // An end is the end of one worker's start: two workers may start
        // the same task in the same nanosecond (a joiner's attempt and a
        // thief's), and only one of them runs it.
        let mut ends: HashMap<(usize, Key, u64), (u64, RunOutcome)> = HashMap::new();
        let mut starts = Vec::new();
        let mut idle = Vec::new();
        for (worker, list) in events {
            for event in list {
                match event {
                    Event::Spawn { task, parent } => {
                        spawned.insert(task, parent);
                    }
                    Event::Start {
                        task,
                        priority,
                        source,
                        nested,
                        start,
                    } => starts.push((task, worker, priority, source, nested, start)),
                    Event::End {
                        task,
                        start,
                        end,
                        outcome,
                    } => {
                        ends.insert((worker, task, start), (end, outcome));
                    }
                    Event::Idle { start, end } => idle.push(IdleInterval {
                        worker,
                        start_ns: start,
                        end_ns: end,
                    }),
                }
            }
        }
        // A stale queue entry of a task a joiner ran starts and ends as
        // `Stale`: not a run of its own.
        let mut runs: Vec<(Key, TracedTask)> = starts
            .into_iter()
            .filter_map(|(key, worker, priority, source, nested, start)| {
                let (end, outcome) = match ends.get(&(worker, key, start)) {
                    Some(&(_, RunOutcome::Stale)) => return None,
                    Some(&(end, outcome)) => (end, Some(outcome)),
                    None => (stopped_at.max(start), None),
                };
                let task = TracedTask {
                    id: 0,
                    parent: None,
                    priority,
                    worker,
                    source,
                    nested,
                    spawned_ns: key.stamp.map_or(start, |stamp| stamp.min(start)),
                    start_ns: start,
                    end_ns: end,
                    outcome,
                };
                Some((key, task))
            })
            .collect();
        // A task runs at most once. A second, unfinished start of the same
        // task is its stale queue entry caught before it could record
        // `Stale` (the trace stopped in between): drop it.
        let finished: HashSet<Key> = runs
            .iter()
            .filter(|(_, t)| t.outcome.is_some())
            .map(|(key, _)| *key)
            .collect();
        runs.retain(|(key, t)| t.outcome.is_some() || !finished.contains(key));
        runs.sort_by_key(|(_, t)| (t.start_ns, t.end_ns));
        // Two unfinished starts of one task: keep the earlier.
        let mut seen = HashSet::new();
        runs.retain(|(key, _)| seen.insert(*key));
        let ids: HashMap<Key, u64> = runs
            .iter()
            .zip(1..)
            .map(|((key, _), id)| (*key, id))
            .collect();
        let tasks = runs
            .into_iter()
            .map(|(key, mut task)| {
                task.id = ids[&key];
                task.parent = spawned
                    .get(&key)
                    .copied()
                    .flatten()
                    .and_then(|parent| ids.get(&parent).copied());
                task
            })
            .collect();
        idle.sort_by_key(|i| (i.start_ns, i.worker));
        Self {
            tasks,
            idle,
            dropped,
            workers,
        }
    }

    /// Writes the trace in the Trace Event Format (JSON), which Perfetto
    /// (ui.perfetto.dev) and `chrome://tracing` open: one track per worker
    /// with a slice per task (named by priority, with its id, parent,
    /// source and outcome) and per idle interval, and a flow arrow from
    /// the spawning task to each task another worker stole.
    ///
    /// Needs the `chrome-trace` feature (of `rt-core`, or of `rt`).
    ///
    /// ```
    /// let rt = rt_core::Runtime::new(2)?;
    /// rt.start_trace(10_000);
    /// rt.install(|| rt_core::scope(|s| { s.spawn(|| 1); s.spawn(|| 2); }));
    /// let mut json = Vec::new();
    /// rt.stop_trace().write_chrome_json(&mut json)?; // open it in ui.perfetto.dev
    /// assert!(json.starts_with(b"{"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "chrome-trace")]
    pub fn write_chrome_json(&self, mut writer: impl io::Write) -> io::Result<()> {
        let us = |ns: u64| ns as f64 / 1_000.0;
        let mut events: Vec<Value> = (0..self.threads())
            .map(|w| {
                json!({"ph": "M", "name": "thread_name", "pid": 1, "tid": w,
                       "args": {"name": self.thread_name(w)}})
            })
            .collect();
        let by_id: HashMap<u64, &TracedTask> = self.tasks.iter().map(|t| (t.id, t)).collect();
        for task in &self.tasks {
            events.push(json!({
                "name": format!("{} task", task.priority),
                "cat": task.priority.to_string(),
                "ph": "X",
                "pid": 1,
                "tid": task.worker,
                "ts": us(task.start_ns),
                "dur": us(task.end_ns.saturating_sub(task.start_ns)),
                "args": {
                    "id": task.id,
                    "parent": task.parent,
                    "source": task.source.name(),
                    "stolen_from": match task.source {
                        Source::Stolen { from } => Some(from),
                        _ => None,
                    },
                    "nested": task.nested,
                    "outcome": task.outcome.map_or("unfinished".to_owned(), |o| format!("{o:?}")),
                    "queued_us": us(task.start_ns.saturating_sub(task.spawned_ns)),
                },
            }));
            if let Source::Stolen { .. } = task.source {
                if let Some(parent) = task.parent.and_then(|p| by_id.get(&p)) {
                    events.push(json!({"ph": "s", "name": "steal", "cat": "steal",
                        "id": task.id, "pid": 1, "tid": parent.worker,
                        "ts": us(task.spawned_ns.clamp(parent.start_ns, parent.end_ns))}));
                    events.push(
                        json!({"ph": "f", "bp": "e", "name": "steal", "cat": "steal",
                        "id": task.id, "pid": 1, "tid": task.worker, "ts": us(task.start_ns)}),
                    );
                }
            }
        }
        for idle in &self.idle {
            events.push(json!({"name": "idle", "cat": "idle", "ph": "X", "pid": 1,
                "tid": idle.worker, "ts": us(idle.start_ns),
                "dur": us(idle.end_ns.saturating_sub(idle.start_ns))}));
        }
        let document = json!({
            "traceEvents": events,
            "displayTimeUnit": "ms",
            "otherData": {"dropped_events": self.dropped},
        });
        serde_json::to_writer(&mut writer, &document).map_err(io::Error::other)?;
        writer.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_and_a_skipped_attempt_started_in_the_same_nanosecond_stay_apart() {
        let task = Key {
            task: 0x1000,
            stamp: Some(5),
        };
        let start = |source| Event::Start {
            task,
            priority: Priority::Normal,
            source,
            nested: false,
            start: 11,
        };
        let end = |outcome| Event::End {
            task,
            start: 11,
            end: 17,
            outcome,
        };
        let thief = || {
            (
                1,
                vec![
                    start(Source::Stolen { from: 0 }),
                    end(RunOutcome::Completed),
                ],
            )
        };
        let joiner = || (0, vec![start(Source::Joiner), end(RunOutcome::Stale)]);
        for events in [vec![thief(), joiner()], vec![joiner(), thief()]] {
            let trace = Trace::assemble(2, events, 0, 20);
            assert_eq!(trace.tasks.len(), 1, "{trace:?}");
            assert_eq!(trace.tasks[0].worker, 1);
            assert_eq!(trace.tasks[0].outcome, Some(RunOutcome::Completed));
        }
    }
}
