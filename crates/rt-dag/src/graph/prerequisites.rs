//! Each node's prerequisites (the edges that make it wait), as the graph
//! is built: one flat list, in which a node's prerequisites edited after
//! later nodes were added are kept apart until the next plan settles them.

use std::collections::BTreeMap;

/// The prerequisites of every node of a graph.
///
/// Node `i`'s prerequisites are `list[starts[i]..starts[i + 1]]`, unless
/// `i` is in `moved`: sorted, without duplicates. One flat list instead of
/// a vector per node saves an allocation per node; a node whose list grows
/// or shrinks once later nodes exist (an edge added to it in any order, or
/// removed) has its whole list kept in `moved` instead, and
/// [`settle`](Self::settle) folds those back into the flat list once per
/// change of the graph, before it runs. The runs read a settled list.
#[derive(Debug, Default)]
pub(crate) struct Prerequisites {
    starts: Vec<u32>,
    list: Vec<u32>,
    moved: BTreeMap<u32, Vec<u32>>,
    /// Number of edges.
    edges: usize,
    /// Every edge goes from an earlier node to a later one: the order the
    /// nodes were added is a topological order.
    forward: bool,
    /// For the reachability searches: the search that last reached each
    /// node, so that a search costs what it visits, not the graph's size.
    seen: Vec<u32>,
    search: u32,
}

impl Prerequisites {
    pub(crate) fn new() -> Self {
        Self {
            starts: vec![0],
            forward: true,
            ..Self::default()
        }
    }

    /// Room for `nodes` nodes and `edges` edges.
    pub(crate) fn reserve(&mut self, nodes: usize, edges: usize) {
        self.starts.reserve(nodes);
        self.list.reserve(edges);
    }

    /// Number of edges.
    pub(crate) fn edges(&self) -> usize {
        self.edges
    }

    /// Whether every edge goes from an earlier node to a later one.
    pub(crate) fn is_forward(&self) -> bool {
        self.forward
    }

    /// The prerequisites of `node`, sorted, each once.
    #[inline]
    pub(crate) fn of(&self, node: usize) -> &[u32] {
        if !self.moved.is_empty() {
            if let Some(list) = self.moved.get(&(node as u32)) {
                return list;
            }
        }
        &self.list[self.starts[node] as usize..self.starts[node + 1] as usize]
    }

    /// Appends a node waiting for `deps` (existing nodes, in any order,
    /// repeats allowed); returns its in-degree.
    pub(crate) fn push(&mut self, deps: impl Iterator<Item = u32>) -> u32 {
        let node = (self.starts.len() - 1) as u32;
        let start = self.list.len();
        self.list.extend(deps);
        let tail = &mut self.list[start..];
        if !tail.windows(2).all(|w| w[0] < w[1]) {
            tail.sort_unstable();
            // Remove repeats from the new tail (the list before it is
            // untouched).
            let mut kept = start;
            for read in start..self.list.len() {
                if kept == start || self.list[read] != self.list[kept - 1] {
                    self.list[kept] = self.list[read];
                    kept += 1;
                }
            }
            self.list.truncate(kept);
        }
        let added = self.list.len() - start;
        // Prerequisites named when a node is added exist already: earlier.
        debug_assert!(self.list[start..].iter().all(|&d| d < node));
        self.starts.push(self.list.len() as u32);
        self.edges += added;
        added as u32
    }

    /// Makes `node` wait for `dep`; false if it did already.
    pub(crate) fn insert(&mut self, node: usize, dep: u32) -> bool {
        let last = node + 2 == self.starts.len();
        let at = match self.of(node).binary_search(&dep) {
            Ok(_) => return false,
            Err(at) => at,
        };
        if last && !self.moved.contains_key(&(node as u32)) {
            // The last node's list ends the flat list: it grows in place.
            self.list.insert(self.starts[node] as usize + at, dep);
            self.starts[node + 1] += 1;
        } else {
            self.moved_list(node).insert(at, dep);
        }
        if dep as usize > node {
            self.forward = false;
        }
        self.edges += 1;
        true
    }

    /// Makes `node` no longer wait for `dep`; false if it did not.
    pub(crate) fn remove(&mut self, node: usize, dep: u32) -> bool {
        let Ok(at) = self.of(node).binary_search(&dep) else {
            return false;
        };
        self.moved_list(node).remove(at);
        self.edges -= 1;
        true
    }

    /// The list of `node`, moved out of the flat list for editing.
    fn moved_list(&mut self, node: usize) -> &mut Vec<u32> {
        let flat = &self.list[self.starts[node] as usize..self.starts[node + 1] as usize];
        self.moved
            .entry(node as u32)
            .or_insert_with(|| flat.to_vec())
    }

    /// Folds the edited lists back into the flat list, and finds out again
    /// whether every edge goes forward (a removal may have made it so).
    pub(crate) fn settle(&mut self) {
        if self.moved.is_empty() {
            return;
        }
        let nodes = self.starts.len() - 1;
        let mut starts = Vec::with_capacity(nodes + 1);
        let mut list = Vec::with_capacity(self.edges);
        starts.push(0);
        for node in 0..nodes {
            list.extend_from_slice(self.of(node));
            starts.push(list.len() as u32);
        }
        self.starts = starts;
        self.list = list;
        self.moved.clear();
        self.forward = (0..nodes).all(|node| self.of(node).iter().all(|&d| (d as usize) < node));
    }

    /// Whether `target` is `from` or one of its prerequisites, directly or
    /// not: whether `from` can only start after `target` ran.
    ///
    /// Immediate when every edge goes forward and `target` comes after
    /// `from`; otherwise a search back from `from` that costs what it
    /// visits.
    pub(crate) fn waits_for(&mut self, from: usize, target: usize) -> bool {
        if from == target {
            return true;
        }
        if self.forward && target > from {
            return false;
        }
        let nodes = self.starts.len() - 1;
        self.seen.resize(nodes, 0);
        self.search = self.search.wrapping_add(1);
        if self.search == 0 {
            // The stamps wrapped: forget them all once.
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.search = 1;
        }
        let search = self.search;
        let mut seen = std::mem::take(&mut self.seen);
        let mut stack = vec![from as u32];
        seen[from] = search;
        let mut found = false;
        'search: while let Some(node) = stack.pop() {
            for &dep in self.of(node as usize) {
                if dep as usize == target {
                    found = true;
                    break 'search;
                }
                // Every edge goes forward: nothing before `target` leads
                // to it.
                if self.forward && (dep as usize) < target {
                    continue;
                }
                if seen[dep as usize] != search {
                    seen[dep as usize] = search;
                    stack.push(dep);
                }
            }
        }
        self.seen = seen;
        found
    }
}
