//! Concurrency limits: at most `k` nodes of a set at once, the others
//! waiting in the limit's queue rather than on a thread.
//!
//! A limit is a count of free permits and a FIFO queue of waiting node
//! activations, under one mutex. A node that finds no free permit (or finds
//! others already waiting: no overtaking) leaves its activation in the
//! queue, and the thread that was about to run it moves on to other work.
//! A node that finishes its closure hands its permit straight to the oldest
//! waiter, which is submitted to its run's executor already holding it; the
//! count of free permits goes up only when nobody waits. So waiters start
//! in the order they arrived, a permit is never idle while a node waits for
//! it, and no thread ever blocks on a limit.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex};

use crate::run::lifecycle::Activation;
use crate::GraphError;

/// A concurrency limit shared by any set of nodes, of one graph or of
/// several (Taskflow's `Semaphore`, oneTBB's `limiter_node`): at most
/// [`permits`](Self::permits) of them run their closures at once.
///
/// Give nodes a limit with [`TaskGraph::set_limit`](crate::TaskGraph::set_limit),
/// or several with [`add_limit`](crate::TaskGraph::add_limit); clones of a
/// `Limit` are the same limit. A node holds a permit while its closure runs
/// (for a subgraph node, not while its subgraph runs), or, taken with
/// [`add_limit_until`](crate::TaskGraph::add_limit_until), from before it
/// runs until a later node ran (Taskflow's acquire and release on two
/// tasks). A node that cannot get one waits in the limit's queue, on no
/// thread: the thread that would have run it goes on with other work, and
/// the node is submitted again, holding the permit, when one is given back.
/// Waiters get permits in the order they started waiting; a node with
/// several limits takes their permits in an order common to every node.
///
/// A node that waits, directly or not, for a node needing the same limit
/// while it holds a permit (say it runs a whole graph of such nodes and
/// joins it) can deadlock as with any lock; the run then never ends.
///
/// ```
/// use std::sync::atomic::{AtomicUsize, Ordering};
/// use std::sync::Arc;
/// use rt_dag::{run_graph, Limit, TaskGraph};
///
/// let rt = rt_core::Runtime::new(2).unwrap();
/// let disk = Limit::new(1).unwrap(); // one writer at a time
/// let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
/// let mut graph = TaskGraph::new();
/// for _ in 0..8 {
///     let (now, most) = (now.clone(), most.clone());
///     let write = graph.add_task(move |_| {
///         let inside = now.fetch_add(1, Ordering::SeqCst) + 1;
///         most.fetch_max(inside, Ordering::SeqCst);
///         std::thread::sleep(std::time::Duration::from_millis(1));
///         now.fetch_sub(1, Ordering::SeqCst);
///     });
///     graph.set_limit(write, &disk).unwrap();
/// }
/// assert!(run_graph(&rt, graph).all_completed());
/// assert_eq!(most.load(Ordering::SeqCst), 1);
/// assert_eq!(disk.available(), 1);
/// ```
#[derive(Clone)]
pub struct Limit {
    inner: Arc<LimitState>,
}

struct LimitState {
    permits: usize,
    queue: Mutex<Queue>,
}

struct Queue {
    /// Permits nobody holds. Zero whenever someone waits.
    available: usize,
    /// Activations waiting for a permit, oldest first.
    waiting: VecDeque<Activation>,
}

impl Limit {
    /// A limit of `permits` nodes at once.
    ///
    /// # Errors
    ///
    /// [`GraphError::ZeroPermits`] for `permits == 0`: no node could ever
    /// run.
    pub fn new(permits: usize) -> Result<Self, GraphError> {
        if permits == 0 {
            return Err(GraphError::ZeroPermits);
        }
        Ok(Self {
            inner: Arc::new(LimitState {
                permits,
                queue: Mutex::new(Queue {
                    available: permits,
                    waiting: VecDeque::new(),
                }),
            }),
        })
    }

    /// The number of permits: how many nodes may run at once.
    pub fn permits(&self) -> usize {
        self.inner.permits
    }

    /// Permits free now.
    pub fn available(&self) -> usize {
        self.lock().available
    }

    /// Nodes waiting for a permit now.
    pub fn waiting(&self) -> usize {
        self.lock().waiting.len()
    }

    /// True if `self` and `other` are the same limit (clones of one).
    pub fn same_as(&self, other: &Limit) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }

    /// Where this limit comes in the order in which a node takes the
    /// permits of its limits: the same for every node, so that two nodes
    /// needing the same limits never each hold one the other waits for.
    pub(crate) fn order(&self) -> usize {
        Arc::as_ptr(&self.inner) as usize
    }

    /// Takes a permit if one is free and nobody waits; false otherwise.
    pub(crate) fn try_acquire(&self) -> bool {
        let mut queue = self.lock();
        if queue.available > 0 {
            queue.available -= 1;
            true
        } else {
            false
        }
    }

    /// Takes a permit if one is free and nobody waits; otherwise queues
    /// the activation `waiter` makes, and returns false: the caller leaves
    /// the node to the queue.
    pub(crate) fn acquire_or_wait(&self, waiter: impl FnOnce() -> Activation) -> bool {
        let mut queue = self.lock();
        if queue.available > 0 {
            queue.available -= 1;
            true
        } else {
            queue.waiting.push_back(waiter());
            false
        }
    }

    /// Gives a permit back: to the oldest waiter, which is then started
    /// holding it, or to the free count.
    ///
    /// Starting a waiter may give a permit back at once, on this thread (its
    /// job is refused, so it is dropped and returns its permit): that
    /// release is done by the outermost one on the thread, in a loop, so
    /// that a queue of a thousand waiters on a shut-down executor does not
    /// nest a thousand frames.
    pub(crate) fn release(&self) {
        std::thread_local! {
            static RELEASING: Cell<bool> = const { Cell::new(false) };
            static LATER: RefCell<Vec<Limit>> = const { RefCell::new(Vec::new()) };
        }
        if RELEASING.with(Cell::get) {
            LATER.with(|later| later.borrow_mut().push(self.clone()));
            return;
        }
        struct Done;
        impl Drop for Done {
            fn drop(&mut self) {
                RELEASING.with(|r| r.set(false));
            }
        }
        RELEASING.with(|r| r.set(true));
        let _done = Done;
        self.release_one();
        while let Some(limit) = LATER.with(|later| later.borrow_mut().pop()) {
            limit.release_one();
        }
    }

    fn release_one(&self) {
        let next = {
            let mut queue = self.lock();
            match queue.waiting.pop_front() {
                Some(waiter) => Some(waiter),
                None => {
                    queue.available += 1;
                    None
                }
            }
        };
        if let Some(waiter) = next {
            waiter.with_permit().launch();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        // The queue is left consistent at every unlock; nothing user-written
        // runs under the lock.
        self.inner.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl fmt::Debug for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let queue = self.lock();
        f.debug_struct("Limit")
            .field("permits", &self.inner.permits)
            .field("available", &queue.available)
            .field("waiting", &queue.waiting.len())
            .finish()
    }
}
