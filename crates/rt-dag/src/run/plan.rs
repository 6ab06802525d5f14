//! What a run needs beyond the nodes, made once per change of the graph:
//! each node's dependents in the order they are preferred, the counters
//! that release them, the entries, the output slots, and the critical-path
//! ranks behind the order.

use std::cmp::Reverse;
use std::sync::Arc;

use rt_queue::Priority;

use super::release::{ActivationCount, JoinCounter};
use crate::graph::Work;
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

/// No output slot: the node's output is `()`, which needs no storage.
pub(crate) const NO_SLOT: u32 = u32::MAX;

/// What every outcome of a plan shares: the output types and where each
/// node's output is kept.
#[derive(Debug)]
pub(crate) struct NodeInfo {
    pub(crate) output_types: Box<[&'static str]>,
    /// The output slot of each node, or [`NO_SLOT`].
    pub(crate) slot_of: Box<[u32]>,
    pub(crate) slots: usize,
}

/// What the thread that released a node needs to know about it, in eight
/// bytes.
#[derive(Debug)]
pub(crate) struct NodeMeta {
    /// Number of declared prerequisites: what its counter is armed at.
    pub(crate) in_degree: u32,
    pub(crate) priority: Priority,
    /// The node has a concurrency limit.
    pub(crate) limited: bool,
    /// Some prerequisite's output is stored (not `()`).
    pub(crate) reads_outputs: bool,
}

/// The plan of a graph's runs.
pub(crate) struct Plan {
    /// Node `i`'s dependents are `dependents[dependent_starts[i]..
    /// dependent_starts[i + 1]]`, the *most* preferred last (`drive.rs`
    /// runs the last ready one itself and queues the others in list order,
    /// so that a worker's LIFO deque hands back the next preferred first).
    pub(crate) dependent_starts: Box<[u32]>,
    pub(crate) dependents: Box<[u32]>,
    /// The counter of each node's prerequisites, armed at its in-degree
    /// between runs: four bytes each, the array a completion touches once
    /// per dependent.
    pub(crate) joins: Box<[JoinCounter]>,
    /// What the thread that released a node reads next.
    pub(crate) meta: Box<[NodeMeta]>,
    /// For graphs with condition nodes: each node's activations in flight.
    pub(crate) activations: Box<[ActivationCount]>,
    /// Nodes that start when the run starts, most preferred first.
    pub(crate) entries: Box<[u32]>,
    /// The graph nodes, whose inner graphs need a plan too.
    pub(crate) graph_nodes: Box<[u32]>,
    pub(crate) info: Arc<NodeInfo>,
    /// The graph has condition nodes: a node may run more than once per run.
    pub(crate) cyclic: bool,
    /// The version of the measured costs the ranks were made from, if they
    /// used measured costs.
    timings_version: Option<u64>,
}

impl Plan {
    pub(crate) fn new(graph: &TaskGraph) -> Self {
        let n = graph.len();
        let cyclic = graph.has_conditions();

        // One pass over the nodes: what each needs, and how many
        // dependents each has.
        let mut dependent_starts = vec![0u32; n + 1];
        let mut meta = Vec::with_capacity(n);
        let mut slot_of = Vec::with_capacity(n);
        let mut output_types = Vec::with_capacity(n);
        let mut entries = Vec::new();
        let mut slots = 0u32;
        for i in 0..n {
            let deps = graph.deps_of(i);
            let mut reads_outputs = false;
            for &dep in deps {
                dependent_starts[dep as usize + 1] += 1;
                reads_outputs |= !graph.output_is_unit(dep as usize);
            }
            let cold = graph.cold_node(i);
            meta.push(NodeMeta {
                in_degree: deps.len() as u32,
                priority: cold.priority,
                limited: false,
                reads_outputs,
            });
            if cold.unit_output {
                slot_of.push(NO_SLOT);
            } else {
                slot_of.push(slots);
                slots += 1;
            }
            output_types.push(cold.output_type);
            if deps.is_empty() && !cold.branch_target {
                entries.push(i as u32);
            }
        }
        for node in graph.limited_nodes() {
            meta[node].limited = true;
        }

        // Invert the prerequisite lists into dependent lists (counting sort).
        for i in 0..n {
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
        let rank = match order {
            ReadyOrder::CriticalPath => ranks(graph, &dependent_starts, &dependents, use_timings),
            ReadyOrder::Declared => Vec::new(),
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
            ReadyOrder::CriticalPath => {
                entries.sort_by_key(|&i| (Reverse(urgency(i)), Reverse(rank[i as usize]), i))
            }
            ReadyOrder::Declared => entries.sort_by_key(|&i| (Reverse(urgency(i)), i)),
        }

        Self {
            joins: meta.iter().map(|m| JoinCounter::new(m.in_degree)).collect(),
            meta: meta.into_boxed_slice(),
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
            info: Arc::new(NodeInfo {
                output_types: output_types.into_boxed_slice(),
                slot_of: slot_of.into_boxed_slice(),
                slots: slots as usize,
            }),
            cyclic,
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
