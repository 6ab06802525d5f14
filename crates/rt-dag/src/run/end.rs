//! Giving a unit of work back, and the end of a run that the last unit
//! makes: the caller told, or the node whose subgraph the run was
//! completed (`RUN.md`, "Units: why everything a job touches is alive" and
//! "The end of a run").

use super::activation::Activation;
use super::completion::finish_subgraph;
use super::state::{End, RunRef};
use super::step::Step;
use super::sweep::outcome_of;
use crate::quiet::drop_quietly;
use crate::status::Code;
use crate::NodeId;

/// Gives back one unit of `run`. If it was the run's last, ends the run,
/// and returns the node that end made ready for this thread to run next
/// (a dependent of the node whose subgraph this run was), if any.
pub(crate) fn finish_unit(run: RunRef) -> Option<(RunRef, u32)> {
    let mut run = run;
    loop {
        // SAFETY: the caller holds a unit of `run`.
        if !unsafe { run.get() }.pending.done() {
            return None;
        }
        // The last unit: the run's reference to itself is ours now.
        // SAFETY: made by `hold_itself`, and this was the last unit.
        let this = unsafe { run.take_back() };
        // No permit is kept past the run that took it.
        this.give_back_holds();
        let (parent, node, joined) = match this.end() {
            End::Signal(signal) => {
                signal.set();
                drop_quietly(this);
                return None;
            }
            &End::Parent {
                parent,
                node,
                joined,
            } => (parent, node, joined),
        };
        let outcome = outcome_of(&this);
        drop_quietly(this);
        // SAFETY: a joined subgraph holds its node's unit of the parent
        // run; a detached one holds a unit of its own there.
        let parent_run = unsafe { parent.get() };
        if joined {
            match finish_subgraph(parent_run, parent, node, outcome) {
                Step::Next(next) => return Some((parent, next)),
                Step::Switch(run, next) => return Some((run, next)),
                Step::Held => return None,
                Step::Done => run = parent,
            }
        } else {
            let id = NodeId::new(parent_run.graph().id(), node as usize);
            parent_run
                .detached
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push((id, outcome));
            run = parent;
        }
    }
}

/// Submits work a run's end made ready on a thread that is not to run it
/// (the caller starting the run, or an executor dropping a job).
pub(crate) fn launch_continuation((run, node): (RunRef, u32)) {
    // The continuation holds a unit of `run`, which passes to its
    // activation.
    Activation::new(run, node).launch();
}

/// An activation dropped without being started: its node is `Rejected`,
/// and its unit (and its permits) given back.
impl Drop for Activation {
    fn drop(&mut self) {
        let (me, node, held) = self.parts();
        // SAFETY: an activation holds a unit of its run.
        let run = unsafe { me.get() };
        let node = node as usize;
        run.give_back_taken(node, held);
        run.set_code(node, Code::Rejected);
        let plan = run.plan();
        run.strand_after(plan, node);
        if plan.cyclic {
            // Activations that came in for this one to run are not run
            // either.
            while plan.activations[node].finish() {}
        }
        if let Some(next) = finish_unit(me) {
            launch_continuation(next);
        }
    }
}
