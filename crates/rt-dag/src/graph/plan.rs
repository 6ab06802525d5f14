//! What a run needs beyond what the graph keeps as it is built (its nodes'
//! counters, settings and output slots), made once per change of the
//! graph and kept in it: each node's dependents in the order they are
//! preferred, the entries, the critical-path ranks behind the order, a
//! topological order, and the permits some nodes hold for later ones.

use std::cmp::Reverse;
use std::sync::Arc;

use super::dependents::Dependents;
use super::node::Work;
use super::output::NodeInfo;
use super::ready_order::ReadyOrder;
use super::TaskGraph;
use crate::release::ActivationCount;

/// The plan of a graph's runs.
pub(crate) struct Plan {
    /// Each node's dependents, the *most* preferred last (a completion
    /// keeps the last ready one for its thread and submits the others in
    /// list order, so that a worker's LIFO deque hands back the next
    /// preferred first: `run/completion.rs`).
    dependents: Dependents,
    /// For graphs with condition nodes: each node's activations in flight.
    pub(crate) activations: Box<[ActivationCount]>,
    /// Nodes that start when the run starts, most preferred first.
    pub(crate) entries: Box<[u32]>,
    /// The graph nodes, whose inner graphs need a plan too.
    pub(crate) graph_nodes: Box<[u32]>,
    /// The graph has condition nodes: a node may run more than once per run.
    pub(crate) cyclic: bool,
    /// The nodes, every one after its prerequisites, when the order they
    /// were added is not such an order (`None`: it is).
    order: Option<Box<[u32]>>,
    /// The permits nodes take that a later node gives back, by acquirer
    /// and position in its acquisitions.
    pub(crate) holds: Box<[Hold]>,
    /// `(until, hold)` for every hold, by the node that gives it back.
    released_by: Box<[(u32, u32)]>,
    /// The output types and slots, shared with the runs' outcomes.
    pub(crate) info: Arc<NodeInfo>,
    /// The version of the measured costs the ranks were made from, if they
    /// used measured costs.
    timings_version: Option<u64>,
}

impl Plan {
    fn new(graph: &TaskGraph) -> Self {
        let n = graph.len();
        let cyclic = graph.has_conditions();

        let meta = &graph.meta;
        let mut entries: Vec<u32> = (0..n as u32)
            .filter(|&i| {
                let node = &meta[i as usize];
                node.in_degree == 0 && !node.branch_target
            })
            .collect();
        let mut dependents = Dependents::of_graph(graph);
        let topological = (!graph.is_in_order()).then(|| topological_order(graph, &dependents));

        let order = graph.ready_order();
        let use_timings = graph.records_timings();
        // Ranks order the lists of two or more dependents and the entries:
        // a graph without either (a chain) needs none.
        let rank = match order {
            ReadyOrder::CriticalPath if dependents.fork() || entries.len() > 1 => {
                ranks(graph, &dependents, topological.as_deref(), use_timings)
            }
            _ => Vec::new(),
        };
        // Urgency: larger is more urgent (High is the smallest `Priority`).
        let urgency = |i: u32| Reverse(meta[i as usize].priority);
        for i in 0..n {
            let list = dependents.of_mut(i);
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

        let mut holds = Vec::new();
        if graph.has_holds() {
            for acquirer in 0..n as u32 {
                let acquisitions = graph.acquisitions_of(acquirer as usize);
                for (k, acquisition) in acquisitions.iter().enumerate() {
                    if acquisition.until != acquirer {
                        holds.push(Hold {
                            acquirer,
                            k: k as u32,
                            until: acquisition.until,
                        });
                    }
                }
            }
        }
        let mut released_by: Vec<(u32, u32)> = holds
            .iter()
            .enumerate()
            .map(|(hold, h)| (h.until, hold as u32))
            .collect();
        released_by.sort_unstable();

        Self {
            activations: if cyclic {
                (0..n).map(|_| ActivationCount::new()).collect()
            } else {
                Box::new([])
            },
            dependents,
            entries: entries.into_boxed_slice(),
            graph_nodes: if graph.has_graph_nodes() {
                (0..n as u32)
                    .filter(|&i| matches!(graph.nodes()[i as usize].work, Work::Graph(_)))
                    .collect()
            } else {
                Box::new([])
            },
            cyclic,
            order: topological,
            holds: holds.into_boxed_slice(),
            released_by: released_by.into_boxed_slice(),
            info: Arc::new(graph.info.clone()),
            timings_version: (order == ReadyOrder::CriticalPath && use_timings)
                .then_some(graph.timings_version),
        }
    }

    /// True if the graph's measured costs changed since this plan ranked
    /// its nodes by them (the graph itself is unchanged: any change drops
    /// the plan).
    fn is_stale(&self, graph: &TaskGraph) -> bool {
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
        self.dependents.of(node)
    }

    /// The `k`-th node of a topological order (every node comes after its
    /// prerequisites), `k` in `0..len`.
    #[inline]
    pub(crate) fn in_order(&self, k: usize) -> usize {
        match &self.order {
            Some(order) => order[k] as usize,
            None => k,
        }
    }

    /// The hold of the `k`-th permit `acquirer` takes, if a later node gives
    /// it back.
    pub(crate) fn hold_of(&self, acquirer: usize, k: usize) -> Option<usize> {
        self.holds
            .binary_search_by_key(&(acquirer as u32, k as u32), |h| (h.acquirer, h.k))
            .ok()
    }

    /// The holds node `until` gives back once it ran.
    pub(crate) fn holds_released_by(&self, until: usize) -> impl Iterator<Item = usize> + '_ {
        let from = self
            .released_by
            .partition_point(|&(node, _)| (node as usize) < until);
        self.released_by[from..]
            .iter()
            .take_while(move |&&(node, _)| node as usize == until)
            .map(|&(_, hold)| hold as usize)
    }
}

/// A permit that node `acquirer` takes before it runs (its `k`-th) and that
/// node `until`, which runs after it, gives back.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hold {
    pub(crate) acquirer: u32,
    pub(crate) k: u32,
    pub(crate) until: u32,
}

/// The nodes in an order in which each comes after its prerequisites
/// (Kahn's): the graph has no cycle of prerequisites, edges that would
/// close one being refused.
fn topological_order(graph: &TaskGraph, dependents: &Dependents) -> Box<[u32]> {
    let n = graph.len();
    let mut missing: Vec<u32> = (0..n)
        .map(|node| graph.deps_of(node).len() as u32)
        .collect();
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&node| missing[node as usize] == 0)
        .collect();
    let mut next = 0;
    while next < order.len() {
        let node = order[next] as usize;
        next += 1;
        for &dependent in dependents.of(node) {
            missing[dependent as usize] -= 1;
            if missing[dependent as usize] == 0 {
                order.push(dependent);
            }
        }
    }
    debug_assert_eq!(order.len(), n, "prerequisites never close a cycle");
    order.into_boxed_slice()
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
/// Dependents come after their prerequisites in a topological order (the
/// order the nodes were added, unless `order` is given), so one pass from
/// its last node back suffices.
fn ranks(
    graph: &TaskGraph,
    dependents: &Dependents,
    order: Option<&[u32]>,
    use_timings: bool,
) -> Vec<u64> {
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
    for k in (0..n).rev() {
        let i = order.map_or(k, |order| order[k] as usize);
        let below = dependents
            .of(i)
            .iter()
            .map(|&d| rank[d as usize])
            .max()
            .unwrap_or(0);
        let cost = if known[i] > 0 { known[i] } else { default };
        rank[i] = cost.saturating_add(below);
    }
    rank
}

impl TaskGraph {
    /// The plan of the next run, made now if the graph changed since the
    /// last one (or if timings changed the costs).
    pub(crate) fn plan(&mut self) -> &Plan {
        let stale = self.plan.as_ref().is_none_or(|plan| plan.is_stale(self));
        if stale {
            self.settle();
            self.plan = Some(Plan::new(self));
        }
        self.plan.as_ref().expect("made above")
    }

    /// The plan made by [`plan`](Self::plan); the runs call that first.
    pub(crate) fn current_plan(&self) -> &Plan {
        self.plan
            .as_ref()
            .expect("a graph is planned before it runs")
    }

    /// Plans the graph and the graphs of its graph nodes, recursively:
    /// what every run does before it starts.
    pub(crate) fn prepare(&mut self) {
        let graph_nodes = self.plan().graph_nodes.clone();
        for &node in graph_nodes.iter() {
            if let Work::Graph(inner) = &mut self.nodes[node as usize].work {
                inner.prepare();
            }
        }
    }
}
