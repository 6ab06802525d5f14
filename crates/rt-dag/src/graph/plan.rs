//! What a run needs beyond what the graph keeps as it is built (its nodes'
//! counters, settings and output slots), made once per change of the
//! graph and kept in it: each node's dependents in the order they are
//! preferred, the entries, and the critical-path ranks behind the order.

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

        let order = graph.ready_order();
        let use_timings = graph.records_timings();
        // Ranks order the lists of two or more dependents and the entries:
        // a graph without either (a chain) needs none.
        let rank = match order {
            ReadyOrder::CriticalPath if dependents.fork() || entries.len() > 1 => {
                ranks(graph, &dependents, use_timings)
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
fn ranks(graph: &TaskGraph, dependents: &Dependents, use_timings: bool) -> Vec<u64> {
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
