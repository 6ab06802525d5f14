//! The end of a run: a status for every node that never ran, the counters
//! armed again for the next run, and the outcome.

use std::sync::atomic::Ordering as StdOrdering;
use std::time::Duration;

use super::outcome::{GraphOutcome, NodeTiming};
use super::state::Run;
use crate::graph::output::NO_SLOT;
use crate::status::Code;
use crate::NodeStatus;
use rt_handle::raw::drop_quietly;

/// The outcome of `run`, which has ended (no unit left).
///
/// A node no activation of which ended in the run is classified from what
/// became of the nodes that could have started it (its prerequisites, and
/// the conditions that have it as a branch): `Skipped` if one of them
/// failed, else `Cancelled` if one was cancelled, else `NotReached`; a
/// never-started node passes its own verdict on, so a failure skips
/// everything downstream of it that did not run.
pub(crate) fn outcome_of(run: &Run) -> GraphOutcome {
    let graph = run.graph();
    let plan = run.plan();
    let n = graph.len();
    let mut codes: Vec<u8>;
    let mut never: Vec<u32> = Vec::new();
    // Each skipped node, and the node that skipped it.
    let mut skipped_by: Vec<(u32, u32)> = Vec::new();
    if !plan.cyclic && !run.is_exceptional() {
        // Every node completed.
        codes = vec![Code::Completed as u8; n];
    } else {
        codes = run
            .status
            .iter()
            .map(|code| code.load(StdOrdering::Relaxed))
            .collect();
        if !plan.cyclic {
            // `Completed` was not recorded: a node with no code completed if
            // it is an entry or every prerequisite completed (it was released,
            // and nothing else became of it). Prerequisites come first, in a
            // topological order.
            for k in 0..n {
                let node = plan.in_order(k);
                if codes[node] == Code::None as u8
                    && graph
                        .deps_of(node)
                        .iter()
                        .all(|&d| codes[d as usize] == Code::Completed as u8)
                {
                    codes[node] = Code::Completed as u8;
                }
            }
        }
        never = (0..n as u32)
            .filter(|&i| codes[i as usize] == Code::None as u8)
            .collect();
    }

    if !never.is_empty() {
        let successors = |node: usize| {
            plan.dependents_of(node)
                .iter()
                .chain(graph.nodes()[node].branches())
                .copied()
        };
        // Breadth first from the seeds, lowest first: each node gets its
        // verdict from the first node found to reach it, which `skipped_by`
        // keeps for skipped nodes (a node claimed before it).
        let spread = |seeds: Vec<u32>,
                      verdict: Code,
                      codes: &mut Vec<u8>,
                      mut claimed: Option<&mut Vec<(u32, u32)>>| {
            let mut work = std::collections::VecDeque::from(seeds);
            while let Some(node) = work.pop_front() {
                for next in successors(node as usize) {
                    if codes[next as usize] == Code::None as u8 {
                        codes[next as usize] = verdict as u8;
                        if let Some(claimed) = claimed.as_deref_mut() {
                            claimed.push((next, node));
                        }
                        work.push_back(next);
                    }
                }
            }
        };
        let failed = (0..n as u32)
            .filter(|&i| Code::from_u8(codes[i as usize]).is_failure())
            .collect();
        spread(failed, Code::Skipped, &mut codes, Some(&mut skipped_by));
        let cancelled = (0..n as u32)
            .filter(|&i| Code::from_u8(codes[i as usize]).is_cancellation())
            .collect();
        spread(cancelled, Code::Cancelled, &mut codes, None);
        for code in &mut codes {
            if *code == Code::None as u8 {
                *code = Code::NotReached as u8;
            }
        }
    }

    // Arm the counters for the next run. Without conditions a counter that
    // released its node was armed again then; with them, completions of a
    // round that never finished may be left on any counter.
    if plan.cyclic {
        for (join, meta) in graph.joins.iter().zip(graph.meta.iter()) {
            join.reset(meta.in_degree);
        }
        debug_assert!(plan.activations.iter().all(|a| a.is_idle()));
    } else {
        for &node in &never {
            graph.joins[node as usize].reset(graph.meta[node as usize].in_degree);
        }
    }

    // The latest failure of each node that ended failed.
    let mut failures = std::mem::take(&mut *run.failures.lock().unwrap_or_else(|e| e.into_inner()));
    failures.reverse();
    failures.sort_by_key(|(node, _)| *node); // stable: the latest first
    failures.dedup_by_key(|(node, _)| *node);
    failures.retain(|(node, _)| codes[*node as usize] == Code::Failed as u8);

    // Only nodes whose closure returned in their last activation keep an
    // output: `Completed`, and a subgraph or graph node whose subgraph then
    // failed or was cancelled (a node that panicked after an earlier round
    // completed leaves that round's output behind).
    let info = &graph.info;
    let mut outputs = Vec::with_capacity(info.slots);
    let mut slot_node = vec![0u32; info.slots];
    if info.slots > 0 {
        for (node, &slot) in info.slot_of.iter().enumerate() {
            if slot != NO_SLOT {
                slot_node[slot as usize] = node as u32;
            }
        }
    }
    for (slot, output) in run.outputs.iter().enumerate() {
        let output = output.lock().unwrap_or_else(|e| e.into_inner()).take();
        let node = slot_node[slot];
        let keeps_output = match Code::from_u8(codes[node as usize]) {
            Code::Completed | Code::SubgraphCancelled => true,
            Code::Failed => failures
                .binary_search_by_key(&node, |(failed, _)| *failed)
                .is_ok_and(|at| failures[at].1.has_output()),
            _ => false,
        };
        if keeps_output {
            outputs.push(output);
        } else {
            drop_quietly(output);
            outputs.push(None);
        }
    }

    let runs = (!run.runs.is_empty()).then(|| {
        run.runs
            .iter()
            .map(|r| r.load(StdOrdering::Relaxed))
            .collect()
    });
    let timings = run.timings.as_ref().map(|timings| {
        (0..n)
            .map(|node| {
                let elapsed = timings.elapsed[node].load(StdOrdering::Relaxed);
                (elapsed > 0).then(|| NodeTiming {
                    start: Duration::from_nanos(timings.start[node].load(StdOrdering::Relaxed)),
                    elapsed: Duration::from_nanos(elapsed),
                })
            })
            .collect()
    });
    let detached = std::mem::take(&mut *run.detached.lock().unwrap_or_else(|e| e.into_inner()));
    // The statuses codes cannot hold: the failures, and the skipped nodes
    // with the node each names.
    let mut details = failures;
    if !skipped_by.is_empty() {
        details.extend(skipped_by.into_iter().map(|(node, by)| {
            let prerequisite = graph.name_of(by as usize);
            (node, NodeStatus::Skipped { prerequisite })
        }));
        details.sort_by_key(|(node, _)| *node);
    }
    GraphOutcome::new(
        graph.id(),
        codes.into_boxed_slice(),
        details,
        runs,
        outputs,
        plan.info.clone(),
        graph.labels().clone(),
        timings,
        detached,
    )
}
