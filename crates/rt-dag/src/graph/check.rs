//! The check that every node of a graph can start: a graph that could never
//! finish is refused when it is built, instead of hanging when it runs.

use super::dependents::Dependents;
use super::TaskGraph;

/// `Err(node)`, the lowest node that can never start whatever the
/// conditions choose, if there is one.
///
/// A node *can start* if it is an entry (no prerequisites, and no condition
/// has it as a branch), if a condition that can start has it as a branch,
/// or if it has prerequisites and every one of them can start. The least
/// set closed under these rules is found with a work list, in time linear
/// in nodes and edges. A node outside it waits on a cycle: through a branch
/// whose condition (transitively) needs the node itself.
pub(crate) fn every_node_can_start(graph: &TaskGraph) -> Result<(), usize> {
    let n = graph.len();
    let dependents = Dependents::of_graph(graph);

    let mut missing: Vec<usize> = (0..n).map(|node| graph.deps_of(node).len()).collect();
    let mut can_start = vec![false; n];
    let mut work: Vec<u32> = Vec::new();
    for node in 0..n {
        if missing[node] == 0 && !graph.is_branch_target(node) {
            can_start[node] = true;
            work.push(node as u32);
        }
    }
    while let Some(node) = work.pop() {
        let node = node as usize;
        for &dependent in dependents.of(node) {
            let dependent = dependent as usize;
            missing[dependent] -= 1;
            if missing[dependent] == 0 && !can_start[dependent] {
                can_start[dependent] = true;
                work.push(dependent as u32);
            }
        }
        for &target in graph.nodes()[node].branches() {
            if !can_start[target as usize] {
                can_start[target as usize] = true;
                work.push(target);
            }
        }
    }
    match can_start.iter().position(|&can| !can) {
        Some(node) => Err(node),
        None => Ok(()),
    }
}
