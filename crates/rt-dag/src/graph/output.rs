//! A node's output once its type is erased, and where the runs keep each
//! node's: an output slot per node whose output is not `()`.

use std::any::{Any, TypeId};
use std::sync::Arc;

/// A node's output once its type is erased. Shared, because in a graph with
/// loops a node may run again while a dependent still reads its previous
/// output: each reader holds its own reference (`run/results.rs`).
pub(crate) type Output = Arc<dyn Any + Send + Sync>;

/// No output slot: the node's output is `()`, which needs no storage.
pub(crate) const NO_SLOT: u32 = u32::MAX;

/// The output types of a graph's nodes and where each node's output is
/// kept: built with the graph; each plan shares a copy with the outcomes of
/// its runs.
#[derive(Debug, Clone, Default)]
pub(crate) struct NodeInfo {
    pub(crate) output_types: Vec<&'static str>,
    /// The output slot of each node, or [`NO_SLOT`].
    pub(crate) slot_of: Vec<u32>,
    pub(crate) slots: usize,
}

/// The output stored for `value`: none for `()`, which a reader is handed
/// without storage (the type test is resolved at compile time).
pub(crate) fn erase<T: Send + Sync + 'static>(value: T) -> Option<Output> {
    if TypeId::of::<T>() == TypeId::of::<()>() {
        None
    } else {
        Some(Arc::new(value) as Output)
    }
}
