//! Starting a run: its entries activated and handed out, the starter's unit
//! given back; a subgraph's run started from the thread that made it
//! (`RUN.md`, "Units: why everything a job touches is alive" and
//! "Subgraphs and graph nodes").

use std::sync::Arc;

use super::activation::Activation;
use super::end::{finish_unit, launch_continuation};
use super::state::{GraphRef, Run, RunRef};
use super::step::Step;

impl Run {
    /// Starts the run: submits its entries and gives the caller's unit
    /// back. Never unwinds: a panicking `submit` is contained
    /// (`launch::submit`), so the caller always gets to wait for the end.
    pub(crate) fn start(self: &Arc<Self>) {
        let me = self.hold_itself();
        let entries = &self.plan().entries;
        self.pending.add(entries.len());
        for &entry in entries.iter() {
            self.activate_entry(entry);
            Activation::new(me, entry).launch();
        }
        // The caller's unit; the run may end here (no entries, or every
        // entry done already).
        if let Some(next) = finish_unit(me) {
            launch_continuation(next);
        }
    }

    /// Starts the run of a subgraph from the thread that made it: this
    /// thread runs the most preferred entry next (the returned step), the
    /// others are submitted. The caller's unit passes to that entry.
    fn start_here(self: &Arc<Self>) -> Step {
        let me = self.hold_itself();
        let entries = &self.plan().entries;
        let Some((&first, rest)) = entries.split_first() else {
            return match finish_unit(me) {
                Some((run, node)) => Step::Switch(run, node),
                None => Step::Held,
            };
        };
        self.pending.add(rest.len());
        for &entry in rest.iter().rev() {
            self.activate_entry(entry);
            Activation::new(me, entry).launch();
        }
        self.activate_entry(first);
        Step::Switch(me, first)
    }

    fn activate_entry(&self, entry: u32) {
        let plan = self.plan();
        if plan.cyclic {
            // Entries are activated first: nobody else activates them yet.
            let first = plan.activations[entry as usize].activate();
            debug_assert!(first, "an entry is activated once at the start");
        }
    }

    /// Starts the run of `graph`, the subgraph node `node` of this run
    /// (`me`) built, or the inner graph of graph node `node`. Joined, the
    /// node completes when it ends, and the returned step continues on this
    /// thread with its first entry; detached, the subgraph's entries are
    /// submitted and the run keeps one more unit until it ends.
    pub(crate) fn start_subgraph(
        &self,
        me: RunRef,
        node: u32,
        graph: GraphRef,
        joined: bool,
    ) -> Step {
        let child = self.subgraph(me, node, graph, joined);
        if joined {
            // The node's unit is the subgraph's now, until it ends.
            child.start_here()
        } else {
            self.pending.add(1);
            child.start();
            Step::Done
        }
    }
}
