//! Graphs shared by reference: one graph run as a node of several graphs,
//! and on its own (Taskflow's `composed_of`).

use std::cell::UnsafeCell;
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

use rt_handle::{CancellationToken, Executor};

use crate::graph::TaskGraph;
use crate::{GraphError, GraphId, GraphOutcome, Limit};

/// A [`TaskGraph`] shared by reference: a module that nodes of other graphs
/// run ([`TaskGraph::add_module`], Taskflow's `composed_of`), in as many
/// places as needed, and that also runs on its own ([`run`](Self::run)).
/// Clones are handles to the same graph: its closures, and the state they
/// keep between runs, are shared by every place it runs in.
///
/// A module's graph runs once at a time: a module node that finds it
/// running (in another place, or on its own) waits in the module's queue,
/// on no thread, and starts once the run before it ended; give the module
/// nodes of one graph an order (`precede`) to have them run one after
/// another by design. [`run`](Self::run) does not wait: it returns
/// [`GraphError::ModuleInUse`] while the module runs elsewhere, so that a
/// module run from inside its own run cannot hang.
///
/// The graph is fixed once it is a module (so that no graph can be made to
/// run itself); [`into_graph`](Self::into_graph) gives it back to edit once
/// no other handle is left. A module node's output is the
/// [`GraphOutcome`] of the module's run, whose statuses the module's own
/// [`NodeId`](crate::NodeId)s read.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::sync::Arc;
/// use rt_dag::{GraphOutcome, Module, TaskGraph};
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let steps = Arc::new(AtomicUsize::new(0));
/// let mut inner = TaskGraph::new();
/// let step = {
///     let steps = steps.clone();
///     inner.add_task(move |_| steps.fetch_add(1, Ordering::SeqCst) + 1)
/// };
/// let module = Module::new(inner);
///
/// let mut outer = TaskGraph::new();
/// let first = outer.add_module(&module).unwrap();
/// let second = outer.add_module_after(&[first], &module).unwrap(); // the same graph again
/// let outcome = outer.run(&rt);
/// assert_eq!(outcome.get::<GraphOutcome>(second).unwrap().get::<usize>(step), Ok(&2));
///
/// let alone = module.run(&rt).unwrap(); // and on its own
/// assert_eq!(alone.get::<usize>(step), Ok(&3));
/// ```
#[derive(Clone)]
pub struct Module {
    shared: Arc<Shared>,
}

struct Shared {
    /// The graph. Touched only by the holder of `access`'s permit, which
    /// plans it and runs it; nothing else reads it (its id and size are
    /// kept beside).
    graph: UnsafeCell<TaskGraph>,
    id: GraphId,
    len: usize,
    /// The modules this one runs when it runs, directly or not, itself
    /// included.
    runs: BTreeSet<GraphId>,
    /// One run at a time: a module node holds its permit from before its
    /// run of the graph starts until that run ended; `Module::run` too.
    access: Limit,
}

// SAFETY: the graph is `Send` and `Sync`; it is reached only by the holder
// of `access`'s permit (see `Shared::graph`), one at a time, each holder's
// use ordered after the previous one's by the limit's mutex.
unsafe impl Sync for Shared {}

impl Module {
    /// Shares `graph` by reference. Its closures, settings and ids stay as
    /// they were.
    pub fn new(graph: TaskGraph) -> Self {
        let mut runs = graph.nesting.runs.clone();
        runs.insert(graph.id());
        Self {
            shared: Arc::new(Shared {
                id: graph.id(),
                len: graph.len(),
                runs,
                graph: UnsafeCell::new(graph),
                access: Limit::new(1).expect("one permit"),
            }),
        }
    }

    /// The id of the module's graph: its [`NodeId`](crate::NodeId)s, and
    /// the outcomes of its runs, carry it.
    pub fn id(&self) -> GraphId {
        self.shared.id
    }

    /// Number of nodes of the module's graph.
    pub fn len(&self) -> usize {
        self.shared.len
    }

    /// True when the module's graph has no node.
    pub fn is_empty(&self) -> bool {
        self.shared.len == 0
    }

    /// Whether the module is running now, or module nodes wait for it.
    pub fn is_running(&self) -> bool {
        self.shared.access.available() == 0
    }

    /// True if `self` and `other` are handles to the same module.
    pub fn same_as(&self, other: &Module) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }

    /// Runs the module's graph on its own, as [`TaskGraph::run`] does.
    ///
    /// # Errors
    ///
    /// [`GraphError::ModuleInUse`] if it is running already (as a module
    /// node, or on its own), or module nodes wait for it: this call never
    /// waits for another run.
    pub fn run<E: Executor + ?Sized>(&self, executor: &E) -> Result<GraphOutcome, GraphError> {
        self.with_graph(|graph| graph.run(executor))
    }

    /// Like [`run`](Self::run), stopping nodes from starting once `token`
    /// is cancelled ([`TaskGraph::run_cancellable`]).
    ///
    /// # Errors
    ///
    /// [`GraphError::ModuleInUse`], as for [`run`](Self::run).
    pub fn run_cancellable<E: Executor + ?Sized>(
        &self,
        executor: &E,
        token: &CancellationToken,
    ) -> Result<GraphOutcome, GraphError> {
        self.with_graph(|graph| graph.run_cancellable(executor, token))
    }

    /// The graph back, to edit or to own, if this is its last handle (no
    /// other clone, and no graph holding a module node of it, is left);
    /// otherwise the handle back.
    ///
    /// ```
    /// use rt_dag::{Module, TaskGraph};
    ///
    /// let module = Module::new(TaskGraph::new());
    /// let mut outer = TaskGraph::new();
    /// outer.add_module(&module).unwrap();
    /// let module = module.into_graph().unwrap_err(); // `outer` holds it too
    /// drop(outer);
    /// let mut graph = module.into_graph().unwrap();
    /// graph.add_task(|_| ());
    /// ```
    pub fn into_graph(self) -> Result<TaskGraph, Module> {
        match Arc::try_unwrap(self.shared) {
            Ok(shared) => Ok(shared.graph.into_inner()),
            Err(shared) => Err(Module { shared }),
        }
    }

    /// Runs `f` on the graph if no run holds it.
    fn with_graph<R>(&self, f: impl FnOnce(&mut TaskGraph) -> R) -> Result<R, GraphError> {
        if !self.shared.access.try_acquire() {
            return Err(GraphError::ModuleInUse { module: self.id() });
        }
        struct GiveBack<'a>(&'a Limit);
        impl Drop for GiveBack<'_> {
            fn drop(&mut self) {
                self.0.release();
            }
        }
        let _give_back = GiveBack(&self.shared.access);
        // SAFETY: this thread holds the access permit: nobody else touches
        // the graph until it is given back, after `f`.
        Ok(f(unsafe { self.graph_mut() }))
    }

    /// The modules this one runs, itself included.
    pub(crate) fn runs(&self) -> &BTreeSet<GraphId> {
        &self.shared.runs
    }

    /// Who runs the graph now: a permit module nodes take before they run
    /// it, and give back when that run ended.
    pub(crate) fn access(&self) -> &Limit {
        &self.shared.access
    }

    /// The module's graph.
    ///
    /// # Safety
    ///
    /// The caller holds the permit of [`access`](Self::access) (and does
    /// not keep the reference past giving it back).
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn graph_mut(&self) -> &mut TaskGraph {
        // SAFETY: exclusive by the caller's contract.
        unsafe { &mut *self.shared.graph.get() }
    }
}

impl fmt::Debug for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Module")
            .field("id", &self.shared.id)
            .field("nodes", &self.shared.len)
            .field("running", &self.is_running())
            .finish()
    }
}
