//! Where a failure started: a skipped node's failed prerequisite, followed
//! back, and a failed subgraph's failed node, followed down.

use std::fmt;

use super::outcome::GraphOutcome;
use crate::{NodeError, NodeName, NodeStatus};

/// Where a node's failure started
/// ([`GraphOutcome::root_cause`], [`GraphOutcome::first_failure`]): the
/// chain of nodes from the node asked about to the one whose panic, error,
/// rejection or invalidity started it, and that node's status.
///
/// The chain follows `Skipped { prerequisite }` back through the graph,
/// then `SubgraphFailed { node, .. }` down into subgraphs (whose nodes are
/// named in their own graphs). It displays as
/// `node 4 "unpack" panicked: bad header (reached from node 9 "install" through node 7 "fetch")`.
#[derive(Debug, Clone)]
pub struct RootCause<'a> {
    path: Vec<NodeName>,
    status: &'a NodeStatus,
    /// The index, in the outcome asked, of the last node of the chain in
    /// that graph.
    origin: usize,
}

impl<'a> RootCause<'a> {
    /// The root cause of node `index` of `outcome`, if its status is a
    /// failure.
    pub(crate) fn of(outcome: &'a GraphOutcome, index: usize) -> Option<Self> {
        let mut status = outcome.status_at(index);
        if !status.is_failure() {
            return None;
        }
        let mut path = vec![outcome.name_at(index)];
        let mut at = index;
        // Each skipped node names one claimed before it (`sweep.rs`): the
        // chain ends, at a node that failed, within `len` steps.
        for _ in 0..outcome.len() {
            let NodeStatus::Skipped { prerequisite } = status else {
                break;
            };
            at = prerequisite.id().index();
            path.push(outcome.name_at(at));
            status = outcome.status_at(at);
        }
        while let NodeStatus::SubgraphFailed {
            node,
            status: inner,
        } = status
        {
            path.push(node.clone());
            status = inner;
        }
        Some(Self {
            path,
            status,
            origin: at,
        })
    }

    /// The index of the chain's last node in the outcome's own graph.
    pub(crate) fn origin(&self) -> usize {
        self.origin
    }

    /// The node where the failure started.
    pub fn node(&self) -> &NodeName {
        self.path
            .last()
            .expect("a chain names at least its first node")
    }

    /// The chain: the node asked about first, the node where the failure
    /// started last.
    pub fn path(&self) -> &[NodeName] {
        &self.path
    }

    /// What became of the node where the failure started: `Panicked`,
    /// `Failed`, `Rejected` or `Invalid`.
    pub fn status(&self) -> &'a NodeStatus {
        self.status
    }

    /// The panic's message, if the failure started with a panic.
    pub fn panic_message(&self) -> Option<&'a str> {
        match self.status {
            NodeStatus::Panicked(message) => Some(message.as_str()),
            _ => None,
        }
    }

    /// The error a fallible task returned, if the failure started with one.
    pub fn error(&self) -> Option<&'a NodeError> {
        match self.status {
            NodeStatus::Failed(error) => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for RootCause<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = match self.status {
            NodeStatus::Panicked(message) => format!("panicked: {message}"),
            NodeStatus::Failed(error) => format!("failed: {error}"),
            other => other.to_string(),
        };
        write!(f, "{} {status}", self.node())?;
        if let [first, between @ .., _] = &self.path[..] {
            write!(f, " (reached from {first}")?;
            for (i, node) in between.iter().enumerate() {
                f.write_str(if i == 0 { " through " } else { ", " })?;
                write!(f, "{node}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}
