//! One run of a graph: the state its node activations share, how the run
//! starts, and how it ends (`RUN.md`).

use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicU64, AtomicU8};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rt_handle::CancellationToken;
use rt_queue::Priority;

use super::async_run::Inbox;
use super::drive::{self, Step};
use super::launch::{self, ExecutorPtr, Work};
use super::plan::Plan;
use super::release::{EndSignal, Pending};
use super::sweep;
use crate::graph::{Output, NO_SLOT};
use crate::status::Code;
use crate::sync::{AtomicBool, AtomicU32, Ordering};
use crate::{GraphOutcome, NodeId, NodeStatus, TaskGraph};

/// A pointer to a run, handed to the activations of its nodes.
///
/// A run lives in an `Arc`; while it has units of work out it also holds a
/// reference to itself (made in [`Run::start`], dropped by the unit that
/// ends the run), so whoever holds a unit may dereference this pointer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RunRef(*const Run);

// SAFETY: a `Run` is `Sync` (below); the pointer is only dereferenced by a
// holder of a unit, which keeps the run alive.
unsafe impl Send for RunRef {}
// SAFETY: as above.
unsafe impl Sync for RunRef {}

impl RunRef {
    /// The run.
    ///
    /// # Safety
    ///
    /// The caller holds a unit of work of the run (or a reference to its
    /// `Arc`).
    #[inline]
    pub(crate) unsafe fn get<'a>(self) -> &'a Run {
        // SAFETY: alive while the caller holds a unit or an `Arc`.
        unsafe { &*self.0 }
    }
}

/// The graph a run runs.
enum GraphRef {
    /// Borrowed for the run by the caller (`TaskGraph::run`), which does
    /// not return before the run ends; or the inner graph of a graph node,
    /// borrowed with the graph that holds it by the run at the top.
    Borrowed(*const TaskGraph),
    /// Owned by the run: a subgraph made while running, or a graph moved
    /// into `run_graph_async`.
    Owned(Box<TaskGraph>),
}

/// How a run's nodes reach the executor.
#[derive(Clone)]
pub(crate) enum Launch {
    /// Submitted by whichever thread makes them ready.
    Executor(ExecutorPtr),
    /// Handed to the future awaiting the run, which submits them: the
    /// future borrows the executor only while it is polled.
    Future(Arc<Inbox>),
}

/// What happens when a run ends.
enum End {
    /// Its caller (a thread, or a future) is told.
    Signal(EndSignal),
    /// It is the subgraph of node `node` of the run `parent`: joined, the
    /// node completes; detached, its outcome joins the parent's.
    Parent {
        parent: RunRef,
        node: u32,
        joined: bool,
    },
}

/// Start times and running times of the nodes, when the graph records
/// timings.
pub(crate) struct Timings {
    origin: Instant,
    /// Nanoseconds from `origin` to the node's last start.
    pub(crate) start: Box<[AtomicU64]>,
    /// Nanoseconds the node's last activation took.
    pub(crate) elapsed: Box<[AtomicU64]>,
}

/// The state of one run.
pub(crate) struct Run {
    graph: GraphRef,
    pub(crate) launch: Launch,
    pub(crate) token: Option<CancellationToken>,
    pub(crate) pending: Pending,
    /// Each node's [`Code`] (its last activation's). In a graph without
    /// conditions `Completed` is not written (it would be one store per
    /// node into lines other workers write too): a node with no code that
    /// every prerequisite completed is known to have completed (`sweep.rs`).
    pub(crate) status: Box<[AtomicU8]>,
    /// Some node got a code other than `Completed`.
    exceptional: AtomicBool,
    /// How many times each node's closure ran (graphs with conditions).
    pub(crate) runs: Box<[AtomicU32]>,
    /// The outputs of nodes whose output is not `()`, by slot.
    pub(crate) outputs: Box<[Mutex<Option<Output>>]>,
    /// What `Code::Failed` nodes failed with, latest last.
    pub(crate) failures: Mutex<Vec<(u32, NodeStatus)>>,
    /// Outcomes of detached subgraphs, by the node that made them.
    pub(crate) detached: Mutex<Vec<(NodeId, GraphOutcome)>>,
    pub(crate) timings: Option<Timings>,
    /// The run has a token or records timings: its nodes take the general
    /// path (`drive.rs`).
    pub(crate) observed: bool,
    end: End,
}

// SAFETY: everything shared is atomic or behind a mutex, except the graph,
// whose closures each run on one thread at a time (`graph::Callable`), and
// the executor pointer (`ExecutorPtr`).
unsafe impl Send for Run {}
// SAFETY: as above.
unsafe impl Sync for Run {}

impl Run {
    fn new(graph: GraphRef, launch: Launch, token: Option<CancellationToken>, end: End) -> Self {
        // SAFETY: a new run owns or borrows its graph for its whole life.
        let g = unsafe { graph_of(&graph) };
        let plan = g.current_plan();
        let n = g.len();
        Self {
            launch,
            pending: Pending::new(),
            status: (0..n).map(|_| AtomicU8::new(Code::None as u8)).collect(),
            exceptional: AtomicBool::new(false),
            runs: if plan.cyclic {
                (0..n).map(|_| AtomicU32::new(0)).collect()
            } else {
                Box::new([])
            },
            outputs: (0..g.info.slots).map(|_| Mutex::new(None)).collect(),
            failures: Mutex::new(Vec::new()),
            detached: Mutex::new(Vec::new()),
            observed: token.is_some() || g.records_timings(),
            timings: g.records_timings().then(|| Timings {
                origin: Instant::now(),
                start: (0..n).map(|_| AtomicU64::new(0)).collect(),
                elapsed: (0..n).map(|_| AtomicU64::new(0)).collect(),
            }),
            token,
            graph,
            end,
        }
    }

    /// A run of `graph` (planned), borrowed by the caller until the run
    /// ends, whose end `EndSignal` tells.
    ///
    /// # Safety
    ///
    /// The caller keeps `graph` borrowed, and every executor behind
    /// `launch`, alive until the run has ended (its signal is set), even
    /// when unwinding.
    pub(crate) unsafe fn borrowing(
        graph: &TaskGraph,
        launch: Launch,
        token: Option<CancellationToken>,
    ) -> Arc<Run> {
        Arc::new(Run::new(
            GraphRef::Borrowed(graph),
            launch,
            token,
            End::Signal(EndSignal::new()),
        ))
    }

    /// A run owning `graph` (planned), whose end `EndSignal` tells.
    pub(crate) fn owning(
        graph: Box<TaskGraph>,
        launch: Launch,
        token: Option<CancellationToken>,
    ) -> Arc<Run> {
        Arc::new(Run::new(
            GraphRef::Owned(graph),
            launch,
            token,
            End::Signal(EndSignal::new()),
        ))
    }

    /// The graph being run.
    #[inline]
    pub(crate) fn graph(&self) -> &TaskGraph {
        // SAFETY: the run owns or borrows its graph for its whole life.
        unsafe { graph_of(&self.graph) }
    }

    #[inline]
    pub(crate) fn plan(&self) -> &Plan {
        self.graph().current_plan()
    }

    #[inline]
    pub(crate) fn cancelled(&self) -> bool {
        self.token
            .as_ref()
            .is_some_and(CancellationToken::is_cancelled)
    }

    /// The signal of a run started by a caller.
    pub(crate) fn end_signal(&self) -> &EndSignal {
        match &self.end {
            End::Signal(signal) => signal,
            End::Parent { .. } => unreachable!("only a subgraph's run has a parent"),
        }
    }

    /// Starts the run: submits its entries and gives the caller's unit
    /// back. Never unwinds: a panicking `submit` is contained
    /// (`launch::submit`), so the caller always gets to wait for the end.
    pub(crate) fn start(self: &Arc<Self>) {
        let me = self.hold_itself();
        let entries = &self.plan().entries;
        self.pending.add(entries.len());
        for &entry in entries.iter() {
            self.activate_entry(entry);
            self.launch_node(me, entry, false);
        }
        // The caller's unit; the run may end here (no entries, or every
        // entry done already).
        if let Some(next) = finish_unit(me) {
            launch_continuation(next);
        }
    }

    /// Starts the run of a subgraph from the thread that made it: this
    /// thread runs the most preferred entry next (the returned step), the
    /// others are submitted. The caller's unit passes to that entry.
    fn start_here(self: &Arc<Self>) -> Step {
        let me = self.hold_itself();
        let entries = &self.plan().entries;
        let Some((&first, rest)) = entries.split_first() else {
            return match finish_unit(me) {
                Some((run, node)) => Step::Switch(run, node),
                None => Step::Held,
            };
        };
        self.pending.add(rest.len());
        for &entry in rest.iter().rev() {
            self.activate_entry(entry);
            self.launch_node(me, entry, false);
        }
        self.activate_entry(first);
        Step::Switch(me, first)
    }

    /// The run's reference to itself while it has work out, released by
    /// the unit that ends it ([`finish_unit`]).
    fn hold_itself(self: &Arc<Self>) -> RunRef {
        RunRef(Arc::into_raw(Arc::clone(self)))
    }

    fn activate_entry(&self, entry: u32) {
        let plan = self.plan();
        if plan.cyclic {
            // Entries are activated first: nobody else activates them yet.
            let first = plan.activations[entry as usize].activate();
            debug_assert!(first, "an entry is activated once at the start");
        }
    }

    /// Hands the activation of `node` (holding a unit already counted) to
    /// the executor, or to the future awaiting the run.
    pub(crate) fn launch_node(&self, me: RunRef, node: u32, permit: bool) {
        Activation {
            run: me,
            node,
            permit,
        }
        .launch();
    }

    /// Starts the run of `sub`, the subgraph node `node` of this run (`me`)
    /// built, or the inner graph of graph node `node`. Joined, the node
    /// completes when it ends, and the returned step continues on this
    /// thread with its first entry; detached, the subgraph's entries are
    /// submitted and the run keeps one more unit until it ends.
    pub(crate) fn start_subgraph(
        &self,
        me: RunRef,
        node: u32,
        sub: SubgraphRef,
        joined: bool,
    ) -> Step {
        let graph = match sub {
            SubgraphRef::Built(graph) => GraphRef::Owned(graph),
            SubgraphRef::Inner(graph) => GraphRef::Borrowed(graph),
        };
        let child = Arc::new(Run::new(
            graph,
            self.launch.clone(),
            self.token.clone(),
            End::Parent {
                parent: me,
                node,
                joined,
            },
        ));
        if joined {
            // The node's unit is the subgraph's now, until it ends.
            child.start_here()
        } else {
            self.pending.add(1);
            child.start();
            Step::Done
        }
    }

    /// The outcome of a run that has ended, and the counters re-armed for
    /// the next. Called once, by whoever ends the run.
    pub(crate) fn outcome(&self) -> GraphOutcome {
        sweep::outcome_of(self)
    }

    /// Records the output of `node`, unless it is `()`.
    pub(crate) fn store_output(&self, node: usize, output: Output) {
        let slot = self.graph().info.slot_of[node];
        if slot == NO_SLOT {
            return;
        }
        let old = self.outputs[slot as usize]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .replace(output);
        // The previous round's output (a loop): dropped outside the lock.
        crate::quiet::drop_quietly(old);
    }

    /// Records that `node` failed with `status` (`Panicked` or
    /// `SubgraphFailed`).
    pub(crate) fn record_failure(&self, node: usize, status: NodeStatus) {
        self.failures
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((node as u32, status));
        self.set_code(node, Code::Failed);
    }

    #[inline]
    pub(crate) fn set_code(&self, node: usize, code: Code) {
        // Relaxed: read after the run ended (`Pending::done` orders it), or
        // by a dependent released after it (the release counter orders it).
        self.status[node].store(code as u8, Ordering::Relaxed);
        if code != Code::Completed {
            self.exceptional.store(true, Ordering::Relaxed);
        }
    }

    /// Whether some node got a code other than `Completed`.
    pub(crate) fn is_exceptional(&self) -> bool {
        self.exceptional.load(Ordering::Relaxed)
    }

    #[inline]
    pub(crate) fn code(&self, node: usize) -> Code {
        Code::from_u8(self.status[node].load(Ordering::Relaxed))
    }

    /// Counts a run of `node`'s closure (graphs with conditions).
    #[inline]
    pub(crate) fn count_run(&self, node: usize) {
        if let Some(runs) = self.runs.get(node) {
            runs.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[inline]
    pub(crate) fn note_start(&self, node: usize) -> Option<Instant> {
        let timings = self.timings.as_ref()?;
        let now = Instant::now();
        let since = now.duration_since(timings.origin).as_nanos() as u64;
        timings.start[node].store(since, Ordering::Relaxed);
        Some(now)
    }

    #[inline]
    pub(crate) fn note_end(&self, node: usize, started: Option<Instant>) {
        if let (Some(timings), Some(started)) = (&self.timings, started) {
            let took = started.elapsed().as_nanos().max(1) as u64;
            timings.elapsed[node].store(took, Ordering::Relaxed);
        }
    }

    /// Re-reads a node's start, for a node whose activation ends on
    /// another thread than it began (a subgraph's end).
    pub(crate) fn started_at(&self, node: usize) -> Option<Instant> {
        let timings = self.timings.as_ref()?;
        let since = timings.start[node].load(Ordering::Relaxed);
        Some(timings.origin + std::time::Duration::from_nanos(since))
    }
}

/// The graph behind `graph`.
///
/// # Safety
///
/// A borrowed graph must still be borrowed for the run (see [`GraphRef`]).
unsafe fn graph_of(graph: &GraphRef) -> &TaskGraph {
    match graph {
        // SAFETY: borrowed for the whole run by the caller's contract.
        GraphRef::Borrowed(graph) => unsafe { &**graph },
        GraphRef::Owned(graph) => graph,
    }
}

/// A subgraph to run: built by a subgraph node, or a graph node's inner
/// graph (borrowed with the graph that holds it).
pub(crate) enum SubgraphRef {
    Built(Box<TaskGraph>),
    Inner(*const TaskGraph),
}

/// Gives back one unit of `run`. If it was the run's last, ends the run,
/// and returns the node that end made ready for this thread to run next
/// (a dependent of the node whose subgraph this run was), if any.
pub(crate) fn finish_unit(run: RunRef) -> Option<(RunRef, u32)> {
    let mut run = run;
    loop {
        // SAFETY: the caller holds a unit of `run`.
        if !unsafe { run.get() }.pending.done() {
            return None;
        }
        // The last unit: the run's reference to itself is ours now.
        // SAFETY: made by `hold_itself` from this `Arc`, released only here.
        let this = unsafe { Arc::from_raw(run.0) };
        let (parent, node, joined) = match &this.end {
            End::Signal(signal) => {
                signal.set();
                crate::quiet::drop_quietly(this);
                return None;
            }
            &End::Parent {
                parent,
                node,
                joined,
            } => (parent, node, joined),
        };
        let outcome = this.outcome();
        crate::quiet::drop_quietly(this);
        // SAFETY: a joined subgraph holds its node's unit of the parent
        // run; a detached one holds a unit of its own there.
        let parent_run = unsafe { parent.get() };
        if joined {
            match drive::finish_subgraph(parent_run, parent, node, outcome) {
                Step::Next(next) => return Some((parent, next)),
                Step::Switch(run, next) => return Some((run, next)),
                Step::Held => return None,
                Step::Done => run = parent,
            }
        } else {
            let id = NodeId::new(parent_run.graph().id(), node as usize);
            parent_run
                .detached
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((id, outcome));
            run = parent;
        }
    }
}

/// Submits work a run's end made ready on a thread that is not to run it
/// (the caller starting the run, or an executor dropping a job).
fn launch_continuation((run, node): (RunRef, u32)) {
    // SAFETY: the continuation holds a unit of `run`.
    unsafe { run.get() }.launch_node(run, node, false);
}

/// One activation of one node, holding a unit of its run: what a job
/// carries, what waits in a limit's queue, and what the future of an
/// awaited run submits.
///
/// Dropped without being started (the executor refused or discarded its
/// job, or the future that was to submit it is gone), it records the node
/// as `Rejected` and gives its unit (and its permit, if it holds one) back.
pub(crate) struct Activation {
    run: RunRef,
    node: u32,
    /// The activation holds a permit of the node's limit already: one was
    /// handed to it from the limit's queue.
    permit: bool,
}

impl Activation {
    pub(crate) fn new(run: RunRef, node: u32) -> Self {
        Self {
            run,
            node,
            permit: false,
        }
    }

    /// The same activation, holding a permit of its node's limit.
    pub(crate) fn with_permit(mut self) -> Self {
        self.permit = true;
        self
    }

    /// The priority class its node runs at.
    pub(crate) fn priority(&self) -> Priority {
        // SAFETY: an activation holds a unit of its run.
        let run = unsafe { self.run.get() };
        run.graph().meta[self.node as usize].priority
    }

    /// Hands the activation to the executor, or to the future awaiting the
    /// run.
    pub(crate) fn launch(self) {
        // SAFETY: an activation holds a unit of its run.
        let run = unsafe { self.run.get() };
        let priority = self.priority();
        match &run.launch {
            // SAFETY: the executor outlives the run's units (`ExecutorPtr`).
            Launch::Executor(executor) => launch::submit(unsafe { executor.get() }, priority, self),
            Launch::Future(inbox) => inbox.push(priority, self),
        }
    }
}

impl Work for Activation {
    #[inline]
    fn start(self) {
        let this = ManuallyDrop::new(self);
        drive::drive(this.run, this.node, this.permit);
    }
}

impl Drop for Activation {
    fn drop(&mut self) {
        // SAFETY: an activation holds a unit of its run.
        let run = unsafe { self.run.get() };
        let node = self.node as usize;
        if self.permit {
            if let Some(limit) = run.graph().limit_of(node) {
                limit.release();
            }
        }
        run.set_code(node, Code::Rejected);
        let plan = run.plan();
        if plan.cyclic {
            // Activations that came in for this one to run are not run
            // either.
            while plan.activations[node].finish() {}
        }
        if let Some(next) = finish_unit(self.run) {
            launch_continuation(next);
        }
    }
}

impl std::fmt::Debug for Activation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Activation")
            .field("node", &self.node)
            .field("permit", &self.permit)
            .finish()
    }
}
