//! Each node's dependents: the prerequisite lists turned around, as one
//! flat list.

use super::TaskGraph;

/// Node `i`'s dependents are `list[starts[i]..starts[i + 1]]`, in the order
/// the nodes were added until a plan sorts them.
pub(crate) struct Dependents {
    starts: Box<[u32]>,
    list: Box<[u32]>,
}

impl Dependents {
    /// The dependents of every node of `graph`, by a counting sort of its
    /// prerequisite lists: linear in nodes and edges.
    pub(crate) fn of_graph(graph: &TaskGraph) -> Self {
        let n = graph.len();
        let mut starts = vec![0u32; n + 1];
        for node in 0..n {
            for &dep in graph.deps_of(node) {
                starts[dep as usize + 1] += 1;
            }
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut list = vec![0u32; starts[n] as usize];
        for node in 0..n {
            for &dep in graph.deps_of(node) {
                list[fill[dep as usize] as usize] = node as u32;
                fill[dep as usize] += 1;
            }
        }
        Self {
            starts: starts.into_boxed_slice(),
            list: list.into_boxed_slice(),
        }
    }

    /// The dependents of `node`.
    #[inline]
    pub(crate) fn of(&self, node: usize) -> &[u32] {
        &self.list[self.starts[node] as usize..self.starts[node + 1] as usize]
    }

    /// The dependents of `node`, to reorder.
    pub(crate) fn of_mut(&mut self, node: usize) -> &mut [u32] {
        &mut self.list[self.starts[node] as usize..self.starts[node + 1] as usize]
    }

    /// Whether some node has two dependents or more.
    pub(crate) fn fork(&self) -> bool {
        self.starts.windows(2).any(|w| w[1] - w[0] > 1)
    }
}
