//! What a run needs beyond what the graph keeps as it is built (its nodes'
//! counters, settings and output slots), made once per change of the
//! graph: each node's dependents in the order they are preferred, the
//! entries, and the critical-path ranks behind the order.

use std::cmp::Reverse;
use std::sync::Arc;

use super::release::ActivationCount;
use crate::graph::{NodeInfo, Work};
use crate::TaskGraph;

/// How the nodes that a completion makes ready at the same time are
/// ordered: which one the thread that completed runs next, in which order
/// it queues the others, and in which order a run submits its entries.
/// Priority classes come first either way: a ready node of a more urgent
/// class is preferred to any of a less urgent one.
///
/// ```
/// use rt_dag::{ReadyOrder, TaskGraph};
///
/// let mut graph = TaskGraph::new();
/// assert_eq!(graph.ready_order(), ReadyOrder::CriticalPath);
/// graph.set_ready_order(ReadyOrder::Declared);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ReadyOrder {
    /// Longest remaining path first: each node's *rank* is its cost plus
    /// the largest rank among its dependents, so the node heading the
    /// longest chain of work still to do has the highest rank, and it runs
    /// first. Costs are the running times measured in the last timed run
    /// ([`TaskGraph::record_timings`]), else the estimates of
    /// [`TaskGraph::set_cost`], else, for nodes without either, the mean of
    /// the known costs (one unit each when no node has a cost: the rank is
    /// then the number of nodes on the longest path).
    #[default]
    CriticalPath,
    /// First come, first served: the ready node added to the graph first
    /// runs first, and entries are submitted in the order they were added.
    Declared,
}

/// The plan of a graph's runs.
pub(crate) struct Plan {
    /// Node `i`'s dependents are `dependents[dependent_starts[i]..
    /// dependent_starts[i + 1]]`, the *most* preferred last (`drive.rs`
    /// runs the last ready one itself and queues the others in list order,
    /// so that a worker's LIFO deque hands back the next preferred first).
    pub(crate) dependent_starts: Box<[u32]>,
    pub(crate) dependents: Box<[u32]>,
    /// For graphs with condition nodes: each node's activations in flight.
    pub(crate) activations: Box<[ActivationCount]>,
    /// Nodes that start when the run starts, most preferred first.
    pub(crate) entries: Box<[u32]>,
    /// The graph nodes, whose inner graphs need a plan too.
    pub(crate) graph_nodes: Box<[u32]>,
    /// The graph has condition nodes: a node may run more than once per run.
    pub(crate) cyclic: bool,
    /// The output types and slots, shared with the runs' outcomes.
    pub(crate) info: Arc<NodeInfo>,
    /// The version of the measured costs the ranks were made from, if they
    /// used measured costs.
    timings_version: Option<u64>,
}

impl Plan {
    pub(crate) fn new(graph: &TaskGraph) -> Self {
        let n = graph.len();
        let cyclic = graph.has_conditions();

        let meta = &graph.meta;
        // How many dependents each node has; the entries.
        let mut dependent_starts = vec![0u32; n + 1];
        let mut entries = Vec::new();
        let mut forks = false;
        for (i, node) in meta.iter().enumerate() {
            for &dep in graph.deps_of(i) {
                dependent_starts[dep as usize + 1] += 1;
            }
            if node.in_degree == 0 && !node.branch_target {
                entries.push(i as u32);
            }
        }

        // Invert the prerequisite lists into dependent lists (counting sort).
        for i in 0..n {
            forks |= dependent_starts[i + 1] > 1;
            dependent_starts[i + 1] += dependent_starts[i];
        }
        let mut fill = dependent_starts.clone();
        let mut dependents = vec![0u32; dependent_starts[n] as usize];
        for i in 0..n {
            for &dep in graph.deps_of(i) {
                dependents[fill[dep as usize] as usize] = i as u32;
                fill[dep as usize] += 1;
            }
        }

        let order = graph.ready_order();
        let use_timings = graph.records_timings();
        // Ranks order the lists of two or more dependents and the entries:
        // a graph without either (a chain) needs none.
        let rank = match order {
            ReadyOrder::CriticalPath if forks || entries.len() > 1 => {
                ranks(graph, &dependent_starts, &dependents, use_timings)
            }
            _ => Vec::new(),
        };
        // Urgency: larger is more urgent (High is the smallest `Priority`).
        let urgency = |i: u32| Reverse(meta[i as usize].priority);
        for i in 0..n {
            let list =
                &mut dependents[dependent_starts[i] as usize..dependent_starts[i + 1] as usize];
            if list.len() < 2 {
                continue;
            }
            // Most preferred last: most urgent, then highest rank, then
            // added first.
            match order {
                ReadyOrder::CriticalPath => {
                    sort_small(list, |d| (urgency(d), rank[d as usize], Reverse(d)))
                }
                ReadyOrder::Declared => sort_small(list, |d| (urgency(d), 0, Reverse(d))),
            }
        }
        match order {
            ReadyOrder::CriticalPath if entries.len() > 1 => {
                entries.sort_by_key(|&i| (Reverse(urgency(i)), Reverse(rank[i as usize]), i))
            }
            ReadyOrder::CriticalPath => {}
            ReadyOrder::Declared => entries.sort_by_key(|&i| (Reverse(urgency(i)), i)),
        }

        Self {
            activations: if cyclic {
                (0..n).map(|_| ActivationCount::new()).collect()
            } else {
                Box::new([])
            },
            dependent_starts: dependent_starts.into_boxed_slice(),
            dependents: dependents.into_boxed_slice(),
            entries: entries.into_boxed_slice(),
            graph_nodes: if graph.has_graph_nodes() {
                (0..n as u32)
                    .filter(|&i| matches!(graph.nodes()[i as usize].work, Work::Graph(_)))
                    .collect()
            } else {
                Box::new([])
            },
            cyclic,
            info: Arc::new(graph.info.clone()),
            timings_version: (order == ReadyOrder::CriticalPath && use_timings)
                .then_some(graph.timings_version),
        }
    }

    /// True if the graph's measured costs changed since this plan ranked
    /// its nodes by them (the graph itself is unchanged: any change drops
    /// the plan).
    pub(crate) fn is_stale(&self, graph: &TaskGraph) -> bool {
        let wants_timings =
            graph.ready_order() == ReadyOrder::CriticalPath && graph.records_timings();
        match self.timings_version {
            Some(version) => !wants_timings || version != graph.timings_version,
            None => wants_timings,
        }
    }

    /// The dependents of `node`, most preferred last.
    #[inline]
    pub(crate) fn dependents_of(&self, node: usize) -> &[u32] {
        &self.dependents
            [self.dependent_starts[node] as usize..self.dependent_starts[node + 1] as usize]
    }
}

/// Sorts a dependent list by `key`, ascending: insertion sort, as the lists
/// are short (two in a wavefront, four in the random DAG of the benchmark).
fn sort_small<K: Ord>(list: &mut [u32], key: impl Fn(u32) -> K) {
    if list.len() > 16 {
        list.sort_unstable_by_key(|&d| key(d));
        return;
    }
    for i in 1..list.len() {
        let mut j = i;
        while j > 0 && key(list[j - 1]) > key(list[j]) {
            list.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Each node's rank: its cost plus the largest rank among its dependents.
/// Dependents come after their prerequisites in the node order, so one
/// pass from the last node back suffices.
fn ranks(graph: &TaskGraph, starts: &[u32], dependents: &[u32], use_timings: bool) -> Vec<u64> {
    let n = graph.len();
    // Known costs in nanoseconds (0: unknown): measured, else estimated.
    let mut known = vec![0u64; n];
    for (node, cost) in graph.cost_estimates() {
        known[node] = (cost.as_nanos().min(u64::MAX as u128) as u64).max(1);
    }
    if use_timings {
        for (node, &ns) in graph.measured.iter().enumerate().take(n) {
            if ns > 0 {
                known[node] = ns;
            }
        }
    }
    let (sum, count) = known
        .iter()
        .filter(|&&c| c > 0)
        .fold((0u128, 0u128), |(s, c), &cost| (s + cost as u128, c + 1));
    let default = sum
        .checked_div(count)
        .map_or(1, |mean| (mean as u64).max(1));
    let mut rank = vec![0u64; n];
    for i in (0..n).rev() {
        let below = dependents[starts[i] as usize..starts[i + 1] as usize]
            .iter()
            .map(|&d| rank[d as usize])
            .max()
            .unwrap_or(0);
        let cost = if known[i] > 0 { known[i] } else { default };
        rank[i] = cost.saturating_add(below);
    }
    rank
}
