//! The permits a node takes before it runs, and how they go back: a
//! [`Limit`](crate::Limit)'s (given back once the node ran, or once a later
//! node ran: a *hold*), or a module's (given back once its run ended)
//! (`RUN.md`, "Limits, holds and modules").

use super::state::Run;
use crate::graph::node::Work;
use crate::graph::plan::Plan;

impl Run {
    /// Gives back the first `held` permits `node` takes before it runs: a
    /// node that will not run after all (cancelled, rejected, with nothing
    /// to run), or a module node whose run ended.
    pub(crate) fn give_back_taken(&self, node: usize, held: u32) {
        if held == 0 {
            return;
        }
        let graph = self.graph();
        if let Work::Module(module) = &graph.nodes()[node].work {
            module.access().release();
            return;
        }
        for acquisition in &graph.acquisitions_of(node)[..held as usize] {
            acquisition.limit.release();
        }
    }

    /// `node`, which took its permits, ran (`ok`: and returned): gives back
    /// those it holds while it runs, and keeps those a later node gives
    /// back, unless it failed (that node will not run then) or that node
    /// is known not to run.
    pub(crate) fn after_running(&self, plan: &Plan, node: usize, ok: bool) {
        let graph = self.graph();
        for (k, acquisition) in graph.acquisitions_of(node).iter().enumerate() {
            let kept = ok
                && acquisition.until as usize != node
                && plan
                    .hold_of(node, k)
                    .is_some_and(|hold| self.holds[hold].keep());
            if !kept {
                acquisition.limit.release();
            }
        }
    }

    /// `node` ran: gives back the permits held for it.
    pub(crate) fn give_back_held_for(&self, plan: &Plan, node: usize) {
        for hold in plan.holds_released_by(node) {
            if self.holds[hold].take_one() {
                self.hold_limit(plan, hold).release();
            }
        }
    }

    /// `node` failed, was cancelled or rejected: none of the nodes that
    /// wait for it, directly or not, will run in this run, so the permits
    /// held for them go back now (and those their taking nodes keep later
    /// go back at once). Each node is looked at once per run.
    pub(crate) fn strand_after(&self, plan: &Plan, node: usize) {
        if plan.holds.is_empty() {
            return;
        }
        let mut stack = vec![node as u32];
        while let Some(node) = stack.pop() {
            let node = node as usize;
            if self.stranded[node].swap(true, crate::sync::Ordering::Relaxed) {
                continue;
            }
            for hold in plan.holds_released_by(node) {
                for _ in 0..self.holds[hold].strand() {
                    self.hold_limit(plan, hold).release();
                }
            }
            stack.extend_from_slice(plan.dependents_of(node));
        }
    }

    /// The run ended: gives back every permit its holds still keep.
    pub(crate) fn give_back_holds(&self) {
        if self.holds.is_empty() {
            return;
        }
        let plan = self.plan();
        for (hold, count) in self.holds.iter().enumerate() {
            for _ in 0..count.take_all() {
                self.hold_limit(plan, hold).release();
            }
        }
    }

    fn hold_limit(&self, plan: &Plan, hold: usize) -> &crate::Limit {
        let hold = plan.holds[hold];
        &self.graph().acquisitions_of(hold.acquirer as usize)[hold.k as usize].limit
    }
}
