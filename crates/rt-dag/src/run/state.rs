//! One run of a graph: the state its node activations share, and what it
//! records of them (`RUN.md`). How a run starts, runs its nodes, and ends
//! is in `lifecycle.rs`.

use std::sync::atomic::{AtomicU64, AtomicU8};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rt_handle::CancellationToken;

use super::outcome::GraphOutcome;
use super::route::Launch;
use super::unit::UnitRef;
use crate::graph::output::{Output, NO_SLOT};
use crate::graph::plan::Plan;
use crate::graph::TaskGraph;
use crate::release::{EndSignal, HoldCount, Pending};
use crate::status::Code;
use crate::sync::{AtomicBool, AtomicU32, Ordering};
use crate::{NodeId, NodeStatus};

/// The handle of a unit of a graph's run, handed to the activations of its
/// nodes; what a thread holding the unit does with it is in
/// `lifecycle.rs`.
pub(crate) type RunRef = UnitRef<Run>;

/// The graph a run runs.
pub(crate) enum GraphRef {
    /// Borrowed for the run by the caller (`TaskGraph::run`), which does
    /// not return before the run ends; or the inner graph of a graph node,
    /// borrowed with the graph that holds it by the run at the top.
    Borrowed(*const TaskGraph),
    /// Owned by the run: a subgraph made while running, or a graph moved
    /// into `run_graph_async`.
    Owned(Box<TaskGraph>),
}

/// What happens when a run ends.
pub(crate) enum End {
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
    /// path (`RunRef::execute_any`).
    pub(crate) observed: bool,
    /// Per hold of the plan (a permit one node takes and a later one gives
    /// back): the permits kept, and whether the node giving them back will
    /// not run (`permits.rs`).
    pub(crate) holds: Box<[HoldCount]>,
    /// In a graph with holds: the nodes known not to run in this run (a
    /// failure or a cancellation upstream), each looked at once.
    pub(crate) stranded: Box<[AtomicBool]>,
    end: End,
}

// SAFETY: everything shared is atomic or behind a mutex, except the graph,
// whose closures each run on one thread at a time (`graph::Callable`), and
// the executor pointer (`ExecutorPtr`).
unsafe impl Send for Run {}
// SAFETY: as above.
unsafe impl Sync for Run {}

impl Run {
    /// A run of `graph` (planned) that ends as `end` says: a caller's
    /// ([`borrowing`](Self::borrowing), [`owning`](Self::owning)), or a
    /// subgraph's (`RunRef::start_subgraph`).
    pub(super) fn new(
        graph: GraphRef,
        launch: Launch,
        token: Option<CancellationToken>,
        end: End,
    ) -> Arc<Self> {
        // SAFETY: a new run owns or borrows its graph for its whole life.
        let g = unsafe { graph_of(&graph) };
        let plan = g.current_plan();
        let n = g.len();
        Arc::new(Self {
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
            holds: plan.holds.iter().map(|_| HoldCount::new()).collect(),
            stranded: if plan.holds.is_empty() {
                Box::new([])
            } else {
                (0..n).map(|_| AtomicBool::new(false)).collect()
            },
            timings: g.records_timings().then(|| Timings {
                origin: Instant::now(),
                start: (0..n).map(|_| AtomicU64::new(0)).collect(),
                elapsed: (0..n).map(|_| AtomicU64::new(0)).collect(),
            }),
            token,
            graph,
            end,
        })
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
        let end = End::Signal(EndSignal::new());
        Run::new(GraphRef::Borrowed(graph), launch, token, end)
    }

    /// A run owning `graph` (planned), whose end `EndSignal` tells.
    pub(crate) fn owning(
        graph: Box<TaskGraph>,
        launch: Launch,
        token: Option<CancellationToken>,
    ) -> Arc<Run> {
        let end = End::Signal(EndSignal::new());
        Run::new(GraphRef::Owned(graph), launch, token, end)
    }

    /// The run's reference to itself while it has work out, released by
    /// the unit that ends it (`RunRef::finish_unit`).
    pub(crate) fn hold_itself(self: &Arc<Self>) -> RunRef {
        UnitRef::hold(self)
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

    /// The executor the run's nodes run on, for a node to reach
    /// (`DependencyResults::executor`): for an awaited run, its future's
    /// inbox, which submits what it is given when the future is polled.
    ///
    /// # Safety
    ///
    /// The caller holds a unit of the run (the executor outlives the run's
    /// units, `ExecutorPtr`).
    pub(crate) unsafe fn executor(&self) -> &dyn rt_handle::Executor {
        match &self.launch {
            // SAFETY: the caller holds a unit of the run.
            Launch::Executor(executor) => unsafe { executor.get() },
            // SAFETY: as above.
            Launch::Helped(desk) => unsafe { desk.executor() },
            Launch::Future(inbox) => &**inbox,
        }
    }

    #[inline]
    pub(crate) fn cancelled(&self) -> bool {
        self.token
            .as_ref()
            .is_some_and(CancellationToken::is_cancelled)
    }

    /// What happens when the run ends.
    pub(crate) fn end(&self) -> &End {
        &self.end
    }

    /// Whether this run, or a run it runs inside (as a subgraph, or as a
    /// graph or module node's), runs the graph `id`.
    pub(crate) fn is_inside(&self, id: crate::GraphId) -> bool {
        let mut run = self;
        loop {
            if run.graph().id() == id {
                return true;
            }
            match run.end {
                // SAFETY: a subgraph's run holds a unit of its parent
                // (its node's, or one of its own when detached) until it
                // ends, so the parent is alive.
                End::Parent { parent, .. } => run = unsafe { parent.get() },
                End::Signal(_) => return false,
            }
        }
    }

    /// The ids of the graphs of this run and of the runs it runs inside.
    pub(crate) fn enclosing_graphs(&self) -> Vec<crate::GraphId> {
        let mut ids = Vec::new();
        let mut run = self;
        loop {
            ids.push(run.graph().id());
            match run.end {
                // SAFETY: as in `is_inside`.
                End::Parent { parent, .. } => run = unsafe { parent.get() },
                End::Signal(_) => return ids,
            }
        }
    }

    /// The signal of a run started by a caller.
    pub(crate) fn end_signal(&self) -> &EndSignal {
        match &self.end {
            End::Signal(signal) => signal,
            End::Parent { .. } => unreachable!("only a subgraph's run has a parent"),
        }
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
        rt_handle::raw::drop_quietly(old);
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
